package eval

import (
	"math"
	"testing"
)

// Dame are skipped, certainty is clamped at both ends, and an estimate of 0 is a miss.
func TestOwnerScore(t *testing.T) {
	var s OwnerScore
	s.Add([]float64{0.5, -1, 1, 0, 0.9}, []int8{1, 1, 1, -1, 0})
	want := -math.Log(0.75) - math.Log(OwnerClamp) - math.Log(1-OwnerClamp) - math.Log(0.5)
	if s.Positions != 1 || s.Points != 4 || s.Agree != 2 || math.Abs(s.LogLoss-want) > 1e-12 {
		t.Fatalf("got %+v, want 1 position, 4 points, 2 agreeing, log loss %v", s, want)
	}
	var all OwnerScore
	all.Merge(s)
	all.Merge(s)
	if all.CrossEntropy() != s.CrossEntropy() || all.Agreement() != 0.5 || all.Positions != 2 {
		t.Errorf("merged %+v: cross-entropy %v, agreement %v", all, all.CrossEntropy(), all.Agreement())
	}
	if (OwnerScore{}).CrossEntropy() != 0 || (OwnerScore{}).Agreement() != 0 {
		t.Error("an empty score should read 0")
	}
}
