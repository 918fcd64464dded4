package predict

import (
	"math"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
)

func position(t *testing.T, drawing string, toPlay board.Color) *game.Position {
	t.Helper()
	b, err := board.Parse(drawing)
	if err != nil {
		t.Fatal(err)
	}
	return &game.Position{Board: *b, ToPlay: toPlay, Last: board.NoPoint, Prev: board.NoPoint}
}

func TestRankCountsTiesAgainstThePrediction(t *testing.T) {
	pos := position(t, `
		. X .
		X . .
		. . .`, board.White) // A3 is suicide for white: 6 legal points + pass
	var d Distribution
	d.Uniform(pos)
	a3, _ := board.ParseGTP("A3", 3)
	if d.P[a3] != 0 {
		t.Errorf("illegal A3 has probability %v", d.P[a3])
	}
	c1, _ := board.ParseGTP("C1", 3)
	if got := d.Rank(pos, c1); got != 7 {
		t.Errorf("rank under a uniform distribution %d, want 7 (last, ties count against)", got)
	}
	d.P[c1] += 0.01
	if got := d.Rank(pos, c1); got != 1 {
		t.Errorf("rank of the strict favourite %d, want 1", got)
	}
	if got := d.Rank(pos, board.Pass); got != 7 {
		t.Errorf("rank of pass %d, want 7", got)
	}
}

func TestNormalizeAndTop(t *testing.T) {
	pos := position(t, `
		. X .
		X . .
		. . .`, board.White)
	var d Distribution
	d.Reset(3)
	for _, p := range pos.Board.Points() {
		d.P[p] = 2 // the illegal A3 and the occupied points get weight too, and must lose it
	}
	b2, _ := board.ParseGTP("B2", 3)
	d.P[b2] = 10
	d.Normalize(pos)
	sum := d.P[board.Pass]
	for _, p := range pos.Board.Points() {
		sum += d.P[p]
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("sum %v", sum)
	}
	top := d.Top(2, nil)
	if len(top) != 2 || top[0].Point != b2 || math.Abs(top[0].Probability-10.0/20) > 1e-12 {
		t.Errorf("top %+v", top)
	}
	// All-zero weights fall back to uniform over the legal moves.
	d.Reset(3)
	d.Normalize(pos)
	if math.Abs(d.P[board.Pass]-1.0/7) > 1e-12 {
		t.Errorf("fallback pass probability %v, want 1/7", d.P[board.Pass])
	}
}

func TestRegistry(t *testing.T) {
	p, err := New("uniform", Options{})
	if err != nil || p.Name() != "uniform" {
		t.Fatalf("New(uniform) = %v, %v", p, err)
	}
	if _, err := New("nope", Options{}); err == nil {
		t.Error("unknown predictor accepted")
	}
	found := false
	for _, n := range Names() {
		found = found || n == "uniform"
	}
	if !found {
		t.Error("uniform not listed")
	}
}
