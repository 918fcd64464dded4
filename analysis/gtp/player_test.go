package gtp_test

import (
	"context"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/predict"
)

func position(t *testing.T, drawing string, toPlay board.Color) *gtp.Request {
	t.Helper()
	b, err := board.Parse(drawing)
	if err != nil {
		t.Fatal(err)
	}
	req := &gtp.Request{Position: game.Position{Board: *b, ToPlay: toPlay, Last: board.NoPoint, Prev: board.NoPoint, Komi: 7}}
	req.History = []uint64{b.Hash()}
	return req
}

// The uniform predictor's player is a random player that never fills its own eyes and passes when
// nothing else is left.
func TestPredictorPlayerUniform(t *testing.T) {
	pr, err := predict.New("uniform", predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pl := &gtp.PredictorPlayer{Predictor: pr, Seed: 3}
	// Black's only empty points are its two eyes, A5 and E1.
	req := position(t, `
		.XXXX
		XXXXX
		XXXXX
		XXXXX
		XXXX.`, board.Black)
	for range 20 {
		if p, resign, err := pl.GenMove(t.Context(), req); err != nil || resign || p != board.Pass {
			t.Fatalf("black with only eyes left played %v (%v, %v)", p, resign, err)
		}
	}
	// The only other point, C3, captures a white stone: that is the move. White has no legal move but
	// a pass (its point C3 and Black's eyes are suicide).
	req = position(t, `
		.XXXX
		XXXXX
		XX.OX
		XXXXX
		XXXX.`, board.Black)
	seen := map[board.Point]bool{}
	for range 20 {
		p, _, _ := pl.GenMove(t.Context(), req)
		seen[p] = true
	}
	if len(seen) != 1 || !seen[board.At(2, 2)] {
		t.Errorf("moves %v, want only C3", seen)
	}
	req.Position.ToPlay = board.White
	if p, _, _ := pl.GenMove(t.Context(), req); p != board.Pass {
		t.Errorf("white played %v", p)
	}
	// On an empty board ties are broken at random: many different moves.
	req = position(t, ".....\n.....\n.....\n.....\n.....", board.Black)
	seen = map[board.Point]bool{}
	for range 50 {
		p, _, _ := pl.GenMove(t.Context(), req)
		if !req.Legal(p) || p == board.Pass {
			t.Fatalf("move %v", p)
		}
		seen[p] = true
	}
	if len(seen) < 10 {
		t.Errorf("only %d distinct moves in 50 on an empty 5x5 board", len(seen))
	}
}

// After the opponent passes, the player passes when the count says it wins, and plays on when not.
func TestPredictorPlayerPassRule(t *testing.T) {
	pr, _ := predict.New("uniform", predict.Options{})
	pl := &gtp.PredictorPlayer{Predictor: pr, Scorer: &gtp.Scorer{Playouts: 50}, Seed: 1}
	// Black owns three columns (15 points), White two (10).
	drawing := `
		..XO.
		..XO.
		..XO.
		..XO.
		..XO.`
	req := position(t, drawing, board.Black)
	req.Position.Last = board.Pass
	req.Position.Komi = 0.5
	if p, _, err := pl.GenMove(t.Context(), req); err != nil || p != board.Pass {
		t.Errorf("winning black after a pass played %v (%v)", p, err)
	}
	req.Position.Komi = 20.5 // now Black loses the count: keep playing
	if p, _, err := pl.GenMove(t.Context(), req); err != nil || p == board.Pass {
		t.Errorf("losing black after a pass passed (%v)", err)
	}
}

// A cancelled context stops the Scorer.
func TestScorerCancel(t *testing.T) {
	req := position(t, ".....\n.....\n.....\n.....\n.....", board.Black)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var s gtp.Scorer
	if _, err := s.Estimate(ctx, &req.Position); err == nil {
		t.Error("no error from a cancelled estimate")
	}
}

// Ownership is within [-1, 1], every stone has one status, and the count adds up.
func TestScorerEstimateProperties(t *testing.T) {
	req := position(t, `
		.XO.O.O..
		XXOO.OO.O
		.XXO..O.X
		.X.XOOOO.
		XX.XXXXOO
		..XX.O.XO
		XXO.XOOX.
		.XOOXXXXX
		XOO.X....`, board.White)
	s := gtp.Scorer{Playouts: 200, Seed: 5}
	est, err := s.Estimate(t.Context(), &req.Position)
	if err != nil {
		t.Fatal(err)
	}
	b := &req.Position.Board
	stones := 0
	for _, p := range b.Points() {
		if o := est.Ownership[p]; o < -1 || o > 1 {
			t.Errorf("ownership %v at %v", o, p.GTP(9))
		}
		if b.At(p) != board.Empty {
			stones++
		}
	}
	if n := len(est.Dead) + len(est.Seki) + len(est.Alive); n != stones {
		t.Errorf("%d statuses for %d stones", n, stones)
	}
	if est.Black+est.White > 81 || est.Black < 0 || est.White < 0 {
		t.Errorf("count %d + %d", est.Black, est.White)
	}
	// Same seed, same estimate.
	again, _ := (&gtp.Scorer{Playouts: 200, Seed: 5}).Estimate(t.Context(), &req.Position)
	if again.Ownership != est.Ownership || again.Result() != est.Result() {
		t.Error("the estimate is not repeatable")
	}
}

func TestFormatScore(t *testing.T) {
	for m, want := range map[float64]string{3.5: "B+3.5", -12: "W+12", 0: "0", 0.5: "B+0.5"} {
		if got := gtp.FormatScore(m); got != want {
			t.Errorf("FormatScore(%v) = %q, want %q", m, got, want)
		}
	}
}
