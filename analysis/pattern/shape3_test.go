package pattern

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

func TestCode3At(t *testing.T) {
	b, err := board.Parse(`
		X O . .
		. O X .
		O X . .
		. . . .`)
	if err != nil {
		t.Fatal(err)
	}
	// The empty point a3 (x=0, y=1), Black to play.
	c := Code3At(b, board.At(0, 1), board.Black)
	want := []State{Off, Own, Opp, Off, Opp, Off, Opp, Own}
	for i, s := range want {
		if c.State(i) != s {
			t.Errorf("neighbour %d: %v, want %v", i, c.State(i), s)
		}
	}
	// X at a4 has a3 as its only liberty; the O chain b4-b3 has c4 and a3, O at a2 has a3 and a1.
	if !c.Atari(0) || c.Atari(2) || c.Atari(3) {
		t.Errorf("atari bits %04b, want above only", c>>16)
	}
	if w := Code3At(b, board.At(0, 1), board.White); w != c.Swap() {
		t.Errorf("White to play: %x, want the colour swap %x", w, c.Swap())
	}
}

func TestCode3Swap(t *testing.T) {
	for c := range Code3(1 << 16) {
		s := c.Swap()
		for i := range 8 {
			want := c.State(i)
			switch want {
			case Own:
				want = Opp
			case Opp:
				want = Own
			}
			if s.State(i) != want {
				t.Fatalf("Swap(%04x) = %04x", c, s)
			}
		}
		if s.Swap() != c {
			t.Fatalf("Swap is not an involution at %04x", c)
		}
	}
}

// TestClass3Invariant: over random positions, a 3x3 code and the codes at the image point of each
// transformed board and colour-swapped board share a class; the class ignores nothing else: equal classes
// mean equal canonical codes, and the colour part of the class agrees with the size-3 template key.
func TestClass3Invariant(t *testing.T) {
	rng := rand.NewPCG(11, 12)
	b := mustBoard(t, 9)
	keyOf := map[uint64]Code3{}
	classOf := map[Code3]uint64{}
	for round := range 8 {
		toPlay := randomPlay(b, rng, board.Black, 12, nil)
		var images [numSyms][2]*board.Board
		for sym := range numSyms {
			images[sym][0] = transformBoard(t, b, sym, false)
			images[sym][1] = transformBoard(t, b, sym, true)
		}
		for _, p := range b.Points() {
			if b.At(p) != board.Empty {
				continue
			}
			c := Code3At(b, p, toPlay)
			if !c.Valid() || Class3(c) == NoClass3 {
				t.Fatalf("round %d %s: code %05x from a real board is invalid", round, p.GTP(9), c)
			}
			if Class3Code(Class3(c)) != c.Canonical() {
				t.Fatalf("class %d has code %05x, want %05x", Class3(c), Class3Code(Class3(c)), c.Canonical())
			}
			x, y := p.XY()
			for sym := range numSyms {
				tx, ty := symPoint(sym, 9, x, y)
				q := board.At(tx, ty)
				if Class3(Code3At(images[sym][0], q, toPlay)) != Class3(c) ||
					Class3(Code3At(images[sym][1], q, toPlay.Opponent())) != Class3(c) {
					t.Fatalf("%s: image %d has another class", p.GTP(9), sym)
				}
			}
			// Without atari bits, a 3x3 class is exactly a size-3 template pattern.
			key := KeysAt(b, p, toPlay)[0]
			plain := (c & ColourMask).Canonical()
			if old, ok := keyOf[key]; ok && old != plain {
				t.Fatalf("size-3 key %x for 3x3 codes %04x and %04x", key, old, plain)
			}
			if old, ok := classOf[plain]; ok && old != key {
				t.Fatalf("3x3 code %04x with size-3 keys %x and %x", plain, old, key)
			}
			keyOf[key], classOf[plain] = plain, key
		}
	}
}

func TestClass3Tables(t *testing.T) {
	n := NumClasses3()
	// Interior colour patterns alone: Burnside over the 8 symmetries of 3^8 colourings gives 954
	// (with the atari bits and the edges there are many more).
	interior := map[Code3]bool{}
	for c := range Code3(1 << 16) {
		if c.Valid() && func() bool {
			for i := range 8 {
				if c.State(i) == Off {
					return false
				}
			}
			return true
		}() {
			interior[c.Canonical()] = true
		}
	}
	if len(interior) != 954 {
		t.Errorf("%d interior 3x3 colour classes, want 954", len(interior))
	}
	if n <= len(interior) || n >= NoClass3 {
		t.Errorf("NumClasses3() = %d", n)
	}
	for _, c := range []Code3{0xFFFF, 1 << 16, NumCodes3} { // all off; atari on an empty point; too big
		if c.Valid() || Class3(c) != NoClass3 {
			t.Errorf("code %05x should be invalid", c)
		}
	}
	t.Logf("%d classes of 3x3 codes with atari bits", n)
}
