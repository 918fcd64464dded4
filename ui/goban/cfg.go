package goban

import (
	"image"
	"image/color"
	"math"
	"sync"

	"aji/internal/boardimage"
)

// CFGVertex is one vertex of a common fate graph (Graf & Platzner §III-A:
// a chain, or an empty point) as the CFG layer draws it: the picture's.
type CFGVertex = boardimage.CFGVertex

// CFG is a Layer that draws a common fate graph over the stones: each chain
// as a node on its centre stone with coloured bonds joining its stones,
// each empty point as a small square, and each edge as a thin line, every
// vertex in the colour of its label's low byte (LabelColor). Edges from a
// vertex start in its colour and end, half-way, in the other's. Walks, when
// set, are drawn bold over the rest, which fades, so that the features of
// one point read on a crowded board.
type CFG struct {
	Size     int
	Vertices []CFGVertex
	Edges    [][2]int32 // indices into Vertices
	// ShowLabels writes the low 8 bits of each label in hex — the byte a
	// path feature keeps (§III-A.3) — on coloured tiles.
	ShowLabels bool
	// Walks are highlighted, each three indices into Vertices from its
	// start (a walk of length two, cycles allowed). Nil: none, the whole
	// graph at full strength.
	Walks [][3]int32
}

// cfgText is the face cache of CFG layers: the workbench makes a new layer
// value on every hover, so the glyphs are kept here rather than in each;
// the lock makes painting from two boards safe.
var cfgText struct {
	sync.Mutex
	tc textCache
}

// Sizes of the CFG layer, in cells, and its opacities.
const (
	cfgSquare     = boardimage.CFGSquare     // half-side of an empty point's square
	cfgNode       = boardimage.CFGNode       // radius of a chain's node
	cfgBond       = boardimage.CFGBond       // width of the bond between two stones of a chain
	cfgEdge       = boardimage.CFGEdge       // width of an edge
	cfgWalk1      = 0.13                     // width of a walk's first step
	cfgWalk2      = 0.085                    // width of its second step
	cfgTile       = 0.31                     // half-side of the tile under a label on an empty point
	cfgTileNode   = 0.33                     // radius of the disc under a label on a chain
	cfgLabelPx    = 0.36                     // label text
	cfgEmptyEdgeA = boardimage.CFGEmptyEdgeA // edges between empty points, which would otherwise hide the grid's lines
	cfgFade       = 0.4                      // what is off the walks keeps this much of its opacity
	cfgWalkScale  = 1.35                     // vertices on the walks grow by this much
)

// Colours of the CFG layer: the walks in the azure of BestColor with a pale
// halo, so they read on wood, black and white stones alike.
var (
	cfgWalkInk  = [3]uint8{BestColor.R, BestColor.G, BestColor.B}
	cfgHalo     = [3]uint8{250, 248, 240}
	cfgDarkRim  = boardimage.CFGDarkRim
	cfgLightRim = boardimage.CFGLightRim
)

// LabelColor is the colour of a vertex label: a hue from its low 8 bits,
// the bits a path feature keeps (boardimage.LabelColor, which exported
// images share).
func LabelColor(label uint32) color.NRGBA { return boardimage.LabelColor(label) }

// valid reports whether c can be drawn on grid g: every index and point in
// range.
func (c *CFG) valid(g Grid) bool {
	n := c.Size
	if n != g.Size || n < MinSize || n > MaxSize || g.Cell < 4 || len(c.Vertices) > n*n ||
		!(&boardimage.CFG{Vertices: c.Vertices, Edges: c.Edges}).Valid(n) {
		return false
	}
	nv := int32(len(c.Vertices))
	for _, w := range c.Walks {
		for _, v := range w {
			if v < 0 || v >= nv {
				return false
			}
		}
	}
	return true
}

