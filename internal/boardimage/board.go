// Package boardimage draws a Go board with Aji's overlays as a PNG or SVG image, for `aji render`
// and the app's File › Export image…. It is a compact renderer of its own rather than ui/goban's
// painter: that painter is built around Fyne's theme font and a per-geometry sprite cache for live
// repainting, while an export needs one picture at any size, vector output too, and must be
// reachable from cmd/, which may not import ui/. The heat scale and palettes are one home for both
// (heat.go, which ui/goban uses); the wood, stone and line colours and the proportions copy ui/goban's,
// so an exported board looks like the one on screen.
package boardimage

import (
	"errors"
	"fmt"
	"math"
)

// Stone is the content of a point.
type Stone uint8

// The contents of a point.
const (
	Empty Stone = iota
	Black
	White
)

// Point is an intersection, X from the left and Y from the top, from 0.
type Point struct{ X, Y int }

// Label is a text drawn on a point (a candidate's percentage, a letter).
type Label struct {
	Point Point
	Text  string
}

// Board is a plain description of what to draw: the app builds it from what its board shows, `aji
// render` from a record and analysis/live. Slices are indexed Y*Size+X.
type Board struct {
	Size    int
	Stones  []Stone // Size*Size; nil: an empty board
	Last    Point   // the last move, ringed when HasLast
	HasLast bool

	// Heat holds a probability per point, negative where the move is illegal; nil draws no heat map.
	// Discs grow and strengthen with the probability on the scale chosen.
	Heat []float64
	// LogScale maps log10 of the probability from 0.01% to 1, as the app's default; otherwise the
	// scale is linear up to HeatMax (the largest probability when 0), so the best move takes the
	// top colour.
	LogScale bool
	HeatMax  float64
	// HideBelow leaves bare the points whose probability is under it (the app's threshold).
	HideBelow float64
	Palette   Palette // the heat map's colours (PaletteViridis by default)

	// Territory holds E[s] in [−1, +1] per point, +1 Black, NaN unknown; nil draws none. Empty
	// points and stones owned by the other colour get the owner's square, its area |E[s]|.
	Territory []float64

	// Search holds a tree search's candidates, drawn over the stones as the app's Search layer;
	// nil draws none.
	Search []SearchMove
	// CFG is a common fate graph drawn over the stones as the app's CFG layer; nil draws none.
	CFG *CFG

	Labels      []Label // drawn over the discs, with automatic contrast
	Caption     string  // one line above the board: players, move, overlays
	Coordinates bool    // letters and numbers around the grid
	FlatStones  bool    // plain discs instead of shaded stones (for print)
}

// MaxSize is the largest board drawn, as the rules engine's.
const MaxSize = 25

// Validate reports a description that cannot be drawn.
func (b *Board) Validate() error {
	n := b.Size * b.Size
	switch {
	case b.Size < 2 || b.Size > MaxSize:
		return fmt.Errorf("boardimage: board size %d outside 2..%d", b.Size, MaxSize)
	case b.Stones != nil && len(b.Stones) != n:
		return fmt.Errorf("boardimage: %d stones for a %dx%d board", len(b.Stones), b.Size, b.Size)
	case b.Heat != nil && len(b.Heat) != n:
		return fmt.Errorf("boardimage: %d heat values for a %dx%d board", len(b.Heat), b.Size, b.Size)
	case b.Territory != nil && len(b.Territory) != n:
		return fmt.Errorf("boardimage: %d territory values for a %dx%d board", len(b.Territory), b.Size, b.Size)
	case b.CFG != nil && !b.CFG.Valid(b.Size):
		return errors.New("boardimage: a CFG vertex or edge off the board")
	case b.HasLast && !b.on(b.Last):
		return errors.New("boardimage: last move off the board")
	}
	return nil
}

func (b *Board) on(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < b.Size && p.Y < b.Size }

func (b *Board) at(p Point) Stone {
	if b.Stones == nil {
		return Empty
	}
	return b.Stones[p.Y*b.Size+p.X]
}

