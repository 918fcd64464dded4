package goban

import (
	"aji/internal/boardimage"
	"image"
	"image/color"
	"math"
	"slices"
)

// Colours of the board. The wood is a light kaya tone with enough contrast
// for both stone colours and for the overlays drawn above it later.
var (
	woodBase  = [3]float64{222, 181, 110}
	woodEdge  = color.RGBA{150, 108, 52, 255}
	lineColor = [3]float64{38, 27, 16}
)

// woodGrain is the board's wood texture, internal/boardimage's (exported
// images use the same).
type woodGrain = boardimage.WoodGrain

func newWoodGrain(w, h int) *woodGrain { return boardimage.NewWoodGrain(w, h) }

// paintWood fills img with the wood texture and a darker rim.
func paintWood(img *image.RGBA, grain *woodGrain) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return
	}
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; x < w; x++ {
			c := grain.At(x, y)
			o := 4 * x
			row[o], row[o+1], row[o+2], row[o+3] = c[0], c[1], c[2], 255
		}
	}
	// A thin darker rim gives the board an edge against any background.
	fillRect(img, 0, 0, w, 1, woodEdge)
	fillRect(img, 0, h-1, w, 1, woodEdge)
	fillRect(img, 0, 0, 1, h, woodEdge)
	fillRect(img, w-1, 0, 1, h, woodEdge)
}

// paintGrid draws the lines and star points of g onto img.
func paintGrid(img *image.RGBA, g geometry) {
	if g.size < 1 || g.cell < 1 {
		return
	}
	first := g.lineStart(0)
	length := (g.size-1)*g.cell + g.line
	for i := 0; i < g.size; i++ {
		at := g.lineStart(i)
		blendRect(img, first, at, length, g.line, lineColor, 0.92)
		blendRect(img, at, first, g.line, length, lineColor, 0.92)
	}
	// The outer border is drawn a pixel thicker, outward, as on real boards;
	// it frames the grid without moving any intersection.
	if g.cell >= 16 {
		last := g.lineStart(g.size-1) + g.line
		blendRect(img, first-1, first-1, length+2, 1, lineColor, 0.92)
		blendRect(img, first-1, last, length+2, 1, lineColor, 0.92)
		blendRect(img, first-1, first, 1, length, lineColor, 0.92)
		blendRect(img, last, first, 1, length, lineColor, 0.92)
	}
	r := math.Max(1.8, float64(g.cell)*0.11)
	for _, p := range StarPoints(g.size) {
		blendDisc(img, g.center(p.X), g.center(p.Y), r, lineColor, 1)
	}
}

// painter paints boards of one geometry. Everything that depends only on
// the geometry is made once: the wood and grid (base), the stone sprites,
// the heat-disc masks and the glyphs. The stones of the position shown are
// cached over the base (stones), so a new overlay costs one copy plus the
// overlay itself, and a new move a copy plus a few sprite blends — cheap
// enough to repaint on every move while someone holds an arrow key.
type painter struct {
	g                    geometry
	grid                 Grid
	grain                *woodGrain
	base                 *image.RGBA // wood, grid and star points
	black, white, shadow sprite

	stones    *image.RGBA // base plus the stones of stonesOf
	stonesOf  []Stone
	stoneRuns int // times the stones were repainted, for tests

	// Two output images, used in turn: Fyne uploads the image it gets
	// before it asks for the next, and the spare keeps the one handed out
	// intact even if a driver held it for a frame longer.
	out  [2]*image.RGBA
	next int

	discs map[int]*mask // heat discs by radius in 1/8 pixel
	text  textCache
}

func newPainter(side, size int) *painter {
	p := &painter{g: newGeometry(side, size)}
	p.grid = Grid{Size: size, Cell: p.g.cell, Origin: image.Pt(p.g.origin, p.g.origin), Line: p.g.line, Radius: p.g.radius}
	p.base = image.NewRGBA(image.Rect(0, 0, side, side))
	p.grain = newWoodGrain(side, side)
	paintWood(p.base, p.grain)
	paintGrid(p.base, p.g)
	// Every intersection has the same sub-pixel offset, so one sprite per
	// colour fits every point exactly.
	frac := p.g.center(0) - math.Floor(p.g.center(0))
	r := p.g.radius
	p.black = newSprite(r+1, frac, 0, 0, func(dx, dy, d float64) ([3]float64, float64) { return stonePixel(Black, dx, dy, d, r) })
	p.white = newSprite(r+1, frac, 0, 0, func(dx, dy, d float64) ([3]float64, float64) { return stonePixel(White, dx, dy, d, r) })
	// The shadow falls down and right, as if lit from the upper left.
	soft := math.Max(1, r*0.14)
	p.shadow = newSprite(r+soft, frac, 0.07*r, 0.11*r, func(_, _, d float64) ([3]float64, float64) {
		return [3]float64{}, 0.32 * smoothstep(r+soft, r-soft, d)
	})
	return p
}

