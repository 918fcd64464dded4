package workbench

import (
	"image"
	"image/color"
	"math"

	"aji/analysis/board"
	"aji/analysis/predict"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// diagramSide is the diagram's size: a size-12 shape (13 points across)
// still gets 7-pixel cells, and the four lines beside it fit its height.
const diagramSide = 96

// Colours of the diagram: the board's wood and lines (ui/goban), so the
// shape looks like a piece of the board next to it.
var (
	diagramWood  = color.RGBA{222, 181, 110, 255}
	diagramLine  = color.RGBA{38, 27, 16, 255}
	diagramEdge  = color.RGBA{128, 112, 92, 255} // off the board
	diagramHatch = color.RGBA{104, 90, 72, 255}
	diagramBlack = color.RGBA{28, 28, 31, 255}
	diagramWhite = color.RGBA{244, 242, 236, 255}
	diagramRim   = color.RGBA{120, 117, 110, 255} // outline of white stones
	diagramMark  = color.RGBA{0, 122, 255, 255}   // the move: goban.BestColor
)

// shapeDiagram draws a shape pattern as a small board: the template points
// around the move on wood, with own and opponent stones in the colours of
// the player to move and the other player, off-board points shaded, and the
// move itself as a translucent stone of the mover ringed in blue. Points of
// the bounding square outside the template stay blank, so the template's
// outline shows.
type shapeDiagram struct {
	widget.BaseWidget
	cells []predict.PatternCell
	mover board.Color
}

func newShapeDiagram() *shapeDiagram {
	d := &shapeDiagram{mover: board.Black}
	d.ExtendBaseWidget(d)
	return d
}

// set shows cells, relative to mover, the player to move.
func (d *shapeDiagram) set(cells []predict.PatternCell, mover board.Color) {
	d.cells, d.mover = cells, mover
	d.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (d *shapeDiagram) CreateRenderer() fyne.WidgetRenderer {
	r := &diagramRenderer{d: d}
	// One raster, painted at the screen's pixel size: crisp stones without
	// an object per point.
	r.raster = canvas.NewRaster(func(w, h int) image.Image { return paintShape(d.cells, d.mover, w, h) })
	return r
}

type diagramRenderer struct {
	d      *shapeDiagram
	raster *canvas.Raster
}

func (r *diagramRenderer) MinSize() fyne.Size { return fyne.NewSquareSize(diagramSide) }

func (r *diagramRenderer) Layout(size fyne.Size) {
	side := min(size.Width, size.Height)
	r.raster.Resize(fyne.NewSquareSize(side))
	r.raster.Move(fyne.NewPos((size.Width-side)/2, (size.Height-side)/2))
}

func (r *diagramRenderer) Refresh()                     { r.raster.Refresh() }
func (r *diagramRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.raster} }
func (r *diagramRenderer) Destroy()                     {}

// paintShape draws cells into a w×h image, the move at the centre (for
// the whole board, T14, where it is on the board).
func paintShape(cells []predict.PatternCell, mover board.Color, w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if w <= 0 || h <= 0 {
		return img
	}
	// The square drawn: the cells' bounding box and the move's neighbours,
	// its narrower side centred. A template is symmetric about the move, so
	// the move is at the centre; Stern's whole-board T14 (the board and its
	// rim) is drawn as the board, the move wherever it is.
	x0, y0, x1, y1 := -1, -1, 1, 1
	for _, c := range cells {
		x0, y0, x1, y1 = min(x0, c.DX), min(y0, c.DY), max(x1, c.DX), max(y1, c.DY)
	}
	n := max(x1-x0, y1-y0) + 1
	x0 -= (n - (x1 - x0 + 1)) / 2
	y0 -= (n - (y1 - y0 + 1)) / 2
	// Cells grow with the space but not past 20 pixels, so a 3x3 shape
	// does not look like a close-up.
	cell := min(min(w, h)/n, 20)
	if cell < 4 {
		return img
	}
	ox, oy := (w-n*cell)/2, (h-n*cell)/2
	// state of each point of the bounding square; "" outside the template.
	state := make([]string, n*n)
	at := func(dx, dy int) string {
		if dx < x0 || dy < y0 || dx >= x0+n || dy >= y0+n {
			return ""
		}
		return state[(dy-y0)*n+dx-x0]
	}
	for _, c := range cells {
		state[(c.DY-y0)*n+c.DX-x0] = c.State
	}
	state[-y0*n-x0] = "move"

	for i, s := range state {
		x, y := ox+(i%n)*cell, oy+(i/n)*cell
		switch s {
		case "":
		case "edge":
			fill(img, image.Rect(x, y, x+cell, y+cell), diagramEdge)
			// Hatching tells the edge from a dark stone at a glance.
			for py := y; py < y+cell; py++ {
				for px := x; px < x+cell; px++ {
					if (px+py)%4 == 0 {
						img.SetRGBA(px, py, diagramHatch)
					}
				}
			}
		default:
			fill(img, image.Rect(x, y, x+cell, y+cell), diagramWood)
		}
	}
	// Grid lines from each on-board point to the sides of its square, except
	// towards the edge: the lines then end where the real board's do.
	line := max(1, cell/16)
	for i, s := range state {
		if s == "" || s == "edge" {
			continue
		}
		dx, dy := i%n+x0, i/n+y0
		x, y := ox+(i%n)*cell, oy+(i/n)*cell
		lx, ly := x+(cell-line)/2, y+(cell-line)/2 // the lines' top-left pixel
		if at(dx-1, dy) != "edge" {
			fill(img, image.Rect(x, ly, lx+line, ly+line), diagramLine)
		}
		if at(dx+1, dy) != "edge" {
			fill(img, image.Rect(lx, ly, x+cell, ly+line), diagramLine)
		}
		if at(dx, dy-1) != "edge" {
			fill(img, image.Rect(lx, y, lx+line, ly+line), diagramLine)
		}
		if at(dx, dy+1) != "edge" {
			fill(img, image.Rect(lx, ly, lx+line, y+cell), diagramLine)
		}
	}
	own, opp := diagramBlack, diagramWhite
	if mover == board.White {
		own, opp = opp, own
	}
	radius := 0.47 * float64(cell)
	for i, s := range state {
		// The centre of the line drawn above, to the sub-pixel.
		cx := float64(ox+(i%n)*cell+(cell-line)/2) + float64(line)/2
		cy := float64(oy+(i/n)*cell+(cell-line)/2) + float64(line)/2
		switch s {
		case "own":
			stone(img, cx, cy, radius, own, 1)
		case "opponent":
			stone(img, cx, cy, radius, opp, 1)
		case "move":
			stone(img, cx, cy, radius, own, 0.5)
			ring(img, cx, cy, 0.3*float64(cell), math.Max(1.5, 0.1*float64(cell)), diagramMark)
		}
	}
	return img
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// stone draws a stone as an anti-aliased disc with alpha; a white stone
// gets a grey rim so that it stands out on the wood.
func stone(img *image.RGBA, cx, cy, r float64, c color.RGBA, alpha float64) {
	if c == diagramWhite {
		disc(img, cx, cy, r, diagramRim, alpha)
		r -= 1
	}
	disc(img, cx, cy, r, c, alpha)
}

func disc(img *image.RGBA, cx, cy, r float64, c color.RGBA, alpha float64) {
	forPixels(img, cx, cy, r+1, func(x, y int, d float64) {
		if cov := math.Min(1, math.Max(0, r-d+0.5)); cov > 0 {
			blend(img, x, y, c, cov*alpha)
		}
	})
}

// ring draws an anti-aliased circle of the given line width.
func ring(img *image.RGBA, cx, cy, r, width float64, c color.RGBA) {
	forPixels(img, cx, cy, r+width, func(x, y int, d float64) {
		if cov := math.Min(1, math.Max(0, width/2-math.Abs(d-r)+0.5)); cov > 0 {
			blend(img, x, y, c, cov)
		}
	})
}

// forPixels calls fn for each pixel whose centre lies within reach of
// (cx, cy), with that distance.
func forPixels(img *image.RGBA, cx, cy, reach float64, fn func(x, y int, d float64)) {
	b := img.Bounds()
	for y := max(b.Min.Y, int(cy-reach)); y < min(b.Max.Y, int(cy+reach)+1); y++ {
		for x := max(b.Min.X, int(cx-reach)); x < min(b.Max.X, int(cx+reach)+1); x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if d := math.Hypot(dx, dy); d <= reach {
				fn(x, y, d)
			}
		}
	}
}

// blend composites c with coverage a over the pixel, which may be
// transparent (outside the template) or opaque.
func blend(img *image.RGBA, x, y int, c color.RGBA, a float64) {
	p := img.RGBAAt(x, y)
	mix := func(dst, src uint8) uint8 { return uint8(float64(dst)*(1-a) + float64(src)*a + 0.5) }
	img.SetRGBA(x, y, color.RGBA{mix(p.R, c.R), mix(p.G, c.G), mix(p.B, c.B), mix(p.A, 255)})
}
