package boardimage

import (
	"image/color"
	"math"
)

// The heat scale and palettes of Aji's heat maps: ui/goban draws the board on screen with them, and the
// exported images here, so the two always agree.

// Scale maps a probability to a position on a colour scale.
type Scale uint8

// The scales a heat map can use.
const (
	// ScaleLinear is proportional to the probability. On the board it is
	// relative to the largest probability shown (Heat.Max), so the best
	// move always takes the top colour; HeatColor itself maps 0..1.
	ScaleLinear Scale = iota
	// ScaleLog is log10 of the probability from LogFloor (0.01%) to 1, the
	// scale KaTrain's policy buckets use: it separates the long tail of
	// unlikely moves that a linear scale paints in one colour.
	ScaleLog
)

// LogFloor is the smallest probability ScaleLog distinguishes; anything
// below it takes the bottom colour.
const LogFloor = 1e-4

// Palette is a sequence of colours from low to high probability.
type Palette uint8

// The palettes a heat map can use. Viridis and cividis are the matplotlib
// maps: perceptually uniform, monotone in lightness (so they survive
// greyscale printing) and readable with red-green colour blindness.
const (
	PaletteViridis Palette = iota // default: purple → teal → yellow
	PaletteCividis                // blue → grey → yellow, optimised for deuteranopia
	PaletteHot                    // dark red → orange → yellow, like Lizzie
	NumPalettes                   // how many there are
)

// palettes holds each palette's stops in sRGB (positions: stopPos). Viridis and
// cividis are every 16th entry of matplotlib's 256-entry tables (and the
// last), which linear interpolation reproduces within 1/255.
var palettes = [NumPalettes][]([3]uint8){
	PaletteViridis: {
		{68, 1, 84}, {72, 24, 106}, {71, 45, 123}, {66, 64, 134},
		{59, 82, 139}, {51, 99, 141}, {44, 114, 142}, {38, 130, 142},
		{33, 145, 140}, {31, 160, 136}, {40, 174, 128}, {63, 188, 115},
		{94, 201, 98}, {132, 212, 75}, {173, 220, 48}, {216, 226, 25},
		{253, 231, 37},
	},
	PaletteCividis: {
		{0, 34, 78}, {0, 46, 106}, {26, 56, 111}, {50, 67, 109},
		{67, 78, 108}, {83, 90, 109}, {97, 101, 111}, {111, 112, 115},
		{125, 124, 120}, {140, 136, 120}, {155, 148, 118}, {171, 160, 114},
		{188, 174, 108}, {205, 187, 99}, {222, 201, 88}, {240, 216, 70},
		{254, 232, 56},
	},
	// Red through yellow with lightness rising throughout, so the hot end
	// still reads as "more" for people who cannot tell the hues apart.
	PaletteHot: {
		{110, 8, 20}, {168, 18, 22}, {214, 48, 20}, {240, 98, 16},
		{250, 150, 20}, {253, 198, 30}, {255, 236, 40},
	},
}

// stopPos is the position in [0, 1] of stop i of n. The 17 stops of
// viridis and cividis are table entries 0, 16, ..., 240 and 255, so their
// last interval is 15/16 of the others; other palettes are evenly spaced.
func stopPos(i, n int) float64 {
	if n == 17 {
		return math.Min(float64(16*i), 255) / 255
	}
	return float64(i) / float64(n-1)
}

// ScalePos maps probability p to a position in [0, 1] on scale s. max is
// the probability that takes the top of a linear scale. It returns -1 for
// a value that is not a probability (negative or NaN: an illegal move).
func ScalePos(p float64, s Scale, max float64) float64 {
	if !(p >= 0) {
		return -1
	}
	p = math.Min(p, 1) // +Inf and rounding overshoot count as certain
	if s == ScaleLog {
		if p <= LogFloor {
			return 0
		}
		return clamp01((math.Log10(p) - math.Log10(LogFloor)) / -math.Log10(LogFloor))
	}
	if !(max > 0 && max <= 1) {
		max = 1
	}
	return clamp01(p / max)
}

// PaletteAt interpolates pal at position t in [0, 1].
func PaletteAt(t float64, pal Palette) [3]uint8 {
	if int(pal) >= len(palettes) {
		pal = PaletteViridis
	}
	stops := palettes[pal]
	n := len(stops)
	t = clamp01(t)
	// Find the interval holding t; stops are few, a scan is fine.
	i := 0
	for i < n-2 && t > stopPos(i+1, n) {
		i++
	}
	a, b := stopPos(i, n), stopPos(i+1, n)
	f := (t - a) / (b - a)
	var c [3]uint8
	for k := range c {
		c[k] = clamp8(float64(stops[i][k]) + f*(float64(stops[i+1][k])-float64(stops[i][k])))
	}
	return c
}

// HeatColor is the colour of probability p on scale s in palette pal: the
// one home of the colour scale, shared by the board, its Legend and exported images. The
// linear scale maps p in 0..1; the board passes p/Heat.Max so that its best
// move takes the top colour. The colour is opaque; a negative or NaN p (an
// illegal move) gives transparent black.
func HeatColor(p float64, s Scale, pal Palette) color.NRGBA {
	t := ScalePos(p, s, 1)
	if t < 0 {
		return color.NRGBA{}
	}
	c := PaletteAt(t, pal)
	return color.NRGBA{R: c[0], G: c[1], B: c[2], A: 255}
}
