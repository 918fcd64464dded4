package surrogate

import (
	"testing"

	"aji/analysis/board"
	"aji/models/modeltest"
)

// seeded returns a model of each kind with a few patterns in both tables.
func seeded(tb testing.TB) (*Beta, *Hier) {
	b, m1, m2, target := twoMoves(tb)
	beta := NewBeta(1, false, LearnAll)
	hier := NewHier(1, 1, 100, 0.5, LearnAll)
	for _, mv := range []board.Point{m1, m2} {
		for _, c := range []board.Color{board.Black, board.White} {
			beta.Prior(b, mv, c, target, board.Black)
			hier.Prior(b, mv, c, target, board.Black)
		}
	}
	return beta, hier
}

// FuzzDecodeBeta fuzzes DecodeBeta behind a valid checksum (see modeltest).
func FuzzDecodeBeta(f *testing.F) {
	beta, _ := seeded(f)
	modeltest.FuzzDecode(f, betaHeader, [][]byte{beta.payload(), NewBeta(0, true, LearnProved).payload()}, func(file []byte) error {
		_, err := DecodeBeta(file, "fuzz")
		return err
	})
}

// FuzzDecodeHier fuzzes DecodeHier behind a valid checksum.
func FuzzDecodeHier(f *testing.F) {
	_, hier := seeded(f)
	modeltest.FuzzDecode(f, hierHeader, [][]byte{hier.payload()}, func(file []byte) error {
		_, err := DecodeHier(file, "fuzz")
		return err
	})
}