// Paint implements Layer.
func (c *CFG) Paint(img *image.RGBA, g Grid) {
	if !c.valid(g) {
		return
	}
	n := c.Size
	cell := float64(g.Cell)
	// The vertex of every point, for the bonds within chains.
	var vertexAt [MaxSize * MaxSize]int32
	for i := range vertexAt[:n*n] {
		vertexAt[i] = -1
	}
	for v, vx := range c.Vertices {
		for _, p := range vx.Points {
			vertexAt[p.Y*n+p.X] = int32(v)
		}
	}
	// What the walks touch keeps its strength; the rest fades.
	focus := c.Walks != nil
	var onWalk [MaxSize * MaxSize]bool // a vertex holds at least one point
	if focus {
		for _, w := range c.Walks {
			onWalk[w[0]], onWalk[w[1]], onWalk[w[2]] = true, true, true
		}
	}
	fade := func(v int32) float64 {
		if focus && !onWalk[v] {
			return cfgFade
		}
		return 1
	}
	centre := func(v int32) (float64, float64) { return g.Center(c.Vertices[v].Centre) }

	// Bonds join each stone of a chain to its neighbours in the chain: a
	// chain reads as one shape, with its node on top.
	bw := math.Max(2, cell*cfgBond)
	for v, vx := range c.Vertices {
		if vx.Stone == Empty || len(vx.Points) < 2 {
			continue
		}
		ink, a := boardimage.LabelInk(vx.Label), 0.8*fade(int32(v))
		for _, p := range vx.Points {
			ax, ay := g.Center(p)
			if p.X+1 < n && vertexAt[p.Y*n+p.X+1] == int32(v) {
				bx, by := g.Center(Point{X: p.X + 1, Y: p.Y})
				boardimage.StrokeSegment(img, ax, ay, bx, by, bw, ink, a)
			}
			if p.Y+1 < n && vertexAt[(p.Y+1)*n+p.X] == int32(v) {
				bx, by := g.Center(Point{X: p.X, Y: p.Y + 1})
				boardimage.StrokeSegment(img, ax, ay, bx, by, bw, ink, a)
			}
		}
	}

	// Edges: each half in the colour of the vertex it starts from. Those
	// between empty points lie on the grid's lines and are drawn lighter.
	ew := math.Max(1, cell*cfgEdge)
	for _, e := range c.Edges {
		u, v := e[0], e[1]
		ux, uy := centre(u)
		vx, vy := centre(v)
		mx, my := (ux+vx)/2, (uy+vy)/2
		a := math.Min(fade(u), fade(v))
		if c.Vertices[u].Stone == Empty && c.Vertices[v].Stone == Empty {
			a *= cfgEmptyEdgeA
		}
		boardimage.StrokeSegment(img, ux, uy, mx, my, ew, boardimage.LabelInk(c.Vertices[u].Label), a)
		boardimage.StrokeSegment(img, mx, my, vx, vy, ew, boardimage.LabelInk(c.Vertices[v].Label), a)
	}

	// The walks, bold: first steps wider than second steps, each over a pale
	// halo.
	if focus {
		w1, w2 := math.Max(2.5, cell*cfgWalk1), math.Max(1.5, cell*cfgWalk2)
		for pass := range 2 {
			for _, w := range c.Walks {
				for step := range 2 {
					a, b := w[step], w[step+1]
					if step == 1 && b == w[0] {
						continue // back to the start: the first step drew it
					}
					ax, ay := centre(a)
					bx, by := centre(b)
					width := w1
					if step == 1 {
						width = w2
					}
					if pass == 0 {
						boardimage.StrokeSegment(img, ax, ay, bx, by, width+2.5, cfgHalo, 0.7)
					} else {
						boardimage.StrokeSegment(img, ax, ay, bx, by, width, cfgWalkInk, 1)
					}
				}
			}
		}
	}

	// Vertices on top: faded ones first, so those on the walks stay whole.
	if c.ShowLabels {
		cfgText.Lock()
		defer cfgText.Unlock()
	}
	for pass := range 2 {
		for v := range c.Vertices {
			if focus && onWalk[v] != (pass == 1) || !focus && pass == 1 {
				continue
			}
			c.paintVertex(img, g, &cfgText.tc, int32(v), fade(int32(v)), focus && onWalk[v])
		}
	}
	if focus {
		// The start of the walks wears a ring.
		start := c.Walks[0][0]
		x, y := centre(start)
		blendRing(img, x, y, cell*0.36, math.Max(2, cell*0.08), rgbf(cfgWalkInk[0], cfgWalkInk[1], cfgWalkInk[2]), 1)
	}
}

