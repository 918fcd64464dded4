package live

import (
	"context"
	"slices"

	"aji/analysis/board"
	"aji/analysis/cfg"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/internal/boardimage"
)

// pathWeights is what the CFG view asks of a predictor for its γ column:
// the learned weight of a path feature (a 24-bit label as cfg.PathLabel
// makes it); ok is false for a feature the model has no weight for. It is
// checked at run time, so no predictor's package need be imported.
type pathWeights interface {
	PathGamma(label uint32) (gamma float64, ok bool)
}

// pathIterations is optional beside pathWeights: the iterations of
// Algorithm 1 after which the predictor takes its labels. Without it
// cfg.DefaultIterations is assumed. Another iteration's label is another
// hash, so a γ found for it would be a coincidence.
type pathIterations interface {
	PathIterations() int
}

// PathGammas are a predictor's γ for the path features of every empty point
// of one position, found on an engine worker so that hovering is a lookup.
// Shared with the engine's cache: never modified after it is made.
type PathGammas struct {
	Unable bool // the predictor has no path weights
	Iters  int  // the iterations its labels are taken after
	Labels []uint32
	Gamma  []float64 // Gamma[i] is the weight of Labels[i]; Labels is sorted
}

func (pg *PathGammas) bytes() int { return 12*len(pg.Labels) + 96 }

// Lookup returns the γ of a path feature, false when the model has none.
func (pg *PathGammas) Lookup(label uint32) (float64, bool) {
	i, ok := slices.BinarySearch(pg.Labels, label)
	if !ok {
		return 0, false
	}
	return pg.Gamma[i], true
}

// PathGammas asks the predictor name for the γ of every path feature of
// pos: the compute step of PathGammasTask.
func (a *Predictors) PathGammas(_ context.Context, name string, pos *game.Position) (*PathGammas, error) {
	pred, put, err := a.get(name)
	if err != nil {
		return nil, err
	}
	defer put()
	pw, ok := pred.(pathWeights)
	if !ok {
		return &PathGammas{Unable: true}, nil
	}
	pg := &PathGammas{Iters: cfg.DefaultIterations}
	if pi, ok := pred.(pathIterations); ok {
		pg.Iters = pi.PathIterations()
	}
	g := cfg.Build(&pos.Board, pos.ToPlay, pg.Iters)
	var fs []uint32
	for _, p := range pos.Board.Points() {
		fs = g.PathFeatures(p, fs)
	}
	slices.Sort(fs)
	for _, f := range slices.Compact(fs) {
		if gamma, ok := pw.PathGamma(f); ok {
			pg.Labels = append(pg.Labels, f)
			pg.Gamma = append(pg.Gamma, gamma)
		}
	}
	return pg, nil
}

// PathGammasTask makes the engine task that finds the γ of a position's
// path features; deliver runs on the UI thread with its result.
func (a *Predictors) PathGammasTask(name string, deliver func(*PathGammas, error)) engine.Task {
	return engine.NewTask("cfg-gamma/"+name,
		func(ctx context.Context, pos *game.Position) (*PathGammas, error) {
			return a.PathGammas(ctx, name, pos)
		},
		(*PathGammas).bytes, deliver)
}

// GraphPicture is the common fate graph g in the terms of a board picture (internal/boardimage, which
// the board widget shares): each vertex with its stones, the point its node is drawn on, its colour and
// its label after the given iterations of Algorithm 1, and the edges. The CFG tab and `aji render`
// draw it.
func GraphPicture(g *cfg.Graph, iterations int) *boardimage.CFG {
	n := g.NumVertices()
	pic := &boardimage.CFG{Vertices: make([]boardimage.CFGVertex, n)}
	pts := make([]boardimage.Point, 0, g.Size()*g.Size())
	at := func(p board.Point) boardimage.Point { x, y := p.XY(); return boardimage.Point{X: x, Y: y} }
	for v := range cfg.Vertex(n) {
		vx := &pic.Vertices[v]
		vx.Label = g.Label(v, iterations)
		switch g.Color(v) {
		case board.Black:
			vx.Stone = boardimage.Black
		case board.White:
			vx.Stone = boardimage.White
		}
		start := len(pts)
		for _, p := range g.Points(v) {
			pts = append(pts, at(p))
		}
		vx.Points = pts[start:len(pts):len(pts)]
		vx.Centre = at(g.Centre(v))
	}
	edges := g.Edges(make([][2]cfg.Vertex, 0, g.NumEdges()))
	pic.Edges = make([][2]int32, len(edges))
	for i, e := range edges {
		pic.Edges[i] = [2]int32{int32(e[0]), int32(e[1])}
	}
	return pic
}
