package live

import (
	"context"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Explanations are one predictor's explanations of every legal move of a
// position, pass included, computed once per position on an engine worker so
// that hovering is a lookup on the UI thread. Shared with the engine's
// cache: never modified after it is made.
type Explanations struct {
	Predictor string
	Size      int
	ToPlay    board.Color
	Unable    bool                   // the predictor does not explain its moves
	At        []*predict.Explanation // index y*size+x; nil where the move is illegal
	Pass      *predict.Explanation   // nil when Unable
	Best      board.Point            // the most probable legal point; NoPoint if none
	Moves     int                    // legal moves, pass included: what ranks count
	cost      int                    // estimated bytes, for the engine's cache bound
}

// Lookup returns the explanation of p (board.Pass too), or nil if p is not a legal move.
func (ex *Explanations) Lookup(p board.Point) *predict.Explanation {
	if p == board.Pass {
		return ex.Pass
	}
	x, y := p.XY()
	if ex.Unable || p == board.NoPoint || x < 0 || y < 0 || x >= ex.Size || y >= ex.Size {
		return nil
	}
	return ex.At[y*ex.Size+x]
}

func (ex *Explanations) bytes() int { return ex.cost }

// Explain explains every legal move of pos with the named predictor: the
// compute step of ExplainTask. A predictor that cannot explain itself gives
// a result saying so, cached like any other.
func (a *Predictors) Explain(_ context.Context, name string, pos *game.Position) (*Explanations, error) {
	pred, put, err := a.get(name)
	if err != nil {
		return nil, err
	}
	defer put()
	n := pos.Board.Size()
	ex := &Explanations{Predictor: name, Size: n, ToPlay: pos.ToPlay, Best: board.NoPoint, cost: 128}
	e, ok := pred.(predict.Explainer)
	if !ok {
		ex.Unable = true
		return ex, nil
	}
	own := *pos // as in Predict: the engine's copy is shared between tasks
	all := predict.ExplainAll(e, &own)
	ex.At = make([]*predict.Explanation, n*n)
	ex.Moves = len(all) + 1
	ex.cost += 8 * len(ex.At)
	bestP := -1.0
	for i := range all {
		m := &all[i]
		x, y := m.Point.XY()
		ex.At[y*n+x] = m
		if m.Probability > bestP {
			ex.Best, bestP = m.Point, m.Probability
		}
		ex.cost += explanationBytes(m)
	}
	pass := e.Explain(&own, board.Pass)
	ex.Pass = &pass
	ex.cost += explanationBytes(ex.Pass)
	return ex, nil
}

// explanationBytes estimates the memory an explanation holds, for the engine's cache bound.
func explanationBytes(e *predict.Explanation) int {
	n := 96 + 32*len(e.Pattern)
	for _, f := range e.Factors {
		n += 48 + len(f.Name)
	}
	return n
}

// ExplainTask makes the engine task that explains a position for the
// inspector; deliver runs on the UI thread with its result.
func (a *Predictors) ExplainTask(name string, deliver func(*Explanations, error)) engine.Task {
	return engine.NewTask("explain/"+name,
		func(ctx context.Context, pos *game.Position) (*Explanations, error) { return a.Explain(ctx, name, pos) },
		(*Explanations).bytes, deliver)
}

// BestBut is the most probable legal point (never pass) other than except (the predictor's top point,
// or its second when except is the top): what the why-not view compares the record's move with by
// default. NoPoint if there is none.
func (ex *Explanations) BestBut(except board.Point) board.Point {
	if except != ex.Best {
		return ex.Best
	}
	best, bestP := board.NoPoint, -1.0
	for _, e := range ex.At {
		if e != nil && e.Point != except && e.Probability > bestP {
			best, bestP = e.Point, e.Probability
		}
	}
	return best
}
