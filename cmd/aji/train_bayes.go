package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"aji/analysis/pattern"
	"aji/analysis/predict/bayes"
	"aji/internal/progress"
)

// trainBayes learns Stern's pattern models by one pass over the training games: the full ranking
// model by assumed-density filtering (bayes) with the Bernoulli counts beside it, or the counts
// alone (bernoulli, which needs no EP and takes a fraction of the time), or the hierarchical
// ranking model (bayes-hier), or the linear feature model (bayes-linear). A model file holds the beliefs and the counts; the predictors bayes
// and bernoulli read their part of it.
func trainBayes(ctx context.Context, kind string, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train "+kind, flag.ContinueOnError)
	games := fs.String("games", "", "training games")
	patterns := fs.String("patterns", "", "the Stern pattern dictionary from aji harvest --stern")
	out := fs.String("out", "", "model file to write")
	beta := fs.Float64("beta", bayes.DefaultBeta, "β, the standard deviation of a move's urgency about its pattern's value")
	var betas []float64
	if kind == bayes.HierName {
		fs.Func("betas", fmt.Sprintf("the %d β_i between templates T_i and T_i+1, comma-separated (aji plot bayes-betas estimates them; default all %d)", pattern.NumStern-1, bayes.DefaultBetaT), func(s string) error {
			var err error
			betas, err = parseBetas(s)
			return err
		})
	}
	maxGames := fs.Int("max-games", 0, "training games to read (0: all)")
	workers := fs.Int("workers", 0, "goroutines finding the patterns (0: one per core); the updates are applied in game order")
	every := fs.Int("every", 2000, "write a checkpoint (FILE.ckpt) every N games")
	resume := fs.Bool("resume", false, "go on from --out's checkpoint where a run stopped: the games it learned from are skipped")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *out == "" || (*patterns == "") == !*resume || !(*beta > 0) {
		return fmt.Errorf("%w: train %s --games PATH --patterns DICT --out FILE [--beta B] [--max-games N] [--workers N] [--every N] | --games PATH --out FILE --resume", errUsage, kind)
	}
	checkpoint := *out + ".ckpt"
	var m *bayes.Model
	if *resume {
		if m, err = bayes.Load(checkpoint); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		fmt.Fprintf(os.Stderr, "resuming after %d games (%d positions)\n", m.Games, m.Positions)
	} else {
		d, err := pattern.LoadSternDictionary(*patterns)
		if err != nil {
			return err
		}
		m = bayes.NewModel(d, *beta)
		switch kind {
		case bayes.HierName:
			m = bayes.NewHierModel(d, *beta)
			if betas != nil {
				copy(m.Hier.BetaT[:], betas)
			}
		case bayes.LinearName:
			m = bayes.NewLinearModel(d, *beta)
		}
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	skip := m.Games
	meter := progress.New(os.Stderr, "train "+kind, "games", total-skip)
	start := time.Now()
	st, err := bayes.Train(ctx, *games, m, bayes.TrainOptions{
		MaxGames: *maxGames, Skip: skip, Workers: *workers, Counting: kind == "bernoulli",
		Progress: func(int) { meter.Add(1) },
		Every:    *every, Checkpoint: func(m *bayes.Model) error { return m.Save(checkpoint) },
	})
	meter.Done()
	if errors.Is(err, context.Canceled) {
		if err := m.Save(checkpoint); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "interrupted after %d games; --resume goes on from %s\n", m.Games, checkpoint)
		return context.Canceled
	}
	if err != nil {
		return err
	}
	if err := m.Save(*out); err != nil {
		return err
	}
	_ = os.Remove(checkpoint)
	fmt.Fprintf(stdout, "learned from %d positions of %d games (%d expert moves not legal here skipped; %.1f EP sweeps a position) in %s; %d patterns; wrote %s\n",
		st.Positions, st.Games, st.Skipped, st.Sweeps, time.Since(start).Round(time.Second), m.Patterns.Len(), *out)
	return nil
}

// parseBetas reads --betas: one positive β_i for each pair of successive templates.
func parseBetas(s string) ([]float64, error) {
	fields := strings.Split(s, ",")
	if len(fields) != pattern.NumStern-1 {
		return nil, fmt.Errorf("%d values, want %d", len(fields), pattern.NumStern-1)
	}
	out := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("β_%d is %q, not a positive number", i+1, f)
		}
		out[i] = v
	}
	return out, nil
}
