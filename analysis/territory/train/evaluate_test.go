package train

import (
	"context"
	"math"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// Evaluate's cross-entropy and agreement with exact marginals equal a direct computation from brute-force
// marginals, neutral points skipped.
func TestEvaluateMatchesBruteForce(t *testing.T) {
	boards, labels := gradExamples(t)
	theta, _ := territory.Boltzmann5Table51(150)
	var data []Example
	var ce, agree float64
	var points int
	for i, b := range boards {
		ex, _ := NewExample(b, 150, labels[i])
		data = append(data, ex)
		var f territory.Field
		theta.Field(b, &f)
		m, _ := exact(&f)
		for j, p := range board.PointsOf(4) {
			if l := labels[i][j]; l != 0 {
				v := m.Mean[p] * float64(l)
				ce -= math.Log((1 + v) / 2)
				if v > 0 {
					agree++
				}
				points++
			}
		}
	}
	s, err := Evaluate(context.Background(), territory.KindBoltzmann5, theta, data, territory.MethodExact, territory.SampleOptions{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s.Points != points || s.Positions != 2 || math.Abs(s.CrossEntropy()-ce/float64(points)) > 1e-9 || math.Abs(s.Agreement()-agree/float64(points)) > 1e-12 {
		t.Errorf("Evaluate = %+v, want %d points, cross-entropy %.6f, agreement %.4f", s, points, ce/float64(points), agree/float64(points))
	}
}
