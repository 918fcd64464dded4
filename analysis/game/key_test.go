package game

import (
	"testing"

	"aji/analysis/board"
)

func TestKeyDiffersOnEachField(t *testing.T) {
	// Black's capture at cb makes a ko at bb that White may not retake at once.
	ko, err := parseOne(t, "(;SZ[9]KM[6.5]AB[ba][ab][bc]AW[bb][ca][db][cc];B[cb])").PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	if k := ko.Key(); k.ko != pt("bb") || k.koColor != board.White {
		t.Fatalf("key holds ko %v for %v", k.ko, k.koColor)
	}
	// The same stones set up: no ko.
	setup, err := parseOne(t, "(;SZ[9]KM[6.5]AB[ba][ab][bc][cb]AW[ca][db][cc]PL[W])").PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	setup.Last, setup.Prev, setup.MoveNumber = ko.Last, ko.Prev, ko.MoveNumber
	if ko.Board.Hash() != setup.Board.Hash() || ko.ToPlay != setup.ToPlay {
		t.Fatal("the set-up position is not the ko position without its ko")
	}
	other := *ko
	if err := other.Board.Set(pt("ii"), board.Black); err != nil {
		t.Fatal(err)
	}
	empty := func(size int) *Position {
		b, err := board.New(size)
		if err != nil {
			t.Fatal(err)
		}
		return &Position{Board: *b, ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint, Komi: 6.5}
	}
	change := func(f func(p *Position)) *Position {
		p := *ko
		f(&p)
		return &p
	}
	tests := []struct {
		name string
		a, b *Position
	}{
		{"stones", &other, change(func(p *Position) { p.Board = other.Board; p.Board.Set(pt("ii"), board.Empty) })},
		{"board size", empty(19), empty(9)},
		{"side to move", ko, change(func(p *Position) { p.ToPlay = board.Black })},
		{"last move", ko, change(func(p *Position) { p.Last = board.Pass })},
		{"move before", ko, change(func(p *Position) { p.Prev = board.Pass })},
		{"ko", ko, setup},
		{"komi", ko, change(func(p *Position) { p.Komi = 7.5 })},
	}
	for _, tt := range tests {
		if tt.a.Key() == tt.b.Key() {
			t.Errorf("%s: equal keys", tt.name)
		}
	}
}

func TestKeyEqualForEqualPositions(t *testing.T) {
	g := parseOne(t, "(;SZ[9]KM[6.5]AB[ba][ab][bc]AW[bb][ca][db][cc];B[cb];W[ee];B[ff])")
	a, err := g.PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.PositionAt(g.Root.firstChild().firstChild().firstChild())
	if err != nil {
		t.Fatal(err)
	}
	// The same stones set up, never a ko: the board of a remembers whom its ended ko forbade.
	c, err := parseOne(t, "(;SZ[9]KM[6.5]AB[ba][ab][bc][cb][ff]AW[ca][db][cc][ee]PL[W])").PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	c.Last, c.Prev = a.Last, a.Prev // MoveNumber differs: no predictor or search reads it
	if a.Key() != b.Key() || a.Key() != c.Key() {
		t.Errorf("equal positions, different keys: %+v %+v %+v", a.Key(), b.Key(), c.Key())
	}
	m := map[Key]int{a.Key(): 1}
	if m[b.Key()] != 1 {
		t.Error("key does not serve as a map key")
	}
}
