package main

import (
	"context"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/mcts"
	"aji/analysis/predict"
	"aji/analysis/territory"
)

// newSearchPlayer makes the tree-search player (analysis/mcts) with the predictor as its prior.
func newSearchPlayer(f *gtpFlags) (*gtp.SearchPlayer, error) {
	sel, err := mcts.ParseSelection(f.selection)
	if err != nil {
		return nil, err
	}
	newPrior := func() (predict.Predictor, error) { return mcts.NewPrior(f.predictor) }
	prior, err := newPrior()
	if err != nil {
		return nil, err
	}
	o := mcts.Options{
		Playouts:  f.playouts,
		Time:      time.Duration(f.seconds * float64(time.Second)),
		Threads:   f.threads,
		Seed:      f.seed,
		Selection: sel,
		Policy:    f.policy,
		Prior:     prior,
		NewPrior:  newPrior,
		Widening:  f.widening,

		BayesScale: f.bayesScale,
		ExpandAt:   f.expandAt,
		RavePB:     f.raveBias,
		RaveB:      f.raveB,
		RaveC:      f.raveC,
		Mercy:      f.mercy,

		ResignThreshold: f.resign,
	}
	return gtp.NewSearchPlayer(o)
}

// territoryEstimate is the territory drawn by GoGui's aji-territory: the app's default model and
// method, or nil (the server's scoring playouts) when that model cannot be loaded or is not named.
func territoryEstimate(model, method string) gtp.TerritoryFunc {
	kind, meth, err := territory.ParseEstimator(model, method)
	if err != nil {
		return nil
	}
	est, err := territory.NewEstimator(kind, meth)
	if err != nil {
		return nil
	}
	var m territory.Marginals
	return func(ctx context.Context, pos *game.Position, out *[board.NumCells]float64) (string, error) {
		if err := est.Estimate(ctx, pos, &m); err != nil {
			return "", err
		}
		*out = m.Mean
		return model + " " + method, nil
	}
}
