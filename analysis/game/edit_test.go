package game

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
)

func newCursor(t *testing.T, g *Game) *Cursor {
	t.Helper()
	c, err := NewCursor(g)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func saved(t *testing.T, g *Game) string {
	t.Helper()
	var buf bytes.Buffer
	if err := g.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestHandicapPoints(t *testing.T) {
	names := func(size, n int) string {
		var s []string
		for _, p := range HandicapPoints(size, n) {
			s = append(s, p.GTP(size))
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		size, n int
		want    string
	}{
		{19, 2, "D4 Q16"},
		{19, 4, "D4 Q16 D16 Q4"},
		{19, 5, "D4 Q16 D16 Q4 K10"},
		{19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"},
		{13, 3, "D4 K10 D10"},
		{13, 6, "D4 K10 D10 K4 D7 K7"},
		{9, 2, "C3 G7"},
		{9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5"},
		{9, 1, ""},
		{9, 10, ""},
		{10, 5, ""},
		{5, 2, ""},
	} {
		if got := names(tc.size, tc.n); got != tc.want {
			t.Errorf("HandicapPoints(%d, %d) = %q, want %q", tc.size, tc.n, got, tc.want)
		}
	}
}

func TestNewGameHandicap(t *testing.T) {
	g, err := NewGame(13, 3, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if g.Info.Handicap != 3 || g.Info.Komi != 0.5 || len(g.Root.Setup) != 3 {
		t.Fatalf("info %+v, %d setup stones", g.Info, len(g.Root.Setup))
	}
	c := newCursor(t, g)
	if c.Position().ToPlay != board.White {
		t.Errorf("handicap game: %v to play, want White", c.Position().ToPlay)
	}
	r := roundTrip(t, g)
	if d := diffGames(g, r); d != "" {
		t.Errorf("round trip: %s", d)
	}
	if s := saved(t, g); !strings.Contains(s, "HA[3]") || !strings.Contains(s, "KM[0.5]") || !strings.Contains(s, "AB[") {
		t.Errorf("saved without HA, KM or AB: %s", s)
	}
	for _, bad := range [][2]int{{19, 1}, {19, 10}, {8, 5}, {1, 0}} {
		if _, err := NewGame(bad[0], bad[1], 0); err == nil {
			t.Errorf("NewGame(%d, %d) accepted", bad[0], bad[1])
		}
	}
	if g, err := NewGame(9, 0, 7); err != nil || len(g.Root.Setup) != 0 || g.Info.Handicap != 0 {
		t.Errorf("even 9x9: %v, %+v", err, g)
	}
}

func TestSetStoneOnALeafSetupNode(t *testing.T) {
	g, _ := New(9)
	c := newCursor(t, g)
	c3, e5, g7 := gtp(t, "C3", 9), gtp(t, "E5", 9), gtp(t, "G7", 9)
	for _, s := range []struct {
		p board.Point
		c board.Color
	}{{c3, board.Black}, {e5, board.White}, {g7, board.Black}} {
		if err := c.SetStone(s.p, s.c); err != nil {
			t.Fatal(err)
		}
	}
	if !c.Modified() || c.Node() != g.Root || len(g.Root.Children) != 0 {
		t.Fatal("setup on the root of a new game did not stay on the root, or did not mark the game modified")
	}
	// Black where this node's AW stood replaces it; erasing a stone this node added drops it.
	if err := c.SetStone(e5, board.Black); err != nil {
		t.Fatal(err)
	}
	if err := c.SetStone(g7, board.Empty); err != nil {
		t.Fatal(err)
	}
	want := []Stone{{c3, board.Black}, {e5, board.Black}}
	if !slices.Equal(g.Root.Setup, want) {
		t.Errorf("root setup %v, want %v", g.Root.Setup, want)
	}
	if b := c.Position().Board; b.At(e5) != board.Black || b.At(g7) != board.Empty {
		t.Errorf("position not updated:\n%s", b.String())
	}
	// Doing nothing changes nothing.
	if err := c.SetStone(c3, board.Black); err != nil || len(g.Root.Setup) != 2 {
		t.Errorf("a no-op edit: %v, %v", err, g.Root.Setup)
	}
	r := roundTrip(t, g)
	if !slices.Equal(r.Root.Setup, want) {
		t.Errorf("after Save → Parse: %v", r.Root.Setup)
	}
	if s := saved(t, g); !strings.Contains(s, "AB[cg][ee]") {
		t.Errorf("saved %s", s)
	}
}

func TestSetStoneAfterAMoveMakesASetupChild(t *testing.T) {
	g := parseOne(t, "(;SZ[9];B[ee];W[cc])")
	c := newCursor(t, g)
	if _, err := c.Forward(1); err != nil {
		t.Fatal(err)
	}
	atE5 := c.Node()
	// E5 has a child (W C7): erasing E5 there would make nothing illegal, but the rule is the same for
	// every node with a move or children: the edit goes on a new child.
	if err := c.SetStone(pt("ee"), board.Empty); err != nil {
		t.Fatal(err)
	}
	n := c.Node()
	if n.Parent != atE5 || len(atE5.Children) != 2 || n.Move != nil {
		t.Fatalf("erase after a move: node %+v, %d children of E5", n, len(atE5.Children))
	}
	if !slices.Equal(n.Setup, []Stone{{pt("ee"), board.Empty}}) {
		t.Errorf("AE not written: %v", n.Setup)
	}
	if c.Position().Board.At(pt("ee")) != board.Empty || c.Position().ToPlay != board.White {
		t.Errorf("position after AE: %v at E5, %v to play", c.Position().Board.At(pt("ee")), c.Position().ToPlay)
	}
	// The next edits stay on the new leaf.
	if err := c.SetStone(pt("ff"), board.White); err != nil {
		t.Fatal(err)
	}
	if c.Node() != n || len(n.Setup) != 2 {
		t.Errorf("second edit: node changed or setup %v", n.Setup)
	}
	// The main line is untouched and still legal.
	if err := g.WalkMainLine(func(*Position, Move) error { return nil }); err != nil {
		t.Errorf("main line after the edit: %v", err)
	}
	r := roundTrip(t, g)
	if d := diffGames(g, r); d != "" {
		t.Errorf("round trip: %s", d)
	}
	if s := saved(t, g); !strings.Contains(s, "AW[ff]AE[ee]") {
		t.Errorf("saved %s", s)
	}
}

func TestSetStoneRefusals(t *testing.T) {
	// White A2 and B1 in the corner: Black at A1 would have no liberty.
	g := parseOne(t, "(;SZ[9]AW[ah][bi])")
	c := newCursor(t, g)
	for _, tc := range []struct {
		p board.Point
		c board.Color
	}{
		{pt("ai"), board.Black},        // a stone without liberties
		{board.At(-1, 0), board.Black}, // off the board
		{pt("ee"), board.Color(7)},     // not a colour
		{board.At(9, 9), board.White},  // off a 9x9 board
	} {
		if err := c.SetStone(tc.p, tc.c); !errors.Is(err, ErrEdit) {
			t.Errorf("SetStone(%d, %v) = %v, want ErrEdit", tc.p, tc.c, err)
		}
	}
	if c.Modified() || len(g.Root.Setup) != 2 || len(g.Root.Children) != 0 {
		t.Errorf("a refused edit changed the game: %v", g.Root.Setup)
	}
	// A refused edit after a move leaves no child behind.
	g = parseOne(t, "(;SZ[9]AW[ah];W[bi])")
	c = newCursor(t, g)
	c.Forward(1)
	if err := c.SetStone(pt("ai"), board.Black); !errors.Is(err, ErrEdit) {
		t.Errorf("stone without liberties after a move: %v", err)
	}
	if len(c.Node().Children) != 0 || c.Modified() {
		t.Error("a refused edit left a child")
	}
}

func TestSetToPlayAndComment(t *testing.T) {
	g := parseOne(t, "(;SZ[9];B[ee])")
	c := newCursor(t, g)
	if err := c.SetToPlay(board.White); err != nil {
		t.Fatal(err)
	}
	if c.Position().ToPlay != board.White || g.Root.ToPlay != board.White || !c.Modified() {
		t.Fatalf("PL W: %v to play", c.Position().ToPlay)
	}
	if err := c.SetToPlay(board.Color(9)); !errors.Is(err, ErrEdit) {
		t.Errorf("bad colour: %v", err)
	}
	// White plays now; the recorded B[ee] stays legal (moves carry their colour).
	if err := c.Play(pt("cc")); err != nil {
		t.Fatal(err)
	}
	if c.Node().Move.Color != board.White {
		t.Errorf("played %v after PL[W]", c.Node().Move.Color)
	}
	c.SetComment("a note ] with a bracket")
	if c.Node().Comment != "a note ] with a bracket" {
		t.Error("comment not set")
	}
	r := roundTrip(t, g)
	if d := diffGames(g, r); d != "" {
		t.Errorf("round trip: %s", d)
	}
	if r.Root.ToPlay != board.White || r.Root.Children[1].Comment != "a note ] with a bracket" {
		t.Errorf("PL or C lost: %v %q", r.Root.ToPlay, r.Root.Children[1].Comment)
	}
	// Clearing PL lets the moves decide again.
	c.Home()
	if err := c.SetToPlay(board.Empty); err != nil || c.Position().ToPlay != board.Black {
		t.Errorf("PL cleared: %v, %v to play", err, c.Position().ToPlay)
	}
	// An unchanged comment does not mark the game modified.
	g2 := parseOne(t, "(;SZ[9]C[hi])")
	c2 := newCursor(t, g2)
	c2.SetComment("hi")
	if c2.Modified() {
		t.Error("the same comment marked the game modified")
	}
}

func TestDeleteVariation(t *testing.T) {
	g := parseOne(t, "(;SZ[9];B[ee](;W[cc];B[gg])(;W[gc];B[cg])(;W[dd]))")
	c := newCursor(t, g)
	if err := c.DeleteVariation(); !errors.Is(err, ErrEdit) {
		t.Errorf("deleting the root: %v", err)
	}
	c.Forward(1)
	e5 := c.Node()
	// Visit the third variation, then the second, and delete the second.
	c.GoTo(e5.Children[2])
	c.GoTo(e5.Children[1])
	c.Forward(1)
	if err := c.DeleteVariation(); err != nil { // deletes B[cg] only
		t.Fatal(err)
	}
	if c.Node() != e5.Children[1] || len(c.Node().Children) != 0 {
		t.Fatalf("after deleting B[cg]: at %+v", c.Node().Move)
	}
	if err := c.DeleteVariation(); err != nil { // deletes W[gc]
		t.Fatal(err)
	}
	if c.Node() != e5 || len(e5.Children) != 2 || !c.Modified() {
		t.Fatalf("after deleting W[gc]: at %v, %d children", c.Node().Move, len(e5.Children))
	}
	// Forward now follows the first child (the deleted one was the chosen one).
	if c.Next() != e5.Children[0] {
		t.Error("Next does not follow the main line after the chosen variation was deleted")
	}
	c.GoTo(e5.Children[1]) // W[dd], now second
	c.Back(1)
	if c.Next() != e5.Children[1] {
		t.Error("the remembered variation is not W[dd]")
	}
	s := saved(t, g)
	if strings.Contains(s, "gc") || strings.Contains(s, "cg") || !strings.Contains(s, "W[dd]") {
		t.Errorf("saved after deleting: %s", s)
	}
	r := roundTrip(t, g)
	if d := diffGames(g, r); d != "" {
		t.Errorf("round trip: %s", d)
	}
}
