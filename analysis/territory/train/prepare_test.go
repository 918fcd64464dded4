package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/territory"
)

// The neutral spins that start a contrastive-divergence step are drawn from their conditional
// distribution given the labelled ones: the draws' mean matches the enumerated conditional mean.
func TestDameDrawsMatchConditional(t *testing.T) {
	boards, labels := gradExamples(t)
	ex, err := NewExample(boards[1], 50, labels[1])
	if err != nil {
		t.Fatal(err)
	}
	d, _ := newDesign(territory.KindBoltzmann5)
	p, err := d.prepare(&ex, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.dames) != 1 || len(p.dames[0].pts) != 2 {
		t.Fatalf("want one neutral component of 2 points, got %d components", len(p.dames))
	}
	theta, _ := territory.Boltzmann5Table51(80)
	ising := make([][4]float64, 9)
	d.ising(theta, ising)
	w := newWork(d, 16)
	w.load(p, ising)
	rng := rand.New(rand.NewPCG(1, 1))
	const draws = 20000
	var sum [2]float64
	dm := &p.dames[0]
	for range draws {
		clear(w.acc)
		w.dataTerm(p, w.s, rng)
		for a, q := range dm.pts {
			sum[a] += float64(w.s[q])
		}
	}
	w.dm.run(p, dm, w.h, w.w, w.acc, nil, nil)
	for a := range 2 {
		got, want := sum[a]/draws, w.dm.mean[a]
		if math.Abs(got-want) > 0.03 { // 4 standard errors at 20000 draws
			t.Errorf("neutral point %d: mean of draws %.3f, conditional mean %.3f", a, got, want)
		}
	}
}
