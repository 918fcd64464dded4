package goban

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// The board takes taps, hovering and the wheel.
var (
	_ fyne.Tappable     = (*Board)(nil)
	_ fyne.Scrollable   = (*Board)(nil)
	_ desktop.Hoverable = (*Board)(nil)
)

// wheelStep is the wheel distance of one step: one notch gives 10 (macOS)
// or 25 (elsewhere) in Fyne's GLFW driver, while trackpads send a stream
// of small deltas that should add up to a step, not give one each.
const wheelStep = 10

// PointAt returns the intersection nearest pos (relative to the board
// widget) if it lies within half a cell of it.
func (b *Board) PointAt(pos fyne.Position) (Point, bool) {
	scale := canvasScale(b)
	origin, side := square(b.Size(), scale)
	g := newGeometry(int(math.Round(float64(side*scale))), b.pos.Size)
	x, okX := g.nearest(float64((pos.X - origin.X) * scale))
	y, okY := g.nearest(float64((pos.Y - origin.Y) * scale))
	return Point{X: x, Y: y}, okX && okY
}

// Tapped implements fyne.Tappable.
func (b *Board) Tapped(ev *fyne.PointEvent) {
	if p, ok := b.PointAt(ev.Position); ok && b.OnTapped != nil {
		b.OnTapped(p)
	}
}

// MouseIn implements desktop.Hoverable.
func (b *Board) MouseIn(ev *desktop.MouseEvent) { b.MouseMoved(ev) }

// MouseMoved implements desktop.Hoverable. Only a change of intersection
// repaints or calls OnHover, not every pixel of movement.
func (b *Board) MouseMoved(ev *desktop.MouseEvent) {
	p, ok := b.PointAt(ev.Position)
	if !ok {
		b.leave()
		return
	}
	if b.ov.hovering && b.ov.hover == p {
		return
	}
	b.ov.hover, b.ov.hovering = p, true
	if b.ov.hoverStone != Empty {
		b.refreshOverlays()
	}
	if b.OnHover != nil {
		b.OnHover(p, true)
	}
}

// MouseOut implements desktop.Hoverable.
func (b *Board) MouseOut() { b.leave() }

// leave ends hovering, once.
func (b *Board) leave() {
	if !b.ov.hovering {
		return
	}
	b.ov.hovering = false
	if b.ov.hoverStone != Empty {
		b.refreshOverlays()
	}
	if b.OnHover != nil {
		b.OnHover(b.ov.hover, false)
	}
}

// Scrolled implements fyne.Scrollable. Fyne's DY is positive for the
// wheel turned away from the user, which steps back through the game.
func (b *Board) Scrolled(ev *fyne.ScrollEvent) {
	dy := ev.Scrolled.DY
	if dy == 0 {
		return
	}
	if (dy > 0) != (b.scrolled > 0) {
		b.scrolled = 0 // a change of direction starts afresh
	}
	b.scrolled += dy
	if b.scrolled > -wheelStep && b.scrolled < wheelStep {
		return
	}
	step := 1
	if b.scrolled > 0 {
		step = -1
	}
	b.scrolled = 0
	if b.OnScrolled != nil {
		b.OnScrolled(step)
	}
}
