package game

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"aji/analysis/board"
)

func gtp(t *testing.T, s string, size int) board.Point {
	t.Helper()
	p, err := board.ParseGTP(s, size)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCursorNavigationAndVariations(t *testing.T) {
	gs, err := Parse([]byte("(;SZ[9];B[ee];W[cc](;B[gg];W[gc])(;B[cg]))"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCursor(gs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := c.End(); err != nil {
		t.Fatal(err)
	}
	if c.Position().MoveNumber != 4 {
		t.Fatalf("end of main line at move %d, want 4", c.Position().MoveNumber)
	}
	// Back to move 3, then to the second variation; forward from move 2 follows it again.
	c.Back(1)
	if moved, _ := c.SwitchVariation(+1); !moved || c.Node().Move.Point != gtp(t, "C3", 9) {
		t.Fatalf("did not switch to the C3 variation")
	}
	if n, i := c.Variations(); n != 2 || i != 1 {
		t.Errorf("variations %d %d, want 2 1", n, i)
	}
	c.Back(1)
	c.Forward(1)
	if c.Node().Move.Point != gtp(t, "C3", 9) {
		t.Errorf("forward did not remember the variation")
	}
	if moved, _ := c.Forward(10); moved {
		t.Error("moved past the end of a variation")
	}
	if moved, _ := c.SwitchVariation(+1); moved {
		t.Error("switched past the last variation")
	}
	c.Home()
	if c.Position().MoveNumber != 0 || c.Position().ToPlay != board.Black {
		t.Errorf("home: move %d, %v to play", c.Position().MoveNumber, c.Position().ToPlay)
	}
}

func TestCursorPlayAddsVariationsAndSaves(t *testing.T) {
	gs, err := Parse([]byte("(;SZ[9];B[ee];W[cc])"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCursor(gs[0])
	c.Forward(1)
	// Playing the record's own next move follows it instead of duplicating it.
	if err := c.Play(gtp(t, "C7", 9)); err != nil {
		t.Fatal(err)
	}
	if c.Modified() || len(gs[0].Root.Children[0].Children) != 1 {
		t.Fatal("replaying the recorded move changed the game")
	}
	c.Back(1)
	if err := c.Play(gtp(t, "E5", 9)); err == nil {
		t.Fatal("played on an occupied point")
	}
	if err := c.Play(gtp(t, "G3", 9)); err != nil {
		t.Fatal(err)
	}
	if !c.Modified() || len(gs[0].Root.Children[0].Children) != 2 || c.Position().ToPlay != board.Black {
		t.Fatal("a new move did not make a variation")
	}
	path := filepath.Join(t.TempDir(), "g.sgf")
	if err := c.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	if c.Modified() {
		t.Error("still modified after saving")
	}
	back, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(back[0].Root.Children[0].Children); n != 2 {
		t.Errorf("saved game has %d variations at move 1, want 2", n)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("save left %d files", len(entries))
	}
	// Saving into a folder that does not exist fails and keeps the game marked modified.
	c.Play(gtp(t, "A1", 9))
	if err := c.SaveFile(filepath.Join(t.TempDir(), "no", "such", "dir.sgf")); err == nil || !c.Modified() {
		t.Errorf("save to a missing folder: %v, modified %v", err, c.Modified())
	}
}

func TestCursorLineAndNextFollowTheChosenVariation(t *testing.T) {
	gs, err := Parse([]byte("(;SZ[9];B[ee];W[cc](;B[gg];W[gc])(;B[cg]))"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCursor(gs[0])
	moves := func(line []*Node) (s string) {
		for _, n := range line[1:] {
			s += n.Move.Point.GTP(9) + " "
		}
		return s
	}
	if got := moves(c.Line()); got != "E5 C7 G3 G7 " {
		t.Errorf("line at the root %q, want the main line", got)
	}
	if c.Next() != gs[0].Root.Children[0] {
		t.Error("next at the root is not the first move")
	}
	c.Forward(3)
	c.SwitchVariation(+1)
	c.Home()
	if got := moves(c.Line()); got != "E5 C7 C3 " {
		t.Errorf("line after visiting the variation %q, want it to follow C3", got)
	}
	c.End()
	if c.Next() != nil || c.Position().MoveNumber != 3 {
		t.Errorf("end of the variation: next %v, move %d", c.Next(), c.Position().MoveNumber)
	}
}

func TestCursorStopsBeforeAnIllegalRecordedMove(t *testing.T) {
	// Move 3 plays on the stone of move 1.
	gs, err := Parse([]byte("(;SZ[9];B[ee];W[cc];B[ee];W[gg])"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCursor(gs[0])
	moved, err := c.Forward(10)
	if !moved || !errors.Is(err, ErrIllegalMove) || c.Position().MoveNumber != 2 {
		t.Fatalf("forward over an illegal move: moved %v, err %v, at move %d; want to stop at move 2",
			moved, err, c.Position().MoveNumber)
	}
	if moved, err := c.Forward(1); moved || err == nil {
		t.Errorf("forward onto the illegal move: moved %v, err %v", moved, err)
	}
	c.Home()
	if err := c.End(); !errors.Is(err, ErrIllegalMove) || c.Position().MoveNumber != 2 {
		t.Errorf("end: err %v, at move %d; want an error and move 2", err, c.Position().MoveNumber)
	}
	// The position reached step by step equals the one replayed from the root.
	want, _ := gs[0].PositionAt(c.Node())
	if got := c.Position(); got.Board.String() != want.Board.String() || got.ToPlay != want.ToPlay || got.Last != want.Last {
		t.Errorf("incremental position differs:\n%v\nwant\n%v", got.Board.String(), want.Board.String())
	}
}
