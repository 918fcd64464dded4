package main

import (
	"context"
	"fmt"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/mcts"
	"aji/analysis/predict"
	"aji/analysis/territory"
)

// searchPlayer is the tree search as a GTP player: genmove runs the search (its limits, or the clock's
// budget when that ends first), keeps the tree between moves, and answers GoGui's search analysis
// through a runner on the same search, so the tree is one.
type searchPlayer struct {
	s    *mcts.Search
	run  *mcts.Runner // its search is s
	opts mcts.Options
}

// newSearchPlayer makes the tree-search player (analysis/mcts) with the predictor as its prior.
func newSearchPlayer(f *gtpFlags) (gtp.Player, error) {
	sel, err := mcts.ParseSelection(f.selection)
	if err != nil {
		return nil, err
	}
	newPrior := func() (predict.Predictor, error) { return mcts.NewPrior(f.predictor) }
	prior, err := newPrior()
	if err != nil {
		return nil, err
	}
	o := mcts.Options{
		Playouts:  f.playouts,
		Time:      time.Duration(f.seconds * float64(time.Second)),
		Threads:   f.threads,
		Seed:      f.seed,
		Selection: sel,
		Policy:    f.policy,
		Prior:     prior,
		NewPrior:  newPrior,
		Widening:  f.widening,
	}
	run := mcts.NewRunner(o, nil)
	s, err := run.Search()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return &searchPlayer{s: s, run: run, opts: o}, nil
}

// SetSeed implements gtp.Seeder: a new search with the seed (the tree is dropped).
func (p *searchPlayer) SetSeed(seed uint64) {
	o := p.opts
	o.Seed = seed
	run := mcts.NewRunner(o, nil)
	if s, err := run.Search(); err == nil {
		p.s, p.run, p.opts = s, run, o
	}
}

// GenMove implements gtp.Player. The search knows simple ko but not the game's history, so a best move
// that would repeat a position gives way to the next candidate that does not.
func (p *searchPlayer) GenMove(ctx context.Context, req *gtp.Request) (board.Point, bool, error) {
	r := p.s.Run(ctx, &req.Position)
	if r.Resign {
		return board.Pass, true, nil
	}
	if r.Best != board.NoPoint && req.Legal(r.Best) {
		return r.Best, false, nil
	}
	for _, c := range r.Candidates {
		if req.Legal(c.Move) {
			return c.Move, false, nil
		}
	}
	return board.Pass, false, nil
}

// Played implements gtp.Observer: the tree follows the game, so the next search starts from the
// subtree of the move played.
func (p *searchPlayer) Played(_ board.Color, pt board.Point) { p.s.Play(pt) }

// Reset implements gtp.Observer. The search notices by itself that the next position is not its root.
func (p *searchPlayer) Reset() {}

// Analyze implements gtp.Analyzer for GoGui's aji-search and aji-pv: a run until ctx is done or a limit
// is reached.
func (p *searchPlayer) Analyze(ctx context.Context, req *gtp.Request) (*gtp.Analysis, error) {
	p.run.Start(ctx, &req.Position)
	<-p.run.Done()
	r, _ := p.run.Take()
	if r.Err != nil {
		return nil, r.Err
	}
	a := &gtp.Analysis{Playouts: r.Playouts}
	for _, c := range r.Candidates {
		a.Candidates = append(a.Candidates, gtp.Candidate{Move: c.Move, Visits: c.Visits, WinRate: c.WinRate, Prior: c.Prior, PV: c.PV})
	}
	return a, nil
}

// territoryEstimate is the territory drawn by GoGui's aji-territory: the app's default model and
// method, or nil (the server's scoring playouts) when that model cannot be loaded or is not named.
func territoryEstimate(model, method string) gtp.TerritoryFunc {
	kind, meth, err := territory.ParseEstimator(model, method)
	if err != nil {
		return nil
	}
	est, err := territory.NewEstimator(kind, meth)
	if err != nil {
		return nil
	}
	var m territory.Marginals
	return func(ctx context.Context, pos *game.Position, out *[board.NumCells]float64) (string, error) {
		if err := est.Estimate(ctx, pos, &m); err != nil {
			return "", err
		}
		*out = m.Mean
		return model + " " + method, nil
	}
}
