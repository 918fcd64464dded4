package goban

import (
	"image"
	"image/color"
	"math"
	"strconv"
)

// Sizes of the overlays, in cells, so that everything scales with the board.
const (
	heatRadius   = 0.44  // the largest heat disc: nearly touching its neighbours
	heatMinR     = 0.15  // the smallest, for the least likely moves
	heatLabelR   = 0.37  // the smallest disc behind a label's text
	ringRadius   = 0.47  // MarkRing, just outside the heat disc
	labelTextPx  = 0.42  // label text size
	labelMaxW    = 0.84  // widest label text, within the disc
	maxLabelW    = 0.96  // widest label text at any label scale, within the cell
	numberTextPx = 0.42  // move numbers
	strokeW      = 0.075 // outlines of marks
)

// Text colours picked by automatic contrast: not pure black and white,
// which look harsh against the soft stones.
var (
	inkDark  = [3]uint8{20, 20, 20}
	inkLight = [3]uint8{250, 250, 250}
	// The number of the last move, when numbers are shown, is coloured in
	// place of the ring: red on white stones, salmon on black ones.
	lastMoveOnWhite = [3]uint8{208, 36, 24}
	lastMoveOnBlack = [3]uint8{255, 128, 110}
)

// heatStyle gives the radius (pixels) and opacity (0..256) of the heat disc
// at scale position t. Both grow with t: likely moves stand out as large
// strong discs, while the long tail of unlikely ones stays small and faint
// enough for the grid and wood to show through. A disc behind text is big
// enough to hold it.
func heatStyle(t float64, cell int, text bool) (float64, uint32) {
	r := float64(cell) * (heatMinR + (heatRadius-heatMinR)*t)
	if text {
		r = max(r, float64(cell)*heatLabelR)
	}
	a := 0.28 + 0.64*t
	return r, uint32(a*256 + 0.5)
}

func (p *painter) paintLayer(img *image.RGBA, l Layer) {
	if l != nil {
		l.Paint(img, p.grid)
	}
}

// paintHeat draws a disc on each legal empty point of the heat map.
func (p *painter) paintHeat(img *image.RGBA, pos *Position, ov *overlays) {
	if !ov.heatOn || ov.heat.Size != pos.Size {
		return
	}
	// Points with text get a disc big enough to hold it.
	var texted [MaxSize * MaxSize]bool
	for _, l := range ov.labels {
		if l.Text != "" && pos.onBoard(l.Point) {
			texted[l.Point.Y*pos.Size+l.Point.X] = true
		}
	}
	for i := range pos.Stones {
		t := ov.heatPos(pos, i)
		if t < 0 {
			continue
		}
		r, a := heatStyle(t, p.g.cell, texted[i])
		p.disc(r).blend(img, p.g.center(i%pos.Size), p.g.center(i/pos.Size), paletteAt(t, ov.heat.Palette), a)
	}
}

// paintStoneMarks draws the last-move mark and the move numbers.
func (p *painter) paintStoneMarks(img *image.RGBA, pos *Position, ov *overlays) {
	numbered := ov.numbersOn && len(ov.numbers) == len(pos.Stones)
	lastNumbered := false
	if numbered {
		// A label on a stone replaces its number.
		var labelled [MaxSize * MaxSize]bool
		for _, l := range ov.labels {
			if pos.onBoard(l.Point) {
				labelled[l.Point.Y*pos.Size+l.Point.X] = true
			}
		}
		px := int(math.Round(float64(p.g.cell) * numberTextPx))
		for i, n := range ov.numbers {
			s := pos.Stones[i]
			if n <= 0 || s == Empty || labelled[i] {
				continue
			}
			pt := Point{X: i % pos.Size, Y: i / pos.Size}
			text := itoa(n)
			f := p.text.fit(text, px, 2*p.g.radius*0.84)
			if f == nil {
				continue
			}
			c := inkLight
			if s == White {
				c = inkDark
			}
			if pos.HasLast && pt == pos.Last {
				lastNumbered = true
				c = lastMoveOnBlack
				if s == White {
					c = lastMoveOnWhite
				}
			}
			f.draw(img, text, p.g.center(pt.X), p.g.center(pt.Y), c, 256)
		}
	}
	if pos.HasLast && !lastNumbered {
		r := p.g.radius
		mark := [3]float64{235, 235, 235}
		if pos.At(pos.Last) != Black {
			mark = [3]float64{20, 20, 20}
		}
		blendRing(img, p.g.center(pos.Last.X), p.g.center(pos.Last.Y), r*0.48, math.Max(1.5, r*0.13), mark, 0.95)
	}
}

