package mcts

import (
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
)

// DefaultPriorName is the predictor whose probabilities the search takes as its prior by default.
const DefaultPriorName = "mm"

// NewPrior makes the named predictor as a search prior, for Options.Prior and Options.NewPrior. mm
// drops its Monte Carlo owner feature here: its 63 playouts per position would cost more than the
// search spends on a node, and the search measures ownership itself. Other names are predict.New's.
func NewPrior(name string) (predict.Predictor, error) {
	if name != "mm" {
		return predict.New(name)
	}
	m, err := mm.DefaultModel()
	if err != nil {
		return nil, err
	}
	return mm.NewPredictor("mm", m, false), nil
}
