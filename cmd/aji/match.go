package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"aji/analysis/board"
	"aji/analysis/match"
)

// runMatch is `aji match`: the flags, then analysis/match plays, and the summary is printed.
func runMatch(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var cfg match.Config
	var pf gtpFlags
	pf.register(fs)
	fs.IntVar(&cfg.Size, "size", 9, "board size")
	fs.Float64Var(&cfg.Komi, "komi", 7, "komi")
	fs.IntVar(&cfg.Games, "games", 0, "games to play; colours alternate, Aji black in the first")
	fs.StringVar(&cfg.Opponent, "opponent", "", `opponent engine command, e.g. "gnugo --mode gtp --level 10"`)
	fs.StringVar(&cfg.Aji, "aji", "", "Aji's engine command (default: this program's gtp with the player flags)")
	fs.StringVar(&cfg.Referee, "referee", match.DefaultReferee, `engine whose final_score counts each game, or "opponent"`)
	fs.StringVar(&cfg.Out, "out", "", "folder for the games' SGF files")
	fs.IntVar(&cfg.MaxMoves, "max-moves", 0, "moves after which a game is counted as it stands (default 3·size²)")
	fs.IntVar(&cfg.Parallel, "parallel", 1, "games played at once (each with its own engines)")
	moveTimeout := fs.Float64("move-timeout", 300, "seconds an engine may take for one move before the game is abandoned")
	resume := fs.Bool("resume", false, "continue the match saved in --out: its games count, and only the missing ones are played")
	asJSON := fs.Bool("json", false, "print one JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || cfg.Games < 1 || cfg.Opponent == "" || cfg.Out == "" || cfg.Size < 2 || cfg.Size > board.MaxSize ||
		cfg.Parallel < 1 || cfg.MaxMoves < 0 || *moveTimeout <= 0 || cfg.Referee == "" {
		return fmt.Errorf(`%w: match --size N --komi K --games G --opponent "ENGINE COMMAND" [--playouts N | --time S] --out DIR [--json] [--aji "COMMAND"] [--referee "COMMAND"|opponent] [--parallel N]`, errUsage)
	}
	if err := pf.check(); err != nil {
		return err
	}
	cfg.MoveTimeout = time.Duration(*moveTimeout * float64(time.Second))
	cfg.Seed = pf.seed
	if cfg.MaxMoves == 0 {
		cfg.MaxMoves = 3 * cfg.Size * cfg.Size
	}
	if cfg.Aji == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("match: find this program for Aji's engine: %w", err)
		}
		words := append([]string{exe, "gtp"}, pf.args()...)
		for i, w := range words {
			words[i] = strconv.Quote(w)
		}
		cfg.Aji = strings.Join(words, " ")
	}
	if err := match.CheckEngines(&cfg); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	old := match.SavedFiles(cfg.Out)
	if len(old) > 0 && !*resume {
		return fmt.Errorf("match: %s already holds the games of an earlier match (%s); choose a new --out, or continue it with --resume", cfg.Out, filepath.Base(old[0]))
	}
	saved, err := match.LoadOutcomes(&cfg, old)
	if err != nil {
		return err
	}
	if len(saved) > 0 {
		fmt.Fprintf(os.Stderr, "match: resuming with %d of %d games already played\n", len(saved), cfg.Games)
	}

	start := time.Now()
	outcomes, failed, runErr := match.Play(ctx, &cfg, saved, os.Stderr)
	sum := match.Summarize(&cfg, outcomes, failed)
	if *asJSON {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "Aji %d-%d", sum.Wins, sum.Losses)
		if sum.Draws > 0 {
			fmt.Fprintf(stdout, "-%d", sum.Draws)
		}
		fmt.Fprintf(stdout, " in %d games on %dx%d, komi %g: win rate %.1f%% (95%% CI %.1f%%–%.1f%%), %.1f s per game, %v in all; SGF in %s\n",
			sum.Games, cfg.Size, cfg.Size, cfg.Komi, 100*sum.WinRate, 100*sum.CI95Low, 100*sum.CI95High,
			sum.SecondsPerGame, time.Since(start).Round(time.Second), cfg.Out)
	}
	if runErr != nil {
		return fmt.Errorf("match stopped after %d games (kept in %s): %w", len(outcomes), cfg.Out, runErr)
	}
	if failed > 0 && len(outcomes) == 0 {
		return fmt.Errorf("match: all %d games failed (see the messages above)", failed)
	}
	return nil
}