// paintVertex draws vertex v: a square on an empty point, a node on a
// chain's centre stone, or with ShowLabels a tile with its label's low byte.
func (c *CFG) paintVertex(img *image.RGBA, g Grid, tc *textCache, v int32, alpha float64, big bool) {
	vx := &c.Vertices[v]
	cell := float64(g.Cell)
	x, y := g.Center(vx.Centre)
	ink := boardimage.LabelInk(vx.Label)
	scale := 1.0
	if big {
		scale = cfgWalkScale
	}
	rim := cfgDarkRim
	if vx.Stone == Black {
		rim = cfgLightRim
	}
	if c.ShowLabels {
		text := cfgHex(vx.Label)
		if vx.Stone == Empty {
			h := cell * cfgTile
			fillSquare(img, x, y, h+1, rim, 0.5*alpha)
			fillSquare(img, x, y, h, ink, 0.92*alpha)
		} else {
			r := cell * cfgTileNode
			cfgDisc(img, x, y, r+1, rim, 0.8*alpha)
			cfgDisc(img, x, y, r, ink, alpha)
		}
		if f := tc.fit(text, int(math.Round(cell*cfgLabelPx)), cell*2*cfgTile); f != nil {
			txt := inkDark
			if darkBackground(luminance(ink[0], ink[1], ink[2])) {
				txt = inkLight
			}
			f.draw(img, text, x, y, txt, uint32(alpha*256+0.5))
		}
		return
	}
	if vx.Stone == Empty {
		h := math.Max(1.5, cell*cfgSquare*scale)
		fillSquare(img, x, y, h+1, cfgDarkRim, 0.55*alpha)
		fillSquare(img, x, y, h, ink, alpha)
		return
	}
	r := math.Max(2, cell*cfgNode*scale)
	cfgDisc(img, x, y, r+math.Max(1, cell*0.04), rim, 0.9*alpha)
	cfgDisc(img, x, y, r, ink, alpha)
}

// cfgHex is the low byte of a label as two hex digits, from a table so
// that repainting allocates nothing.
func cfgHex(label uint32) string { return cfgHexBytes[label&0xff] }

var cfgHexBytes = func() (t [256]string) {
	const digits = "0123456789abcdef"
	for i := range t {
		t[i] = string([]byte{digits[i>>4], digits[i&15]})
	}
	return t
}()

// cfgDisc draws a filled anti-aliased disc of radius r: blendDisc in
// 8-bit colour, without a call per pixel.
func cfgDisc(img *image.RGBA, cx, cy, r float64, c [3]uint8, alpha float64) {
	reach := r + 0.5
	b := image.Rect(int(math.Floor(cx-reach)), int(math.Floor(cy-reach)), int(math.Ceil(cx+reach)), int(math.Ceil(cy+reach))).Intersect(img.Rect)
	reach2, a255 := reach*reach, alpha*255
	for py := b.Min.Y; py < b.Max.Y; py++ {
		dy := float64(py) + 0.5 - cy
		o := img.PixOffset(b.Min.X, py)
		for px := b.Min.X; px < b.Max.X; px, o = px+1, o+4 {
			dx := float64(px) + 0.5 - cx
			d2 := dx*dx + dy*dy
			if d2 >= reach2 {
				continue
			}
			cov := min(1, reach-math.Sqrt(d2))
			if a := uint32(cov*a255 + 0.5); a > 0 {
				blend8(img.Pix[o:o+3:o+3], c, a)
			}
		}
	}
}
