package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"aji/analysis/dataset"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/label"
	"aji/analysis/territory"
	"aji/analysis/territory/train"
	"aji/internal/progress"
)

// trainTerritory trains a Boltzmann territory model (Stern 2008 §5.4), one parameter vector per move.
func trainTerritory(ctx context.Context, name string, args []string, stdout io.Writer) error {
	kind, err := territory.ParseKind(name)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("train "+name, flag.ContinueOnError)
	games := fs.String("games", "", "training games (the labelled ones are used)")
	labels := fs.String("labels", "", "final-territory labels of training games (aji label)")
	out := fs.String("out", "", "model file to write (rewritten as a checkpoint while training)")
	method := fs.String("method", train.MAP.String(), "map (eq. 5.12) or cd (contrastive divergence, eq. 5.15)")
	inference := fs.String("inference", territory.MethodSW.String(), "map: model expectations by sw (persistent Swendsen-Wang), exact or lbp")
	movesFlag := fs.String("moves", "20,80,150", "move numbers: one parameter vector each, trained on the positions before that move")
	iterations := fs.Int("iterations", 400, "gradient steps per move")
	batch := fs.Int("batch", 0, "positions per gradient step (0: all)")
	sweeps := fs.Int("sweeps", 2, "map with sw: Swendsen-Wang sweeps per position and step")
	// Eq. 5.13's α over the whole training set. Table entries of configurations the data (almost) never
	// show — a chain whose stones end with different owners — have their likelihood maximum at ±∞;
	// α = 50 (about 0.08 per position on 650 games) keeps them finite (Stern's α = 0.001, his CD setting,
	// lets them drift until loopy BP fails) and moves the validation cross-entropy by at most 0.005.
	alpha := fs.Float64("alpha", 50, "precision α of the Gaussian prior on the parameters (eq. 5.13), over the whole training set")
	step := fs.Float64("step", 0.1, "first step of every parameter (ALAP adapts it)")
	maxLabels := fs.Int("max-labels", 0, "use only the first N consistent labels (0: all)")
	resume := fs.Bool("resume", false, "start each move's vector from the model in --out instead of zeros")
	initFrom := fs.String("init", "", "start from this trained model (boltzmann5 or boltzmann12 embed into richer kinds), nearest move")
	workers := fs.Int("workers", 2, "goroutines")
	seed := fs.Uint64("seed", 1, "seed of the samplers and the batch order")
	logEvery := fs.Int("log-every", 0, "print the parameters to stderr every N steps (0: never)")
	validation := fs.String("validation", "", "validation games, scored after training")
	valLabels := fs.String("validation-labels", "", "final-territory labels of validation games")
	valInference := fs.String("validation-inference", territory.MethodExact.String(), "marginals for validation: exact, lbp or sw")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	moves, movesOK := ascendingInts(*movesFlag)
	if len(rest) > 0 || *games == "" || *labels == "" || *out == "" || !movesOK || *iterations < 1 || *workers < 1 ||
		(*validation == "") != (*valLabels == "") {
		return fmt.Errorf("%w: train %s --games PATH --labels FILE.jsonl --out FILE [--method map|cd] [--inference sw|exact|lbp] [--moves 20,80,150] [--iterations N] [--validation PATH --validation-labels FILE]", errUsage, kind)
	}
	tm, err := train.ParseMethod(*method)
	if err != nil {
		return err
	}
	inf, err := territory.ParseMethod(*inference)
	if err != nil {
		return err
	}
	valInf, err := territory.ParseMethod(*valInference)
	if err != nil {
		return err
	}
	opt := train.Options{
		Method: tm, Inference: inf, Iterations: *iterations, Batch: *batch, Sweeps: *sweeps,
		Alpha: *alpha, Step: *step, Seed: *seed, Workers: *workers,
	}
	var init *territory.Trained
	switch {
	case *resume && *initFrom != "":
		return fmt.Errorf("%w: --resume and --init exclude each other", errUsage)
	case *resume:
		if init, err = territory.LoadTrained(*out, kind); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
	case *initFrom != "":
		if init, err = loadAnyTrained(*initFrom); err != nil {
			return fmt.Errorf("init: %w", err)
		}
	}

	start := time.Now()
	byMove, st, err := loadExamples(ctx, *games, *labels, moves, *maxLabels)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d consistent labels, %d matched games; positions per move: %s (%s)\n",
		st.labels, st.games, countsString(moves, byMove), time.Since(start).Round(time.Second))

	model := &territory.Trained{Kind: kind}
	meter := progress.New(os.Stderr, "train "+name, "steps", len(moves)*opt.Iterations)
	checkpoint := func(move int, params []float64) {
		t := &territory.Trained{Kind: kind, Moves: append(slices.Clone(model.Moves), move),
			Params: append(slices.Clone(model.Params), slices.Clone(params))}
		if err := t.Save(*out); err != nil {
			fmt.Fprintln(os.Stderr, "checkpoint:", err)
		}
	}
	type result struct {
		positions, drops int
		last             train.Step
		took             time.Duration
	}
	results := make([]result, len(moves))
	for mi, move := range moves {
		if len(byMove[mi]) == 0 {
			return fmt.Errorf("no labelled game reaches move %d", move)
		}
		tr, err := train.NewTrainer(kind, byMove[mi], *seed)
		if err != nil {
			return fmt.Errorf("move %d: %w", move, err)
		}
		var theta []float64
		if init != nil { // the vector of the nearest move, as Trained.At picks it
			best := 0
			for i, m := range init.Moves {
				if abs(m-move) < abs(init.Moves[best]-move) {
					best = i
				}
			}
			if theta, err = train.Embed(init.Kind, init.Params[best], kind); err != nil {
				return err
			}
		}
		t0 := time.Now()
		o := opt
		o.Progress = func(s train.Step) error {
			meter.Add(1)
			results[mi].last = train.Step{N: s.N, GradNorm: s.GradNorm, LogLik: s.LogLik}
			if s.N%50 == 0 {
				checkpoint(move, s.Params)
			}
			if *logEvery > 0 && s.N%*logEvery == 0 {
				fmt.Fprintf(os.Stderr, "move %d step %d: |gradient| %.4f log-likelihood %.4f θ %.3f\n", move, s.N, s.GradNorm, s.LogLik, s.Params)
			}
			return nil
		}
		params, err := tr.Train(ctx, theta, o)
		if err != nil {
			meter.Done()
			if errors.Is(err, context.Canceled) && len(model.Moves) > 0 {
				if serr := model.Save(*out); serr == nil {
					return fmt.Errorf("interrupted at move %d; kept moves %v in %s: %w", move, model.Moves, *out, err)
				}
			}
			return fmt.Errorf("move %d: %w", move, err)
		}
		model.Moves = append(model.Moves, move)
		model.Params = append(model.Params, params)
		results[mi].positions, results[mi].drops, results[mi].took = tr.Len(), tr.Drops, time.Since(t0)
		if err := model.Save(*out); err != nil {
			return err
		}
	}
	meter.Done()
	fmt.Fprintf(stdout, "trained %s by %s on %d labelled games in %s; wrote %s\n", kind, methodName(opt), st.games,
		time.Since(start).Round(time.Second), *out)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "move\tpositions\tdropped\tsteps\t|gradient|\tseconds")
	for mi, r := range results {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.4f\t%.0f\n", moves[mi], r.positions, r.drops, r.last.N, r.last.GradNorm, r.took.Seconds())
	}
	tw.Flush()
	printTerritoryParams(stdout, model)

	if *validation == "" {
		return nil
	}
	vByMove, vst, err := loadExamples(ctx, *validation, *valLabels, moves, 0)
	if err != nil {
		return fmt.Errorf("validation: %w", err)
	}
	fmt.Fprintf(stdout, "validation (%s marginals; %d consistent labels, %d games; neutral points skipped):\n", *valInference, vst.labels, vst.games)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "move\tpositions\tpoints\tcross-entropy\tsign agreement")
	var all eval.OwnerScore
	for mi, move := range moves {
		s, err := train.Evaluate(ctx, kind, model.Params[mi], vByMove[mi], valInf,
			territory.SampleOptions{Burnin: 100, Sweeps: 2000, Seed: *seed, RaoBlack: true}, *workers)
		if err != nil {
			return fmt.Errorf("validation: %w", err)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.4f\t%.4f\n", move, s.Positions, s.Points, s.CrossEntropy(), s.Agreement())
		all.Merge(s)
	}
	if all.Points > 0 {
		fmt.Fprintf(tw, "all\t%d\t%d\t%.4f\t%.4f\n", all.Positions, all.Points, all.CrossEntropy(), all.Agreement())
	}
	return tw.Flush()
}

