package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"aji/analysis/dataset"
	"aji/analysis/game"
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
	games := fs.String("games", "", "or a game collection: every string of 2 to 3 liberties at every --every-th move is an attack problem (one pass)")
	maxGames := fs.Int("max-games", 100, "with --games: games to read (0: all)")
	every := fs.Int("every", 20, "with --games: read the position every N moves")
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
	usage := fmt.Errorf("%w: train reading --problems FILE | --games PATH [--max-games N] [--every N] --out FILE [--model beta|hier] [--alpha0 A|size] [--learn proved|solved|all] [--pseudo V] [--passes N] [--split train|test [--split-seed N]] [--max-nodes N] [--max-liberties L]", errUsage)
	if len(rest) > 0 || (*file == "") == (*games == "") || *out == "" || *passes < 1 || *maxNodes < 1 || *maxLibs < 1 || !(*pseudo >= 0) || *every < 1 {
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
	solver := reading.NewSolver(reading.Options{Method: reading.PP, MaxNodes: *maxNodes, MaxLiberties: *maxLibs, Prior: model})
	if *games != "" {
		return trainReadingOnGames(ctx, solver, model, *games, *maxGames, *every, *out, stdout)
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
	return finishReadingModel(model, *out, stdout)
}

// finishReadingModel reports what the model harvested and where it was written.
func finishReadingModel(model surrogate.Model, out string, stdout io.Writer) error {
	if pc, ok := model.(interface {
		Patterns() [2][surrogate.NumTemplates]int
	}); ok {
		counts := pc.Patterns()
		for side, name := range []string{"attacker", "defender"} {
			fmt.Fprintf(stdout, "%s patterns by template T0-T7: %v\n", name, counts[side])
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", out)
	return nil
}

// trainReadingOnGames learns from the searches of positions of real games (the second
// source of training searches): at every every-th move of each game, every string with two or three
// liberties is attacked once, and the model learns from each tree. One pass; the model is written
// at the end and when interrupted.
func trainReadingOnGames(ctx context.Context, solver *reading.Solver, model surrogate.Model, path string, maxGames, every int, out string, stdout io.Writer) error {
	total, err := gamesToRead(ctx, path, maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "train reading", "games", total)
	start := time.Now()
	var searches, proved, nodes int
	var problems []reading.Problem
	_, err = dataset.Games(ctx, path, dataset.Filter{}, maxGames, 1, func(_, index int, _ string, g *game.Game) {
		_ = g.WalkMainLine(func(pos *game.Position, _ game.Move) error {
			if pos.MoveNumber%every != 0 || pos.MoveNumber == 0 {
				return nil
			}
			problems = reading.AttackProblems(problems[:0], fmt.Sprintf("game %d move %d", index, pos.MoveNumber), &pos.Board, pos.ToPlay, 2, 3)
			for i := range problems {
				p := &problems[i]
				res, err := solver.Solve(ctx, &p.Board, p.Target, p.Goal)
				if err != nil {
					return err
				}
				model.Learn(solver)
				searches++
				nodes += res.Nodes
				if res.Proved {
					proved++
				}
			}
			return nil
		})
		meter.Add(1)
	})
	meter.Done()
	if serr := model.Save(out); serr != nil {
		return serr
	}
	fmt.Fprintf(stdout, "%d searches (%d settled), %d nodes, %s\n", searches, proved, nodes, time.Since(start).Round(time.Millisecond))
	if err != nil {
		return fmt.Errorf("train reading: %w (what was learned is in %s)", err, out)
	}
	return finishReadingModel(model, out, stdout)
}
