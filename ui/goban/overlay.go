package goban

import (
	"aji/internal/boardimage"
	"errors"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"math"
)

// ErrHeat reports a heat map the board cannot show.
var ErrHeat = errors.New("invalid heat map")

// Heat is a probability per intersection, shown as coloured discs on the
// legal empty points.
type Heat struct {
	Size int
	// P holds Size*Size probabilities in [0,1], index Y*Size+X; a negative
	// value or NaN marks an illegal move, which is not drawn.
	P         []float64
	Scale     Scale
	Palette   Palette
	HideBelow float64 // points below this probability are not coloured (0: show all legal)
}

// Validate reports whether the board can show h.
func (h *Heat) Validate() error {
	switch {
	case h.Size < MinSize || h.Size > MaxSize:
		return fmt.Errorf("%w: size %d outside %d..%d", ErrHeat, h.Size, MinSize, MaxSize)
	case len(h.P) != h.Size*h.Size:
		return fmt.Errorf("%w: %d values for a %dx%d board", ErrHeat, len(h.P), h.Size, h.Size)
	case h.Scale > ScaleLog:
		return fmt.Errorf("%w: unknown scale %d", ErrHeat, h.Scale)
	case h.Palette >= boardimage.NumPalettes:
		return fmt.Errorf("%w: unknown palette %d", ErrHeat, h.Palette)
	case math.IsNaN(h.HideBelow):
		return fmt.Errorf("%w: HideBelow is NaN", ErrHeat)
	}
	return nil
}

// Max returns the largest probability of a legal move, 0 if there is none.
// It is the top of the linear scale on the board: pass it to Legend.SetMax.
func (h *Heat) Max() float64 {
	m := 0.0
	for _, p := range h.P {
		if p > m {
			m = p
		}
	}
	return math.Min(m, 1)
}

// MarkKind is a symbol drawn on an intersection.
type MarkKind uint8

// The marks a Label can carry: the SGF markup symbols, plus a ring around
// the whole intersection for the move the record actually played next.
const (
	MarkNone MarkKind = iota
	MarkCircle
	MarkSquare
	MarkTriangle
	MarkCross
	MarkRing
)

// Label is text and/or a mark on an intersection.
type Label struct {
	Point Point
	Text  string // centred text, e.g. "23" (percent) or "A"; may be empty for a pure mark
	Mark  MarkKind
	// Color nil picks black or white automatically for contrast against
	// what lies beneath (stone, wood or heat).
	Color color.Color
	Best  bool // the top candidate: outlined in BestColor (Lizzie's convention)
}

// BestColor outlines the best candidate. An azure blue stays distinct from
// every palette (their top ends are yellow, the best move's usual colour)
// and from the wood, and blue against yellow is the pair that red-green
// colour blindness leaves intact.
var BestColor = color.NRGBA{R: 0, G: 122, B: 255, A: 255}

// Grid is the pixel geometry of the board raster, for Layers.
type Grid struct {
	Size, Cell int
	// Origin is the pixel holding the centre of point (0,0); point (x,y)
	// is centred in pixel Origin + (x*Cell, y*Cell).
	Origin image.Point
	Line   int     // grid line width in pixels
	Radius float64 // stone radius in pixels
}

// Center returns the exact pixel coordinates of the centre of p, in the
// continuous image space where pixel (i,j) covers [i,i+1)×[j,j+1).
func (g Grid) Center(p Point) (float64, float64) {
	frac := 0.5 * float64(g.Line%2)
	return float64(g.Origin.X+p.X*g.Cell) + frac, float64(g.Origin.Y+p.Y*g.Cell) + frac
}

// Layer is a whole-board overlay painted into the board raster: one image
// for all points, not an object per point. Paint runs on the Fyne goroutine
// on every repaint, so it must be quick and must not keep img.
type Layer interface {
	Paint(img *image.RGBA, g Grid)
}

