package goban

import (
	"image"
	"math"
	"strconv"
	"sync"
)

// SearchMove is one candidate of a tree search, for a Search layer.
type SearchMove struct {
	Point   Point
	Visits  int
	WinRate float64 // for the side to move, in [0, 1]
	Best    bool    // the move the search would play: ringed in BestColor
}

// Search is a Layer that shows a Monte Carlo tree search as Lizzie and
// KaTrain do: a disc on each candidate, its size and colour growing with
// its share of the visits, the win rate and visit count written on it, and
// the best move ringed in BestColor. With a variation set it shows that
// instead: the moves as numbered translucent stones, the side to move's
// first.
type Search struct {
	Size  int
	Moves []SearchMove // the candidates to draw; moves off the board are skipped
	// PV is a principal variation to show in place of the candidates, from
	// the side to move on; a point off the board (a pass) draws nothing but
	// still alternates the colours. At most MaxPV moves are drawn.
	PV     []Point
	ToPlay Stone // who plays PV[0]: Black or White
}

// MaxPV is how many moves of a variation a Search layer draws: beyond ten
// the numbers no longer help to read it.
const MaxPV = 10

// Sizes of the search layer, in cells.
const (
	searchMinR   = 0.30 // the disc of the least visited candidate shown
	searchMaxR   = 0.46 // the most visited: nearly touching its neighbours
	searchRatePx = 0.36 // win-rate text
	searchVisPx  = 0.25 // visit-count text, below it
	pvAlpha      = 0.88 // opacity of a variation's stones: translucent, yet what lies beneath does not blur the number
)

// searchRamp colours a candidate by its share of the visits: salmon for a
// move barely tried, through yellow, to green for the most visited. Every
// stop is light enough for dark text, and the size says the same as the
// hue, so the order survives colour blindness.
var searchRamp = [...][3]uint8{{236, 150, 120}, {240, 214, 110}, {108, 200, 132}}

// searchText is the face cache of Search layers. Layers are values the app
// replaces several times a second, so the glyphs are kept here rather than
// in each; the lock makes painting from two boards safe.
var searchText struct {
	sync.Mutex
	tc textCache
}

// Paint implements Layer.
func (s *Search) Paint(img *image.RGBA, g Grid) {
	if s.Size != g.Size || s.Size < MinSize || g.Cell < 2 {
		return
	}
	searchText.Lock()
	defer searchText.Unlock()
	if len(s.PV) > 0 {
		s.paintPV(img, g, &searchText.tc)
		return
	}
	s.paintMoves(img, g, &searchText.tc)
}

func (s *Search) onBoard(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < s.Size && p.Y < s.Size }

// paintMoves draws the candidates, least visited first so that the best
// discs lie on top where neighbours touch.
func (s *Search) paintMoves(img *image.RGBA, g Grid, tc *textCache) {
	top := 0
	for _, m := range s.Moves {
		top = max(top, m.Visits)
	}
	if top == 0 {
		return
	}
	cell := float64(g.Cell)
	for k := len(s.Moves) - 1; k >= 0; k-- {
		m := s.Moves[k]
		if !s.onBoard(m.Point) || m.Visits <= 0 {
			continue
		}
		share := float64(m.Visits) / float64(top)
		cx, cy := g.Center(m.Point)
		r := cell * (searchMinR + (searchMaxR-searchMinR)*math.Sqrt(share))
		c := rampAt(share)
		blendDisc(img, cx, cy, r, rgbf(c[0], c[1], c[2]), 1)
		if m.Best {
			bw := math.Max(2, cell*0.1)
			blendRing(img, cx, cy, r-bw/2, bw, rgbf(BestColor.R, BestColor.G, BestColor.B), 1)
		}
		rate := itoa(int(math.Round(100 * m.WinRate)))
		vis := visitsText(m.Visits)
		fr := tc.fit(rate, int(math.Round(cell*searchRatePx)), 1.5*r)
		fv := tc.fit(vis, int(math.Round(cell*searchVisPx)), 1.5*r)
		switch {
		case fr != nil && fv != nil:
			fr.draw(img, rate, cx, cy-cell*0.11, inkDark, 256)
			fv.draw(img, vis, cx, cy+cell*0.2, inkDark, 220)
		case fr != nil:
			fr.draw(img, rate, cx, cy, inkDark, 256)
		}
	}
}

// paintPV draws the variation as numbered translucent stones.
func (s *Search) paintPV(img *image.RGBA, g Grid, tc *textCache) {
	cell := float64(g.Cell)
	px := int(math.Round(cell * numberTextPx))
	stone := s.ToPlay
	if stone != White {
		stone = Black
	}
	for i, p := range s.PV[:min(len(s.PV), MaxPV)] {
		if s.onBoard(p) {
			cx, cy := g.Center(p)
			ink := inkLight
			if stone == Black {
				blendDisc(img, cx, cy, g.Radius, [3]float64{24, 24, 27}, pvAlpha)
			} else {
				blendDisc(img, cx, cy, g.Radius, [3]float64{248, 247, 242}, pvAlpha)
				blendRing(img, cx, cy, g.Radius-0.5, 1, [3]float64{90, 80, 70}, 0.6)
				ink = inkDark
			}
			text := itoa(i + 1)
			if f := tc.fit(text, px, 2*g.Radius*0.84); f != nil {
				f.draw(img, text, cx, cy, ink, 256)
			}
		}
		stone = Black + White - stone
	}
}

// rampAt interpolates searchRamp at t in [0, 1].
func rampAt(t float64) [3]uint8 {
	t = clamp01(t) * float64(len(searchRamp)-1)
	i := min(int(t), len(searchRamp)-2)
	f := t - float64(i)
	var c [3]uint8
	for k := range c {
		c[k] = clamp8(float64(searchRamp[i][k])*(1-f) + float64(searchRamp[i+1][k])*f)
	}
	return c
}

// visitsText writes a visit count in at most four characters: "937",
// "1.2k", "45k", "1.3M".
func visitsText(n int) string {
	switch {
	case n < 1000:
		return itoa(n)
	case n < 9950:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	case n < 999500:
		return strconv.Itoa(int(math.Round(float64(n)/1e3))) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}
