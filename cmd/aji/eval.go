package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"aji/analysis/eval"
	"aji/analysis/predict"
	"aji/internal/progress"
)

func runEval(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	names := fs.String("predictor", "", "predictor name(s), comma-separated")
	model := fs.String("model", "", "the predictor's model `FILE` (one predictor only; default: its embedded model)")
	games := fs.String("games", "", "game collection: folder, .sgf, .tar.xz or .tar.gz")
	maxGames := fs.Int("max-games", 0, "stop after this many games (0: all)")
	workers := fs.Int("workers", 0, "goroutines (0: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	list := strings.Split(*names, ",")
	if len(rest) > 0 || *names == "" || *games == "" || *model != "" && len(list) > 1 {
		return fmt.Errorf("%w: eval --predictor NAME[,NAME...] [--model FILE, one predictor only] --games PATH [--max-games N] [--json]", errUsage)
	}
	var opts map[string]predict.Options
	if *model != "" {
		opts = map[string]predict.Options{list[0]: {Model: *model}}
	}
	if _, err := os.Stat(*games); err != nil {
		return fmt.Errorf("games: %w", err)
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "eval", "games", total)
	results, err := eval.Run(ctx, list, *games, eval.Options{
		MaxGames:   *maxGames,
		Workers:    *workers,
		Progress:   meter.Add,
		Predictors: opts,
	})
	if err != nil {
		return err
	}
	meter.Done()
	if *asJSON {
		return writeJSON(stdout, map[string]any{"results": results})
	}
	return printEval(stdout, results)
}

func printEval(w io.Writer, results []eval.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "predictor\tgames\tpositions\tskipped\ttop1\ttop5\ttop10\ttop20\tlog-evidence\tpos/s\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\t\n", r.Predictor, r.Games, r.Positions,
			r.Skipped, r.Top1, r.Top5, r.Top10, r.Top20, r.MeanLogEvidence, r.PositionsPerSecond)
	}
	for _, r := range results {
		fmt.Fprintf(tw, "\n%s by phase\tmoves\tpositions\ttop1\tlog-evidence\t\n", r.Predictor)
		for _, ph := range r.ByPhase {
			fmt.Fprintf(tw, "\t%d-%d\t%d\t%.3f\t%.3f\t\n", ph.From, ph.To, ph.Positions, ph.Top1, ph.MeanLogEvidence)
		}
	}
	return tw.Flush()
}
