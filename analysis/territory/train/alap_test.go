package train

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// sampleExamples draws owners from the exact p(s|c) of Boltzmann5 θ on random 4x4 boards.
func sampleExamples(t *testing.T, theta territory.Boltzmann5Params, boards, perBoard int, seed uint64) []Example {
	r := rand.New(rand.NewPCG(seed, 9))
	var data []Example
	var s [board.NumCells]int8
	probs := make([]float64, 1<<16)
	for range boards {
		b := randomBoard(t, 4, r)
		var f territory.Field
		theta.Field(b, &f)
		pts := board.PointsOf(4)
		mx := math.Inf(-1)
		for mask := range probs {
			for i, p := range pts {
				s[p] = int8(2*((mask>>i)&1) - 1)
			}
			probs[mask] = fieldEnergy(&f, &s)
			mx = max(mx, probs[mask])
		}
		var z float64
		for mask, e := range probs {
			probs[mask] = math.Exp(e - mx)
			z += probs[mask]
		}
		for range perBoard {
			u := r.Float64() * z
			mask := 0
			for ; mask < len(probs)-1; mask++ {
				if u -= probs[mask]; u <= 0 {
					break
				}
			}
			labels := make([]int8, 16)
			for i := range labels {
				labels[i] = int8(2*((mask>>i)&1) - 1)
			}
			ex, err := NewExample(b, 80, labels)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, ex)
		}
	}
	return data
}

// MAP training on owners drawn from a known Boltzmann5 recovers its parameters. With exact expectations
// the result is the maximum-likelihood estimate, which is within sampling error of the truth; persistent
// Swendsen-Wang expectations must reach the same estimate up to their Monte Carlo noise, and contrastive
// divergence (whose fixed point is the truth in expectation when the data come from the model) close to it.
func TestTrainRecoversBoltzmann5(t *testing.T) {
	if testing.Short() {
		t.Skip("recovery test samples 400 4x4 boards by enumeration and trains three times; run without -short")
	}
	if raceEnabled {
		t.Skip("-race: three trainings of 400 boards take three minutes; TestTrainWorkersAgree runs its concurrency")
	}
	truth := territory.Boltzmann5Params{1.8, 0.5, 0.4, 0.45, 0.27}
	data := sampleExamples(t, truth, 400, 2, 11)
	train := func(opt Options) []float64 {
		tr, err := NewTrainer(territory.KindBoltzmann5, data, 3)
		if err != nil {
			t.Fatal(err)
		}
		opt.Workers, opt.Seed = 2, 1
		got, err := tr.Train(context.Background(), nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	mle := train(Options{Inference: territory.MethodExact, Iterations: 500})
	t.Logf("map-exact: learned %.3f, truth %.3f", mle, []float64(truth))
	for k := range mle {
		if math.Abs(mle[k]-truth[k]) > 0.2 {
			t.Errorf("map-exact: parameter %d = %.3f, truth %.3f (tolerance 0.2)", k, mle[k], truth[k])
		}
	}
	for _, c := range []struct {
		name string
		opt  Options
		want []float64
		tol  float64
	}{
		// CD minimises another objective: on a finite sample its fixed point is not the MLE, so it is held
		// to the truth.
		{"map-sw", Options{Inference: territory.MethodSW, Iterations: 400}, mle, 0.06},
		{"cd", Options{Method: CD, Iterations: 400}, truth, 0.2},
	} {
		got := train(c.opt)
		t.Logf("%s: learned %.3f, want %.3f", c.name, got, c.want)
		for k := range got {
			if math.Abs(got[k]-c.want[k]) > c.tol {
				t.Errorf("%s: parameter %d = %.3f, want %.3f (tolerance %.2f)", c.name, k, got[k], c.want[k], c.tol)
			}
		}
	}
}

// TestTrainWorkersAgree trains on the same examples with one worker and with two, which split the
// expectations between goroutines: the parameters must agree to rounding. It is the recovery test's
// concurrency at a size the race detector runs in seconds.
func TestTrainWorkersAgree(t *testing.T) {
	data := sampleExamples(t, territory.Boltzmann5Params{1.8, 0.5, 0.4, 0.45, 0.27}, 40, 2, 5)
	var got [2][]float64
	for i, workers := range []int{1, 2} {
		tr, err := NewTrainer(territory.KindBoltzmann5, data, 3)
		if err != nil {
			t.Fatal(err)
		}
		got[i], err = tr.Train(context.Background(), nil, Options{Inference: territory.MethodExact, Iterations: 30, Workers: workers, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
	}
	for k := range got[0] {
		if math.Abs(got[0][k]-got[1][k]) > 1e-9 {
			t.Errorf("parameter %d: %.12f with one worker, %.12f with two", k, got[0][k], got[1][k])
		}
	}
	if got[0][0] == 0 {
		t.Errorf("nothing learned: %v", got[0])
	}
}
