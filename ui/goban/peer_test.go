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
		Fills:     []Fill{{Point{X: 4, Y: 0}, color.NRGBA{R: 255, A: 255}}},
		Labels: []Label{
			{Point: Point{X: 2, Y: 4}, Mark: MarkRing, Text: "B", Color: BestColor},
			{Point: Point{X: 4, Y: 4}, Text: "12"},
			{Point: Point{X: 6, Y: 4}, Mark: MarkSquare},
			{Point: Point{X: 1, Y: 7}, Mark: MarkTriangle},
			{Point: Point{X: 7, Y: 7}, Mark: MarkCircle},
			{Point: Point{X: 20, Y: 20}, Text: "off"},
		},
	}
	pt, bare, img := paintLayer(t, pos, l)
	for _, p := range []Point{{X: 0, Y: 0}, {X: 8, Y: 8}, {X: 4, Y: 0}, {X: 2, Y: 4}, {X: 4, Y: 4}, {X: 6, Y: 4}, {X: 1, Y: 7}, {X: 7, Y: 7}} {
		if n := changed(pt, img, bare, p); n < 10 {
			t.Errorf("%v: only %d pixels changed", p, n)
		}
	}
	for _, p := range []Point{{X: 0, Y: 4}, {X: 8, Y: 2}} {
		if n := changed(pt, img, bare, p); n != 0 {
			t.Errorf("%v holds nothing: %d pixels changed", p, n)
		}
	}
	// A layer for another board size draws nothing.
	_, _, img = paintLayer(t, pos, &Peer{Size: 19, Labels: l.Labels})
	for _, p := range []Point{{X: 2, Y: 4}, {X: 4, Y: 4}} {
		if n := changed(pt, img, bare, p); n != 0 {
			t.Errorf("19x19 layer on 9x9: %v changed %d pixels", p, n)
		}
	}
}
