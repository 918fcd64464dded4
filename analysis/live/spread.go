package live

import (
	"context"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Spreads are how sure one predictor is of each legal move of a position (predict.Uncertain): the
// standard deviation σ of its belief about the move's value, for the board's "how sure" layer.
// Shared with the engine's cache: never modified after it is made.
type Spreads struct {
	Predictor string
	Size      int
	Unable    bool      // the predictor holds no beliefs with a spread
	V         []float64 // index y*size+x: σ of a legal move, 0 where the move is illegal
	Pass      float64   // σ of passing
	Prior     float64   // σ of a pattern never learned from: the top of the scale
}

// Bytes estimates the spreads' size, for the bound of a result cache.
func (s *Spreads) Bytes() int { return 8*len(s.V) + 96 }

// Spread measures, with the named predictor, how sure it is of every legal move of pos: the compute
// step of SpreadTask. A predictor without uncertainty gives a result saying so, cached like any
// other.
func (a *Predictors) Spread(_ context.Context, name string, pos *game.Position) (*Spreads, error) {
	pred, put, err := a.get(name)
	if err != nil {
		return nil, err
	}
	defer put()
	n := pos.Board.Size()
	s := &Spreads{Predictor: name, Size: n}
	u, ok := pred.(predict.Uncertain)
	if !ok {
		s.Unable = true
		return s, nil
	}
	own := *pos // as in Predict: the engine's copy is shared between tasks
	var out [board.NumCells]float64
	s.Prior = u.Spread(&own, &out)
	s.Pass = out[board.Pass]
	s.V = make([]float64, n*n)
	for _, p := range own.Board.Points() {
		x, y := p.XY()
		s.V[y*n+x] = out[p]
	}
	return s, nil
}

// SpreadTask makes the engine task that measures how sure a predictor is of a position's moves;
// deliver runs on the UI thread with its result.
func (a *Predictors) SpreadTask(name string, deliver func(*Spreads, error)) engine.Task {
	return engine.NewTask("spread/"+name,
		func(ctx context.Context, pos *game.Position) (*Spreads, error) { return a.Spread(ctx, name, pos) },
		(*Spreads).Bytes, deliver)
}
