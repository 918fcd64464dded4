package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"aji/analysis/board"
	"aji/analysis/findpattern"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/internal/progress"
)

// patternMatch is one line of `aji find-pattern`'s output.
type patternMatch struct {
	File   string `json:"file"`           // the record's name in the collection
	Game   int    `json:"game,omitempty"` // which game of the file, from 0; left out for the first
	Move   int    `json:"move"`           // moves played before the position (as --move counts)
	Point  string `json:"point"`
	Color  string `json:"color"` // B or W: the player to move
	Played bool   `json:"played"`
	Next   string `json:"next"` // the record's move there
}

// runFindPattern lists, as JSON lines, every legal move of a collection where a shape or a feature
// fires, and sums up on stderr how often the record played it.
func runFindPattern(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("find-pattern", flag.ContinueOnError)
	games := fs.String("games", "", "game collection: folder, .sgf, .tar.xz or .tar.gz")
	shape := fs.String("shape", "", "the shape as `SIZE:KEY`: a size 3..12 (mm, fbt, cfg) or T1..T14 (bayes) and its key in hex")
	sgf := fs.String("sgf", "", "read the shape from this game `FILE` instead, with --move, --at and --size")
	move := fs.Int("move", -1, "with --sgf: main-line moves played before the position (default: all)")
	at := fs.String("at", "", "with --sgf: the empty `POINT` the shape is around, e.g. D4")
	size := fs.String("size", "8", "with --sgf: the template, 3..12 or T1..T14")
	feat := fs.String("feature", "", "a feature level by its name, e.g. \"atari: ladder atari\"")
	predictor := fs.String("predictor", "", "only where the shape is this predictor's shape factor, its largest known shape (mm, fbt, cfg, bayes, …)")
	model := fs.String("model", "", "with --predictor: its model `FILE` instead of the embedded one")
	limit := fs.Int("limit", 0, "stop after this many matches (0: all)")
	workers := fs.Int("workers", 0, "goroutines (0: all cores)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	queries := 0
	for _, s := range []string{*shape, *sgf, *feat} {
		if s != "" {
			queries++
		}
	}
	if len(rest) > 0 || *games == "" || queries != 1 || (*sgf == "") != (*at == "") || *model != "" && *predictor == "" {
		return fmt.Errorf("%w: %s", errUsage, helpEntries["find-pattern"].usage)
	}
	var q findpattern.Query
	switch {
	case *shape != "":
		q, err = findpattern.ParseShape(*shape)
	case *feat != "":
		q, err = findpattern.FeatureQuery(*feat)
	default:
		q, err = shapeFromGame(*sgf, *move, *at, *size)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *predictor != "" {
		if q.Model, err = shapesOf(*predictor, *model); err != nil {
			return err
		}
	}
	if _, err := os.Stat(*games); err != nil {
		return fmt.Errorf("games: %w", err)
	}
	fmt.Fprintf(os.Stderr, "find-pattern: %s\n", q.Describe())
	// The search counts the files beside its work, so that Ctrl-C is prompt even while a large
	// archive is being counted.
	meter := progress.New(os.Stderr, "find-pattern", "files", 0)
	enc := json.NewEncoder(stdout)
	files := 0
	start := time.Now()
	sum, err := findpattern.Search(ctx, *games, q, findpattern.Options{
		Limit: *limit, Workers: *workers,
		Progress: func(p findpattern.Progress) {
			meter.SetTotal(p.Total)
			meter.Add(p.Files - files)
			files = p.Files
		},
		Skipped: func(name string, err error) { slog.Warn("skipping", "file", name, "err", err) },
	}, func(m findpattern.Match) error {
		return enc.Encode(patternMatch{File: m.File, Game: m.Game, Move: m.Move, Point: m.Point.GTP(m.Size),
			Color: m.Color.String(), Played: m.Played, Next: m.Next.GTP(m.Size)})
	})
	if err == nil {
		meter.SetTotal(sum.Total)
		meter.Done()
	}
	elapsed := time.Since(start)
	fmt.Fprintf(os.Stderr, "find-pattern: %d matches in %d games (%d positions; %d records skipped); the record played %d: hit rate %.1f%%; %.1f s, %.0f positions/s\n",
		sum.Matches, sum.Games, sum.Positions, sum.Skipped, sum.Played, 100*sum.HitRate(), elapsed.Seconds(), float64(sum.Positions)/max(elapsed.Seconds(), 1e-9))
	return err
}

// shapeFromGame is the shape of the template tmpl around the point at of the position after move
// main-line moves of the record in path.
func shapeFromGame(path string, move int, at, tmpl string) (findpattern.Query, error) {
	_, pos, err := positionOf(path, move)
	if err != nil {
		return findpattern.Query{}, err
	}
	p, err := board.ParseGTP(at, pos.Board.Size())
	if err != nil {
		return findpattern.Query{}, fmt.Errorf("--at: %w", err)
	}
	return findpattern.ShapeAt(pos, p, tmpl)
}

// shapesOf is the shape dictionary of the predictor called name, or of one on the model file (of its
// kind) when file is set.
func shapesOf(name, file string) (*pattern.Dictionary, error) {
	if file != "" {
		var err error
		if name, err = predict.Load(file); err != nil {
			return nil, err
		}
	}
	p, err := predict.New(name, predict.Options{NoOwner: true})
	if err != nil {
		return nil, fmt.Errorf("%w: --predictor: %w", errUsage, err)
	}
	s, ok := p.(predict.Shaper)
	if !ok || s.Shapes() == nil || s.Shapes().Len() == 0 {
		return nil, fmt.Errorf("%w: --predictor %s has no shapes", errUsage, name)
	}
	return s.Shapes(), nil
}
