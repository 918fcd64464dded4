package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"aji/analysis/feature"
	"aji/analysis/predict/cnn"
	"aji/internal/progress"
)

// trainCNN fits the convolutional policy network (the DCNN paper §3.3): minibatches streamed from the
// games with random symmetries, validation every --validate-every positions, the learning rate divided
// by ten when validation top-1 stalls, checkpoints to resume from.
func trainCNN(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train cnn", flag.ContinueOnError)
	games := fs.String("games", "", "training games")
	validation := fs.String("validation", "", "validation games")
	out := fs.String("out", "", "model file: the best network so far, rewritten when validation improves; its checkpoint is FILE.ckpt")
	resume := fs.Bool("resume", false, "go on from --out's checkpoint (FILE.ckpt) where a run stopped")
	width := fs.Int("width", cnn.DefaultConfig.Width, "channels of the hidden layers")
	firstWidth := fs.Int("first-width", 0, "channels of the first layer (0: --width; the paper's f9: 92 with --width 384)")
	layers := fs.Int("layers", cnn.DefaultConfig.Layers, "convolutional layers in all (the first, 3x3 ones, the final 1x1)")
	first := fs.Int("first-kernel", cnn.DefaultConfig.FirstKernel, "kernel size of the first layer")
	opponentPlus := fs.Bool("opponent-plus", false, "encode the opponent's stones as +1, not the paper's −1 (its ablation)")
	lastFive := fs.Bool("history-last-five", false, "history planes mark the last five moves, not exp(−0.1·t) (the paper's ablation)")
	method := fs.String("optimizer", cnn.DefaultOptimizer.Method, "momentum or adam")
	lr := fs.Float64("lr", cnn.DefaultOptimizer.LR, "learning rate (the paper: 1e-3, then 1e-4); with --resume, replaces the checkpoint's")
	lrMin := fs.Float64("lr-min", 1e-4, "the learning rate is divided by 10 when validation stalls, down to this")
	momentum := fs.Float64("momentum", cnn.DefaultOptimizer.Momentum, "momentum's μ, or Adam's β1")
	decay := fs.Float64("weight-decay", cnn.DefaultOptimizer.WeightDecay, "L2 penalty on the convolution weights")
	batch := fs.Int("batch", 128, "positions per minibatch (the paper: 128)")
	perGame := fs.Int("positions-per-game", 8, "positions sampled per game and epoch")
	shuffle := fs.Int("shuffle", 8192, "positions in the shuffle buffer")
	validateEvery := fs.Int("validate-every", 100_000, "training positions between validations (and checkpoints)")
	valGames := fs.Int("validation-games", 300, "validation games to read")
	valPerGame := fs.Int("validation-positions-per-game", 10, "validation positions sampled per game")
	patience := fs.Int("patience", 3, "validations without a new best before the learning rate drops (and, at --lr-min, training stops)")
	maxPositions := fs.Int64("max-positions", 0, "stop after this many training positions in all, resumed runs' included (0: no limit)")
	maxTime := fs.Duration("max-time", 0, "stop after this long (0: no limit); the checkpoint is written")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines for the network's arithmetic")
	seed := fs.Uint64("seed", 1, "random seed: initial weights, positions, symmetries")
	logPath := fs.String("log", "", "append one JSON line per validation here (for aji plot cnn-curve)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *validation == "" || *out == "" || *batch < 1 || *validateEvery < *batch || *shuffle < *batch {
		return fmt.Errorf("%w: train cnn --games PATH --validation PATH --out FILE [--resume] [--width W] [--layers L] [--optimizer momentum|adam] [--lr R] [--batch B] [--max-positions N | --max-time D]", errUsage)
	}
	checkpoint := *out + ".ckpt"
	var tr *cnn.Trainer
	if *resume {
		if tr, err = cnn.LoadCheckpoint(checkpoint, *workers); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		fs.Visit(func(f *flag.Flag) { // a learning rate given with --resume replaces the checkpoint's
			if f.Name == "lr" {
				tr.Opt.LR = *lr
			}
		})
		fmt.Fprintf(os.Stderr, "resuming after %d steps, %d positions (best validation top-1 %.4f), learning rate %g\n",
			tr.Net.Steps, tr.Net.Seen, tr.Net.Top1, tr.Opt.LR)
	} else {
		opt := cnn.Optimizer{Method: *method, LR: *lr, Momentum: *momentum, Beta2: cnn.DefaultOptimizer.Beta2, WeightDecay: *decay}
		if err := opt.Check(); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		net, err := cnn.New(cnn.Config{Width: *width, FirstWidth: *firstWidth, Layers: *layers, FirstKernel: *first,
			Planes: feature.PlaneOptions{OpponentPlus: *opponentPlus, HistoryLastFive: *lastFive}}, *seed)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		tr = cnn.NewTrainer(net, opt, *workers)
	}
	net := tr.Net
	fmt.Fprintf(os.Stderr, "network: %d layers, width %d, %d parameters; %s, learning rate %g, batch %d\n",
		net.Layers, net.Width, net.NumParams(), tr.Opt.Method, tr.Opt.LR, *batch)

	const size = 19
	valOpt := cnn.StreamOptions{Size: size, PerGame: *valPerGame, Batch: 256, MaxGames: *valGames, Workers: runtime.GOMAXPROCS(0), Seed: 2}
	valSet, err := cnn.Examples(ctx, *validation, net.Planes, valOpt)
	if err != nil {
		return fmt.Errorf("validation: %w", err)
	}
	valPositions := 0
	for _, b := range valSet {
		valPositions += b.Size
	}
	fmt.Fprintf(os.Stderr, "validation: %d positions of %d games\n", valPositions, *valGames)

	var log *json.Encoder
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		log = json.NewEncoder(f)
	}

	streamCtx, stop := context.WithCancel(ctx)
	defer stop()
	batches := make(chan *cnn.Batch, 4)
	streamErr := make(chan error, 1)
	go func() {
		streamErr <- cnn.Stream(streamCtx, *games, net.Planes, cnn.StreamOptions{
			Size: size, PerGame: *perGame, Batch: *batch, Shuffle: *shuffle, Workers: runtime.GOMAXPROCS(0),
			Seed: *seed ^ uint64(net.Steps), // a resumed run draws a new sample
		}, batches)
	}()

	start := time.Now()
	var deadline time.Time
	if *maxTime > 0 {
		deadline = start.Add(*maxTime)
	}
	sinceBest, stopped := 0, ""
	_, err = os.Stat(*out)
	haveBest := *resume && err == nil // the first validation of a fresh run writes --out whatever it scores
	var meter *progress.Meter
	var lossSum float64
	var correct, seen int
	save := func() {
		if err := tr.SaveCheckpoint(checkpoint); err != nil {
			fmt.Fprintln(os.Stderr, "checkpoint:", err)
		}
	}
	for stopped == "" {
		if meter == nil {
			meter = progress.New(os.Stderr, fmt.Sprintf("train (lr %g)", tr.Opt.LR), "positions", *validateEvery)
		}
		var b *cnn.Batch
		select {
		case b = <-batches:
		case <-ctx.Done():
		}
		if b == nil {
			break
		}
		r := tr.Train(b)
		lossSum += r.Loss * float64(b.Size)
		correct += r.Correct
		seen += b.Size
		meter.Add(b.Size)
		if *maxPositions > 0 && net.Seen >= *maxPositions {
			stopped = "--max-positions reached"
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			stopped = "--max-time reached"
		}
		if seen < *validateEvery && stopped == "" {
			continue
		}
		meter.Done()
		meter = nil
		score := cnn.Evaluate(cnn.NewEvaluator(net, *workers), valSet)
		mark := ""
		if score.Top1 > net.Top1 || !haveBest {
			net.Top1, sinceBest, mark, haveBest = score.Top1, 0, " (best)", true
			if err := net.Save(*out); err != nil {
				return err
			}
		} else if sinceBest++; sinceBest >= *patience {
			if tr.Opt.LR/10 < *lrMin*0.999 {
				stopped = fmt.Sprintf("no better validation in %d rounds at the last learning rate", *patience)
			} else {
				tr.Opt.LR /= 10
				sinceBest = 0
				mark = fmt.Sprintf(" (learning rate now %g)", tr.Opt.LR)
			}
		}
		elapsed := time.Since(start)
		fmt.Fprintf(os.Stderr, "%d positions (%d steps): training loss %.4f, top-1 %.4f; validation top-1 %.4f, log-evidence %.4f; %s%s\n",
			net.Seen, net.Steps, lossSum/float64(seen), float64(correct)/float64(seen), score.Top1, score.LogEvidence, elapsed.Round(time.Second), mark)
		if log != nil {
			_ = log.Encode(cnnLogLine{Positions: net.Seen, Steps: net.Steps, Seconds: elapsed.Seconds(), LR: tr.Opt.LR,
				Loss: lossSum / float64(seen), Top1: score.Top1, LogEvidence: score.LogEvidence})
		}
		lossSum, correct, seen = 0, 0, 0
		save()
	}
	if meter != nil {
		meter.Done()
	}
	stop()
	if err := <-streamErr; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	save()
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "interrupted after %d positions: the best network (validation top-1 %.4f) is in %s; --resume goes on from %s\n",
			net.Seen, net.Top1, *out, checkpoint)
		return ctx.Err()
	}
	fmt.Fprintf(stdout, "stopped after %d positions (%s): best validation top-1 %.4f in %s; checkpoint %s\n", net.Seen, stopped, net.Top1, *out, checkpoint)
	return nil
}

// cnnLogLine is one validation of `aji train cnn --log`: the paper's Graphs 1–2 against positions seen.
type cnnLogLine struct {
	Positions   int64   `json:"positions"`
	Steps       int64   `json:"steps"`
	Seconds     float64 `json:"seconds"` // this run's time (a resumed run starts from 0)
	LR          float64 `json:"lr"`
	Loss        float64 `json:"loss"` // training loss since the last validation
	Top1        float64 `json:"top1"`
	LogEvidence float64 `json:"log_evidence"`
}
