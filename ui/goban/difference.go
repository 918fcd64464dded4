package goban

import (
	"image"
	"image/color"
	"math"
)

// sunset is Paul Tol's diverging scheme "sunset" (P. Tol, "Colour Schemes", SRON technical note
// SRON/EPS/TN/09-002, issue 3.2, 2021, Figure 18), made for readers with any common colour-vision
// deficiency, from blue (+1) through pale yellow (0) to red (−1). Its two arms have the same CIE L*
// at the same distance from the middle (34, 51, 66, 79, 89 … 93), so neither sign looks stronger.
// Blue for the positive side, as the Values layer and the factor bars have it.
var sunset = [11][3]uint8{
	{0x36, 0x4B, 0x9A}, {0x4A, 0x7B, 0xB7}, {0x6E, 0xA6, 0xCD}, {0x98, 0xCA, 0xE1}, {0xC2, 0xE4, 0xEF},
	{0xEA, 0xEC, 0xCC},
	{0xFE, 0xDA, 0x8B}, {0xFD, 0xB3, 0x66}, {0xF6, 0x7E, 0x4B}, {0xDD, 0x3D, 0x2D}, {0xA5, 0x00, 0x26},
}

// DivergingColor is the colour of t in [−1, +1] (clamped; NaN is 0) on Tol's sunset, interpolated
// between its classes: blue above zero, red below, pale yellow at zero.
func DivergingColor(t float64) color.NRGBA {
	if math.IsNaN(t) {
		t = 0
	}
	x := (1 - math.Max(-1, math.Min(1, t))) / 2 * float64(len(sunset)-1)
	i := min(int(x), len(sunset)-2)
	f := x - float64(i)
	var c [3]uint8
	for k := range c {
		c[k] = clamp8(float64(sunset[i][k])*(1-f) + float64(sunset[i+1][k])*f)
	}
	return color.NRGBA{R: c[0], G: c[1], B: c[2], A: 255}
}

// Difference is a Layer of one signed number per point, the log-ratio log(p_A/p_B) of two
// predictors' probabilities of the move there, drawn as a disc in DivergingColor symmetric around 0 and
// clamped at ±Clamp: blue where A likes the move more, red where B does. Its disc covers a heat
// map's. NaN (an illegal move) is not drawn; ±Inf (a probability that underflowed to 0) is drawn as
// ±Clamp.
type Difference struct {
	Size  int
	V     []float64 // Size*Size values in nats, index Y*Size+X
	Clamp float64   // |V| at which the colour saturates; > 0
}

// differenceAlpha256 is the discs' opacity (0..256), 0.9: a trace of the wood shows through, so
// they read as an overlay.
const differenceAlpha256 = 230

// Paint implements Layer.
func (d *Difference) Paint(img *image.RGBA, g Grid) {
	n := d.Size
	if n != g.Size || n < MinSize || len(d.V) != n*n || g.Cell < 2 || !(d.Clamp > 0) {
		return
	}
	x0, _ := g.Center(Point{})
	disc := discMask(float64(g.Cell)*heatRadius, x0-math.Floor(x0)) // one mask tinted for every point
	const alpha = differenceAlpha256
	for i, v := range d.V {
		if math.IsNaN(v) {
			continue
		}
		c := DivergingColor(v / d.Clamp)
		cx, cy := g.Center(Point{X: i % n, Y: i / n})
		disc.blend(img, cx, cy, [3]uint8{c.R, c.G, c.B}, alpha)
	}
}
