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
	"aji/analysis/eval"
	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
	"aji/internal/progress"
)

// runHarvest builds a pattern dictionary from a game collection (Stern 2008 §3.1.4).
func runHarvest(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("harvest", flag.ContinueOnError)
	games := fs.String("games", "", "game collection to harvest from")
	out := fs.String("out", "", "dictionary file to write")
	threshold := fs.Int("threshold", 3, "keep patterns seen at least this many times")
	maxGames := fs.Int("max-games", 0, "read only the first N games (0: all)")
	filterMB := fs.Int("filter-mb", 256, "spectral Bloom filter size in MiB")
	stern := fs.Bool("stern", false, "Stern's templates T1-T14 with the local-feature bits (the bayes models'), not Coulom's sizes 3-12")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *out == "" {
		return fmt.Errorf("%w: harvest --games PATH --out FILE [--stern] [--threshold N] [--max-games N] [--filter-mb MB]", errUsage)
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	// One meter per pass, started when its pass starts so its rate and ETA are its own.
	var mu sync.Mutex
	var meters [3]*progress.Meter
	names := [3]string{"", "harvest pass 1 (Bloom filter)", "harvest pass 2 (exact counts)"}
	harvest := pattern.Harvest
	if *stern {
		harvest = pattern.HarvestStern
	}
	dict, st, err := harvest(ctx, *games, pattern.Options{
		Threshold:   *threshold,
		FilterBytes: *filterMB << 20,
		MaxFiles:    *maxGames,
		Progress: func(pass, _ int) {
			mu.Lock()
			if meters[pass] == nil {
				meters[pass] = progress.New(os.Stderr, names[pass], "games", total)
			}
			m := meters[pass]
			mu.Unlock()
			m.Add(1)
		},
	})
	if err != nil {
		return err
	}
	for _, m := range meters {
		m.Done()
	}
	if err := dict.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "harvested %d patterns from %d games (%d moves) in %s + %s; filter load %.3f\n",
		dict.Len(), st.Games, st.Moves, st.Pass1.Round(time.Second), st.Pass2.Round(time.Second), st.FilterLoad)
	if *stern {
		for i, n := range st.KeptStern {
			fmt.Fprintf(stdout, "  T%-2d: %d\n", i+1, n)
		}
		return nil
	}
	for i, n := range st.Kept {
		fmt.Fprintf(stdout, "  size %2d: %d\n", pattern.MinSize+i, n)
	}
	return nil
}

// runTrain dispatches `aji train KIND`.
func runTrain(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: train KIND (mm, playout, cfg, fbt, cnn, bayes, bernoulli, bayes-hier, bayes-linear, boltzmann5, boltzmann12, boltzmann-lib, reading) --games PATH --validation PATH --out FILE", errUsage)
	}
	switch args[0] {
	case "mm":
		return trainMM(ctx, args[1:], stdout)
	case "playout":
		return trainPlayout(ctx, args[1:], stdout)
	case "cfg":
		return trainCFG(ctx, args[1:], stdout)
	case "fbt":
		return trainFBT(ctx, args[1:], stdout)
	case "cnn":
		return trainCNN(ctx, args[1:], stdout)
	case "bayes", "bernoulli", "bayes-hier", "bayes-linear":
		return trainBayes(ctx, args[0], args[1:], stdout)
	case "boltzmann5", "boltzmann12", "boltzmann-lib":
		return trainTerritory(ctx, args[0], args[1:], stdout)
	case "reading":
		return trainReading(ctx, args[1:], stdout)
	}
	return fmt.Errorf("%w: unknown model kind %q (mm, playout, cfg, fbt, cnn, bayes, bernoulli, bayes-hier, bayes-linear, boltzmann5, boltzmann12, boltzmann-lib, reading)", errUsage, args[0])
}

