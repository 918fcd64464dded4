package boardimage

import (
	"bufio"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Image paints b on a square RGBA image of side px: the caption band on top, the board, and the heat
// legend under it when there is a heat map.
func Image(b *Board, px int) (*image.RGBA, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if err := checkSize(px); err != nil {
		return nil, err
	}
	_, shapes := scene(b, px)
	img := image.NewRGBA(image.Rect(0, 0, px, px))
	r := raster{img: img, faces: make(map[float64]font.Face)}
	for i := range shapes {
		r.draw(&shapes[i])
	}
	return img, nil
}

// WritePNG writes b as a PNG of side px.
func WritePNG(w io.Writer, b *Board, px int) error {
	img, err := Image(b, px)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := png.Encode(bw, img); err != nil {
		return err
	}
	return bw.Flush()
}

type raster struct {
	img   *image.RGBA
	faces map[float64]font.Face
}

func (r *raster) draw(s *shape) {
	switch s.kind {
	case kWood:
		r.wood()
	case kRect:
		r.rect(s.x, s.y, s.w, s.h, s.fill, s.alpha)
		if s.lineAlpha > 0 {
			sw := s.stroke
			r.rect(s.x, s.y, s.w, sw, s.line, s.lineAlpha)
			r.rect(s.x, s.y+s.h-sw, s.w, sw, s.line, s.lineAlpha)
			r.rect(s.x, s.y+sw, sw, s.h-2*sw, s.line, s.lineAlpha)
			r.rect(s.x+s.w-sw, s.y+sw, sw, s.h-2*sw, s.line, s.lineAlpha)
		}
	case kDisc:
		r.round(s.x, s.y, s.r+1, func(d, _, _ float64) (rgb, float64) { return s.fill, s.alpha * clamp01(s.r-d+0.5) })
	case kRing:
		r.round(s.x, s.y, s.r+s.stroke, func(d, _, _ float64) (rgb, float64) {
			return s.line, s.alpha * clamp01(s.stroke/2-math.Abs(d-s.r)+0.5)
		})
	case kStone:
		r.stone(s)
	case kText:
		r.text(s)
	case kLine:
		StrokeSegment(r.img, s.x, s.y, s.x2, s.y2, s.stroke, s.line, s.alpha)
	case kBar:
		x0, x1 := int(math.Round(s.x)), int(math.Round(s.x+s.w))
		for x := x0; x < x1; x++ {
			r.rect(float64(x), s.y, 1, s.h, rgb(PaletteAt(float64(x-x0)/float64(x1-x0-1), s.palette)), 1)
		}
	}
}

// blend mixes colour c at opacity a into pixel (x, y).
func (r *raster) blend(x, y int, c rgb, a float64) {
	if a <= 0 || !(image.Point{x, y}).In(r.img.Rect) {
		return
	}
	o := r.img.PixOffset(x, y)
	px := r.img.Pix[o : o+4 : o+4]
	for k := range 3 {
		px[k] = clamp8(float64(px[k]) + a*(float64(c[k])-float64(px[k])))
	}
	px[3] = 255
}

// rect fills a rectangle, blending partly covered edge pixels by their coverage.
func (r *raster) rect(x, y, w, h float64, c rgb, a float64) {
	for py := int(math.Floor(y)); float64(py) < y+h; py++ {
		cy := math.Min(float64(py+1), y+h) - math.Max(float64(py), y)
		for px := int(math.Floor(x)); float64(px) < x+w; px++ {
			cx := math.Min(float64(px+1), x+w) - math.Max(float64(px), x)
			r.blend(px, py, c, a*cx*cy)
		}
	}
}

// round visits the pixels within reach of a centre; f gives each one's colour and opacity from its
// distance and offset to the centre.
func (r *raster) round(cx, cy, reach float64, f func(d, dx, dy float64) (rgb, float64)) {
	for py := int(math.Floor(cy - reach)); py <= int(math.Ceil(cy+reach)); py++ {
		for px := int(math.Floor(cx - reach)); px <= int(math.Ceil(cx+reach)); px++ {
			dx, dy := float64(px)+0.5-cx, float64(py)+0.5-cy
			c, a := f(math.Hypot(dx, dy), dx, dy)
			r.blend(px, py, c, a)
		}
	}
}

// stone draws a shaded stone with a soft shadow as ui/goban does (slate with a dull sheen, shell
// greying towards its rim), or a flat disc with an outline.
func (r *raster) stone(s *shape) {
	rad := s.r
	if s.flat {
		edge := math.Max(1, rad*0.06)
		r.round(s.x, s.y, rad+1, func(d, _, _ float64) (rgb, float64) {
			cov := clamp01(rad - d + 0.5)
			if s.stone == Black {
				return blackStone, cov
			}
			if d > rad-edge {
				return inkDark, cov
			}
			return rgb{255, 255, 255}, cov
		})
		return
	}
	off := rad * 0.09
	r.round(s.x+off, s.y+off*1.4, rad*1.12, func(d, _, _ float64) (rgb, float64) {
		return rgb{40, 25, 10}, 0.35 * clamp01((rad*1.08-d)/(rad*0.2))
	})
	r.round(s.x, s.y, rad+1, func(d, dx, dy float64) (rgb, float64) {
		cov := clamp01(rad - d + 0.5)
		lx, ly := dx/rad+0.38, dy/rad+0.42
		l := math.Hypot(lx, ly)
		var c [3]float64
		if s.stone == Black {
			t := clamp01(1 - l/1.3)
			t *= t
			spec := 38 * math.Exp(-(l*l)/0.035)
			for i, base := range [3]float64{24, 24, 27} {
				c[i] = base + 62*t + spec
			}
		} else {
			t := math.Pow(clamp01(l/1.42), 1.7)
			hi := [3]float64{252, 251, 247}
			lo := [3]float64{188, 186, 181}
			e := clamp01((d - 0.86*rad) / (0.14 * rad))
			rim := e * e * (3 - 2*e) * 0.10
			for i := range c {
				c[i] = (hi[i] + (lo[i]-hi[i])*t) * (1 - rim)
			}
		}
		return rgb{clamp8(c[0]), clamp8(c[1]), clamp8(c[2])}, cov
	})
}

var (
	fontOnce sync.Once
	boldFont *opentype.Font
)

// parsedFont is the Go Bold font, parsed once; nil if it cannot be (then text is skipped).
func parsedFont() *opentype.Font {
	fontOnce.Do(func() {
		if f, err := opentype.Parse(gobold.TTF); err == nil {
			boldFont = f
		}
	})
	return boldFont
}

// textWidth is the advance of s in the Go Bold font at px pixels, unhinted: the layout uses it to
// fit the caption, and the SVG names the same font.
func textWidth(s string, px float64) float64 {
	fnt := parsedFont()
	if fnt == nil {
		return 0
	}
	f, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: px, DPI: 72})
	if err != nil {
		return 0
	}
	defer f.Close()
	return float64(font.MeasureString(f, s)) / 64
}

