package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"aji/analysis/label"
	"aji/internal/atomicfile"
	"aji/internal/progress"
)

// runLabel writes the final-territory labels of a collection's games with a counted result.
func runLabel(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("label", flag.ContinueOnError)
	games := fs.String("games", "", "game collection: folder, .sgf, .tar.xz or .tar.gz")
	out := fs.String("out", "", "labels file to write (JSON lines)")
	engine := fs.String("engine", label.DefaultEngine, "GTP engine command that names dead stones")
	maxGames := fs.Int("max-games", 0, "read only the first N games (0: all)")
	workers := fs.Int("workers", label.DefaultEngines, "engine processes working at once")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *out == "" || *workers < 1 || *maxGames < 0 {
		return fmt.Errorf(`%w: label --games PATH --out FILE.jsonl [--engine "gnugo --mode gtp"] [--max-games N] [--workers N]`, errUsage)
	}
	if _, err := os.Stat(*games); err != nil {
		return fmt.Errorf("games: %w", err)
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "label", "games", total)
	var st label.Stats
	var runErr error
	// The file is replaced atomically when the run ends, interrupted or not: an interrupted run keeps
	// the labels made so far, each a whole line, and a crash leaves any earlier file as it was.
	err = atomicfile.Write(*out, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw) // one object per line, newline included
		st, runErr = label.Run(ctx, *games, label.Options{
			Engine:   *engine,
			Engines:  *workers,
			MaxGames: *maxGames,
			Progress: meter.Add,
		}, func(l *label.Label) error { return enc.Encode(l) })
		if runErr != nil && !errors.Is(runErr, context.Canceled) {
			return runErr // nothing is written over the target
		}
		return bw.Flush()
	})
	meter.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "labelled %d of %d games (%d without a counted result, %d failed) into %s\n",
		st.Labelled, st.Games, st.NoCount, st.Failed, *out)
	if runErr != nil {
		return fmt.Errorf("interrupted; kept %d labels in %s: %w", st.Labelled, *out, runErr)
	}
	return nil
}
