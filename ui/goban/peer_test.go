package goban

import (
	"image/color"
	"testing"
)

func TestPeerDrawsWhatItHolds(t *testing.T) {
	pos, _ := ownerBoard(t)
	infl := make([]float64, 81)
	infl[0], infl[80] = 1, -1 // A9 and J1
	l := &Peer{
		Size:      9,
		Influence: infl,
		Fills:     []Fill{{Point{4, 0}, color.NRGBA{R: 255, A: 255}}},
		Labels: []Label{
			{Point: Point{2, 4}, Mark: MarkRing, Text: "B", Color: BestColor},
			{Point: Point{4, 4}, Text: "12"},
			{Point: Point{6, 4}, Mark: MarkSquare},
			{Point: Point{1, 7}, Mark: MarkTriangle},
			{Point: Point{7, 7}, Mark: MarkCircle},
			{Point: Point{20, 20}, Text: "off"},
		},
	}
	pt, bare, img := paintLayer(t, pos, l)
	for _, p := range []Point{{0, 0}, {8, 8}, {4, 0}, {2, 4}, {4, 4}, {6, 4}, {1, 7}, {7, 7}} {
		if n := changed(pt, img, bare, p); n < 10 {
			t.Errorf("%v: only %d pixels changed", p, n)
		}
	}
	for _, p := range []Point{{0, 4}, {8, 2}} {
		if n := changed(pt, img, bare, p); n != 0 {
			t.Errorf("%v holds nothing: %d pixels changed", p, n)
		}
	}
	// A layer for another board size draws nothing.
	_, _, img = paintLayer(t, pos, &Peer{Size: 19, Labels: l.Labels})
	for _, p := range []Point{{2, 4}, {4, 4}} {
		if n := changed(pt, img, bare, p); n != 0 {
			t.Errorf("19x19 layer on 9x9: %v changed %d pixels", p, n)
		}
	}
}
