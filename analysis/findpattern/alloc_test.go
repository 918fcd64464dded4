package findpattern

import (
	"os"
	"testing"

	"aji/analysis/game"
)

// TestNoAllocationPerMove: replaying a game through the matcher allocates what the replay alone does
// (its position, once per game) and nothing per move, for each kind of query; the matches go into
// room made beforehand, since recording one is the only allocation the hot loop may make.
func TestNoAllocationPerMove(t *testing.T) {
	data, err := os.ReadFile("../../assets/games/Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	games, err := game.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	nop := func(*game.Position, game.Move) error { return nil }
	base := testing.AllocsPerRun(5, func() { _ = g.WalkMainLine(nop) })
	feat, err := FeatureQuery("atari: other atari")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []Query{{Kind: Coulom, Size: 8, Key: 1}, {Kind: Stern, Size: 8, Key: 1}, feat} {
		m := newMatcher(q)
		m.r = &fileResult{matches: make([]Match, 0, 1<<14)}
		allocs := testing.AllocsPerRun(5, func() {
			m.r.matches = m.r.matches[:0]
			_ = g.WalkMainLine(m.position)
		})
		if allocs > base {
			t.Errorf("%v: %.0f allocations a game of %d moves, the replay alone %.0f", q, allocs, g.NumMoves(), base)
		}
	}
}
