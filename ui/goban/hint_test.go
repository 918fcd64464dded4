package goban

import (
	"image"
	"testing"
)

func TestHintVeilsOutsideTheRegion(t *testing.T) {
	pos, _ := ownerBoard(t)
	// The upper right quarter of the 9x9 board, lines E to J and 9 to 5, as a first hint gives it.
	l := &Hint{Size: 9, Clear: image.Rect(4, 0, 9, 5)}
	pt, bare, img := paintLayer(t, pos, l)
	lum := func(c [3]int) int { return c[0] + c[1] + c[2] }
	for _, p := range []Point{{X: 0, Y: 8}, {X: 2, Y: 2}, {X: 3, Y: 4}, {X: 8, Y: 5}, {X: 6, Y: 6}} { // outside: wood, C7's stone, the edges, G3's stone
		if got, was := centre(pt, img, p), centre(pt, bare, p); lum(got) >= lum(was) && lum(was) > 150 {
			t.Errorf("%v outside the region: %v, was %v: not greyed", p, got, was)
		}
		if changed(pt, img, bare, p) == 0 {
			t.Errorf("%v outside the region is not veiled", p)
		}
	}
	for _, p := range []Point{{X: 6, Y: 2}, {X: 7, Y: 1}, {X: 5, Y: 3}} { // inside: G7's stone, empty points
		if n := changed(pt, img, bare, p); n != 0 {
			t.Errorf("%v inside the region: %d pixels changed", p, n)
		}
	}

	// The whole board clear: nothing but the marks is drawn.
	l = &Hint{Size: 9, Clear: image.Rect(0, 0, 9, 9), Wrong: []Point{{X: 1, Y: 1}}, Marked: []Point{{X: 4, Y: 4}}, Cursor: Point{X: 7, Y: 7}, HasCursor: true}
	_, _, img = paintLayer(t, pos, l)
	for _, p := range []Point{{X: 0, Y: 0}, {X: 3, Y: 3}, {X: 6, Y: 2}} {
		if n := changed(pt, img, bare, p); n != 0 {
			t.Errorf("%v with nothing to show: %d pixels changed", p, n)
		}
	}
	for _, p := range []Point{{X: 1, Y: 1}, {X: 4, Y: 4}, {X: 7, Y: 7}} {
		if n := changed(pt, img, bare, p); n < 10 {
			t.Errorf("mark at %v changed only %d pixels", p, n)
		}
	}
	if c := centre(pt, img, Point{X: 1, Y: 1}); c[0] < c[2]+80 {
		t.Errorf("the wrong guess's cross is %v at its centre, want red", c)
	}

	// A layer for another board size is not drawn.
	_, _, img = paintLayer(t, pos, &Hint{Size: 19, Clear: image.Rect(0, 0, 3, 3), HasCursor: true})
	if n := changed(pt, img, bare, Point{X: 8, Y: 8}); n != 0 {
		t.Errorf("a 19x19 hint changed %d pixels of a 9x9 board", n)
	}
}
