package boardimage

import (
	"image/color"
	"math"
)

// The look of a common fate graph (Graf & Platzner §III-A), one definition for the app's CFG layer
// (ui/goban) and exported images: each chain a node on its centre stone with bonds joining its
// stones, each empty point a small square, each edge a thin line, every vertex in its label's colour.

// CFGVertex is one vertex of a common fate graph: a chain, or an empty point.
type CFGVertex struct {
	Stone  Stone   // Empty for an empty point, else the chain's colour
	Points []Point // the chain's stones, or the empty point
	Centre Point   // where the vertex is drawn: the empty point, or the chain's stone nearest its middle
	Label  uint32  // the neighbourhood-hash label; drawn in LabelColor(Label)
}

// CFG is a common fate graph to draw: its vertices and its edges, as indices into Vertices.
type CFG struct {
	Vertices []CFGVertex
	Edges    [][2]int32
}

// Sizes of the graph's drawing, in cells, and the opacity of edges between empty points.
const (
	CFGSquare     = 0.12 // half-side of an empty point's square
	CFGNode       = 0.19 // radius of a chain's node
	CFGBond       = 0.15 // width of the bond between two stones of a chain
	CFGEdge       = 0.05 // width of an edge
	CFGEmptyEdgeA = 0.55 // edges between empty points, which would otherwise hide the grid's lines
)

// The rims around vertices: dark on wood and white stones, light on black ones.
var (
	CFGDarkRim  = [3]uint8{40, 32, 24}
	CFGLightRim = [3]uint8{240, 238, 232}
)

// LabelColor is the colour of a vertex label: a hue from its low 8 bits — the bits a path feature
// keeps — at one lightness and chroma in OKLCH, so that no label stands out by brightness alone and
// every one is muted enough to leave the stones readable. The byte is scrambled (×97 mod 256, a
// bijection) before it becomes a hue, so labels one apart, which the hash makes no more alike than
// any others, do not get near-identical colours.
func LabelColor(label uint32) color.NRGBA { return labelPalette[label&0xff] }

// LabelInk is LabelColor as an opaque RGB triple.
func LabelInk(label uint32) [3]uint8 {
	c := &labelPalette[label&0xff]
	return [3]uint8{c.R, c.G, c.B}
}

// labelPalette holds LabelColor for every byte, made once: a layer looks a colour up for every
// vertex and edge of every repaint.
var labelPalette = func() (t [256]color.NRGBA) {
	for i := range t {
		h := 2 * math.Pi * float64(i*97&0xff) / 256
		r, g, b := oklch(0.66, 0.13, h)
		t[i] = color.NRGBA{R: r, G: g, B: b, A: 255}
	}
	return t
}()

// oklch converts an OKLCH colour (Ottosson's OKLab in polar form) to 8-bit sRGB, clipping what falls
// outside the gamut.
func oklch(l, c, h float64) (uint8, uint8, uint8) {
	a, b := c*math.Cos(h), c*math.Sin(h)
	l_ := l + 0.3963377774*a + 0.2158037573*b
	m_ := l - 0.1055613458*a - 0.0638541728*b
	s_ := l - 0.0894841775*a - 1.2914855480*b
	lc, mc, sc := l_*l_*l_, m_*m_*m_, s_*s_*s_
	rl := 4.0767416621*lc - 3.3077115913*mc + 0.2309699292*sc
	gl := -1.2684380046*lc + 2.6097574011*mc - 0.3413193965*sc
	bl := -0.0041960863*lc - 0.7034186147*mc + 1.7076147010*sc
	return linearToSRGB(rl), linearToSRGB(gl), linearToSRGB(bl)
}

// linearToSRGB applies the sRGB transfer curve to a linear channel.
func linearToSRGB(v float64) uint8 {
	v = clamp01(v)
	if v <= 0.0031308 {
		return clamp8(255 * 12.92 * v)
	}
	return clamp8(255 * (1.055*math.Pow(v, 1/2.4) - 0.055))
}

// Valid reports whether the graph can be drawn on a board of side n: every index and point in range.
func (c *CFG) Valid(n int) bool {
	on := func(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < n && p.Y < n }
	for _, v := range c.Vertices {
		if !on(v.Centre) || len(v.Points) == 0 {
			return false
		}
		for _, p := range v.Points {
			if !on(p) {
				return false
			}
		}
	}
	nv := int32(len(c.Vertices))
	for _, e := range c.Edges {
		if e[0] < 0 || e[0] >= nv || e[1] < 0 || e[1] >= nv {
			return false
		}
	}
	return len(c.Vertices) <= n*n
}
