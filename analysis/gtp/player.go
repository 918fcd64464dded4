package gtp

import (
	"context"
	"math/rand/v2"

	"aji/analysis/board"
	"aji/analysis/predict"
)

// PredictorPlayer plays a move predictor's most probable legal move: "what would the pattern predictor
// play here", a useful teaching opponent and the baseline any search must beat. It never fills its own
// eye. It passes when the predictor likes pass best, when nothing else is left, or when the opponent has
// just passed and the Scorer's count of the position says the player to move wins — so that games end.
// Ties (the uniform predictor) are broken at random.
type PredictorPlayer struct {
	Predictor predict.Predictor
	Scorer    *Scorer // nil: never pass just because the opponent did
	Seed      uint64

	rng  *rand.Rand
	dist predict.Distribution
}

// SetSeed implements Seeder: ties are broken from a new random stream.
func (pl *PredictorPlayer) SetSeed(seed uint64) {
	pl.Seed = seed
	pl.rng = nil
}

// GenMove implements Player.
func (pl *PredictorPlayer) GenMove(ctx context.Context, req *Request) (board.Point, bool, error) {
	pos := &req.Position
	if pl.rng == nil {
		pl.rng = rand.New(rand.NewPCG(pl.Seed, 0x9e3779b97f4a7c15))
	}
	if pos.Last == board.Pass && pl.Scorer != nil {
		est, err := pl.Scorer.Estimate(ctx, pos)
		if err != nil {
			return board.Pass, false, err
		}
		if m := est.Margin(); pos.ToPlay == board.Black && m > 0 || pos.ToPlay == board.White && m < 0 {
			return board.Pass, false, nil
		}
	}
	pl.Predictor.Predict(pos, &pl.dist)
	best, bestP, ties := board.Pass, -1.0, 0
	for _, p := range pos.Board.Points() {
		v := pl.dist.P[p]
		if v < bestP || v <= 0 || pos.Board.IsEye(p, pos.ToPlay) || !req.Legal(p) {
			continue
		}
		if v > bestP {
			best, bestP, ties = p, v, 1
			continue
		}
		ties++ // reservoir sampling keeps each tied move with probability 1/ties
		if pl.rng.IntN(ties) == 0 {
			best = p
		}
	}
	if pl.dist.P[board.Pass] > bestP {
		best = board.Pass
	}
	return best, false, nil
}