// face is the Go Bold font at px pixels (the SVG names the same font).
func (r *raster) face(px float64) font.Face {
	if parsedFont() == nil {
		return nil
	}
	px = math.Round(px*4) / 4
	if f, ok := r.faces[px]; ok {
		return f
	}
	f, err := opentype.NewFace(boldFont, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil
	}
	r.faces[px] = f
	return f
}

func (r *raster) text(s *shape) {
	if s.h < 4 {
		return // unreadable at this size
	}
	f := r.face(s.h)
	if f == nil {
		return
	}
	d := font.Drawer{Dst: r.img, Face: f, Src: image.NewUniform(color.NRGBA{s.fill[0], s.fill[1], s.fill[2], uint8(255 * s.alpha)})}
	w := float64(d.MeasureString(s.text)) / 64
	x := s.x
	switch s.anchor {
	case aMiddle:
		x -= w / 2
	case aEnd:
		x -= w
	}
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round((s.y + capHeight*s.h/2) * 64))}
	d.DrawString(s.text)
}

// wood fills the image with the board's grain (WoodGrain), scaled to the image.
func (r *raster) wood() {
	w, h := r.img.Rect.Dx(), r.img.Rect.Dy()
	g := NewWoodGrain(w, h)
	for y := range h {
		for x := range w {
			c := g.At(x, y)
			o := r.img.PixOffset(x, y)
			r.img.Pix[o], r.img.Pix[o+1], r.img.Pix[o+2], r.img.Pix[o+3] = c[0], c[1], c[2], 255
		}
	}
}
