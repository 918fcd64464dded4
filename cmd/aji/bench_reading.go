package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"aji/analysis/reading"
)

// defaultReadingProblems is the problem file `aji bench reading` solves: GNU Go's reading tests as
// ../shared/data holds them.
var defaultReadingProblems = filepath.Join("..", "shared", "data", "reading-problems.jsonl")

// readingFigure is one method's run over a problem file at the default options, on one goroutine.
type readingFigure struct {
	Method         string  `json:"method"`
	Problems       int     `json:"problems"`
	Passed         int     `json:"passed"`
	Proved         int     `json:"proved"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	MedianMs       float64 `json:"median_ms"` // per problem
	P90Ms          float64 `json:"p90_ms"`
}

// benchReading solves every problem of the file once with proof-number search and once with
// probability propagation (each on a warm Solver, as reading.Run does).
func benchReading(ctx context.Context, path string) ([]readingFigure, error) {
	problems, err := reading.LoadProblems(path)
	if err != nil {
		return nil, err
	}
	var figs []readingFigure
	for _, m := range []reading.Method{reading.PNS, reading.PP} {
		r, err := reading.Run(ctx, problems, reading.Options{Method: m}, nil)
		if err != nil {
			return nil, err
		}
		figs = append(figs, readingFigure{Method: r.Method, Problems: r.Total, Passed: r.Passed, Proved: r.Proved,
			NodesPerSecond: r.NodesPerSecond, MedianMs: r.TimeMedianMs, P90Ms: r.TimeP90Ms})
	}
	return figs, nil
}

func printReadingFigures(w io.Writer, figs []readingFigure) {
	for _, f := range figs {
		fmt.Fprintf(w, "reading %s: %.0f nodes/s, %.3g ms median, %.3g ms p90 a problem (%d problems, %d passed, %d proved)\n",
			f.Method, f.NodesPerSecond, f.MedianMs, f.P90Ms, f.Problems, f.Passed, f.Proved)
	}
}
