package board

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestAreaOwners(t *testing.T) {
	b := mustParse(t, `
		X . O
		X . O
		X O .`)
	var dead PointSet
	out := make([]int8, 9)
	b.AreaOwners(&dead, out)
	want := []int8{1, 0, -1, 1, 0, -1, 1, -1, -1}
	if !slices.Equal(out, want) {
		t.Errorf("owners %v, want %v", out, want)
	}
	// The white stone at B1 dead: B1 and C1 join the middle column's region, which touches both colours.
	dead.Add(At(1, 2))
	b.AreaOwners(&dead, out)
	want = []int8{1, 0, -1, 1, 0, -1, 1, 0, 0}
	if !slices.Equal(out, want) {
		t.Errorf("owners with B1 dead %v, want %v", out, want)
	}
}

// AreaOwners and AreaScore are one count: the owners' totals must be the score, on random final-ish
// positions with random dead stones.
func TestAreaOwnersMatchesAreaScore(t *testing.T) {
	pcg := rand.NewPCG(7, 8)
	rng := rand.New(pcg)
	for _, size := range []int{5, 9, 19} {
		for range 20 {
			b, _ := New(size)
			b.Playout(pcg, Black, 2*size*size)
			var dead PointSet
			for _, p := range b.Points() {
				if b.At(p) != Empty && rng.IntN(10) == 0 {
					dead.Add(p)
				}
			}
			out := make([]int8, size*size)
			b.AreaOwners(&dead, out)
			var black, white int
			for _, v := range out {
				switch v {
				case 1:
					black++
				case -1:
					white++
				}
			}
			if wb, ww := b.AreaScore(&dead); wb != black || ww != white {
				t.Fatalf("size %d: owners count %d-%d, AreaScore %d-%d", size, black, white, wb, ww)
			}
		}
	}
}
