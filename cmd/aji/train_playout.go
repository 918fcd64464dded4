package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"text/tabwriter"
	"time"

	"aji/analysis/bt"
	"aji/analysis/mcts"
	"aji/internal/progress"
)

// trainPlayout fits the 3x3-pattern playout policy (Coulom 2007 §4.1) with the mm trainer.
func trainPlayout(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train playout", flag.ContinueOnError)
	games := fs.String("games", "", "training games")
	out := fs.String("out", "", "model file to write (rewritten after every iteration: a checkpoint)")
	validation := fs.String("validation", "", "validation games, evaluated after training")
	maxGames := fs.Int("max-games", 0, "training games to read (0: all)")
	perGame := fs.Int("positions-per-game", 8, "positions sampled per game (0: all)")
	iterations := fs.Int("iterations", 25, "MM iterations at most")
	valGames := fs.Int("validation-games", 0, "validation games to evaluate (0: all)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *out == "" {
		return fmt.Errorf("%w: train playout --games PATH --out FILE [--validation PATH] [--max-games N] [--positions-per-game K] [--iterations N]", errUsage)
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "collect", "games", total)
	var trainStart time.Time
	m, st, err := mcts.TrainPatternModel(ctx, *games, mcts.TrainOptions{
		MaxGames: *maxGames, PositionsPerGame: *perGame, Iterations: *iterations, Seed: 1,
		Progress: func(n int) {
			meter.Add(n)
		},
		MMProgress: func(it bt.Iteration) {
			if it.N == 1 {
				meter.Done()
				trainStart = time.Now().Add(-time.Duration(it.Seconds * float64(time.Second)))
			}
			eta := time.Duration(float64(*iterations-it.N) * float64(time.Since(trainStart)) / float64(it.N))
			fmt.Fprintf(os.Stderr, "MM iteration %d/%d: mean log-likelihood %.4f (%.1fs, ETA %s at most)\n",
				it.N, *iterations, it.LogLikelihood, it.Seconds, eta.Round(time.Second))
		},
		Checkpoint: func(m *mcts.PatternModel) {
			if err := m.Save(*out); err != nil {
				fmt.Fprintln(os.Stderr, "checkpoint:", err)
			}
		},
	})
	if err != nil {
		return err
	}
	if err := m.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained on %d positions of %d games (%d skipped: expert move fills an own eye; %d teams) in %s (collect) + %s (MM); wrote %s\n",
		st.Positions, st.Games, st.Skipped, st.Teams, st.Collect.Round(time.Second), st.MM.Round(time.Second), *out)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "feature\tγ\tElo")
	for i := len(m.Gamma) - mcts.NumPatternFeatures; i < len(m.Gamma); i++ {
		fmt.Fprintf(tw, "%s\t%.3f\t%+.0f\n", mcts.FeatureName(i), m.Gamma[i], 400*math.Log10(m.Gamma[i]))
	}
	tw.Flush()
	if *validation == "" {
		return nil
	}
	vtotal, err := gamesToRead(ctx, *validation, *valGames)
	if err != nil {
		return err
	}
	vmeter := progress.New(os.Stderr, "validation", "games", vtotal)
	ev, err := mcts.EvaluatePattern(ctx, *validation, m, mcts.TrainOptions{MaxGames: *valGames, Progress: vmeter.Add})
	if err != nil {
		return err
	}
	vmeter.Done()
	fmt.Fprintf(stdout, "validation: %d positions (%d skipped), top-1 %.3f, mean log-evidence %.3f (uniform over the policy's moves: %.3f)\n",
		ev.Positions, ev.Skipped, ev.Top1, ev.MeanLogEvidence, ev.UniformLogEvidence)
	return nil
}