// paintHover draws the translucent stone under the pointer.
func (p *painter) paintHover(img *image.RGBA, pos *Position, ov *overlays) {
	if !ov.hovering || ov.hoverStone == Empty || !pos.onBoard(ov.hover) || pos.At(ov.hover) != Empty {
		return
	}
	s := p.black
	if ov.hoverStone == White {
		s = p.white
	}
	s.drawFaded(img, p.g.center(ov.hover.X), p.g.center(ov.hover.Y), 150)
}

// SetLabelScale draws the labels' text s times its usual size (1), as far
// as it fits in a cell: larger for a room watching a projector. Values that
// are not positive mean 1.
func (b *Board) SetLabelScale(s float64) {
	if !(s > 0) {
		s = 1
	}
	if s == b.ov.textScale() {
		return
	}
	b.ov.labelScale = s
	b.refreshOverlays()
}

// textScale is the label scale in force.
func (o *overlays) textScale() float64 {
	if o.labelScale > 0 {
		return o.labelScale
	}
	return 1
}

// paintLabels draws the marks and texts of the labels.
func (p *painter) paintLabels(img *image.RGBA, pos *Position, ov *overlays) {
	cell := float64(p.g.cell)
	scale := ov.textScale()
	textPx := int(math.Round(cell * labelTextPx * scale))
	// Larger text may spread past the disc, but stays within its cell.
	maxW := cell * math.Min(labelMaxW*scale, maxLabelW)
	w := math.Max(1.5, cell*strokeW)
	for _, l := range ov.labels {
		if !pos.onBoard(l.Point) {
			continue
		}
		i := l.Point.Y*pos.Size + l.Point.X
		cx, cy := p.g.center(l.Point.X), p.g.center(l.Point.Y)
		stone := pos.Stones[i]
		heat := ov.heatPos(pos, i)
		// Contrast is judged on what is already painted there, before
		// this label's own outlines.
		ink, alpha, auto := inkDark, uint32(256), l.Color == nil
		if !auto {
			c := color.NRGBAModel.Convert(l.Color).(color.NRGBA)
			ink, alpha = [3]uint8{c.R, c.G, c.B}, uint32(c.A)*256/255
		} else if darkBackground(meanLuminance(img, cx, cy, cell*0.22)) {
			ink = inkLight
		}
		if l.Best {
			// On the disc's rim, inside it, so the colour of the disc
			// still shows in the middle.
			r := cell * heatRadius
			if heat >= 0 {
				r, _ = heatStyle(heat, p.g.cell, l.Text != "")
			}
			bw := math.Max(2, cell*0.09)
			blendRing(img, cx, cy, r-bw/2, bw, rgbf(BestColor.R, BestColor.G, BestColor.B), 1)
		}
		p.paintMark(img, l.Mark, cx, cy, w, ink, alpha, auto, stone)
		if l.Text != "" {
			if f := p.text.fit(l.Text, textPx, maxW); f != nil {
				f.draw(img, l.Text, cx, cy, ink, alpha)
			}
		}
	}
}

// paintMark draws one mark in colour c at opacity alpha (0..256); auto
// says c was chosen for contrast rather than by the caller.
func (p *painter) paintMark(img *image.RGBA, m MarkKind, cx, cy, w float64, c [3]uint8, alpha uint32, auto bool, stone Stone) {
	if m == MarkRing && auto {
		// The ring lies over the wood around the point (or the rim of a
		// stone), not over the disc the text contrast was judged on.
		c = inkDark
		if stone == Black {
			c = inkLight
		}
	}
	drawMark(img, m, cx, cy, float64(p.g.cell), w, c, float64(alpha)/256)
}

