package goban

import "math"

// margin is the space between the outermost lines and the edge of the wood,
// in cells: half a cell for the edge stones plus room for the coordinates.
const margin = 1.2

// minCell is the smallest cell, in pixels, that still shows readable stones.
const minCell = 12

// geometry places the grid inside a square of side pixels. Cells are a whole
// number of pixels and lines start on pixel boundaries, so grid lines stay one
// sharp pixel row wide and every cell is the same size at any window size.
type geometry struct {
	size   int     // board lines
	side   int     // pixels of the square wood area
	cell   int     // pixels between adjacent lines
	origin int     // pixel offset of the first line in both directions
	line   int     // grid line width in pixels
	radius float64 // stone radius in pixels
}

func newGeometry(side, size int) geometry {
	g := geometry{size: size, side: side}
	if size < 1 {
		return g
	}
	g.cell = int(float64(side) / (float64(size-1) + 2*margin))
	if g.cell < 1 {
		g.cell = 1
	}
	g.origin = (side - (size-1)*g.cell) / 2
	// Lines thicken slowly with the cell so that large boards on high-DPI
	// screens do not look spidery, while 1 px stays the norm on laptops.
	g.line = 1 + g.cell/48
	// Slightly under half a cell leaves the hairline gap real stones have.
	g.radius = float64(g.cell) * 0.482
	return g
}

// lineStart is the first pixel row (or column) of line i.
func (g geometry) lineStart(i int) int {
	return g.origin + i*g.cell - g.line/2
}

// center is the pixel coordinate of the middle of line i; stones, star points
// and marks are centred here so they sit exactly on the drawn line.
func (g geometry) center(i int) float64 {
	return float64(g.lineStart(i)) + float64(g.line)/2
}

// nearest returns the line nearest pixel coordinate v, if v lies within
// half a cell of it.
func (g geometry) nearest(v float64) (int, bool) {
	if g.cell < 1 || g.size < 1 {
		return 0, false
	}
	i := int(math.Round((v - g.center(0)) / float64(g.cell)))
	if i < 0 || i >= g.size || math.Abs(v-g.center(i)) > float64(g.cell)/2 {
		return 0, false
	}
	return i, true
}
