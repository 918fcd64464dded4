package board

import (
	"math/rand/v2"
	"testing"
)

// benchPlayouts plays random games to the end from the empty board and reports moves/s and playouts/s.
func benchPlayouts(b *testing.B, size int) {
	empty, _ := New(size)
	rng := rand.NewPCG(1, 2)
	var board Board
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		board = *empty
		moves += board.Playout(rng, Black, 3*size*size)
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(moves)/s, "moves/s")
	b.ReportMetric(float64(b.N)/s, "playouts/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
}

func BenchmarkPlayout9(b *testing.B)  { benchPlayouts(b, 9) }
func BenchmarkPlayout19(b *testing.B) { benchPlayouts(b, 19) }

func BenchmarkLegal19(b *testing.B) {
	board, _ := New(19)
	board.Playout(rand.NewPCG(3, 3), Black, 150)
	pts := board.Points()
	n := 0
	for i := 0; b.Loop(); i++ {
		if board.Legal(pts[i%len(pts)], Black) {
			n++
		}
	}
	_ = n
}
