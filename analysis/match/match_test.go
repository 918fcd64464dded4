package match

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		{0.5, 10, 0.2366, 0.7634}, // Wilson's interval, by hand: (0.5 + 0.19207)/1.38415 ± 0.27…
		{0, 4, 0, 0.4899},
		{1, 4, 0.5101, 1},
		{0.7, 100, 0.6041, 0.7810},
	} {
		lo, hi := wilson(tc.p, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("wilson(%v, %d) = %.4f, %.4f; want %.4f, %.4f", tc.p, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
	if lo, hi := wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("no games: %v %v", lo, hi)
	}
}

func TestParseScore(t *testing.T) {
	for in, want := range map[string]float64{"B+3.5": 3.5, "W+12.0": -12, "0": 0, "w+0.5": -0.5, " B+7 ": 7} {
		if got, err := parseScore(in); err != nil || got != want {
			t.Errorf("parseScore(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "B+", "B3", "X+1", "B+R", "W+inf"} {
		if _, err := parseScore(in); err == nil {
			t.Errorf("parseScore(%q) succeeded", in)
		}
	}
}
