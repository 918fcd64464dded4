package gtp

import (
	"context"
	"fmt"

	"aji/analysis/board"
	"aji/analysis/mcts"
)

// SearchPlayer is the tree search (analysis/mcts) as a GTP player: genmove runs the search (its limits, or the clock's
// budget when that ends first), keeps the tree between moves, and answers GoGui's search analysis
// through a runner on the same search, so the tree is one.
type SearchPlayer struct {
	s    *mcts.Search
	run  *mcts.Runner // its search is s
	opts mcts.Options
}

// NewSearchPlayer makes the tree-search player with the search options o (its prior included).
func NewSearchPlayer(o mcts.Options) (*SearchPlayer, error) {
	run := mcts.NewRunner(o, nil)
	s, err := run.Search()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return &SearchPlayer{s: s, run: run, opts: o}, nil
}

// SetSeed implements Seeder: a new search with the seed (the tree is dropped).
func (p *SearchPlayer) SetSeed(seed uint64) {
	o := p.opts
	o.Seed = seed
	run := mcts.NewRunner(o, nil)
	if s, err := run.Search(); err == nil {
		p.s, p.run, p.opts = s, run, o
	}
}

// GenMove implements Player. The search knows simple ko but not the game's history, so a best move
// that would repeat a position gives way to the next candidate that does not.
func (p *SearchPlayer) GenMove(ctx context.Context, req *Request) (board.Point, bool, error) {
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

// Played implements Observer: the tree follows the game, so the next search starts from the
// subtree of the move played.
func (p *SearchPlayer) Played(_ board.Color, pt board.Point) { p.s.Play(pt) }

// Reset implements Observer. The search notices by itself that the next position is not its root.
func (p *SearchPlayer) Reset() {}

// Analyze implements Analyzer for GoGui's aji-search and aji-pv: a run until ctx is done or a limit
// is reached.
func (p *SearchPlayer) Analyze(ctx context.Context, req *Request) (*Analysis, error) {
	p.run.Start(ctx, &req.Position)
	<-p.run.Done()
	r, _ := p.run.Take()
	if r.Err != nil {
		return nil, r.Err
	}
	a := &Analysis{Playouts: r.Playouts}
	for _, c := range r.Candidates {
		a.Candidates = append(a.Candidates, Candidate{Move: c.Move, Visits: c.Visits, WinRate: c.WinRate, Prior: c.Prior, PV: c.PV})
	}
	return a, nil
}