// drawMark draws mark m centred on (cx, cy) on a board of cell pixels, its
// strokes w wide, in colour c at opacity a: the board's labels and the
// Peer layer's marks.
func drawMark(img *image.RGBA, m MarkKind, cx, cy, cell, w float64, c [3]uint8, a float64) {
	switch m {
	case MarkCircle:
		blendRing(img, cx, cy, cell*0.25, w, rgbf(c[0], c[1], c[2]), a)
	case MarkSquare:
		h := cell * 0.21
		strokePath(img, [][2]float64{{cx - h, cy - h}, {cx + h, cy - h}, {cx + h, cy + h}, {cx - h, cy + h}}, true, w, c, a)
	case MarkTriangle:
		// Centred on its centroid, the point the eye takes as the middle.
		r := cell * 0.29
		var pts [3][2]float64
		for k := range pts {
			th := -math.Pi/2 + float64(k)*2*math.Pi/3
			pts[k] = [2]float64{cx + r*math.Cos(th), cy + r*math.Sin(th)}
		}
		strokePath(img, pts[:], true, w, c, a)
	case MarkCross:
		h := cell * 0.2
		strokePath(img, [][2]float64{{cx - h, cy - h}, {cx + h, cy + h}}, false, w, c, a)
		strokePath(img, [][2]float64{{cx + h, cy - h}, {cx - h, cy + h}}, false, w, c, a)
	case MarkRing:
		blendRing(img, cx, cy, cell*ringRadius, math.Max(2, cell*0.07), rgbf(c[0], c[1], c[2]), a)
	}
}

// clearLabelGrids removes the grid lines under text on empty points, as
// printed diagrams do, so that digits and letters read cleanly. It runs
// before every layer, so it only ever uncovers the board itself.
func (p *painter) clearLabelGrids(img *image.RGBA, pos *Position, ov *overlays) {
	cell := float64(p.g.cell)
	for _, l := range ov.labels {
		if l.Text == "" || !pos.onBoard(l.Point) || pos.At(l.Point) != Empty {
			continue
		}
		r := cell * math.Min(0.36*ov.textScale(), 0.5*maxLabelW)
		if t := ov.heatPos(pos, l.Point.Y*pos.Size+l.Point.X); t >= 0 {
			r, _ = heatStyle(t, p.g.cell, true)
		}
		p.clearGrid(img, p.g.center(l.Point.X), p.g.center(l.Point.Y), r)
	}
}

// clearGrid paints bare wood over a disc, anti-aliased at its rim.
func (p *painter) clearGrid(img *image.RGBA, cx, cy, r float64) {
	forEachPixel(img, cx, cy, r+1, func(px, py int, d float64) {
		if cov := clamp01(r - d + 0.5); cov > 0 {
			o := img.PixOffset(px, py)
			blend8(img.Pix[o:o+3:o+3], p.grain.At(px, py), uint32(cov*255+0.5))
		}
	})
}

// linearLUT is the sRGB transfer curve undone for each 8-bit value.
var linearLUT = func() (t [256]float64) {
	for i := range t {
		t[i] = srgbToLinear(uint8(i))
	}
	return t
}()

// meanLuminance is the average relative luminance of the pixels within a
// square of half-side r around (cx, cy).
func meanLuminance(img *image.RGBA, cx, cy, r float64) float64 {
	b := image.Rect(int(cx-r), int(cy-r), int(math.Ceil(cx+r)), int(math.Ceil(cy+r))).Intersect(img.Rect)
	if b.Empty() {
		return 1
	}
	sum := 0.0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		o := img.PixOffset(b.Min.X, y)
		for x := b.Min.X; x < b.Max.X; x, o = x+1, o+4 {
			sum += 0.2126*linearLUT[img.Pix[o]] + 0.7152*linearLUT[img.Pix[o+1]] + 0.0722*linearLUT[img.Pix[o+2]]
		}
	}
	return sum / float64(b.Dx()*b.Dy())
}

