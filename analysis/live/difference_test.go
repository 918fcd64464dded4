package live

import (
	"context"
	"math"
	"testing"

	"aji/analysis/predict"
	_ "aji/analysis/predict/fbt"
)

// TestLogRatioMatchesTheDistributions: the difference layer of mm against fbt on a real 19x19 position
// is log(p_mm/p_fbt) of the two predictors' own distributions at every legal point, and NaN elsewhere.
func TestLogRatioMatchesTheDistributions(t *testing.T) {
	pos := proPosition(t, 120)
	a := NewPredictors()
	pa, err := a.Predict(context.Background(), "mm", pos)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := a.Predict(context.Background(), "fbt", pos)
	if err != nil {
		t.Fatal(err)
	}
	v, err := LogRatio(pa, pb)
	if err != nil {
		t.Fatal(err)
	}
	var da, db predict.Distribution
	for name, d := range map[string]*predict.Distribution{"mm": &da, "fbt": &db} {
		p, err := predict.New(name, predict.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.Predict(pos, d)
	}
	n, legal, pos0, neg := pos.Board.Size(), 0, 0, 0
	for _, p := range pos.Board.Points() {
		x, y := p.XY()
		got := v[y*n+x]
		if !pos.Board.Legal(p, pos.ToPlay) {
			if !math.IsNaN(got) {
				t.Errorf("%s is illegal but has %g", p.GTP(n), got)
			}
			continue
		}
		legal++
		want := math.Log(da.P[p] / db.P[p])
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %g, want log(%g/%g) = %g", p.GTP(n), got, da.P[p], db.P[p], want)
		}
		if got > 0 {
			pos0++
		} else if got < 0 {
			neg++
		}
	}
	if legal < 200 || pos0 == 0 || neg == 0 {
		t.Errorf("%d legal points, %d where mm leads, %d where fbt does", legal, pos0, neg)
	}
	small := *pa
	small.Size, small.Heat = 9, pa.Heat[:81]
	if _, err := LogRatio(&small, pb); err == nil {
		t.Error("a 9x9 and a 19x19 prediction compared")
	}
}

func BenchmarkLogRatio(b *testing.B) {
	pos := proPosition(b, 120)
	a := NewPredictors()
	pa, _ := a.Predict(context.Background(), "mm", pos)
	pb, _ := a.Predict(context.Background(), "fbt", pos)
	for b.Loop() {
		LogRatio(pa, pb)
	}
}