// loadAnyTrained reads a Boltzmann model file of whichever kind it holds.
func loadAnyTrained(path string) (*territory.Trained, error) {
	var errs []error
	for _, k := range territory.Kinds {
		t, err := territory.LoadTrained(path, k)
		if err == nil {
			return t, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("%s holds no Boltzmann model: %w", path, errors.Join(errs...))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func methodName(o train.Options) string {
	if o.Method == train.CD {
		return "contrastive divergence (one Swendsen-Wang step)"
	}
	return "MAP with " + o.Inference.String() + " expectations"
}

func countsString(moves []int, byMove [][]train.Example) string {
	var parts []string
	for i, m := range moves {
		parts = append(parts, fmt.Sprintf("%d: %d", m, len(byMove[i])))
	}
	return strings.Join(parts, ", ")
}

type exampleStats struct{ labels, games int }

// loadExamples pairs the consistent labels of a labels file with their games (by file name, so labels
// made from an extracted subset match the archive) and returns, per move m, the positions before move m
// of the games that reach it.
func loadExamples(ctx context.Context, gamesPath, labelsPath string, moves []int, maxLabels int) ([][]train.Example, exampleStats, error) {
	var st exampleStats
	labs, err := label.ReadFile(labelsPath)
	if err != nil {
		return nil, st, err
	}
	byName := map[string]*label.Label{}
	for i := range labs {
		l := &labs[i]
		if !l.Consistent {
			continue
		}
		if maxLabels > 0 && len(byName) >= maxLabels {
			break
		}
		byName[path.Base(l.Game)] = l
	}
	st.labels = len(byName)
	if len(byName) == 0 {
		return nil, st, fmt.Errorf("%s: no consistent labels", labelsPath)
	}
	type found struct {
		index int
		ex    []train.Example // per move; Size 0 when the game does not reach it
	}
	var mu sync.Mutex
	var got []found
	var firstErr error
	_, err = dataset.Games(ctx, gamesPath, dataset.Filter{}, 0, 2, func(_, index int, name string, g *game.Game) {
		l, ok := byName[path.Base(name)]
		if !ok {
			return
		}
		f := found{index: index, ex: make([]train.Example, len(moves))}
		for mi, m := range moves {
			if g.NumMoves() < m {
				continue
			}
			pos, err := g.PositionAfter(m - 1)
			if err == nil && pos.Board.Size() != l.Size {
				err = fmt.Errorf("labels of size %d for a %dx%d game", l.Size, pos.Board.Size(), pos.Board.Size())
			}
			if err == nil {
				f.ex[mi], err = train.NewExample(&pos.Board, m, l.Labels)
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("%s move %d: %w", name, m, err)
				}
				mu.Unlock()
				return
			}
		}
		mu.Lock()
		got = append(got, f)
		mu.Unlock()
	})
	if err == nil {
		err = firstErr
	}
	if err != nil {
		return nil, st, err
	}
	// Collection order, whatever the scheduling: the training batches depend on it.
	slices.SortFunc(got, func(a, b found) int { return a.index - b.index })
	byMove := make([][]train.Example, len(moves))
	for _, f := range got {
		for mi, ex := range f.ex {
			if ex.Size > 0 {
				byMove[mi] = append(byMove[mi], ex)
			}
		}
	}
	st.games = len(got)
	return byMove, st, nil
}

// printTerritoryParams prints the learned vectors; Boltzmann5's beside Stern's Table 5.1.
func printTerritoryParams(w io.Writer, t *territory.Trained) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "parameter"
	for _, m := range t.Moves {
		header += fmt.Sprintf("\tmove %d", m)
		if _, err := territory.Boltzmann5Table51(m); err == nil && t.Kind == territory.KindBoltzmann5 {
			header += fmt.Sprintf("\tStern %d", m)
		}
	}
	fmt.Fprintln(tw, header)
	n := len(t.Params[0])
	for k := range n {
		row := train.ParamName(t.Kind, k)
		for mi, m := range t.Moves {
			row += fmt.Sprintf("\t%.3f", t.Params[mi][k])
			if p, err := territory.Boltzmann5Table51(m); err == nil && t.Kind == territory.KindBoltzmann5 {
				row += fmt.Sprintf("\t%.3f", p[k])
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
}
