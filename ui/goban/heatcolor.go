package goban

import (
	"image/color"
	"math"

	"aji/internal/boardimage"
)

// The heat scale and palettes live in internal/boardimage, which exported images use too; these names
// keep the board's API.
type (
	// Scale maps a probability to a position on a colour scale.
	Scale = boardimage.Scale
	// Palette is a sequence of colours from low to high probability.
	Palette = boardimage.Palette
)

// The scales and palettes a heat map can use (see internal/boardimage).
const (
	ScaleLinear    = boardimage.ScaleLinear
	ScaleLog       = boardimage.ScaleLog
	LogFloor       = boardimage.LogFloor
	PaletteViridis = boardimage.PaletteViridis
	PaletteCividis = boardimage.PaletteCividis
	PaletteHot     = boardimage.PaletteHot
)

// HeatColor is the colour of probability p on scale s in palette pal (boardimage.HeatColor).
func HeatColor(p float64, s Scale, pal Palette) color.NRGBA { return boardimage.HeatColor(p, s, pal) }

func scalePos(p float64, s Scale, max float64) float64 { return boardimage.ScalePos(p, s, max) }

func paletteAt(t float64, pal Palette) [3]uint8 { return boardimage.PaletteAt(t, pal) }

// srgbToLinear undoes the sRGB transfer curve of one 8-bit channel.
func srgbToLinear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// luminance is the relative luminance Y of an sRGB colour (WCAG 2).
func luminance(r, g, b uint8) float64 {
	return 0.2126*srgbToLinear(r) + 0.7152*srgbToLinear(g) + 0.0722*srgbToLinear(b)
}

// lightness is CIE L* (0..100) of an sRGB colour: what "perceptually
// monotone" is measured in.
func lightness(c color.NRGBA) float64 {
	y := luminance(c.R, c.G, c.B)
	if y > 216.0/24389 {
		return 116*math.Cbrt(y) - 16
	}
	return y * 24389 / 27
}

// darkBackground reports whether white text reads better than black on a
// background of luminance y: the two contrast ratios (WCAG) are equal at
// y ≈ 0.179.
func darkBackground(y float64) bool {
	return (y+0.05)/0.05 < 1.05/(y+0.05)
}
