package game

import (
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
