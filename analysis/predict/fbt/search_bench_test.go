package fbt

import (
	"context"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
	"aji/analysis/predict"
)

// recorder is a search prior that keeps every position the search asks it about.
type recorder struct {
	predict.Predictor
	positions []game.Position
}

func (r *recorder) Predict(pos *game.Position, out *predict.Distribution) {
	r.positions = append(r.positions, *pos)
	r.Predictor.Predict(pos, out)
}

// BenchmarkPredictSearch9 is the embedded fbt as the search's prior: the positions a 9x9 search of
// 5,000 playouts from the empty board expands, in the order it expands them, so that the pattern
// tracker's work between positions and the caches are the search's.
func BenchmarkPredictSearch9(b *testing.B) {
	m, err := Shared("")
	if err != nil {
		b.Skip(err)
	}
	rec := &recorder{Predictor: NewPredictor("fbt", m, false)}
	s, err := mcts.New(mcts.Options{Playouts: 5000, Threads: 1, Seed: 1, Selection: mcts.RAVE, Policy: mcts.PolicyPattern, Prior: rec})
	if err != nil {
		b.Fatal(err)
	}
	start := &game.Position{ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint, Komi: 7}
	if err := start.Board.Reset(9); err != nil {
		b.Fatal(err)
	}
	s.Run(context.Background(), start)
	p := NewPredictor("fbt", m, false)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		predictAt(p, rec.positions, i)
		i++
	}
	b.ReportMetric(float64(len(rec.positions)), "positions")
}

// predictAt predicts the i-th of positions, cycling. It is a function of its own so that a profiler
// can count the benchmark's work apart from the search that recorded the positions (cg.sh in
// docs/notes/search-runs).
//
//go:noinline
func predictAt(p *Predictor, positions []game.Position, i int) {
	var d predict.Distribution
	p.Predict(&positions[i%len(positions)], &d)
}
