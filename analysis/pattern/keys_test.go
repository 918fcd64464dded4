package pattern

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

// TestKeysInvariant: a pattern, its 8 images and its colour swap (with the other player to move) share
// one key, for every size, on whole transformed boards — random positions with captures, on an odd
// and an even board.
func TestKeysInvariant(t *testing.T) {
	rng := rand.NewPCG(1, 2)
	rounds := 6
	if testing.Short() || raceEnabled {
		rounds = 2
	}
	for _, size := range []int{19, 8} {
		b := mustBoard(t, size)
		for round := range rounds {
			toPlay := randomPlay(b, rng, board.Black, 40+round*15, nil)
			var images [numSyms][2]*board.Board
			for sym := range numSyms {
				images[sym][0] = transformBoard(t, b, sym, false)
				images[sym][1] = transformBoard(t, b, sym, true)
			}
			for _, p := range b.Points() {
				if b.At(p) != board.Empty {
					continue
				}
				want := KeysAt(b, p, toPlay)
				x, y := p.XY()
				for sym := range numSyms {
					tx, ty := symPoint(sym, size, x, y)
					q := board.At(tx, ty)
					if got := KeysAt(images[sym][0], q, toPlay); got != want {
						t.Fatalf("%dx%d %s: image %d has other keys", size, size, p.GTP(size), sym)
					}
					if got := KeysAt(images[sym][1], q, toPlay.Opponent()); got != want {
						t.Fatalf("%dx%d %s: colour-swapped image %d has other keys", size, size, p.GTP(size), sym)
					}
				}
			}
		}
	}
}

// TestKeysDistinguishPlayer: the same stones are another pattern for the other player to move, unless
// the pattern is its own colour swap up to a symmetry.
func TestKeysDistinguishPlayer(t *testing.T) {
	b, err := board.Parse(`
		. . . . .
		. . . . .
		. X . O .
		. . . . .
		. . . . .`)
	if err != nil {
		t.Fatal(err)
	}
	// At the centre, the mirror image of X . O is O . X: the colour swap is an image.
	if p := board.At(2, 2); KeysAt(b, p, board.Black) != KeysAt(b, p, board.White) {
		t.Error("a pattern that is its own colour swap up to a mirror should not depend on the player")
	}
	// Above X, the stones are at distances 2 and 5: no symmetry swaps them.
	kb, kw := KeysAt(b, board.At(1, 1), board.Black), KeysAt(b, board.At(1, 1), board.White)
	for s := range NumSizes {
		if kb[s] == kw[s] {
			t.Errorf("size %d: same key for Black and White to move", MinSize+s)
		}
	}
}

// TestKeysDistinct: different invariant patterns get different keys, and equal ones equal keys, over a
// large sample: every empty point of many positions of random games (many repeated small patterns), and
// of random colourings (many distinct large ones), checked against an explicit canonical form.
func TestKeysDistinct(t *testing.T) {
	rng := rand.NewPCG(3, 4)
	r := rand.New(rng)
	classes := map[uint64]string{}
	forms := map[string]bool{}
	occurrences := 0
	check := func(g *grid, toPlay board.Color) {
		for _, p := range board.PointsOf(g.size) {
			if g.c[gridIndex[p]] != board.Empty {
				continue
			}
			for i, key := range g.keys(p, perspective(toPlay)) {
				c := canonical(g, p, toPlay, MinSize+i)
				if old, ok := classes[key]; ok && old != c {
					t.Fatalf("collision: key %016x for %q and %q", key, old, c)
				}
				classes[key] = c
				forms[c] = true
				occurrences++
			}
		}
	}
	n := 40
	if testing.Short() || raceEnabled {
		n = 4
	}
	var g grid
	for i := range n {
		b := mustBoard(t, []int{19, 13, 9}[i%3])
		c := board.Black
		for range 8 {
			c = randomPlay(b, rng, c, 30, nil)
			g.load(b)
			check(&g, c)
		}
	}
	// Random colourings go straight into the grid: the key function does not look at liberties.
	for i := range n {
		g.reset(19)
		density := 0.2 + 0.6*float64(i)/float64(n)
		for _, p := range board.PointsOf(19) {
			if r.Float64() < density {
				g.c[gridIndex[p]] = board.Color(1 + r.IntN(2))
			}
		}
		check(&g, board.Color(1+i%2))
	}
	// A shared key would have failed above; equal forms with two keys show up as more keys than forms.
	if len(forms) != len(classes) {
		t.Fatalf("%d keys for %d canonical forms: an invariant pattern got two keys", len(classes), len(forms))
	}
	t.Logf("%d pattern occurrences, %d distinct invariant patterns, no collision", occurrences, len(classes))
}
