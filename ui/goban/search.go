package goban

import (
	"image"
	"math"
	"sync"

	"aji/internal/boardimage"
)

// SearchMove is one candidate of a tree search, for a Search layer.
type SearchMove = boardimage.SearchMove

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

// pvAlpha is the opacity of a variation's stones: translucent, yet what
// lies beneath does not blur the number. The candidates' sizes and colours
// are internal/boardimage's, which exported images share.
const pvAlpha = 0.88

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
		r := cell * boardimage.SearchRadius(share)
		c := boardimage.SearchRampAt(share)
		blendDisc(img, cx, cy, r, rgbf(c[0], c[1], c[2]), 1)
		if m.Best {
			bw := math.Max(2, cell*boardimage.SearchRing)
			blendRing(img, cx, cy, r-bw/2, bw, rgbf(BestColor.R, BestColor.G, BestColor.B), 1)
		}
		rate := itoa(int(math.Round(100 * m.WinRate)))
		vis := boardimage.VisitsText(m.Visits)
		fr := tc.fit(rate, int(math.Round(cell*boardimage.SearchRatePx)), 1.5*r)
		fv := tc.fit(vis, int(math.Round(cell*boardimage.SearchVisPx)), 1.5*r)
		switch {
		case fr != nil && fv != nil:
			fr.draw(img, rate, cx, cy+cell*boardimage.SearchRateDY, inkDark, 256)
			fv.draw(img, vis, cx, cy+cell*boardimage.SearchVisDY, inkDark, 220)
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
