package workbench

import (
	"time"

	"aji/ui/goban"
)

// restTime is how long the pointer must stay on a point for the inspector
// to keep it once the pointer leaves the board: on its way to the panel the
// pointer crosses other points, which should not replace what the user was
// reading.
const restTime = 300 * time.Millisecond

// hoverState is where the pointer is over the boards, for the inspector and
// the CFG tab.
type hoverState struct {
	view      int // the board hovered last
	point     goban.Point
	inside    bool
	since     time.Time   // when the pointer reached point
	rested    goban.Point // the last point the pointer stayed on for restTime
	hasRested bool
}

// hovered follows the pointer over board view (goban.Board.OnHover), before
// the tabs do.
func (wb *Workbench) hovered(view int, p goban.Point, inside bool) {
	h := &wb.hover
	now := wb.now()
	if h.inside && now.Sub(h.since) >= restTime {
		h.rested, h.hasRested = h.point, true
	}
	h.view, h.point, h.inside, h.since = view, p, inside, now
}
