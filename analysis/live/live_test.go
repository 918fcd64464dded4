package live

import (
	"path/filepath"
	"testing"

	"aji/analysis/game"
)

// proPosition is the sample professional game (Tono Hiroaki – Tei Meiko)
// after move n of its main line. It is read from assets/games by path:
// the assets package sits above this one.
func proPosition(tb testing.TB, n int) *game.Position {
	tb.Helper()
	games, err := game.LoadFile(filepath.Join("..", "..", "assets", "games", "Agon-01-8.sgf"))
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := games[0].PositionAfter(n)
	if err != nil {
		tb.Fatal(err)
	}
	if pos.MoveNumber != n {
		tb.Fatalf("at move %d, want %d", pos.MoveNumber, n)
	}
	return pos
}
