package goban

import (
	"math"
	"testing"
)

// TestDivergingColorSymmetricMonotone: sunset is light at 0, its lightness falls steadily on both
// arms, ±t are about as light as each other, and the arms' hues differ (blue above, red below).
func TestDivergingColorSymmetricMonotone(t *testing.T) {
	if l := lightness(DivergingColor(0)); l < 90 {
		t.Errorf("zero has lightness %.1f, want near white", l)
	}
	const steps = 100
	prev := [2]float64{101, 101}
	for i := 0; i <= steps; i++ {
		x := float64(i) / steps
		up, down := DivergingColor(x), DivergingColor(-x)
		lu, ld := lightness(up), lightness(down)
		if lu > prev[0]+0.5 || ld > prev[1]+0.5 {
			t.Errorf("lightness at ±%.2f is %.1f / %.1f, above %.1f / %.1f before", x, lu, ld, prev[0], prev[1])
		}
		prev = [2]float64{lu, ld}
		if math.Abs(lu-ld) > 3 {
			t.Errorf("lightness at +%.2f is %.1f, at −%.2f %.1f: not symmetric", x, lu, x, ld)
		}
		if x >= 0.2 && (up.B <= up.R || down.R <= down.B) {
			t.Errorf("±%.2f: %v / %v, want blue / red", x, up, down)
		}
	}
	if lightness(DivergingColor(1)) > 40 || lightness(DivergingColor(-1)) > 40 || DivergingColor(5) != DivergingColor(1) || DivergingColor(math.NaN()) != DivergingColor(0) {
		t.Error("the ends do not saturate dark, or clamping or NaN is wrong")
	}
}

func TestDifference(t *testing.T) {
	pos, _ := ownerBoard(t)
	v := make([]float64, 81)
	for i := range v {
		v[i] = math.NaN()
	}
	v[4*9+4] = 3            // A favoured, at the clamp
	v[4*9+5] = -30          // B favoured, beyond it
	v[4*9+6] = math.Inf(-1) // B's only: A's probability underflowed
	v[3*9+3] = 0            // the same
	l := &Difference{Size: 9, V: v, Clamp: 3}
	pt, bare, img := paintLayer(t, pos, l)
	if c := centre(pt, img, Point{X: 4, Y: 4}); c[2] < c[0]+60 {
		t.Errorf("+3 painted %v, want blue", c)
	}
	for _, x := range []int{5, 6} {
		if c := centre(pt, img, Point{X: x, Y: 4}); c[0] < c[2]+60 {
			t.Errorf("%g painted %v, want red", v[4*9+x], c)
		}
	}
	if a, b := centre(pt, img, Point{X: 5, Y: 4}), centre(pt, img, Point{X: 6, Y: 4}); a != b {
		t.Errorf("−30 and −Inf differ beyond the clamp: %v %v", a, b)
	}
	if n := changed(pt, img, bare, Point{X: 3, Y: 3}); n == 0 {
		t.Error("a zero was not drawn")
	}
	if n := changed(pt, img, bare, Point{X: 0, Y: 0}); n != 0 {
		t.Errorf("NaN changed %d pixels", n)
	}
	_, _, img = paintLayer(t, pos, &Difference{Size: 9, V: v})
	if n := changed(pt, img, bare, Point{X: 4, Y: 4}); n != 0 {
		t.Errorf("a layer without a clamp changed %d pixels", n)
	}
}

func TestDifferenceTicks(t *testing.T) {
	ts := differenceTicks(3)
	want := []string{"−3", "−1.5", "0", "+1.5", "+3"}
	for i, tk := range ts {
		if tk.text != want[i] || tk.t != float64(i)/4 {
			t.Errorf("tick %d: %+v, want %s at %g", i, tk, want[i], float64(i)/4)
		}
	}
}

// BenchmarkDifference19 paints a difference layer on every point of a 19x19 board at 800 px.
func BenchmarkDifference19(b *testing.B) {
	pt := newPainter(800, 19)
	img := pt.paint(NewPosition(19), nil)
	v := make([]float64, 361)
	for i := range v {
		v[i] = float64(i%13-6) / 2
	}
	l := &Difference{Size: 19, V: v, Clamp: 3}
	for b.Loop() {
		l.Paint(img, pt.grid)
	}
}
