package boardimage

import (
	"math"
	"strconv"
)

// The look of a tree search's candidates, one definition for the app's Search layer (ui/goban) and
// exported images: a disc per candidate whose size and colour grow with its share of the visits, its
// win rate in bold with the visit count smaller below, and the best move ringed.

// SearchMove is one candidate of a tree search.
type SearchMove struct {
	Point   Point
	Visits  int
	WinRate float64 // for the side to move, in [0, 1]
	Best    bool    // the move the search would play: ringed in the best colour
}

// Sizes of a candidate's drawing, in cells.
const (
	SearchMinR   = 0.30  // the disc of the least visited candidate shown
	SearchMaxR   = 0.46  // the most visited: nearly touching its neighbours
	SearchRatePx = 0.36  // win-rate text
	SearchVisPx  = 0.25  // visit-count text, below it
	SearchRateDY = -0.11 // the win rate's centre below the point's (negative: above)
	SearchVisDY  = 0.2   // the visit count's
	SearchRing   = 0.1   // width of the best move's ring
)

// SearchRamp colours a candidate by its share of the visits: salmon for a move barely tried, through
// yellow, to green for the most visited. Every stop is light enough for dark text, and the size says
// the same as the hue, so the order survives colour blindness.
var SearchRamp = [...][3]uint8{{236, 150, 120}, {240, 214, 110}, {108, 200, 132}}

// SearchRampAt interpolates SearchRamp at t in [0, 1].
func SearchRampAt(t float64) [3]uint8 {
	t = clamp01(t) * float64(len(SearchRamp)-1)
	i := min(int(t), len(SearchRamp)-2)
	f := t - float64(i)
	var c [3]uint8
	for k := range c {
		c[k] = clamp8(float64(SearchRamp[i][k])*(1-f) + float64(SearchRamp[i+1][k])*f)
	}
	return c
}

// SearchRadius is the radius in cells of a candidate with share of the most visited one's visits:
// by its square root, so that the area follows the visits.
func SearchRadius(share float64) float64 {
	return SearchMinR + (SearchMaxR-SearchMinR)*math.Sqrt(clamp01(share))
}

// VisitsText writes a visit count in at most four characters: "937", "1.2k", "45k", "1.3M".
func VisitsText(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 9950:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	case n < 999500:
		return strconv.Itoa(int(math.Round(float64(n)/1e3))) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

// Thousands writes n with commas between groups of three digits: 20,000 playouts.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
