package cfg

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/assets"
)

// BenchmarkBuild19: the graph, labels (1 iteration) and the path features of every empty point of a
// 19x19 position at move 150, from scratch: what a predictor that sees one position at a time pays.
func BenchmarkBuild19(b *testing.B) {
	pos := midGame(b)
	var g Graph
	feats := make([]uint32, 0, 1024)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		g.Build(&pos.Board, pos.ToPlay, DefaultIterations)
		for _, p := range pos.Board.EmptyPoints() {
			feats = g.PathFeatures(p, feats[:0])
			n += len(feats)
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "features/op")
}

// BenchmarkBuildOnly19 is BenchmarkBuild19 without the features.
func BenchmarkBuildOnly19(b *testing.B) {
	pos := midGame(b)
	var g Graph
	b.ReportAllocs()
	for b.Loop() {
		g.Build(&pos.Board, pos.ToPlay, DefaultIterations)
	}
}

// BenchmarkTrackerReset19: the tracker's from-scratch start at move 150 (every label and walk of both
// perspectives), the work an incremental update saves.
func BenchmarkTrackerReset19(b *testing.B) {
	pos := midGame(b)
	tr := NewTracker(DefaultIterations)
	b.ReportAllocs()
	for b.Loop() {
		tr.Reset(&pos.Board)
	}
}

// benchMoves measures one incremental update per op (both perspectives' tables), replaying moves from
// start and starting over from a copy when they run out (the copy is timed too, a few µs per sequence).
func benchMoves(b *testing.B, start *Tracker, moves []game.Move) {
	tr := NewTracker(start.Iterations())
	tr.CopyFrom(start)
	var upd Update
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == len(moves) {
			tr.CopyFrom(start)
			i = 0
		}
		if err := tr.Play(moves[i].Point, moves[i].Color); err != nil {
			b.Fatal(err)
		}
		u := tr.LastUpdate()
		upd.Removed += u.Removed
		upd.Added += u.Added
		i++
	}
	b.ReportMetric(float64(upd.Removed)/float64(b.N), "removals/op")
	b.ReportMetric(float64(upd.Added)/float64(b.N), "additions/op")
}

// BenchmarkTrackerPlayGame19: one incremental update per move along the main line of a professional game
// (the first embedded sample), from the empty board.
func BenchmarkTrackerPlayGame19(b *testing.B) {
	_, data, err := assets.Sample()
	if err != nil {
		b.Fatal(err)
	}
	games, err := game.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var moves []game.Move
	err = games[0].WalkMainLine(func(_ *game.Position, m game.Move) error {
		moves = append(moves, m)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	empty, _ := board.New(19)
	start := NewTracker(DefaultIterations)
	start.Reset(empty)
	benchMoves(b, start, moves)
}

// BenchmarkTrackerPlayout19: one incremental update per move of random playouts on the empty 19x19
// board, to the end (the setting of Table II, with many captures late on).
func BenchmarkTrackerPlayout19(b *testing.B) {
	empty, _ := board.New(19)
	start := NewTracker(DefaultIterations)
	start.Reset(empty)
	// Five playouts, each replayed from the empty board.
	var seqs [][]game.Move
	rng := rand.NewPCG(61, 62)
	for range 5 {
		bd := *empty
		var moves []game.Move
		c, passes := board.Black, 0
		for passes < 2 {
			p := bd.RandomMove(rng, c)
			bd.PlayLegal(p, c)
			if p == board.Pass {
				passes++
			} else {
				passes = 0
			}
			moves = append(moves, game.Move{Color: c, Point: p})
			c = c.Opponent()
		}
		seqs = append(seqs, moves)
	}
	tr := NewTracker(DefaultIterations)
	var upd Update
	b.ReportAllocs()
	s, i := 0, 0
	tr.CopyFrom(start)
	for b.Loop() {
		if i == len(seqs[s]) {
			s, i = (s+1)%len(seqs), 0
			tr.CopyFrom(start)
		}
		m := seqs[s][i]
		if err := tr.Play(m.Point, m.Color); err != nil {
			b.Fatal(err)
		}
		u := tr.LastUpdate()
		upd.Removed += u.Removed
		upd.Added += u.Added
		i++
	}
	b.ReportMetric(float64(upd.Removed)/float64(b.N), "removals/op")
	b.ReportMetric(float64(upd.Added)/float64(b.N), "additions/op")
}