func trainMM(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train mm", flag.ContinueOnError)
	games := fs.String("games", "", "training games")
	validation := fs.String("validation", "", "validation games, evaluated after training")
	patterns := fs.String("patterns", "", "pattern dictionary from aji harvest")
	out := fs.String("out", "", "model file to write (rewritten after every iteration: a checkpoint)")
	resume := fs.Bool("resume", false, "start from the γ in --out instead of 1")
	maxGames := fs.Int("max-games", 0, "training games to read (0: all)")
	perGame := fs.Int("positions-per-game", 0, "positions sampled per game (0: all)")
	iterations := fs.Int("iterations", 25, "MM iterations at most")
	owner := fs.Bool("owner", false, "use the Monte Carlo owner feature (63 playouts per position)")
	ownerFrom := fs.String("owner-from", "", "owner stage: start from this trained model (its shape γ kept fixed) and train the Monte Carlo owner levels")
	refit := fs.Bool("refit", true, "owner stage: also refit the other non-shape features beside the owner levels")
	valGames := fs.Int("validation-games", 0, "validation games to evaluate (0: all)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || (*patterns == "") == (*ownerFrom == "") || *out == "" {
		return fmt.Errorf("%w: train mm --games PATH (--patterns FILE | --owner-from MODEL) --out FILE [--validation PATH] [--max-games N] [--positions-per-game K] [--owner] [--resume]", errUsage)
	}
	var model *mm.Model
	var groups []bt.Group
	if *ownerFrom != "" {
		// Coulom §3.5: slow features can be trained afterwards, over fewer games. The shape γ stay fixed;
		// the few tactical γ are refitted with the owner levels, which they overlap (e.g. distance to the
		// border and owner both say "this point is settled").
		base, err := mm.Load(*ownerFrom)
		if err != nil {
			return err
		}
		model = &mm.Model{Gamma: slices.Clone(base.Gamma), Shapes: base.Shapes, Owner: true}
		for _, g := range model.Groups() {
			if g.Name == feature.MCOwner.String() || (*refit && g.Name != "shape") {
				groups = append(groups, g)
			}
		}
	} else {
		shapes, err := pattern.LoadDictionary(*patterns)
		if err != nil {
			return err
		}
		model = mm.NewModel(shapes, *owner)
		groups = model.Groups()
	}
	if *resume {
		old, err := mm.Load(*out)
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		if len(old.Gamma) != len(model.Gamma) || old.Owner != model.Owner {
			return fmt.Errorf("resume: %s has %d γ (owner %v), this run %d (owner %v)", *out, len(old.Gamma), old.Owner, len(model.Gamma), model.Owner)
		}
		copy(model.Gamma, old.Gamma)
	}

	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "collect", "games", total)
	start := time.Now()
	data, st, err := mm.Collect(ctx, *games, model, bt.CollectOptions{
		MaxGames: *maxGames, PositionsPerGame: *perGame, Seed: 1, Progress: meter.Add,
	})
	if err != nil {
		return err
	}
	meter.Done()
	model.Games, model.Positions = st.Games, st.Positions
	var teams, bytes int
	for _, d := range data {
		teams += d.Teams()
		bytes += d.Bytes()
	}
	fmt.Fprintf(os.Stderr, "collected %d positions (%d merged teams, %.0f MB) from %d games in %s\n",
		st.Positions, teams, float64(bytes)/1e6, st.Games, time.Since(start).Round(time.Second))

	trainStart := time.Now()
	err = bt.TrainShards(ctx, data, model.Gamma, groups, bt.TrainOptions{
		Iterations: *iterations,
		Progress: func(it bt.Iteration) {
			eta := time.Duration(float64(*iterations-it.N) * float64(time.Since(trainStart)) / float64(it.N))
			fmt.Fprintf(os.Stderr, "MM iteration %d/%d: mean log-likelihood %.4f (%.1fs, ETA %s at most; stops early once converged)\n",
				it.N, *iterations, it.LogLikelihood, it.Seconds, eta.Round(time.Second))
			if err := model.Save(*out); err != nil {
				fmt.Fprintln(os.Stderr, "checkpoint:", err)
			}
		},
	})
	if err != nil {
		return err
	}
	if err := model.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained on %d positions of %d games in %s (collect) + %s (MM); wrote %s\n",
		st.Positions, st.Games, trainStart.Sub(start).Round(time.Second), time.Since(trainStart).Round(time.Second), *out)
	printGammaTable(stdout, model)
	if *validation == "" {
		return nil
	}
	results, err := eval.Run(ctx, []string{"mm"}, *validation, eval.Options{
		MaxGames: *valGames, Predictors: map[string]predict.Options{"mm": {Model: *out}},
	})
	if err != nil {
		return err
	}
	return printEval(stdout, results)
}

// printGammaTable prints the learned non-shape γ beside Coulom's Table 1.
func printGammaTable(w io.Writer, m *mm.Model) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "feature level\tγ (Aji)\tElo\tγ (Coulom 2007)")
	for i := range feature.NumIndices {
		f, level := feature.FromIndex(i)
		if f == feature.MCOwner && !m.Owner {
			continue
		}
		paper := "-"
		if g, ok := mm.PaperGamma(f, level); ok {
			paper = fmt.Sprintf("%.2f", g)
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%+.0f\t%s\n", feature.IndexName(i), m.Gamma[i], 400*math.Log10(m.Gamma[i]), paper)
	}
	tw.Flush()
}

// defaultMM is the mm predictor's model: the file of $AJI_MM_MODEL, else the embedded one.
func defaultMM() (*mm.Model, error) {
	o, err := predict.Configured("mm")
	if err != nil {
		return nil, err
	}
	return mm.Shared(o.Model)
}
