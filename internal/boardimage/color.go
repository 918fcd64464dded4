package boardimage

import "math"

// rgb is an sRGB colour.
type rgb [3]uint8

// Colours, copied from ui/goban so that an exported board matches the screen: a light kaya wood, its
// darker rim, near-black lines, soft owner colours and the ink of labels.
var (
	woodColor  = rgb{222, 181, 110}
	woodEdge   = rgb{150, 108, 52}
	lineColor  = rgb{38, 27, 16}
	blackStone = rgb{24, 24, 27}
	whiteStone = rgb{240, 239, 234}
	ownerBlack = rgb{18, 18, 20}
	ownerWhite = rgb{248, 247, 242}
	inkDark    = rgb{20, 20, 20}
	inkLight   = rgb{250, 250, 250}
	bestColor  = rgb{0, 122, 255} // ui/goban's BestColor: the search's best move
)

// heatStyle is the radius (in cells) and opacity of the disc at scale position t, as the app's:
// likely moves are large strong discs, the long tail small and faint; a disc behind text holds it.
func heatStyle(t float64, text bool) (r, a float64) {
	r = 0.15 + (0.44-0.15)*t
	if text {
		r = math.Max(r, 0.37)
	}
	return r, 0.28 + 0.64*t
}

// inkOn is the label colour that reads best on background c (WCAG contrast).
func inkOn(c rgb) rgb {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	y := 0.2126*lin(c[0]) + 0.7152*lin(c[1]) + 0.0722*lin(c[2])
	if (y+0.05)/0.05 < 1.05/(y+0.05) {
		return inkLight
	}
	return inkDark
}

// mix is a + (b − a)·t per channel.
func mix(a, b rgb, t float64) rgb {
	var c rgb
	for k := range c {
		c[k] = clamp8(float64(a[k]) + t*(float64(b[k])-float64(a[k])))
	}
	return c
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v)))) }
