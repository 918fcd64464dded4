package eval

import (
	"math"
	"testing"
)

func TestScoreCDFAndPhases(t *testing.T) {
	var s Score
	// move numbers 1, 2, 31, 95 with ranks 1, 3, 25, 1
	s.Add(1, 1, 0.5)
	s.Add(2, 3, 0.25)
	s.Add(31, 25, 0)
	s.Add(95, 1, 1)
	cdf := s.RankCDF()
	want := map[int]float64{1: 0.5, 2: 0.5, 3: 0.75, 20: 0.75}
	for k, v := range want {
		if cdf[k-1] != v {
			t.Errorf("cdf[%d] = %v, want %v", k, cdf[k-1], v)
		}
	}
	wantLog := (math.Log(0.5) + math.Log(0.25) + math.Log(minProbability) + 0) / 4
	if math.Abs(s.MeanLogEvidence()-wantLog) > 1e-12 {
		t.Errorf("mean log evidence %v, want %v", s.MeanLogEvidence(), wantLog)
	}
	ph := s.Phases()
	if len(ph) != 3 || ph[0].From != 1 || ph[0].To != 30 || ph[0].Positions != 2 || ph[0].Top1 != 0.5 ||
		ph[1].From != 31 || ph[1].Top1 != 0 || ph[2].From != 91 || ph[2].Top1 != 1 {
		t.Errorf("phases %+v", ph)
	}
	// Merging two halves equals adding everything to one score.
	var a, b Score
	a.Add(1, 1, 0.5)
	a.Add(2, 3, 0.25)
	b.Add(31, 25, 0)
	b.Add(95, 1, 1)
	a.Merge(&b)
	if a.MeanLogEvidence() != s.MeanLogEvidence() || a.Positions != 4 || a.RankCDF()[2] != cdf[2] ||
		len(a.Phases()) != 3 {
		t.Errorf("merge differs: %+v vs %+v", a, s)
	}
}
