package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"aji/analysis/reading"
	"aji/analysis/reading/surrogate"
	"aji/internal/progress"
)

// trainReading learns a surrogate prior for probability-propagation reading (Stern §4.4) in
// Stern's batch setup (§4.5.2): probability propagation with the model as its prior over the
// training problems, the model learning from each search tree when the search ends, pass after
// pass, each later pass re-attempting the problems not yet proved. The model is written after every
// pass, and when the run is interrupted.
func trainReading(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train reading", flag.ContinueOnError)
	file := fs.String("problems", "", "problem file, JSON lines (GNU Go's reading.tst format)")
	kind := fs.String("model", "beta", "beta (Beta with back-off) or hier (hierarchical Gaussian)")
	alpha0 := fs.String("alpha0", "1", "beta: the prior pseudo-counts α0 = β0, or size for Stern's 100000·10^-i by template")
	learn := fs.String("learn", "all", "the nodes learned from: proved, solved (proved or disproved) or all (unsolved ones by ADF)")
	pseudo := fs.Float64("pseudo", surrogate.DefaultPseudoVar, "hier: the variance of each new leaf's pseudo-observation N(0, V); 0 for none")
	passes := fs.Int("passes", 3, "passes over the training problems; each after the first re-attempts those not yet proved")
	split := fs.String("split", "", "train on the train or the test part only (as aji reading --split)")
	seed := fs.Uint64("split-seed", 1, "seed of --split")
	maxNodes := fs.Int("max-nodes", reading.DefaultMaxNodes, "positions developed per problem before giving up")
	maxLibs := fs.Int("max-liberties", reading.DefaultMaxLiberties, "the largest liberty bound L: a string with more has escaped")
	out := fs.String("out", "", "model file to write")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	usage := fmt.Errorf("%w: train reading --problems FILE --out FILE [--model beta|hier] [--alpha0 A|size] [--learn proved|solved|all] [--pseudo V] [--passes N] [--split train|test [--split-seed N]] [--max-nodes N] [--max-liberties L]", errUsage)
	if len(rest) > 0 || *file == "" || *out == "" || *passes < 1 || *maxNodes < 1 || *maxLibs < 1 || !(*pseudo >= 0) {
		return usage
	}
	regime, err := surrogate.ParseRegime(*learn)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var model surrogate.Model
	switch *kind {
	case "beta":
		size := *alpha0 == "size"
		a0 := 0.0
		if !size {
			if a0, err = strconv.ParseFloat(*alpha0, 64); err != nil || !(a0 > 0) {
				return fmt.Errorf("%w: --alpha0 %q: a positive number or size", errUsage, *alpha0)
			}
		}
		model = surrogate.NewBeta(a0, size, regime)
	case "hier":
		model = surrogate.NewHier(surrogate.DefaultBetaT, surrogate.DefaultBeta, surrogate.DefaultRootVar, *pseudo, regime)
	default:
		return fmt.Errorf("%w: --model %q: beta or hier", errUsage, *kind)
	}
	problems, err := reading.LoadProblems(*file)
	if err != nil {
		return err
	}
	if problems, err = splitProblems(problems, *split, *seed); err != nil {
		return err
	}
	if len(problems) == 0 {
		return fmt.Errorf("train reading: no problems in %s", *file)
	}

	solver := reading.NewSolver(reading.Options{Method: reading.PP, MaxNodes: *maxNodes, MaxLiberties: *maxLibs, Prior: model})
	proved := make([]bool, len(problems))
	pending := make([]int, len(problems))
	for i := range pending {
		pending[i] = i
	}
	nProved := 0
	for pass := 1; pass <= *passes && len(pending) > 0; pass++ {
		start := time.Now()
		meter := progress.New(os.Stderr, fmt.Sprintf("train reading, pass %d of %d", pass, *passes), "problems", len(pending))
		nodes, newly := 0, 0
		for _, i := range pending {
			p := &problems[i]
			res, err := solver.Solve(ctx, &p.Board, p.Target, p.Goal)
			if ctx.Err() != nil {
				// Interrupted mid-search: keep what the finished searches taught.
				meter.Done()
				if err := model.Save(*out); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "interrupted in pass %d; wrote %s\n", pass, *out)
				return fmt.Errorf("train reading interrupted: %w", ctx.Err())
			}
			if err != nil {
				return fmt.Errorf("problem %s: %w", p.ID, err)
			}
			model.Learn(solver)
			nodes += res.Nodes
			if res.Proved {
				proved[i] = true
				newly++
			}
			meter.Add(1)
		}
		meter.Done()
		nProved += newly
		fmt.Fprintf(stdout, "pass %d: %d problems tried, %d proved (%d of %d so far), %d nodes, %s\n",
			pass, len(pending), newly, nProved, len(problems), nodes, time.Since(start).Round(time.Millisecond))
		if err := model.Save(*out); err != nil {
			return err
		}
		next := pending[:0]
		for _, i := range pending {
			if !proved[i] {
				next = append(next, i)
			}
		}
		pending = next
	}
	if pc, ok := model.(interface {
		Patterns() [2][surrogate.NumTemplates]int
	}); ok {
		counts := pc.Patterns()
		for side, name := range []string{"attacker", "defender"} {
			fmt.Fprintf(stdout, "%s patterns by template T0-T7: %v\n", name, counts[side])
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}
