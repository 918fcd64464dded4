package guess

import (
	"context"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/live"
)

// PredictorGuess is what one predictor would have guessed for a move.
type PredictorGuess struct {
	Name string
	// Point is its favourite; board.NoPoint when moves tie for its first place (uniform's case), so
	// that it has no single guess.
	Point board.Point
	// Rank is the rank it gave the move played, as `aji eval` counts it (ties against the prediction);
	// 0 when it thought the move illegal.
	Rank int
	// Probability is the probability it gave the move played.
	Probability float64
	// Err is why the predictor could not run (a model file missing); the guess then counts nowhere.
	Err string
}

// Right reports whether the predictor's top-1 was the move played: rank 1, as `aji eval`'s top1.
func (g PredictorGuess) Right() bool { return g.Err == "" && g.Rank == 1 }

// PredictFunc runs a predictor on a position: live.Predictors.Predict, which the app's engine tasks
// also use.
type PredictFunc func(ctx context.Context, name string, pos *game.Position) (*live.Prediction, error)

// PredictMove asks each named predictor for its guess at move, played from pos (Session.Position). A
// predictor that fails gets a guess with Err set; a cancelled ctx stops early with ctx's error.
func PredictMove(ctx context.Context, predict PredictFunc, names []string, pos *game.Position, move board.Point) ([]PredictorGuess, error) {
	out := make([]PredictorGuess, 0, len(names))
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		pr, err := predict(ctx, name, pos)
		if err != nil {
			out = append(out, PredictorGuess{Name: name, Point: board.NoPoint, Err: err.Error()})
			continue
		}
		out = append(out, Judge(pr, move))
	}
	return out, nil
}

// Judge is the guess of the predictor behind pr at move.
func Judge(pr *live.Prediction, move board.Point) PredictorGuess {
	g := PredictorGuess{Name: pr.Predictor, Point: board.NoPoint}
	if len(pr.Top) > 0 {
		if r, _, ok := pr.RankOf(pr.Top[0].Point); ok && r == 1 {
			g.Point = pr.Top[0].Point
		}
	}
	if r, p, ok := pr.RankOf(move); ok {
		g.Rank, g.Probability = r, p
	}
	return g
}
