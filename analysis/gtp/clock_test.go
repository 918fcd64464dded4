package gtp

import (
	"testing"
	"time"

	"aji/analysis/board"
)

func TestClockBudget(t *testing.T) {
	var c clock
	if b := c.budget(board.Black, 0, 19); b != 0 {
		t.Errorf("no time settings: budget %v", b)
	}
	c.settings(0, 10, 0) // byo-yomi time without stones: no limit (GTP §4.2)
	if b := c.budget(board.Black, 0, 19); b != 0 {
		t.Errorf("no limit: budget %v", b)
	}
	// Absolute time: 10 minutes over max(10, (361·0.6 − 0)/2) = 108 moves, less a tenth.
	c.settings(600, 0, 0)
	want := 600 * time.Second / 108 * 9 / 10
	if b := c.budget(board.Black, 0, 19); b != want {
		t.Errorf("absolute time: %v, want %v", b, want)
	}
	// Late in the game at least 10 moves are expected.
	c.left(board.White, 100, 0)
	if b := c.budget(board.White, 300, 19); b != 10*time.Second*9/10 {
		t.Errorf("late: %v", b)
	}
	// Canadian byo-yomi: 30 s for 5 stones, 2 of them played.
	c.settings(0, 30, 5)
	c.left(board.Black, 18, 3)
	if b := c.budget(board.Black, 100, 19); b != 6*time.Second*9/10 {
		t.Errorf("byo-yomi: %v", b)
	}
	// Time used by genmove since the last time_left counts; a spent clock still gives the minimum.
	c.used(board.Black, 18*time.Second)
	if b := c.budget(board.Black, 100, 19); b != minBudget {
		t.Errorf("spent: %v", b)
	}
	// Main time plus byo-yomi: the period's share per stone is added.
	c.settings(60, 30, 10)
	if b := c.budget(board.Black, 0, 9); b != (60*time.Second/24+3*time.Second)*9/10 {
		t.Errorf("main + byo-yomi: %v", b)
	}
}
