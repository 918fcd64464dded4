package bayes

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"aji/analysis/pattern"
)

// TestHierMatchesExactConditioning: on a three-level toy hierarchy — a root a (T1) with children
// b and c (T2), and d (T3) under b — the messages of eqs. 3.4–3.6, fed noisy observations of the
// largest patterns' values one at a time, give the beliefs that exact Gaussian conditioning of the
// joint distribution gives.
func TestHierMatchesExactConditioning(t *testing.T) {
	d, err := pattern.NewSternDictionary([]pattern.Entry{
		{Key: 11, Size: 1, Count: 9}, {Key: 21, Size: 2, Count: 5}, {Key: 22, Size: 2, Count: 4}, {Key: 31, Size: 3, Count: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := func(key uint64) int32 {
		i, ok := d.Lookup(key)
		if !ok {
			t.Fatalf("no pattern %d", key)
		}
		return int32(i)
	}
	a, b, c, dd := id(11), id(21), id(22), id(31)
	chainTo := func(ids ...int32) chain {
		var ch chain
		for i := range ch.ids {
			ch.ids[i] = -1
		}
		copy(ch.ids[:], ids)
		ch.top = len(ids)
		return ch
	}
	chD, chC, chB := chainTo(a, b, dd), chainTo(a, c), chainTo(a, b)
	h := newHier(d)
	h.BetaT[0], h.BetaT[1] = 0.7, 1.3
	const noise = 0.5 // variance of an observation about the value
	obs := []struct {
		ch *chain
		y  float64
		v  int // index of the observed variable: a, b, c, d = 0..3
	}{{&chD, 1.2, 3}, {&chC, -0.4, 2}, {&chB, 0.3, 1}, {&chD, 2.0, 3}, {&chC, 0.1, 2}}
	for _, o := range obs {
		h.observe(o.ch, MeanVar(o.y, noise))
	}

	// The joint prior of (a, b, c, d): a ~ N(0, 100), b, c ~ N(a, β1²), d ~ N(b, β2²).
	b1, b2 := h.BetaT[0]*h.BetaT[0], h.BetaT[1]*h.BetaT[1]
	va := float64(HierRootVar)
	cov := mat.NewSymDense(4, []float64{
		va, va, va, va,
		va, va + b1, va, va + b1,
		va, va, va + b1, va,
		va, va + b1, va, va + b1 + b2,
	})
	// Posterior: precision Σ⁻¹ + Hᵀ H / noise, mean = cov_post Hᵀ y / noise.
	var prec mat.Dense
	if err := prec.Inverse(cov); err != nil {
		t.Fatal(err)
	}
	rhs := make([]float64, 4)
	for _, o := range obs {
		prec.Set(o.v, o.v, prec.At(o.v, o.v)+1/noise)
		rhs[o.v] += o.y / noise
	}
	var post mat.Dense
	if err := post.Inverse(&prec); err != nil {
		t.Fatal(err)
	}
	var mean mat.VecDense
	mean.MulVec(&post, mat.NewVecDense(4, rhs))
	for _, c := range []struct {
		name string
		ch   *chain
		v    int
	}{{"d", &chD, 3}, {"c", &chC, 2}, {"b", &chB, 1}} {
		got := h.belief(c.ch)
		if math.Abs(got.Mean()-mean.AtVec(c.v)) > 1e-9 || math.Abs(got.Var()-post.At(c.v, c.v)) > 1e-9 {
			t.Errorf("belief about %s: N(%.6f, %.6f), exact N(%.6f, %.6f)", c.name, got.Mean(), got.Var(), mean.AtVec(c.v), post.At(c.v, c.v))
		}
	}
}

// TestEstimateBetas: with every pattern's μ planted as a function of its template, each β_i is the
// step between successive templates' values exactly (Figure 3.19's formula over parent pairs that
// are one template apart); a template no pattern of which was trained breaks the pairs on both its
// sides; and the pairs found do not depend on the number of workers.
func TestEstimateBetas(t *testing.T) {
	m := smallModel(t, 12, 2)
	level := func(size int) float64 { return 0.1 * float64(size*size) }
	for id := range m.Patterns.Len() {
		m.Mu[id] = level(m.Patterns.Entry(id).Size)
	}
	est, err := EstimateBetas(context.Background(), trainGames, m, 12, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range est.Beta {
		if est.Pairs[i] == 0 {
			t.Errorf("no pattern of T%d has a parent", i+2)
			continue
		}
		if want := level(i+2) - level(i+1); math.Abs(b-want) > 1e-9 {
			t.Errorf("β_%d = %v, want %v", i+1, b, want)
		}
	}

	for id := range m.Patterns.Len() {
		if m.Patterns.Entry(id).Size == 3 {
			m.Seen[id], m.Played[id] = 0, 0
		}
	}
	one, err := EstimateBetas(context.Background(), trainGames, m, 12, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Pairs {
		switch {
		case i == 1 || i == 2:
			if one.Pairs[i] != 0 || !math.IsNaN(one.Beta[i]) {
				t.Errorf("β_%d over %d pairs (%v) with no T3 pattern trained", i+1, one.Pairs[i], one.Beta[i])
			}
		case one.Pairs[i] != est.Pairs[i]:
			t.Errorf("β_%d: %d pairs with 1 worker, %d with 2", i+1, one.Pairs[i], est.Pairs[i])
		}
	}
}
