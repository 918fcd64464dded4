package workbench

import (
	"time"

	"aji/analysis/board"
	"aji/ui/goban"
)

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
	case ex == nil || ex.Predictor != name:
		in.message(name+": explaining this position…", "")
		return
	case ex.Unable:
		in.message("No explanation for "+name, "It does not say why it rates moves.")
		return
	}
	at := func(p goban.Point) board.Point { return board.At(p.X, p.Y) }
	switch {
	case h.inside:
		p := at(h.point)
		in.show(ex, p, ex.Lookup(p), "")
	case h.hasRested && ex.Lookup(at(h.rested)) != nil:
		p := at(h.rested)
		in.show(ex, p, ex.Lookup(p), "last pointed at")
	case ex.Best != board.NoPoint:
		in.show(ex, ex.Best, ex.Lookup(ex.Best), "best move")
	default:
		in.message("No legal move on the board.", "")
	}
}
