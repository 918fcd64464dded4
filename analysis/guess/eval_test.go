package guess

import (
	"context"
	"path/filepath"
	"testing"

	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/live"
	_ "aji/analysis/predict/all"
)

// sample is the embedded sample game of the README's figure.
var sample = filepath.Join("..", "..", "assets", "games", "Agon-01-8.sgf")

// TestPredictorsAgreeWithEval guesses every move of the sample game (revealing each) with mm's and
// cfg's guesses computed as the app computes them, and checks each predictor's top-1 count and number
// of moves against `aji eval`'s on the same file (eval.Run, what the command runs).
func TestPredictorsAgreeWithEval(t *testing.T) {
	if raceEnabled {
		t.Skip("-race: a whole game guessed with two predictors; run without -race")
	}
	names := []string{"mm", "cfg"}
	want, err := eval.Run(context.Background(), names, sample, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := game.LoadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	s, err := New(g, g.MainLine(), g.Root, Both)
	if err != nil {
		t.Fatal(err)
	}
	preds := live.NewPredictors()
	for !s.Done() {
		m, _ := s.Current()
		guesses, err := PredictMove(context.Background(), preds.Predict, names, s.Position(), m.Point)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range guesses {
			if g.Err != "" {
				t.Fatalf("move %d: %s: %s", m.Number, g.Name, g.Err)
			}
			if g.Right() && g.Point != m.Point {
				t.Fatalf("move %d: %s ranks %s first but its favourite is %v", m.Number, g.Name, m.Point.GTP(19), g.Point)
			}
		}
		s.SetPredictions(m.Index, guesses)
		s.Reveal()
	}
	tally := s.Tally()
	if tally.Moves != want[0].Positions || tally.Revealed != tally.Moves {
		t.Fatalf("the session scored %d moves, eval %d positions", tally.Moves, want[0].Positions)
	}
	for i, name := range names {
		p, ok := tally.Predictor(name)
		top1 := int(want[i].Top1*float64(want[i].Positions) + 0.5)
		if !ok || p.Moves != want[i].Positions || p.Top1 != top1 {
			t.Errorf("%s: the session counts %d of %d first, aji eval %d of %d (top1 %.4f)", name, p.Top1, p.Moves, top1, want[i].Positions, want[i].Top1)
		}
		t.Logf("%s: top-1 %d of %d moves (%.1f%%), as aji eval", name, p.Top1, p.Moves, 100*float64(p.Top1)/float64(p.Moves))
	}
}
