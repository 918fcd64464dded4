package mcts

import "aji/analysis/predict"

// DefaultPriorName is the predictor whose probabilities the search takes as its prior by default: the
// best predictor without a network (Xiao's Factorization Bradley-Terry), which beat mm's prior in every
// match and costs the search no measurable speed (docs/notes/search-runs).
const DefaultPriorName = "fbt"

// NewPrior makes the named predictor as a search prior, for Options.Prior and Options.NewPrior, without
// the Monte Carlo owner feature (predict.Options.NoOwner): its 63 playouts per node cost more than the
// search spends on one, and the search measures ownership itself.
func NewPrior(name string) (predict.Predictor, error) {
	return predict.New(name, predict.Options{NoOwner: true})
}

// NewFixed makes the fixed-budget search that `aji analyze` and `aji review` run on a position: RAVE,
// pattern playouts, one thread and seed 1, with the named predictor as its prior. Each position gets a
// fresh Search, so that its value does not depend on what was searched before.
func NewFixed(playouts int, prior string) (*Search, error) {
	newPrior := func() (predict.Predictor, error) { return NewPrior(prior) }
	p, err := newPrior()
	if err != nil {
		return nil, err
	}
	return New(Options{
		Playouts: playouts, Threads: 1, Seed: 1,
		Selection: RAVE, Policy: PolicyPattern, Prior: p, NewPrior: newPrior,
	})
}
