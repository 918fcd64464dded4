package goban

import "testing"

func TestValues(t *testing.T) {
	pos, _ := ownerBoard(t)
	v := make([]float64, 81)
	v[2*9+2] = 1    // on the black stone C7
	v[6*9+6] = -1   // on the white stone G3
	v[4*9+4] = 0.25 // an empty point, a quarter
	v[4*9+5] = 1    // an empty point, full
	v[0] = 0        // nothing
	l := &Values{Size: 9, V: v}
	pt, bare, img := paintLayer(t, pos, l)
	if c := centre(pt, img, Point{X: 2, Y: 2}); c[2] < c[0]+100 {
		t.Errorf("+1 on a black stone painted %v, want blue", c)
	}
	if c := centre(pt, img, Point{X: 6, Y: 6}); c[0] < c[2]+100 {
		t.Errorf("−1 on a white stone painted %v, want red", c)
	}
	if n := changed(pt, img, bare, Point{X: 0, Y: 0}); n != 0 {
		t.Errorf("a zero changed %d pixels", n)
	}
	full, quarter := changed(pt, img, bare, Point{X: 5, Y: 4}), changed(pt, img, bare, Point{X: 4, Y: 4})
	if r := float64(quarter) / float64(full); full == 0 || r < 0.18 || r > 0.34 {
		t.Errorf("square areas %d and %d: ratio %.2f, want about 0.25", quarter, full, r)
	}
	// A layer for another board size is not drawn.
	ones := make([]float64, 361)
	for i := range ones {
		ones[i] = 1
	}
	_, _, img = paintLayer(t, pos, &Values{Size: 19, V: ones})
	if n := changed(pt, img, bare, Point{X: 2, Y: 2}); n != 0 {
		t.Errorf("a 19x19 layer changed %d pixels of a 9x9 board", n)
	}
}