// paint returns an image of pos with the overlays ov (nil: none but the
// last-move mark). The image is the painter's and is reused two calls
// later.
func (p *painter) paint(pos Position, ov *overlays) *image.RGBA {
	p.updateStones(pos)
	img := p.out[p.next]
	if img == nil {
		img = image.NewRGBA(p.base.Rect)
		p.out[p.next] = img
	}
	p.next ^= 1
	copy(img.Pix, p.stones.Pix)
	if pos.Size != p.g.size || p.g.cell < 2 {
		return img
	}
	if ov == nil {
		ov = &overlays{}
	}
	p.clearLabelGrids(img, &pos, ov)
	for _, l := range ov.under {
		p.paintLayer(img, l)
	}
	p.paintHeat(img, &pos, ov)
	p.paintStoneMarks(img, &pos, ov)
	p.paintHover(img, &pos, ov)
	p.paintLabels(img, &pos, ov)
	for _, l := range ov.over {
		p.paintLayer(img, l)
	}
	return img
}

// updateStones repaints the stone cache when the stones differ from the
// cached ones.
func (p *painter) updateStones(pos Position) {
	if p.stones != nil && slices.Equal(p.stonesOf, pos.Stones) {
		return
	}
	if p.stones == nil {
		p.stones = image.NewRGBA(p.base.Rect)
	}
	p.stonesOf = append(p.stonesOf[:0], pos.Stones...)
	p.stoneRuns++
	img := p.stones
	copy(img.Pix, p.base.Pix)
	if pos.Size != p.g.size || p.g.cell < 2 {
		return
	}
	// All shadows first, so a shadow never falls on a neighbouring stone.
	for y := 0; y < pos.Size; y++ {
		for x := 0; x < pos.Size; x++ {
			if pos.Stones[y*pos.Size+x] != Empty {
				p.shadow.draw(img, p.g.center(x), p.g.center(y))
			}
		}
	}
	for y := 0; y < pos.Size; y++ {
		for x := 0; x < pos.Size; x++ {
			switch pos.Stones[y*pos.Size+x] {
			case Black:
				p.black.draw(img, p.g.center(x), p.g.center(y))
			case White:
				p.white.draw(img, p.g.center(x), p.g.center(y))
			}
		}
	}
}

// stonePixel is the colour and coverage of a stone of radius r at offset
// (dx, dy) from its centre, d = |(dx, dy)|: radial shading with a highlight
// towards the upper left, and an anti-aliased edge whose coverage is the
// distance of the pixel centre to the circle.
func stonePixel(s Stone, dx, dy, d, r float64) ([3]float64, float64) {
	var c [3]float64
	cov := clamp01(r - d + 0.5)
	if cov <= 0 {
		return c, 0
	}
	lx, ly := dx/r+0.38, dy/r+0.42
	l := math.Sqrt(lx*lx + ly*ly)
	if s == Black {
		// Slate: nearly black with a broad dull sheen and a small soft
		// specular spot.
		t := clamp01(1 - l/1.3)
		t = t * t
		spec := 38 * math.Exp(-(l*l)/0.035)
		for i, base := range [3]float64{24, 24, 27} {
			c[i] = base + 62*t + spec
		}
		return c, cov
	}
	// Shell: warm white, greying towards the shaded side and the rim so the
	// stone reads as round on light wood.
	t := math.Pow(clamp01(l/1.42), 1.7)
	hi := [3]float64{252, 251, 247}
	lo := [3]float64{188, 186, 181}
	rim := smoothstep(0.86*r, r, d) * 0.10
	for i := range c {
		c[i] = (hi[i] + (lo[i]-hi[i])*t) * (1 - rim)
	}
	return c, cov
}

// sprite is a small premultiplied image drawn centred on intersections.
type sprite struct {
	img  *image.RGBA
	half int // the centre pixel of an intersection maps to (half, half)
}

// newSprite renders pixel, which gives colour and coverage at an offset from
// a centre displaced by (ox, oy), for all pixels within reach of it. frac is
// the sub-pixel position of intersection centres.
func newSprite(reach, frac, ox, oy float64, pixel func(dx, dy, d float64) ([3]float64, float64)) sprite {
	half := int(math.Ceil(reach+math.Max(math.Abs(ox), math.Abs(oy)))) + 1
	img := image.NewRGBA(image.Rect(0, 0, 2*half+1, 2*half+1))
	cx, cy := float64(half)+frac+ox, float64(half)+frac+oy
	for py := range 2*half + 1 {
		for px := range 2*half + 1 {
			dx, dy := float64(px)+0.5-cx, float64(py)+0.5-cy
			c, a := pixel(dx, dy, math.Sqrt(dx*dx+dy*dy))
			if a <= 0 {
				continue
			}
			o := img.PixOffset(px, py)
			img.Pix[o] = clamp8(c[0] * a)
			img.Pix[o+1] = clamp8(c[1] * a)
			img.Pix[o+2] = clamp8(c[2] * a)
			img.Pix[o+3] = clamp8(255 * a)
		}
	}
	return sprite{img: img, half: half}
}

