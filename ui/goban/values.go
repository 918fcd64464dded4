package goban

import (
	"image"
	"math"
)

// Colours of a Values layer: positive values in blue, negative in red, readable on the wood and on
// stones of either colour.
var (
	valuePositive = [3]uint8{30, 110, 235}
	valueNegative = [3]uint8{225, 50, 40}
)

// Values is a Layer that draws one number in [−1, +1] per point — a cnn input plane, for people
// debugging the network — as a square whose area is proportional to |v|, blue above zero and red below,
// on stones and empty points alike. Zero and NaN are not drawn.
type Values struct {
	Size int
	V    []float64 // Size*Size values, index Y*Size+X
}

// Paint implements Layer.
func (l *Values) Paint(img *image.RGBA, g Grid) {
	n := l.Size
	if n != g.Size || n < MinSize || len(l.V) != n*n || g.Cell < 2 {
		return
	}
	for i, v := range l.V {
		if !(v != 0) || math.IsNaN(v) {
			continue
		}
		v = math.Max(-1, math.Min(1, v))
		cx, cy := g.Center(Point{X: i % n, Y: i / n})
		c := valuePositive
		if v < 0 {
			c = valueNegative
		}
		h := float64(g.Cell) * squareSide * math.Sqrt(math.Abs(v)) / 2
		if h >= 0.35 {
			fillSquare(img, cx, cy, h, c, 0.85)
		}
	}
}
