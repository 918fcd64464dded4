package mcts

import "aji/analysis/predict"

// DefaultPriorName is the predictor whose probabilities the search takes as its prior by default.
const DefaultPriorName = "mm"

// NewPrior makes the named predictor as a search prior, for Options.Prior and Options.NewPrior, without
// the Monte Carlo owner feature (predict.Options.NoOwner): its 63 playouts per node cost more than the
// search spends on one, and the search measures ownership itself.
func NewPrior(name string) (predict.Predictor, error) {
	return predict.New(name, predict.Options{NoOwner: true})
}
