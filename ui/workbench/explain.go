package workbench

import (
	"context"
	"time"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/ui/goban"
)

// explanations are one predictor's explanations of every legal point of a
// position, computed once per position on an engine worker so that hovering
// is a lookup on the UI thread. Shared with the engine's cache: never
// modified after it is made.
type explanations struct {
	predictor string
	size      int
	toPlay    board.Color
	unable    bool                   // the predictor does not explain its moves
	at        []*predict.Explanation // index y*size+x; nil where the move is illegal
	best      board.Point            // the most probable legal point; NoPoint if none
	moves     int                    // legal moves, pass included: what ranks count
	cost      int                    // estimated bytes, for the engine's cache bound
}

// lookup returns the explanation of p, or nil if p is not a legal move.
func (ex *explanations) lookup(p board.Point) *predict.Explanation {
	x, y := p.XY()
	if ex.unable || p == board.Pass || p == board.NoPoint || x < 0 || y < 0 || x >= ex.size || y >= ex.size {
		return nil
	}
	return ex.at[y*ex.size+x]
}

func (ex *explanations) bytes() int { return ex.cost }

// explain explains every legal point of pos with the named predictor; it is
// the compute step of a task and runs on an engine worker. A predictor that
// cannot explain itself gives a result saying so, cached like any other.
func (a *analysis) explain(_ context.Context, name string, pos *game.Position) (*explanations, error) {
	pred, put, err := a.get(name)
	if err != nil {
		return nil, err
	}
	defer put()
	n := pos.Board.Size()
	ex := &explanations{predictor: name, size: n, toPlay: pos.ToPlay, best: board.NoPoint, cost: 128}
	e, ok := pred.(predict.Explainer)
	if !ok {
		ex.unable = true
		return ex, nil
	}
	own := *pos // as in predict: the engine's copy is shared between tasks
	all := predict.ExplainAll(e, &own)
	ex.at = make([]*predict.Explanation, n*n)
	ex.moves = len(all) + 1
	ex.cost += 8*len(ex.at) + 96*len(all)
	bestP := -1.0
	for i := range all {
		e := &all[i]
		x, y := e.Point.XY()
		ex.at[y*n+x] = e
		if e.Probability > bestP {
			ex.best, bestP = e.Point, e.Probability
		}
		ex.cost += 32 * len(e.Pattern)
		for _, f := range e.Factors {
			ex.cost += 48 + len(f.Name)
		}
	}
	return ex, nil
}

// explainTask makes the engine task that explains a position for the
// inspector; deliver runs on the UI thread with its result.
func (a *analysis) explainTask(name string, deliver func(*explanations, error)) engine.Task {
	return engine.NewTask("explain/"+name,
		func(ctx context.Context, pos *game.Position) (*explanations, error) { return a.explain(ctx, name, pos) },
		(*explanations).bytes, deliver)
}

// restTime is how long the pointer must stay on a point for the inspector
// to keep it once the pointer leaves the board: on its way to the panel the
// pointer crosses other points, which should not replace what the user was
// reading.
const restTime = 300 * time.Millisecond

// hoverState is where the pointer is over the boards, for the inspector.
type hoverState struct {
	view      int // the board hovered last
	point     goban.Point
	inside    bool
	since     time.Time   // when the pointer reached point
	rested    goban.Point // the last point the pointer stayed on for restTime
	hasRested bool
}

// hovered follows the pointer over board view (goban.Board.OnHover).
func (wb *Workbench) hovered(view int, p goban.Point, inside bool) {
	h := &wb.hover
	now := wb.now()
	if h.inside && now.Sub(h.since) >= restTime {
		h.rested, h.hasRested = h.point, true
	}
	h.view, h.point, h.inside, h.since = view, p, inside, now
	wb.showInspector()
}

// inspecting reports whether the inspector's tab is shown.
func (wb *Workbench) inspecting() bool { return wb.settings.tab == tabInspector }

// showInspector explains, with the predictor of the board hovered last,
// the point under the pointer; when the pointer is off the boards, the last
// point it rested on if that is still a legal move, else the best move.
func (wb *Workbench) showInspector() {
	if !wb.inspecting() {
		return // hidden; the tab is filled when it is selected
	}
	h := &wb.hover
	i := h.view
	if !wb.settings.compare {
		i = 0
	}
	name := wb.settings.predictor
	if i == 1 {
		name = wb.settings.compareWith
	}
	in := wb.panel.inspector
	ex := wb.views[i].explained
	switch {
	case name == "":
		in.message("No predictor chosen.")
		return
	case ex == nil || ex.predictor != name:
		in.message(name+": explaining this position…", "")
		return
	case ex.unable:
		in.message("No explanation for "+name, "It does not say why it rates moves.")
		return
	}
	at := func(p goban.Point) board.Point { return board.At(p.X, p.Y) }
	switch {
	case h.inside:
		p := at(h.point)
		in.show(ex, p, ex.lookup(p), "")
	case h.hasRested && ex.lookup(at(h.rested)) != nil:
		p := at(h.rested)
		in.show(ex, p, ex.lookup(p), "last pointed at")
	case ex.best != board.NoPoint:
		in.show(ex, ex.best, ex.lookup(ex.best), "best move")
	default:
		in.message("No legal move on the board.", "")
	}
}
