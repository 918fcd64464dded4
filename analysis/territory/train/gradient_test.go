package train

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// The exact-inference gradient of the log posterior (eq. 5.12 with the prior eq. 5.13, neutral points
// marginalised) matches central finite differences of the brute-force log posterior, for every kind.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	boards, labels := gradExamples(t)
	var data []Example
	for i, b := range boards {
		ex, err := NewExample(b, 50, labels[i])
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, ex)
	}
	const alpha = 0.3
	r := rand.New(rand.NewPCG(5, 6))
	for _, kind := range territory.Kinds {
		tr, err := NewTrainer(kind, data, 1)
		if err != nil {
			t.Fatal(err)
		}
		theta := randomParams(kind, 0.8, r)
		opt := Options{Inference: territory.MethodExact, Alpha: alpha, Workers: 2}
		grad, ll, err := tr.Gradient(context.Background(), theta, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		objective := func(q []float64) float64 {
			m, _ := territory.NewModel(kind, q)
			var sum float64
			for i, b := range boards {
				var f territory.Field
				m.Field(b, &f)
				sum += bruteLogLik(&f, labels[i])
			}
			var sq float64
			for _, v := range q {
				sq += v * v
			}
			return (sum - alpha/2*sq) / float64(len(boards))
		}
		var sq float64
		for _, v := range theta {
			sq += v * v
		}
		if want := objective(theta) + alpha/2*sq/float64(len(boards)); math.Abs(ll-want) > 1e-9 {
			t.Errorf("%s: mean log-likelihood %v, brute force %v", kind, ll, want)
		}
		const h = 1e-5
		var worst float64
		for k := range theta {
			q := append([]float64(nil), theta...)
			q[k] += h
			up := objective(q)
			q[k] -= 2 * h
			fd := (up - objective(q)) / (2 * h)
			worst = max(worst, math.Abs(fd-grad[k]))
			if math.Abs(fd-grad[k]) > 1e-6 {
				t.Errorf("%s: ∂/∂θ_%d = %.8f, finite difference %.8f", kind, k, grad[k], fd)
			}
		}
		t.Logf("%s: %d parameters, worst |gradient − finite difference| %.2g", kind, len(theta), worst)
	}
}

// The persistent chain of MAP training (Swendsen-Wang sweeps plus stone-chain block flips) samples p(s|c):
// its Rao-Blackwellised averages approach the brute-force marginals, on a position with strong fields
// where the block flips matter.
func TestPersistentChainMatchesBruteForce(t *testing.T) {
	boards, labels := gradExamples(t)
	ex, err := NewExample(boards[0], 50, labels[0])
	if err != nil {
		t.Fatal(err)
	}
	theta := territory.Boltzmann5Params{3, 1.2, 0.5, 0.45, 0.8}
	var f territory.Field
	theta.Field(boards[0], &f)
	want, _ := exact(&f)
	d, _ := newDesign(territory.KindBoltzmann5)
	p, err := d.prepare(&ex, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.blocks) != 3+3+2 {
		t.Fatalf("%d blocks, want 3 chains, 3 chains with liberties and 2 groups", len(p.blocks))
	}
	ising := make([][4]float64, 9)
	d.ising(theta, ising)
	w := newWork(d, 16)
	w.load(p, ising)
	s := make([]int8, 16)
	for i := range s {
		s[i] = 1
	}
	mean, pair := make([]float64, 16), make([]float64, len(p.edges))
	const sweeps, per = 100000, 2 // as training runs it: per sweeps a step, then the block flips
	for range sweeps / per {
		w.sample(p, per, s)
		for i := range mean {
			mean[i] += w.mean[i] * per / sweeps
		}
		for e := range pair {
			pair[e] += w.pair[e] * per / sweeps
		}
		flipBlocks(p, w.h, w.w, s, p.rng)
	}
	var worst float64
	for i, q := range board.PointsOf(4) {
		worst = max(worst, math.Abs(mean[i]-want.Mean[q]))
	}
	for e, ed := range p.edges {
		worst = max(worst, math.Abs(pair[e]-want.Pair[board.PointsOf(4)[ed.i]][ed.dir]))
	}
	if worst > 0.03 {
		t.Errorf("persistent chain: worst error %.3f against brute force, want ≤ 0.03", worst)
	}
	t.Logf("worst error of means and pair expectations after %d sweeps: %.4f", sweeps, worst)
}

// BenchmarkTrainStep is one MAP step with persistent Swendsen-Wang expectations over 20 copies of pos19
// (labels: the sign of its exact marginals, a few points neutral).
func BenchmarkTrainStep(b *testing.B) {
	for _, c := range []struct {
		name string
		opt  Options
	}{{"map-sw", Options{Inference: territory.MethodSW, Sweeps: 2}}, {"cd", Options{Method: CD}}} {
		b.Run(c.name, func(b *testing.B) {
			bd := mustParse(b, pos19)
			q, _ := territory.Boltzmann5Table51(80)
			var f territory.Field
			q.Field(bd, &f)
			m, _ := exact(&f)
			labels := make([]int8, 361)
			for i, p := range board.PointsOf(19) {
				switch {
				case m.Mean[p] > 0.05:
					labels[i] = 1
				case m.Mean[p] < -0.05:
					labels[i] = -1
				}
			}
			ex, _ := NewExample(bd, 60, labels)
			data := make([]Example, 20)
			for i := range data {
				data[i] = ex
			}
			tr, err := NewTrainer(territory.KindBoltzmann5, data, 1)
			if err != nil {
				b.Fatal(err)
			}
			theta, _ := territory.Boltzmann5Table51(80)
			c.opt.Workers = 1
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := tr.Gradient(context.Background(), theta, nil, c.opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(data)), "µs/position")
		})
	}
}
