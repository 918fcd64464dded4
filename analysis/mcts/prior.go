package mcts

import "aji/analysis/predict"

// DefaultPriorName is the predictor whose probabilities the search takes as its prior by default.
const DefaultPriorName = "mm"

// NewPrior makes the named predictor as a search prior, for Options.Prior and Options.NewPrior: mm
// without its Monte Carlo owner feature (predict.Options.NoOwner), other names as predict.New makes them.
func NewPrior(name string) (predict.Predictor, error) {
	return predict.New(name, predict.Options{NoOwner: name == "mm"})
}
