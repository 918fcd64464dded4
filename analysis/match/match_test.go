package match

import (
	"testing"
)

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
