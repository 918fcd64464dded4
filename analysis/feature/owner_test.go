package feature

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

func TestOwner(t *testing.T) {
	tests := []struct {
		name  string
		board string
		want  map[string]uint8 // every legal move but pass, with its level
	}{
		{"the mover's own eyes", `
			. X X X X
			X X X X X
			X X . X X
			X X X X X
			X X X X .`, map[string]uint8{"A5": 8, "C3": 8, "E1": 8}},
		{"throw-ins that white always captures", `
			. . O O O
			O O O O O
			O O O O O
			O O O O O
			O O O O .`, map[string]uint8{"A5": 1, "B5": 1}},
	}
	var e Extractor
	var set Set
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := setup(t, tt.board, "")
			e.Extract(pos, &set)
			e.AddOwner(pos, &set)
			if len(set.Moves()) != len(tt.want)+1 {
				t.Fatalf("%d legal moves, want %d", len(set.Moves()), len(tt.want)+1)
			}
			for s, want := range tt.want {
				if got := set.At[point(t, s, 5)][MCOwner]; got != want {
					t.Errorf("owner level at %s = %d, want %d", s, got, want)
				}
			}
			if set.At[board.Pass][MCOwner] != 0 {
				t.Error("pass has an owner level")
			}
		})
	}
}

// TestOwnerLevels checks on random positions that every legal move gets a level in 1..8, the same
// each time the position is extracted.
func TestOwnerLevels(t *testing.T) {
	rng := rand.NewPCG(3, 4)
	var e Extractor
	var set, again Set
	for i := range 10 {
		pos := randomPosition(rng, 9, 60)
		e.Extract(pos, &set)
		e.AddOwner(pos, &set)
		e.Extract(pos, &again)
		e.AddOwner(pos, &again)
		for _, p := range set.Moves() {
			l := set.At[p][MCOwner]
			if p != board.Pass && (l < 1 || l > OwnerBins) {
				t.Fatalf("position %d: owner level %d at %s", i, l, p.GTP(9))
			}
			if again.At[p] != set.At[p] {
				t.Fatalf("position %d: levels at %s differ between runs: %v, %v", i, p.GTP(9), set.At[p], again.At[p])
			}
		}
	}
}
