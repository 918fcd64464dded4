package goban

import (
	"image"
	"log/slog"
	"math"
	"sync"

	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Text on the board (candidate percentages, letters, move numbers) is drawn
// into the board raster rather than laid over it as canvas.Text objects:
//   - the raster is painted at the exact device pixel size, so glyphs are
//     rasterised once at their final resolution and stay as crisp as
//     Fyne's own text, at any scale;
//   - it keeps the layer order the overlays need (the CFG and search layers
//     paint above the labels), which objects floating over the raster
//     could not;
//   - automatic contrast reads the pixels actually painted beneath the
//     text, whatever the layers below drew;
//   - 20 labels cost about 60 cached glyph blits, with no per-label objects
//     for Fyne to lay out, measure and upload as textures.
// The font is Fyne's own bold theme font, so the board matches the UI.

var (
	fontOnce sync.Once
	boldFont *opentype.Font
)

// labelFont returns the parsed bold theme font, or nil if it cannot be
// parsed (then text is skipped rather than the app failing).
func labelFont() *opentype.Font {
	fontOnce.Do(func() {
		f, err := opentype.Parse(theme.DefaultTextBoldFont().Content())
		if err != nil {
			slog.Error("goban: parse theme font", "err", err)
			return
		}
		boldFont = f
	})
	return boldFont
}

// glyph is a rasterised glyph whose origin (the dot) is pixel (0,0).
type glyph struct {
	mask []uint8         // coverage, rect.Dx() per row
	rect image.Rectangle // relative to the dot
	adv  fixed.Int26_6
}

// face is one pixel size of the label font with its glyph cache. Faces
// belong to one painter, which is only used on the Fyne goroutine.
type face struct {
	f      font.Face
	glyphs map[rune]*glyph
	capTop int // pixels from the baseline up to the top of a digit
}

// textCache holds the faces a painter has used, by pixel size.
type textCache struct {
	faces map[int]*face
}

func (tc *textCache) face(px int) *face {
	if f, ok := tc.faces[px]; ok {
		return f
	}
	var fc *face
	if fnt := labelFont(); fnt != nil {
		// DPI 72 makes the size in points a size in pixels.
		ff, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingFull})
		if err == nil {
			fc = &face{f: ff, glyphs: make(map[rune]*glyph)}
			fc.capTop = -fc.glyph('0').rect.Min.Y
		}
	}
	if tc.faces == nil {
		tc.faces = make(map[int]*face)
	}
	tc.faces[px] = fc
	return fc
}

func (f *face) glyph(r rune) *glyph {
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	g := &glyph{}
	dr, mask, mp, adv, ok := f.f.Glyph(fixed.Point26_6{}, r)
	if ok {
		g.rect, g.adv = dr, adv
		// The face reuses its mask buffer, so keep a copy.
		g.mask = make([]uint8, dr.Dx()*dr.Dy())
		if a, isAlpha := mask.(*image.Alpha); isAlpha {
			for y := range dr.Dy() {
				o := a.PixOffset(mp.X, mp.Y+y)
				copy(g.mask[y*dr.Dx():(y+1)*dr.Dx()], a.Pix[o:o+dr.Dx()])
			}
		}
	}
	f.glyphs[r] = g
	return g
}

// width is the advance width of s in pixels.
func (f *face) width(s string) int {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += f.f.Kern(prev, r)
		}
		w += f.glyph(r).adv
		prev = r
	}
	return w.Round()
}

// draw paints s centred on (cx, cy): horizontally by advance width,
// vertically by the height of the digits, so numbers sit exactly in the
// middle of a stone or disc. alpha is the opacity, 0..256.
func (f *face) draw(img *image.RGBA, s string, cx, cy float64, c [3]uint8, alpha uint32) {
	x := int(math.Round(cx - float64(f.width(s))/2))
	base := int(math.Round(cy + float64(f.capTop)/2))
	dot := fixed.I(x)
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			dot += f.f.Kern(prev, r)
		}
		g := f.glyph(r)
		blendCoverage(img, g.mask, g.rect.Add(image.Pt(dot.Round(), base)), c, alpha)
		dot += g.adv
		prev = r
	}
}

// fit returns the largest face, at most px pixels, in which s is no wider
// than maxW; nil when even the smallest legible size does not fit or no
// font is available.
func (tc *textCache) fit(s string, px int, maxW float64) *face {
	for ; px >= minTextPx; px-- {
		f := tc.face(px)
		if f == nil {
			return nil
		}
		if float64(f.width(s)) <= maxW {
			return f
		}
	}
	return nil
}

// minTextPx is the smallest text drawn on the board; below it glyphs are
// blobs, and the coordinates and the heat colours say enough.
const minTextPx = 7

// blendCoverage composites colour c over img through an 8-bit coverage
// mask laid over rect, scaled by alpha (0..256).
func blendCoverage(img *image.RGBA, mask []uint8, rect image.Rectangle, c [3]uint8, alpha uint32) {
	clip := rect.Intersect(img.Rect)
	w := rect.Dx()
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		mrow := mask[(y-rect.Min.Y)*w:]
		o := img.PixOffset(clip.Min.X, y)
		for x := clip.Min.X; x < clip.Max.X; x, o = x+1, o+4 {
			a := uint32(mrow[x-rect.Min.X]) * alpha >> 8
			if a == 0 {
				continue
			}
			blend8(img.Pix[o:o+3:o+3], c, a)
		}
	}
}

// blend8 mixes c into an opaque pixel with coverage a (0..255), rounded.
func blend8(p []uint8, c [3]uint8, a uint32) {
	na := 255 - a
	p[0] = uint8((uint32(c[0])*a + uint32(p[0])*na + 127) / 255)
	p[1] = uint8((uint32(c[1])*a + uint32(p[1])*na + 127) / 255)
	p[2] = uint8((uint32(c[2])*a + uint32(p[2])*na + 127) / 255)
}
