package gtp_test

import (
	"testing"

	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/assets"
)

func benchScorer(b *testing.B, pos *game.Position) {
	s := gtp.Scorer{Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Estimate(b.Context(), pos); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScorer9 is final_score on the end of a 9x9 game (400 playouts).
func BenchmarkScorer9(b *testing.B) {
	gs, err := game.LoadFile("testdata/final9.sgf")
	if err != nil {
		b.Fatal(err)
	}
	pos, _ := gs[0].PositionAfter(-1)
	benchScorer(b, pos)
}

// BenchmarkScorer19 is final_score on the end of a professional 19x19 game.
func BenchmarkScorer19(b *testing.B) {
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		b.Fatal(err)
	}
	gs, err := game.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	pos, _ := gs[0].PositionAfter(-1)
	benchScorer(b, pos)
}
