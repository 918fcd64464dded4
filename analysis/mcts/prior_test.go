package mcts

import (
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
	"aji/assets"
)

// TestNewPrior checks the search's prior on a professional position: the
// predictor without its Monte Carlo owner feature.
func TestNewPrior(t *testing.T) {
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	games, err := game.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := games[0].PositionAfter(60)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mm.Shared("")
	if err != nil {
		t.Skipf("no mm model: %v", err)
	}
	prior, err := NewPrior("mm")
	if err != nil {
		t.Fatal(err)
	}
	var got, want, owner predict.Distribution
	prior.Predict(pos, &got)
	mm.NewPredictor("mm", m, false).Predict(pos, &want)
	if got.P != want.P {
		t.Error("the mm prior differs from mm without the owner feature")
	}
	if m.Owner {
		full, err := predict.New("mm", predict.Options{})
		if err != nil {
			t.Fatal(err)
		}
		full.Predict(pos, &owner)
		if owner.P == got.P {
			t.Error("the mm prior equals mm with the owner feature: it was not dropped")
		}
	}
	if got.P[board.Pass] < 0 || got.P[board.Pass] > 1 {
		t.Errorf("pass prior %v", got.P[board.Pass])
	}
	u, err := NewPrior("uniform")
	if err != nil || u.Name() != "uniform" {
		t.Errorf("NewPrior(uniform) = %v, %v", u, err)
	}
	if _, err := NewPrior("no-such-predictor"); err == nil {
		t.Error("an unknown predictor makes a prior")
	}
}