// strokePath draws an anti-aliased polyline of width w through pts,
// closed back to the first point when closed is set.
func strokePath(img *image.RGBA, pts [][2]float64, closed bool, w float64, c [3]uint8, alpha float64) {
	if len(pts) < 2 {
		return
	}
	minX, minY, maxX, maxY := pts[0][0], pts[0][1], pts[0][0], pts[0][1]
	for _, q := range pts {
		minX, maxX = math.Min(minX, q[0]), math.Max(maxX, q[0])
		minY, maxY = math.Min(minY, q[1]), math.Max(maxY, q[1])
	}
	pad := w/2 + 1
	b := image.Rect(int(math.Floor(minX-pad)), int(math.Floor(minY-pad)), int(math.Ceil(maxX+pad)), int(math.Ceil(maxY+pad))).Intersect(img.Rect)
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		py := float64(y) + 0.5
		for x := b.Min.X; x < b.Max.X; x++ {
			px := float64(x) + 0.5
			d := math.Inf(1)
			for k := range segs {
				d = math.Min(d, segDist(px, py, pts[k], pts[(k+1)%n]))
			}
			if cov := clamp01(w/2 - d + 0.5); cov > 0 {
				o := img.PixOffset(x, y)
				blend8(img.Pix[o:o+3:o+3], c, uint32(cov*alpha*255+0.5))
			}
		}
	}
}

// segDist is the distance from (px, py) to the segment a–b.
func segDist(px, py float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = clamp01(((px-a[0])*dx + (py-a[1])*dy) / l)
	}
	ex, ey := px-(a[0]+t*dx), py-(a[1]+t*dy)
	return math.Sqrt(ex*ex + ey*ey)
}

// mask is an anti-aliased coverage image centred on intersections, like a
// sprite but tinted when drawn: one mask serves every colour of heat disc.
type mask struct {
	a    []uint8
	half int // the centre pixel of an intersection maps to (half, half)
}

// disc returns the cached disc mask of radius r (pixels), quantised to
// 1/8 pixel so that a few dozen masks serve every probability.
func (p *painter) disc(r float64) *mask {
	key := int(math.Round(r * 8))
	if m, ok := p.discs[key]; ok {
		return m
	}
	m := discMask(float64(key)/8, p.g.center(0)-math.Floor(p.g.center(0)))
	if p.discs == nil {
		p.discs = make(map[int]*mask)
	}
	p.discs[key] = m
	return m
}

// discMask is the disc of radius r (pixels) centred frac of a pixel past a
// pixel's corner, as intersections are.
func discMask(r, frac float64) *mask {
	half := int(math.Ceil(r)) + 1
	n := 2*half + 1
	m := &mask{a: make([]uint8, n*n), half: half}
	c := float64(half) + frac
	for y := range n {
		dy := float64(y) + 0.5 - c
		for x := range n {
			dx := float64(x) + 0.5 - c
			m.a[y*n+x] = uint8(clamp01(r-math.Sqrt(dx*dx+dy*dy)+0.5)*255 + 0.5)
		}
	}
	return m
}

// blend tints the mask with c at opacity alpha (0..256) over img, centred
// on (cx, cy).
func (m *mask) blend(img *image.RGBA, cx, cy float64, c [3]uint8, alpha uint32) {
	x0, y0 := int(math.Floor(cx))-m.half, int(math.Floor(cy))-m.half
	n := 2*m.half + 1
	blendCoverage(img, m.a, image.Rect(x0, y0, x0+n, y0+n), c, alpha)
}

func rgbf(r, g, b uint8) [3]float64 { return [3]float64{float64(r), float64(g), float64(b)} }

// itoa formats a move number; the strings of the first thousand are made
// once, so numbering a whole game allocates nothing per frame.
func itoa(n int) string {
	if n >= 0 && n < len(smallNumbers) {
		return smallNumbers[n]
	}
	return strconv.Itoa(n)
}

var smallNumbers = func() (s [1000]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()