// draw composites the sprite over the opaque img at the intersection whose
// centre is (cx, cy).
func (s sprite) draw(img *image.RGBA, cx, cy float64) {
	x0, y0 := int(math.Floor(cx))-s.half, int(math.Floor(cy))-s.half
	r := image.Rect(x0, y0, x0+s.img.Rect.Dx(), y0+s.img.Rect.Dy()).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		so := s.img.PixOffset(r.Min.X-x0, y-y0)
		do := img.PixOffset(r.Min.X, y)
		for x := r.Min.X; x < r.Max.X; x, so, do = x+1, so+4, do+4 {
			a := uint32(s.img.Pix[so+3])
			if a == 0 {
				continue
			}
			src := s.img.Pix[so : so+3 : so+3]
			dst := img.Pix[do : do+3 : do+3]
			// Premultiplied "over": src + dst·(1−α), rounded.
			na := 255 - a
			dst[0] = uint8(uint32(src[0]) + (uint32(dst[0])*na+127)/255)
			dst[1] = uint8(uint32(src[1]) + (uint32(dst[1])*na+127)/255)
			dst[2] = uint8(uint32(src[2]) + (uint32(dst[2])*na+127)/255)
		}
	}
}

// drawFaded composites the sprite at opacity alpha (0..256), for the
// translucent hover stone.
func (s sprite) drawFaded(img *image.RGBA, cx, cy float64, alpha uint32) {
	x0, y0 := int(math.Floor(cx))-s.half, int(math.Floor(cy))-s.half
	r := image.Rect(x0, y0, x0+s.img.Rect.Dx(), y0+s.img.Rect.Dy()).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			so := s.img.PixOffset(x-x0, y-y0)
			a := uint32(s.img.Pix[so+3]) * alpha >> 8
			if a == 0 {
				continue
			}
			do := img.PixOffset(x, y)
			for i := range 3 {
				src := uint32(s.img.Pix[so+i]) * alpha >> 8
				img.Pix[do+i] = uint8(min(255, src+(uint32(img.Pix[do+i])*(255-a)+127)/255))
			}
		}
	}
}

// blendDisc draws a filled anti-aliased disc.
func blendDisc(img *image.RGBA, cx, cy, r float64, c [3]float64, alpha float64) {
	forEachPixel(img, cx, cy, r+1, func(px, py int, d float64) {
		if cov := clamp01(r - d + 0.5); cov > 0 {
			blendPixel(img, px, py, c, alpha*cov)
		}
	})
}

// blendRing draws an anti-aliased circle outline of the given width.
func blendRing(img *image.RGBA, cx, cy, r, width float64, c [3]float64, alpha float64) {
	forEachPixel(img, cx, cy, r+width, func(px, py int, d float64) {
		if cov := clamp01(width/2 - math.Abs(d-r) + 0.5); cov > 0 {
			blendPixel(img, px, py, c, alpha*cov)
		}
	})
}

// forEachPixel calls fn for each pixel of img whose centre lies within reach
// of (cx, cy), with that distance.
func forEachPixel(img *image.RGBA, cx, cy, reach float64, fn func(px, py int, d float64)) {
	b := img.Bounds()
	x0 := max(b.Min.X, int(math.Floor(cx-reach)))
	x1 := min(b.Max.X, int(math.Ceil(cx+reach))+1)
	y0 := max(b.Min.Y, int(math.Floor(cy-reach)))
	y1 := min(b.Max.Y, int(math.Ceil(cy+reach))+1)
	for py := y0; py < y1; py++ {
		dy := float64(py) + 0.5 - cy
		for px := x0; px < x1; px++ {
			dx := float64(px) + 0.5 - cx
			if d := math.Sqrt(dx*dx + dy*dy); d <= reach {
				fn(px, py, d)
			}
		}
	}
}

// blendPixel composites colour c with coverage a over an opaque pixel.
func blendPixel(img *image.RGBA, x, y int, c [3]float64, a float64) {
	o := img.PixOffset(x, y)
	p := img.Pix[o : o+3 : o+3]
	for i := range 3 {
		p[i] = clamp8(float64(p[i])*(1-a) + c[i]*a)
	}
}

// blendRect composites colour c over a clipped rectangle.
func blendRect(img *image.RGBA, x, y, w, h int, c [3]float64, a float64) {
	r := image.Rect(x, y, x+w, y+h).Intersect(img.Bounds())
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			blendPixel(img, px, py, c, a)
		}
	}
}

// fillRect sets a clipped rectangle to c.
func fillRect(img *image.RGBA, x, y, w, h int, c color.RGBA) {
	r := image.Rect(x, y, x+w, y+h).Intersect(img.Bounds())
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			img.SetRGBA(px, py, c)
		}
	}
}

func clamp01(v float64) float64 { return math.Min(1, math.Max(0, v)) }

func clamp8(v float64) uint8 { return uint8(math.Min(255, math.Max(0, v+0.5))) }

// smoothstep rises smoothly from 0 at v = from to 1 at v = to (either order).
func smoothstep(from, to, v float64) float64 {
	t := clamp01((v - from) / (to - from))
	return t * t * (3 - 2*t)
}
