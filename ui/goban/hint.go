package goban

import (
	"image"
	"math"
)

// Colours of a Hint layer: a grey veil over the board outside the region left clear, its edge and
// the keyboard cursor in BestColor, wrong guesses crossed in red, marked points ringed in orange
// (Okabe-Ito's, readable on the wood and on the veil).
var (
	hintVeil   = [3]float64{70, 70, 70}
	hintEdge   = [3]uint8{BestColor.R, BestColor.G, BestColor.B}
	hintWrong  = [3]uint8{213, 60, 0}
	hintMarked = [3]uint8{230, 159, 0}
)

// hintVeilAlpha is the veil's opacity: the stones beneath stay readable, the region stands out.
const hintVeilAlpha = 0.55

// Hint is a Layer for the guessing game: it greys out the board outside the region where the hidden
// move lies (the hints narrow it after wrong guesses), crosses out the wrong guesses, rings marked
// points (the predictors' favourites, shown on demand) and draws a keyboard cursor.
type Hint struct {
	Size int
	// Clear is the region left clear, in points: columns Min.X <= x < Max.X, rows Min.Y <= y < Max.Y.
	// An empty rectangle, or one covering the whole board, veils nothing.
	Clear  image.Rectangle
	Wrong  []Point // crossed out
	Marked []Point // ringed
	// Cursor is the point the keyboard points at, drawn when HasCursor.
	Cursor    Point
	HasCursor bool
}

func (h *Hint) onBoard(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < h.Size && p.Y < h.Size }

// Paint implements Layer.
func (h *Hint) Paint(img *image.RGBA, g Grid) {
	if h.Size != g.Size || h.Size < MinSize || g.Cell < 2 {
		return
	}
	cell := float64(g.Cell)
	clear := h.Clear.Intersect(image.Rect(0, 0, h.Size, h.Size))
	if !clear.Empty() && clear != image.Rect(0, 0, h.Size, h.Size) {
		// The clear region reaches half a cell beyond its outer lines, so its stones are whole.
		x0, y0 := g.Center(Point{X: clear.Min.X, Y: clear.Min.Y})
		x1, y1 := g.Center(Point{X: clear.Max.X - 1, Y: clear.Max.Y - 1})
		half := cell / 2
		box := image.Rect(int(math.Round(x0-half)), int(math.Round(y0-half)), int(math.Round(x1+half)), int(math.Round(y1+half)))
		b := img.Bounds()
		for _, r := range []image.Rectangle{
			{b.Min, image.Pt(b.Max.X, box.Min.Y)},                          // above
			{image.Pt(b.Min.X, box.Max.Y), b.Max},                          // below
			{image.Pt(b.Min.X, box.Min.Y), image.Pt(box.Min.X, box.Max.Y)}, // left
			{image.Pt(box.Max.X, box.Min.Y), image.Pt(b.Max.X, box.Max.Y)}, // right
		} {
			if r = r.Intersect(b); !r.Empty() {
				blendRect(img, r.Min.X, r.Min.Y, r.Dx(), r.Dy(), hintVeil, hintVeilAlpha)
			}
		}
		w := math.Max(2, cell*strokeW)
		fx0, fy0, fx1, fy1 := float64(box.Min.X), float64(box.Min.Y), float64(box.Max.X), float64(box.Max.Y)
		strokePath(img, [][2]float64{{fx0, fy0}, {fx1, fy0}, {fx1, fy1}, {fx0, fy1}}, true, w, hintEdge, 0.9)
	}
	w := math.Max(2, cell*strokeW*1.5)
	for _, p := range h.Wrong {
		if h.onBoard(p) {
			cx, cy := g.Center(p)
			d := cell * 0.22
			strokePath(img, [][2]float64{{cx - d, cy - d}, {cx + d, cy + d}}, false, w, hintWrong, 1)
			strokePath(img, [][2]float64{{cx + d, cy - d}, {cx - d, cy + d}}, false, w, hintWrong, 1)
		}
	}
	for _, p := range h.Marked {
		if h.onBoard(p) {
			cx, cy := g.Center(p)
			blendRing(img, cx, cy, cell*0.3, w, rgbf(hintMarked[0], hintMarked[1], hintMarked[2]), 1)
		}
	}
	if h.HasCursor && h.onBoard(h.Cursor) {
		cx, cy := g.Center(h.Cursor)
		d := cell * ringRadius
		strokePath(img, [][2]float64{{cx - d, cy - d}, {cx + d, cy - d}, {cx + d, cy + d}, {cx - d, cy + d}}, true, w, hintEdge, 1)
	}
}
