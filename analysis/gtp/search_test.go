package gtp

import (
	"context"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
)

// TestSearchAnalyzeKeepsTheTree: the analyze commands' runs and genmove share one tree, so a second
// analysis of the position adds to the first's visits and genmove goes on from them.
func TestSearchAnalyzeKeepsTheTree(t *testing.T) {
	const playouts = 100
	prior, err := mcts.NewPrior("uniform")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewSearchPlayer(mcts.Options{Playouts: playouts, Threads: 1, Seed: 1, Selection: mcts.UCT, Policy: "light", Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	var b board.Board
	if err := b.Reset(9); err != nil {
		t.Fatal(err)
	}
	req := &Request{Position: game.Position{Board: b, ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint, Komi: 7}}
	visits := func() int {
		n := 0
		for _, c := range p.s.Snapshot().Candidates {
			n += c.Visits
		}
		return n
	}
	for i := 1; i <= 2; i++ {
		a, err := p.Analyze(context.Background(), req)
		if err != nil || a.Playouts != playouts || len(a.Candidates) == 0 {
			t.Fatalf("analysis %d: %v, %+v", i, err, a)
		}
		if got := visits(); got != i*playouts {
			t.Errorf("after analysis %d: %d visits at the root, want %d", i, got, i*playouts)
		}
	}
	if _, _, err := p.GenMove(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := visits(); got != 3*playouts {
		t.Errorf("after genmove: %d visits at the root, want %d", got, 3*playouts)
	}
}
