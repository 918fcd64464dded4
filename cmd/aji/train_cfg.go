package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"aji/analysis/bt"
	"aji/analysis/cfg"
	"aji/analysis/eval"
	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/cfgbt"
	"aji/analysis/predict/mm"
	"aji/internal/progress"
)

// trainCFG fits the `cfg` predictor (or with --small the playout-sized `cfg-small`): mm's Bradley-Terry
// model with the common fate graph's path features (Graf & Platzner §III-A, §IV-B).
func trainCFG(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train cfg", flag.ContinueOnError)
	games := fs.String("games", "", "training games")
	validation := fs.String("validation", "", "validation games, evaluated after training")
	out := fs.String("out", "", "model file to write (rewritten after every iteration: a checkpoint)")
	small := fs.Bool("small", false, "the small variant: 3x3 shapes and local tactics beside the paths (for playouts)")
	patterns := fs.String("patterns", "", "shape dictionary from aji harvest (default: the shapes of the mm model)")
	ownerFrom := fs.String("owner-from", "", "owner stage: start from this trained cfg model (shapes and paths kept fixed) and train the Monte Carlo owner levels")
	refit := fs.Bool("refit", true, "owner stage: also refit the other tactical levels beside the owner levels")
	initFrom := fs.String("init-from", "", `start the tactical and shape γ at this mm model's ("default": the embedded one), with its shapes`)
	fixShapes := fs.Bool("fix-shapes", false, "with --init-from: keep its shape γ fixed and fit only the tactical and path γ")
	owner := fs.Bool("owner", false, "use the Monte Carlo owner feature from the start (63 playouts per position)")
	maxGames := fs.Int("max-games", 0, "training games to read (0: all)")
	perGame := fs.Int("positions-per-game", 0, "positions sampled per game (0: all)")
	iterations := fs.Int("iterations", 25, "MM iterations at most")
	minCount := fs.Int("min-count", cfgbt.DefaultMinCount, "keep path labels seen at least this many times at the sampled expert moves (the paper: more than 10)")
	pathGroups := fs.Int("path-groups", cfgbt.DefaultPathGroups, "MM groups the path γ are split into")
	hashIters := fs.Int("hash-iterations", cfg.DefaultIterations, "neighbourhood-hash iterations of the vertex labels (Algorithm 1)")
	valGames := fs.Int("validation-games", 0, "validation games to evaluate (0: all)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *out == "" || (*small && (*patterns != "" || *owner || *initFrom != "")) ||
		(*patterns != "" && *initFrom != "") || (*fixShapes && *initFrom == "") {
		return fmt.Errorf("%w: train cfg --games PATH --out FILE [--small | --patterns FILE | --init-from MODEL [--fix-shapes] | --owner-from MODEL] [--validation PATH] [--max-games N] [--positions-per-game K] [--iterations N] [--min-count N] [--path-groups G] [--owner]", errUsage)
	}
	opt := cfgbt.TrainOptions{
		Owner: *owner, HashIterations: *hashIters, MinCount: *minCount, PathGroups: *pathGroups,
		MaxGames: *maxGames, PositionsPerGame: *perGame, Seed: 1, Iterations: *iterations,
	}
	if *hashIters == 0 {
		opt.HashIterations = -1 // TrainOptions reads 0 as the default
	}
	switch {
	case *ownerFrom != "":
		base, err := cfgbt.Load(*ownerFrom)
		if err != nil {
			return err
		}
		if base.Variant != cfgbt.Full {
			return fmt.Errorf("%w: --owner-from needs a model of the full variant", errUsage)
		}
		opt.From, opt.Owner = base, true
		// Coulom §3.5: the slow feature is trained afterwards over fewer games. Shapes and paths stay
		// fixed; the few tactical γ are refitted with it.
		opt.Refit = func(g bt.Group) bool { return *refit && g.Lo < feature.NumIndices }
	case *small:
		opt.Variant = cfgbt.Small
	case *initFrom != "":
		init, err := defaultMM()
		if *initFrom != "default" {
			init, err = mm.Load(*initFrom)
		}
		if err != nil {
			return err
		}
		opt.Init, opt.FixShapes = init, *fixShapes
	default:
		var shapes *pattern.Dictionary
		if *patterns != "" {
			if shapes, err = pattern.LoadDictionary(*patterns); err != nil {
				return err
			}
		} else {
			base, err := defaultMM()
			if err != nil {
				return fmt.Errorf("no --patterns and %w", err)
			}
			shapes = base.Shapes
		}
		opt.Shapes = shapes
	}

	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	var countMeter, collectMeter *progress.Meter
	if opt.From == nil {
		countMeter = progress.New(os.Stderr, "count path labels", "games", total)
		opt.CountProgress = countMeter.Add
	}
	var collecting sync.Once // CollectProgress is called from every collecting goroutine
	opt.CollectProgress = func(n int) {
		collecting.Do(func() {
			if countMeter != nil {
				countMeter.Done() // the counting pass is over when collection starts
			}
			collectMeter = progress.New(os.Stderr, "collect", "games", total)
		})
		collectMeter.Add(n)
	}
	var mmStart time.Time
	opt.MMProgress = func(it bt.Iteration) {
		if it.N == 1 {
			if collectMeter != nil {
				collectMeter.Done()
			}
			mmStart = time.Now().Add(-time.Duration(it.Seconds * float64(time.Second)))
		}
		eta := time.Duration(float64(*iterations-it.N) * float64(time.Since(mmStart)) / float64(it.N))
		fmt.Fprintf(os.Stderr, "MM iteration %d/%d: mean log-likelihood %.4f (%.1fs, ETA %s at most; stops early once converged)\n",
			it.N, *iterations, it.LogLikelihood, it.Seconds, eta.Round(time.Second))
	}
	opt.Checkpoint = func(m *cfgbt.Model) {
		if err := m.Save(*out); err != nil {
			fmt.Fprintln(os.Stderr, "checkpoint:", err)
		}
	}
	m, st, err := cfgbt.Train(ctx, *games, opt)
	if err != nil {
		return err
	}
	if err := m.Save(*out); err != nil {
		return err
	}
	if opt.From == nil {
		fmt.Fprintf(stdout, "path labels: %d seen at %d expert moves, %d kept (seen at least %d times) in %d MM groups; counted in %s\n",
			st.DistinctLabels, st.Moves, st.Labels, max(*minCount, 1), len(m.GroupEnd), st.Count.Round(time.Second))
	}
	fmt.Fprintf(stdout, "trained the %v variant on %d positions of %d games (%d merged teams, %.0f MB) in %s (collect) + %s (MM); wrote %s\n",
		m.Variant, st.Positions, st.Games, st.Teams, float64(st.Bytes)/1e6, st.Collect.Round(time.Second), st.MM.Round(time.Second), *out)
	if m.Variant == cfgbt.Full {
		printGammaTable(stdout, &mm.Model{Gamma: m.Gamma[:m.PathBase()], Owner: m.Owner})
	}
	printPathGammas(stdout, m, 10)
	if *validation == "" {
		return nil
	}
	name := cfgbt.Name
	if m.Variant == cfgbt.Small {
		name = cfgbt.SmallName
	}
	results, err := eval.Run(ctx, []string{name}, *validation, eval.Options{
		MaxGames: *valGames, Predictors: map[string]predict.Options{name: {Model: *out}},
	})
	if err != nil {
		return err
	}
	return printEval(stdout, results)
}

// printPathGammas prints the n strongest and n weakest path γ among labels seen 100 times or more.
func printPathGammas(w io.Writer, m *cfgbt.Model, n int) {
	var idx []int
	for i, c := range m.Counts {
		if c >= 100 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	base := m.PathBase()
	slices.SortFunc(idx, func(a, b int) int {
		ga, gb := m.Gamma[base+a], m.Gamma[base+b]
		switch {
		case ga > gb:
			return -1
		case ga < gb:
			return 1
		}
		return 0
	})
	if len(idx) > 2*n {
		idx = append(idx[:n], idx[len(idx)-n:]...)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "path label (seen ≥ 100 times)\tseen\tγ\tElo")
	for _, i := range idx {
		g := m.Gamma[base+i]
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%+.0f\n", cfg.FeatureString(m.Labels[i]), m.Counts[i], g, 400*math.Log10(g))
	}
	tw.Flush()
}