// heatPos is point i's position in [0, 1] on the heat scale, or −1 where no disc is drawn.
func (b *Board) heatPos(i int, max float64) float64 {
	p := b.Heat[i]
	if !(p >= 0) || p < b.HideBelow || (b.Stones != nil && b.Stones[i] != Empty) {
		return -1
	}
	scale := ScaleLinear
	if b.LogScale {
		scale = ScaleLog
	}
	return ScalePos(p, scale, max)
}

// heatMax is the top of the linear scale.
func (b *Board) heatMax() float64 {
	if b.HeatMax > 0 {
		return b.HeatMax
	}
	m := 0.0
	for _, p := range b.Heat {
		m = math.Max(m, p)
	}
	return m
}

// StarPoints are the hoshi of a board of size lines: the 4-4 points (3-3 on boards smaller than 13),
// the centre of odd boards, and the side midpoints of odd boards from 15 up — ui/goban's too.
func StarPoints(size int) []Point {
	if size < 7 {
		if size >= 5 && size%2 == 1 {
			return []Point{{size / 2, size / 2}}
		}
		return nil
	}
	edge := 3
	if size < 13 {
		edge = 2
	}
	far := size - 1 - edge
	pts := []Point{{edge, edge}, {far, edge}, {edge, far}, {far, far}}
	if size%2 == 1 {
		mid := size / 2
		if size >= 15 {
			pts = append(pts, Point{mid, edge}, Point{edge, mid}, Point{far, mid}, Point{mid, far})
		}
		pts = append(pts, Point{mid, mid})
	}
	return pts
}

// ColumnName is the GTP letter of column x (no I).
func ColumnName(x int) string {
	const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	return letters[x : x+1]
}

// PercentLabel is a candidate's label as the app writes it: "38", "4.2".
func PercentLabel(p float64) string {
	if v := 100 * p; v >= 9.95 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", 100*p)
}

// layout places the caption band, the board square and the legend band in an image of side px, all
// in pixels. Everything is a fraction of px, so an image looks the same at any size.
type layout struct {
	px      int
	capH    int     // caption band height (0 without a caption)
	legH    int     // legend band height (0 without a heat map)
	side    int     // the board square
	left    int     // its left edge
	top     int     // its top edge
	cell    int     // pixels between lines
	origin  [2]int  // pixel of the first line's centre, x and y
	line    int     // line width
	radius  float64 // stone radius
	textPx  float64 // label text size
	coordPx float64 // coordinate text size
}

// margin is the space between the outer lines and the wood's edge, in cells, as ui/goban's.
const margin = 1.2

func newLayout(b *Board, px int) layout {
	l := layout{px: px}
	if b.Caption != "" {
		l.capH = int(math.Round(float64(px) * 0.055))
	}
	if b.Heat != nil {
		l.legH = int(math.Round(float64(px) * 0.085))
	}
	l.side = px - l.capH - l.legH
	l.left = (px - l.side) / 2
	l.top = l.capH
	l.cell = max(1, int(float64(l.side)/(float64(b.Size-1)+2*margin)))
	span := (b.Size - 1) * l.cell
	l.origin = [2]int{l.left + (l.side-span)/2, l.top + (l.side-span)/2}
	l.line = 1 + l.cell/48
	l.radius = float64(l.cell) * 0.482
	l.textPx = float64(l.cell) * 0.42
	l.coordPx = float64(l.cell) * 0.36
	return l
}

// center is the pixel centre of point p.
func (l layout) center(p Point) (float64, float64) {
	off := float64(l.line%2) / 2
	return float64(l.origin[0]+p.X*l.cell) + off, float64(l.origin[1]+p.Y*l.cell) + off
}

// MinSize is the smallest image side drawn: below it the cells are too small to read.
const MinSize = 64

// MaxImageSize bounds the image side (a 16k square PNG is already 1 GiB of pixels).
const MaxImageSize = 8192

func checkSize(px int) error {
	if px < MinSize || px > MaxImageSize {
		return fmt.Errorf("boardimage: image size %d outside %d..%d pixels", px, MinSize, MaxImageSize)
	}
	return nil
}
