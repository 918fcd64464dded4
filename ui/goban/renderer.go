package goban

import (
	"image"
	"image/color"
	"math"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// labelColor is a dark brown that reads well on the wood without the
// harshness of black.
var labelColor = color.NRGBA{R: 72, G: 50, B: 28, A: 255}

// The coordinate text grows with the board between these sizes, in Fyne
// units: below the minimum the labels are hidden rather than shown
// illegible; above the maximum they would only shout.
const (
	minLabelText = 7
	maxLabelText = 18
)

// renderer draws a Board. The wood, grid, star points, stones and every
// overlay (heat map, marks, labels, layers) are painted by our own code into
// one raster at the exact pixel size of the board, which keeps lines sharp
// and stones smoothly shaded at any size and costs one texture instead of
// hundreds of canvas objects. The painter caches the wood, grid, stone
// sprites and the stones of the position per size, so stepping through a
// game only blends stones, and a new overlay only repaints the overlay.
// Coordinates are canvas.Text objects: they sit outside the raster's
// layers and are laid out only when the size changes.
type renderer struct {
	board   *Board
	raster  *canvas.Raster
	labels  []*canvas.Text // top, bottom, left, right; size entries each
	objects []fyne.CanvasObject

	labelSize  float32 // text size of the labels at the last layout
	labelShown bool    // whether the labels were shown at the last layout

	scale  float32       // pixels per Fyne unit at the last layout
	origin fyne.Position // top-left of the square, relative to the widget
	side   float32       // side of the square, in Fyne units

	painter *painter // for the current pixel size and board size
}

func newRenderer(b *Board) *renderer {
	r := &renderer{board: b, scale: 1}
	r.raster = canvas.NewRaster(r.paint)
	r.rebuildLabels()
	return r
}

// rebuildLabels creates the coordinate texts for the board size shown.
func (r *renderer) rebuildLabels() {
	n := r.board.pos.Size
	r.labels = r.labels[:0]
	for side := range 4 {
		for i := range n {
			var s string
			if side < 2 {
				s = ColumnLabel(i)
			} else {
				s = RowLabel(i, n)
			}
			t := canvas.NewText(s, labelColor)
			t.Alignment = fyne.TextAlignCenter
			r.labels = append(r.labels, t)
		}
	}
	r.objects = append(r.objects[:0], r.raster)
	for _, t := range r.labels {
		r.objects = append(r.objects, t)
	}
	r.labelSize = 0 // new texts: force their first refresh
}

// MinSize implements fyne.WidgetRenderer: small enough for a side panel, big
// enough for stones to stay recognisable.
func (r *renderer) MinSize() fyne.Size {
	n := float32(r.board.pos.Size-1) + 2*margin
	return fyne.NewSize(n*minCell, n*minCell)
}

// Layout implements fyne.WidgetRenderer.
func (r *renderer) Layout(size fyne.Size) {
	r.scale = canvasScale(r.board)
	r.origin, r.side = square(size, r.scale)
	r.raster.Move(r.origin)
	r.raster.Resize(fyne.NewSquareSize(r.side))
	r.layoutLabels()
}

// canvasScale is the number of pixels per Fyne unit where o is shown.
func canvasScale(o fyne.CanvasObject) float32 {
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil && c.Scale() > 0 {
		return c.Scale()
	}
	return 1
}

// square places the board in a widget of the given size: the largest
// square, centred. It is snapped to whole pixels so the raster is never
// resampled, which would blur the grid.
func square(size fyne.Size, scale float32) (origin fyne.Position, side float32) {
	px := func(v float32) float32 { return float32(math.Floor(float64(v*scale))) / scale }
	side = px(min(size.Width, size.Height))
	return fyne.NewPos(px((size.Width-side)/2), px((size.Height-side)/2)), side
}

// layoutLabels centres each coordinate between the edge stones and the edge
// of the wood, using the same pixel geometry as the raster.
func (r *renderer) layoutLabels() {
	n := r.board.pos.Size
	g := newGeometry(int(math.Round(float64(r.side*r.scale))), n)
	textSize := min(float32(g.cell)*0.36/r.scale, maxLabelText)
	show := r.board.coordinates && textSize >= minLabelText
	// Texts are re-rendered only when their size or visibility changes, not
	// on every move.
	changed := textSize != r.labelSize || show != r.labelShown
	r.labelSize, r.labelShown = textSize, show
	// Distance from the outermost line to the label centre, in pixels.
	off := (float64(g.cell)/2 + g.center(0)) / 2
	unit := func(p float64) float32 { return float32(p) / r.scale }
	for k, t := range r.labels {
		t.Hidden = !show
		if !show {
			continue
		}
		t.TextSize = textSize
		sz := t.MinSize()
		i := k % n
		var cx, cy float64
		switch k / n {
		case 0: // top
			cx, cy = g.center(i), g.center(0)-off
		case 1: // bottom
			cx, cy = g.center(i), g.center(n-1)+off
		case 2: // left
			cx, cy = g.center(0)-off, g.center(i)
		default: // right
			cx, cy = g.center(n-1)+off, g.center(i)
		}
		t.Resize(sz)
		t.Move(fyne.NewPos(r.origin.X+unit(cx)-sz.Width/2, r.origin.Y+unit(cy)-sz.Height/2))
	}
	if changed {
		for _, t := range r.labels {
			t.Refresh()
		}
	}
}

// paint is the raster generator: called by the painter with the pixel size
// of the square whenever the raster is resized or refreshed.
func (r *renderer) paint(w, h int) image.Image {
	start := time.Now()
	side := min(w, h)
	pos := r.board.pos
	resized := r.painter == nil || r.painter.g != newGeometry(side, pos.Size)
	if resized {
		r.painter = newPainter(side, pos.Size)
	}
	img := r.painter.paint(pos, &r.board.ov)
	if r.board.OnPainted != nil {
		r.board.OnPainted(PaintStats{Width: w, Height: h, Resized: resized, Took: time.Since(start)})
	}
	return img
}

// Refresh implements fyne.WidgetRenderer.
func (r *renderer) Refresh() {
	if len(r.labels) != 4*r.board.pos.Size {
		r.rebuildLabels()
	}
	r.Layout(r.board.Size())
	r.raster.Refresh()
}

// Objects implements fyne.WidgetRenderer.
func (r *renderer) Objects() []fyne.CanvasObject { return r.objects }

// Destroy implements fyne.WidgetRenderer; it drops the cached images.
func (r *renderer) Destroy() { r.painter = nil }