// overlays is everything the board paints above the stones. Slices are
// the board's own copies, reused between updates.
type overlays struct {
	heat    Heat
	heatOn  bool
	heatMax float64

	labels     []Label
	labelScale float64 // label text size as a multiple of the usual; 0 means 1 (SetLabelScale)
	// under are painted between the stones and the heat map, over above
	// the labels, each bottom first.
	under, over []Layer

	numbers   []int
	numbersOn bool

	hoverStone Stone
	hover      Point
	hovering   bool // the pointer is over an intersection
}

// heatPos is the scale position of point i under the heat map, or -1 where
// no disc is drawn (no heat, illegal, hidden, or a stone there).
func (o *overlays) heatPos(pos *Position, i int) float64 {
	h := &o.heat
	if !o.heatOn || h.Size != pos.Size || pos.Stones[i] != Empty {
		return -1
	}
	v := h.P[i]
	if !(v >= 0) || v < h.HideBelow {
		return -1
	}
	return scalePos(v, h.Scale, o.heatMax)
}

// SetHeat shows h as the heat layer; nil hides it. The board copies h. An
// invalid h (see Heat.Validate) is ignored with a logged warning, and a
// heat map whose size differs from the position shown is kept but not
// drawn until a position of its size arrives.
func (b *Board) SetHeat(h *Heat) {
	if h == nil {
		if b.ov.heatOn {
			b.ov.heatOn = false
			b.refreshOverlays()
		}
		return
	}
	if err := h.Validate(); err != nil {
		slog.Warn("goban: heat map ignored", "err", err)
		return
	}
	o := &b.ov
	p := o.heat.P
	o.heat = *h
	o.heat.P = append(p[:0], h.P...)
	o.heatMax = h.Max()
	o.heatOn = true
	b.refreshOverlays()
}

// SetLabels replaces all labels and marks; nil clears them. Labels off
// the board are not drawn.
func (b *Board) SetLabels(ls []Label) {
	if len(ls) == 0 && len(b.ov.labels) == 0 {
		return
	}
	b.ov.labels = append(b.ov.labels[:0], ls...)
	b.refreshOverlays()
}

// SetLayers replaces the whole-board layers, each list bottom first: under
// are painted on the stones, below the heat map, its stone marks, the hover
// stone and the labels; over are painted above them all. Nil entries are
// skipped. Call it again (or Refresh the board) after a layer's data
// changes, to repaint.
func (b *Board) SetLayers(under, over []Layer) {
	o := &b.ov
	if len(o.under)+len(o.over)+len(under)+len(over) == 0 {
		return
	}
	o.under = append(o.under[:0], under...)
	o.over = append(o.over[:0], over...)
	b.refreshOverlays()
}

// SetMoveNumbers shows numbers on the stones: Size*Size entries, index
// Y*Size+X, 0 for none. nil hides them. Numbers for empty points, or of
// the wrong length for the position shown, are not drawn.
func (b *Board) SetMoveNumbers(numbers []int) {
	if numbers == nil {
		if b.ov.numbersOn {
			b.ov.numbersOn = false
			b.refreshOverlays()
		}
		return
	}
	b.ov.numbers = append(b.ov.numbers[:0], numbers...)
	b.ov.numbersOn = true
	b.refreshOverlays()
}

// SetHoverStone sets the colour of the translucent stone shown under the
// pointer on empty points; Empty shows none.
func (b *Board) SetHoverStone(s Stone) {
	if s > White {
		s = Empty
	}
	if s == b.ov.hoverStone {
		return
	}
	b.ov.hoverStone = s
	if b.ov.hovering {
		b.refreshOverlays()
	}
}

// refreshOverlays repaints the board raster only: no layout, no
// coordinate texts, and the painter's cached wood, grid and stones stay.
func (b *Board) refreshOverlays() {
	if b.rend != nil {
		b.rend.raster.Refresh()
	}
}
