package surrogate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

// randomBoard fills a board of the given size with stones at random, about 45% of the points.
func randomBoard(t testing.TB, size int, seed uint64) *board.Board {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	b, err := board.New(size)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Points() {
		switch r := rng.IntN(20); {
		case r < 5:
			_ = b.Set(p, board.Black)
		case r < 9:
			_ = b.Set(p, board.White)
		}
	}
	return b
}

// symmetric is b under symmetry s of the whole board, and the map of points.
func symmetric(t testing.TB, b *board.Board, s int) (*board.Board, func(board.Point) board.Point) {
	t.Helper()
	n := b.Size()
	mapP := func(p board.Point) board.Point {
		x, y := p.XY()
		if s&1 != 0 {
			x = n - 1 - x
		}
		if s&2 != 0 {
			y = n - 1 - y
		}
		if s&4 != 0 {
			x, y = y, x
		}
		return board.At(x, y)
	}
	out, err := board.New(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Points() {
		if c := b.At(p); c != board.Empty {
			_ = out.Set(mapP(p), c)
		}
	}
	return out, mapP
}

// cases are (move, target) pairs of b: empty moves near stones of the defender's strings.
func cases(b *board.Board, attacker board.Color) [][2]board.Point {
	var out [][2]board.Point
	for _, p := range b.Points() {
		if b.At(p) != board.Empty {
			continue
		}
		for _, n := range p.Neighbours() {
			if b.At(n) == attacker.Opponent() {
				out = append(out, [2]board.Point{p, n})
				break
			}
		}
	}
	return out
}

func TestKeysInvariantUnderSymmetries(t *testing.T) {
	for _, size := range []int{9, 19} {
		b := randomBoard(t, size, uint64(size))
		attacker := board.Black
		cs := cases(b, attacker)
		if len(cs) < 20 {
			t.Fatalf("only %d cases", len(cs))
		}
		for s := 1; s < 8; s++ {
			sb, mapP := symmetric(t, b, s)
			for _, c := range cs {
				want := KeysOf(b, c[0], c[1], attacker)
				if got := KeysOf(sb, mapP(c[0]), mapP(c[1]), attacker); got != want {
					t.Fatalf("%dx%d, symmetry %d, move %s: keys %x, want %x", size, size, s, c[0].GTP(size), got, want)
				}
			}
		}
	}
}

// templateOf is the template of the offset (dx, dy), or −1 outside T7.
func templateOf(dx, dy int) int {
	for i := range numCells {
		if int(cellDX[i]) == dx && int(cellDY[i]) == dy {
			for t := range NumTemplates {
				if i < templateEnd[t] {
					return t
				}
			}
		}
	}
	return -1
}

// TestKeysSeeEveryVertexOfTheirTemplate changes one vertex at a time around a move: the keys of
// the templates that contain it change, and on a board where the change joins no strings (only the
// target on it) those of the smaller templates do not.
func TestKeysSeeEveryVertexOfTheirTemplate(t *testing.T) {
	move, target := board.At(9, 9), board.At(9, 8)
	crowded := randomBoard(t, 19, 3)
	_ = crowded.Set(move, board.Empty)
	_ = crowded.Set(target, board.White)
	bare, _ := board.New(19)
	_ = bare.Set(target, board.White)
	for _, b := range []*board.Board{crowded, bare} {
		base := KeysOf(b, move, target, board.Black)
		changed := 0
		for dy := -3; dy <= 3; dy++ {
			for dx := -3; dx <= 3; dx++ {
				tmpl := templateOf(dx, dy)
				p := board.At(9+dx, 9+dy)
				if tmpl <= 0 || p == target {
					continue
				}
				old := b.At(p)
				for _, c := range []board.Color{board.Empty, board.Black, board.White} {
					if c == old {
						continue
					}
					mod := *b
					_ = mod.Set(p, c)
					k := KeysOf(&mod, move, target, board.Black)
					for u := range NumTemplates {
						same := k[u] == base[u]
						if u >= tmpl && same || b == bare && u < tmpl && !same {
							t.Fatalf("vertex (%+d,%+d) of T%d set to %v: T%d key same=%v", dx, dy, tmpl, c, u, same)
						}
					}
					changed++
				}
			}
		}
		if changed != 2*(numCells-2) {
			t.Fatalf("%d changes tried", changed)
		}
	}
}

// TestKeysStates: goal stones differ from other defender stones, the board's edge from an empty
// point, and the keys are not invariant to swapping the roles.
func TestKeysStates(t *testing.T) {
	b, err := board.Parse(`
		. . . . . . .
		. . . . . . .
		. O O . . . .
		. . . . X . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`)
	if err != nil {
		t.Fatal(err)
	}
	move := board.At(3, 3) // the O string is at offsets (−2, −1) and (−1, −1): T4 and T2
	goal := KeysOf(b, move, board.At(2, 2), board.Black)
	// The same stones, with the target elsewhere: the two O are ordinary defender stones.
	other := *b
	_ = other.Set(board.At(6, 6), board.White)
	plain := KeysOf(&other, move, board.At(6, 6), board.Black)
	if goal[1] != plain[1] || goal[2] == plain[2] {
		t.Errorf("goal vs defender stones: T1 same %v (want true), T2 same %v (want false)", goal[1] == plain[1], goal[2] == plain[2])
	}
	swapped := KeysOf(b, move, board.At(4, 3), board.White)
	if swapped[1] == goal[1] {
		t.Error("keys invariant to swapping attacker and defender")
	}
	// An empty board but for a far target: at the edge T0 is the same as in the middle, T1 not.
	far, _ := board.New(19)
	_ = far.Set(board.At(15, 15), board.White)
	edge := KeysOf(far, board.At(0, 9), board.At(15, 15), board.Black)
	middle := KeysOf(far, board.At(5, 9), board.At(15, 15), board.Black)
	if edge[0] != middle[0] || edge[1] == middle[1] {
		t.Errorf("edge vs middle: T0 same %v (want true), T1 same %v (want false)", edge[0] == middle[0], edge[1] == middle[1])
	}
}

func TestPassHasItsOwnKeys(t *testing.T) {
	b := randomBoard(t, 19, 9)
	pass := KeysOf(b, board.Pass, board.At(3, 3), board.Black)
	seen := map[uint64]bool{}
	for _, k := range pass {
		seen[k] = true
	}
	for _, c := range cases(b, board.Black) {
		for _, k := range KeysOf(b, c[0], c[1], board.Black) {
			if seen[k] {
				t.Fatalf("a pass key is also the key of %s", c[0].GTP(19))
			}
		}
	}
	if len(seen) != NumTemplates || KeysOf(randomBoard(t, 9, 1), board.Pass, board.At(1, 1), board.White) != pass {
		t.Error("pass keys are not one per template, the same everywhere")
	}
}

func TestKeysDoNotAllocate(t *testing.T) {
	b := randomBoard(t, 19, 5)
	cs := cases(b, board.Black)
	if n := testing.AllocsPerRun(100, func() {
		for _, c := range cs[:10] {
			_ = KeysOf(b, c[0], c[1], board.Black)
		}
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func BenchmarkKeysOf(b *testing.B) {
	bd := randomBoard(b, 19, 5)
	cs := cases(bd, board.Black)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := cs[i%len(cs)]
		_ = KeysOf(bd, c[0], c[1], board.Black)
	}
}

// BenchmarkPrior is a prior for a new leaf, its patterns already harvested: the cost a model adds
// to every child probability propagation creates.
func BenchmarkPrior(b *testing.B) {
	bd := randomBoard(b, 19, 5)
	cs := cases(bd, board.Black)
	for _, m := range []Model{NewBeta(1, false, LearnAll), NewHier(1, 1, 100, 0.5, LearnAll)} {
		b.Run(fmt.Sprintf("%T", m)[len("*surrogate."):], func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				c := cs[i%len(cs)]
				_ = m.Prior(bd, c[0], board.Black, c[1], board.Black)
			}
		})
	}
}
