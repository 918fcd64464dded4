package goban

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Board is the Go board widget. It shows one Position, square and centred in
// whatever space its container gives it.
//
// Like every Fyne widget, its methods must be called on the Fyne goroutine;
// analysis goroutines hand results over with fyne.Do.
type Board struct {
	widget.BaseWidget

	// OnPainted, when set, is called after each repaint of the board image.
	// The app uses the first call to log its start-up time.
	OnPainted func(PaintStats)

	// OnTapped is called with the intersection nearest a tap or click;
	// taps more than half a cell from every intersection are ignored.
	OnTapped func(Point)
	// OnHover is called when the pointer moves onto an intersection
	// (inside true) and once when it leaves the grid or the widget
	// (inside false, p the last intersection hovered).
	OnHover func(p Point, inside bool)
	// OnScrolled is called for the mouse wheel: +1 forward (towards newer
	// moves, wheel turned towards the user), -1 back. A wheel notch gives
	// one step; fine trackpad deltas add up to one.
	OnScrolled func(steps int)

	pos         Position
	coordinates bool
	ov          overlays
	rend        *renderer // the current renderer, for overlay-only repaints
	scrolled    float32   // wheel distance not yet turned into a step
}

// PaintStats describes one repaint of the board image.
type PaintStats struct {
	Width, Height int           // pixels
	Resized       bool          // the wood, grid and stone sprites were redrawn too
	Took          time.Duration // time spent painting
}

// NewBoard returns an empty 19x19 board with coordinates shown.
func NewBoard() *Board {
	b := &Board{pos: NewPosition(19), coordinates: true}
	b.ExtendBaseWidget(b)
	return b
}

// SetPosition shows p. The board keeps its own copy, so the caller may reuse
// p's slice. An invalid p leaves the board unchanged.
func (b *Board) SetPosition(p Position) error {
	if err := p.Validate(); err != nil {
		return err
	}
	b.pos = p.clone()
	b.Refresh()
	return nil
}

// CurrentPosition returns a copy of the position shown.
func (b *Board) CurrentPosition() Position {
	return b.pos.clone()
}

// SetCoordinates shows or hides the coordinate labels around the grid.
func (b *Board) SetCoordinates(show bool) {
	if b.coordinates == show {
		return
	}
	b.coordinates = show
	b.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	b.rend = newRenderer(b)
	return b.rend
}
