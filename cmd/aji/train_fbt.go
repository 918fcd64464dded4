package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"aji/analysis/bt"
	"aji/analysis/pattern"
	"aji/analysis/predict/fbt"
	"aji/analysis/predict/mm"
	"aji/internal/progress"
)

// trainFBT fits Xiao's Factorization Bradley-Terry predictor by SGD, full (FBT_Full) or sampled
// (FBT_Sm), stopping once the validation top-1 has not improved for --patience passes.
func trainFBT(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train fbt", flag.ContinueOnError)
	games := fs.String("games", "", "training games")
	validation := fs.String("validation", "", "validation games: their top-1 after each pass stops training")
	out := fs.String("out", "", "model file to write: the best model so far, rewritten when a pass beats it")
	small := fs.Bool("small", false, "F_small: the tactical features and 3x3 shapes only")
	patterns := fs.String("patterns", "", "F_large's shape dictionary from aji harvest (default: the shapes of the embedded mm model)")
	minCount := fs.Int("min-count", 10, "keep the shapes seen at least this many times in the harvest (Xiao §4.1.3: 10)")
	k := fs.Int("k", 10, "dimension of the interaction vectors (0: plain Bradley-Terry by SGD)")
	samples := fs.Int("samples", 0, "m of FBT_Sm, the sampled gradient (0: the full gradient)")
	alpha := fs.Float64("alpha", 0.001, "learning rate")
	lambdaW := fs.Float64("lambda-w", 0.001, "L2 regularization of w")
	lambdaV := fs.Float64("lambda-v", 0.002, "L2 regularization of v")
	initStd := fs.Float64("init-std", 0.1, "standard deviation of the random initial v")
	wFromMM := fs.Bool("w-from-mm", false, "F_large: start each w at the log γ the mm model gives the same feature (its shapes are the model's), not at 0")
	seed := fs.Uint64("seed", 1, "random seed: initial v, shuffles, samples")
	maxGames := fs.Int("max-games", 0, "training games to read (0: all)")
	perGame := fs.Int("positions-per-game", 0, "positions sampled per game (0: all)")
	positionsSeed := fs.Uint64("positions-seed", 1, "which positions --positions-per-game samples: a run --init-from an earlier one with another seed trains on fresh positions")
	valGames := fs.Int("validation-games", 200, "validation games to read (0: all)")
	valPerGame := fs.Int("validation-positions-per-game", 0, "validation positions sampled per game (0: all)")
	maxPasses := fs.Int("max-passes", 100, "passes over the training data at most")
	patience := fs.Int("patience", 3, "stop once the validation top-1 has not improved for this many passes")
	initFrom := fs.String("init-from", "", "start from this fbt model's weights (its features) and train them all, e.g. again with a smaller --alpha")
	ownerFrom := fs.String("owner-from", "", "owner stage: start from this trained fbt model and fit only the Monte Carlo owner levels' w and v (63 playouts per position)")
	resume := fs.Bool("resume", false, "go on from --out's checkpoint (FILE.ckpt) where a run stopped (an owner stage: with --owner-from again)")
	logPath := fs.String("log", "", "append one JSON line per pass here (for aji plot fbt-time)")
	workers := fs.Int("workers", 0, "collecting goroutines, each with its own store (0: one per core); more of them lower the peak memory of a large run, since a store grows by copying")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *validation == "" || *out == "" || (*small && *patterns != "") ||
		(*ownerFrom != "" || *initFrom != "") && (*small || *patterns != "") || (*ownerFrom != "" && *initFrom != "") ||
		*wFromMM && (*small || *patterns != "" || *ownerFrom != "" || *initFrom != "") {
		return fmt.Errorf("%w: train fbt --games PATH --validation PATH --out FILE [--small | --patterns FILE [--min-count N] | --owner-from MODEL | --init-from MODEL] [--k K] [--samples M] [--positions-per-game N] [--resume]", errUsage)
	}
	checkpoint := *out + ".ckpt"
	var m, best *fbt.Model
	if *resume {
		if m, err = fbt.Load(checkpoint); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		if best, err = fbt.Load(*out); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		fmt.Fprintf(os.Stderr, "resuming after pass %d (validation top-1 %.4f; the best, %.4f, after pass %d)\n",
			m.Passes, m.Top1, best.Top1, best.Passes)
	} else if from := *ownerFrom + *initFrom; from != "" {
		// --owner-from: Coulom §3.5, slow features can be trained afterwards, over fewer positions, the
		// others fixed.
		if m, err = fbt.Load(from); err != nil {
			return err
		}
		m.Passes, m.Top1 = 0, 0
	} else {
		shapes, err := pattern.NewDictionary(nil)
		if err != nil {
			return err
		}
		switch {
		case *patterns != "":
			d, err := pattern.LoadDictionary(*patterns)
			if err != nil {
				return err
			}
			shapes = d.Prune(*minCount)
		case !*small:
			base, err := mm.Shared("")
			if err != nil {
				return fmt.Errorf("the mm model's shapes: %w", err)
			}
			shapes = base.Shapes
		}
		if m, err = fbt.NewModel(shapes, *k); err != nil {
			return err
		}
		m.InitV(*seed, *initStd)
		if *wFromMM {
			base, err := defaultMM()
			if err != nil {
				return err
			}
			if err := m.InitWFrom(base); err != nil {
				return err
			}
		}
	}
	owner := *ownerFrom != "" || m.Owner()
	fmt.Fprintf(os.Stderr, "%d features (%d shapes), k = %d, Monte Carlo owner %v\n", len(m.W), m.Shapes.Len(), m.K, owner)

	collect := func(label, path string, maxGames, perGame int, seed uint64) ([]*bt.Competitions, bt.CollectStats, error) {
		total, err := gamesToRead(ctx, path, maxGames)
		if err != nil {
			return nil, bt.CollectStats{}, err
		}
		meter := progress.New(os.Stderr, label, "games", total)
		data, st, err := fbt.Collect(ctx, path, m, owner, bt.CollectOptions{MaxGames: maxGames, PositionsPerGame: perGame, Seed: seed, Workers: *workers, Progress: meter.Add})
		meter.Done()
		return data, st, err
	}
	start := time.Now()
	data, st, err := collect("collect", *games, *maxGames, *perGame, *positionsSeed)
	if err != nil {
		return err
	}
	var teams, held int
	for _, d := range data {
		teams += d.Teams()
		held += d.Bytes()
	}
	fmt.Fprintf(os.Stderr, "collected %d positions (%d merged groups, %.0f MB) from %d games in %s\n",
		st.Positions, teams, float64(held)/1e6, st.Games, time.Since(start).Round(time.Second))
	valData, vst, err := collect("collect validation", *validation, *valGames, *valPerGame, 2)
	if err != nil {
		return err
	}
	m.Games, m.Positions = st.Games, st.Positions

	var log *json.Encoder
	trainStart, elapsed := time.Now(), time.Duration(0)
	if *logPath != "" {
		if *resume { // the log's seconds go on from the run's last pass
			elapsed = loggedSeconds(*logPath)
		}
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		log = json.NewEncoder(f)
	}
	var meter *progress.Meter
	opt := fbt.TrainOptions{
		Alpha: *alpha, LambdaW: *lambdaW, LambdaV: *lambdaV, Samples: *samples, Seed: *seed,
		MaxPasses: *maxPasses, Patience: *patience, Best: best,
		Progress: func(n int) {
			if meter == nil {
				meter = progress.New(os.Stderr, fmt.Sprintf("pass %d", m.Passes+1), "positions", st.Positions)
			}
			meter.Add(n)
		},
		Pass: func(r fbt.PassResult, cur *fbt.Model) {
			if meter != nil {
				meter.Done()
				meter = nil
			}
			elapsed += r.Duration
			mark := ""
			if r.Best {
				mark = " (best)"
				if err := cur.Save(*out); err != nil {
					fmt.Fprintln(os.Stderr, "save:", err)
				}
			}
			if err := cur.Save(checkpoint); err != nil {
				fmt.Fprintln(os.Stderr, "checkpoint:", err)
			}
			fmt.Fprintf(os.Stderr, "pass %d: training loss %.4f, validation top-1 %.4f, log-evidence %.4f, %s%s\n",
				r.N, r.Loss, r.Top1, r.LogEv, r.Duration.Round(time.Second), mark)
			if log != nil {
				_ = log.Encode(fbtLogLine{K: cur.K, Samples: *samples, Pass: r.N, Seconds: elapsed.Seconds(), Loss: r.Loss, Top1: r.Top1, LogEvidence: r.LogEv})
			}
		},
	}
	if *ownerFrom != "" {
		opt.Only = fbt.IsOwner
	}
	err = fbt.Train(ctx, data, valData, m, opt)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stdout, "interrupted: the best model so far (pass %d, validation top-1 %.4f) is in %s; --resume goes on from %s\n",
			m.Passes, m.Top1, *out, checkpoint)
		return err
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained on %d positions of %d games (validation: %d positions of %d games): collect %s, SGD %s; best after pass %d, validation top-1 %.4f; wrote %s\n",
		st.Positions, st.Games, vst.Positions, vst.Games, trainStart.Sub(start).Round(time.Second), time.Since(trainStart).Round(time.Second),
		m.Passes, m.Top1, *out)
	return nil
}

// loggedSeconds is the training time of the last pass in an `aji train fbt --log` file, 0 if there is none.
func loggedSeconds(path string) time.Duration {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var l fbtLogLine
	if json.Unmarshal(lines[len(lines)-1], &l) != nil {
		return 0
	}
	return time.Duration(l.Seconds * float64(time.Second))
}

// fbtLogLine is one pass of `aji train fbt --log`: the data of Xiao's Figure 4.4.
type fbtLogLine struct {
	K           int     `json:"k"`
	Samples     int     `json:"samples"` // 0: the full gradient
	Pass        int     `json:"pass"`
	Seconds     float64 `json:"seconds"` // training time so far (SGD and validation), a resumed run's before the resume included
	Loss        float64 `json:"loss"`
	Top1        float64 `json:"top1"`
	LogEvidence float64 `json:"log_evidence"`
}
