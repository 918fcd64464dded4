package bayes

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// integrate is ∫ f over [lo, hi] by Simpson's rule on n (even) intervals.
func integrate(f func(float64) float64, lo, hi float64, n int) float64 {
	h := (hi - lo) / float64(n)
	sum := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(lo+float64(i)*h)
	}
	return sum * h / 3
}

// TestTruncateMatchesIntegration checks eqs. 2.29–2.31 (and the stable q = 1 form) against the
// moments of [q·I(y > 0) + (1 − q)·I(y < 0)]·N(y; μ, σ²) integrated numerically.
func TestTruncateMatchesIntegration(t *testing.T) {
	for _, c := range []struct{ mu, v, q float64 }{
		{0, 1, 1}, {1.5, 0.5, 1}, {-2, 2, 1}, {-6, 1, 1}, {3, 4, 1},
		{0, 1, 0.3}, {0.7, 2, 0.8}, {-1, 0.5, 0.1}, {2, 1, 0.5},
	} {
		sd := math.Sqrt(c.v)
		lo, hi := c.mu-12*sd, c.mu+12*sd
		// The density jumps at 0: each side is integrated with its own weight.
		moment := func(k int) float64 {
			side := func(w float64) func(float64) float64 {
				return func(y float64) float64 { return w * math.Pow(y, float64(k)) * math.Exp(-(y-c.mu)*(y-c.mu)/(2*c.v)) }
			}
			s := 0.0
			if lo < 0 {
				s += integrate(side(1-c.q), lo, math.Min(0, hi), 20000)
			}
			if hi > 0 {
				s += integrate(side(c.q), math.Max(0, lo), hi, 20000)
			}
			return s
		}
		z := moment(0)
		wantM := moment(1) / z
		wantV := moment(2)/z - wantM*wantM
		m, v := Truncate(c.mu, c.v, c.q)
		if math.Abs(m-wantM) > 1e-6*(1+math.Abs(wantM)) || math.Abs(v-wantV) > 1e-6*(1+wantV) {
			t.Errorf("Truncate(%g, %g, %g) = %g, %g; integration gives %g, %g", c.mu, c.v, c.q, m, v, wantM, wantV)
		}
	}
}

// TestTruncateFarTail: deep in the tail, where Φ underflows, the moments stay finite and tend to
// those of the exponential tail: mean → 0⁺, variance → 0⁺.
func TestTruncateFarTail(t *testing.T) {
	for _, mu := range []float64{-29, -31, -50, -200} {
		m, v := Truncate(mu, 1, 1)
		if !(m > 0 && m < 0.1 && v > 0 && v < 0.01) {
			t.Errorf("Truncate(%g, 1, 1) = %g, %g", mu, m, v)
		}
	}
}

// TestRankerRecoversPlantedOrder: ADF with the ranker over positions drawn from the model itself
// — patterns with planted values, urgencies with noise β, the most urgent move played — recovers
// the planted order of the patterns and shrinks their σ as data comes.
func TestRankerRecoversPlantedOrder(t *testing.T) {
	const (
		patterns = 12
		moves    = 6
		beta2    = 1.0
	)
	rng := rand.New(rand.NewPCG(1, 2))
	truth := make([]float64, patterns)
	for i := range truth {
		truth[i] = 3 * (float64(i)/patterns - 0.5) // planted: pattern i is worth more than i − 1
	}
	belief := make([]Gauss, patterns)
	for i := range belief {
		belief[i] = MeanVar(0, 1) // Stern's prior
	}
	var rk Ranker
	ids := make([]int, moves)
	prior, out := make([]Gauss, moves), make([]Gauss, moves)
	sigmaAfter := map[int]float64{}
	for pos := 1; pos <= 4000; pos++ {
		for i := range ids {
			ids[i] = rng.IntN(patterns)
		}
		best, bestU := 0, math.Inf(-1)
		for i, id := range ids {
			if u := truth[id] + rng.NormFloat64()*math.Sqrt(beta2); u > bestU {
				best, bestU = i, u
			}
		}
		ids[0], ids[best] = ids[best], ids[0]
		for i, id := range ids {
			prior[i] = belief[id]
		}
		rk.Rank(prior, beta2, out)
		for i, id := range ids {
			belief[id] = belief[id].Mul(out[i])
		}
		if pos == 100 || pos == 4000 {
			sigmaAfter[pos] = math.Sqrt(belief[patterns/2].Var())
		}
	}
	order := make([]int, patterns)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpF(belief[a].Mean(), belief[b].Mean()) })
	inversions := 0
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			if order[i] > order[j] {
				inversions++
			}
		}
	}
	if inversions > 2 {
		t.Errorf("learned order %v has %d inversions of the planted one", order, inversions)
	}
	if !(sigmaAfter[4000] < sigmaAfter[100] && sigmaAfter[100] < 1) {
		t.Errorf("σ of a pattern: %v after 100 and 4000 positions (prior 1)", sigmaAfter)
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestRankerSingleComparisonIsExact: with two moves, EP's single constraint is exact moment
// matching, so the messages give the posterior of y_0 whose mean is the closed form of
// TrueSkill's two-player update.
func TestRankerSingleComparisonIsExact(t *testing.T) {
	var rk Ranker
	prior := []Gauss{MeanVar(0.5, 0.8), MeanVar(1, 0.6)}
	out := make([]Gauss, 2)
	beta2 := 1.0
	rk.Rank(prior, beta2, out)
	post := prior[0].Mul(out[0])
	c2 := 0.8 + 0.6 + 2*beta2
	c := math.Sqrt(c2)
	v, w := vw((0.5 - 1) / c)
	wantMean := 0.5 + 0.8/c*v
	wantVar := 0.8 * (1 - 0.8/c2*w)
	if math.Abs(post.Mean()-wantMean) > 1e-7 || math.Abs(post.Var()-wantVar) > 1e-7 {
		t.Errorf("posterior of the winner N(%g, %g), want N(%g, %g)", post.Mean(), post.Var(), wantMean, wantVar)
	}
	lose := prior[1].Mul(out[1])
	if want := 1 - 0.6/c*v; math.Abs(lose.Mean()-want) > 1e-7 {
		t.Errorf("posterior mean of the loser %g, want %g", lose.Mean(), want)
	}
}

// TestPredictiveMatchesSampling: the probabilities of eq. 3.1 agree with sampling the urgencies.
func TestPredictiveMatchesSampling(t *testing.T) {
	m := []float64{0.5, 0, 1.2, -1}
	s := []float64{1, 1.3, 0.9, 2}
	count := []int32{1, 3, 1, 2}
	out := make([]float64, len(m))
	var pr Predictive
	pr.Probabilities(m, s, count, out)
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 400000
	wins := make([]float64, len(m))
	for range draws {
		best, bestU := -1, math.Inf(-1)
		for k := range m {
			for range count[k] {
				if u := m[k] + s[k]*rng.NormFloat64(); u > bestU {
					best, bestU = k, u
				}
			}
		}
		wins[best]++
	}
	sum := 0.0
	for k := range m {
		want := wins[k] / draws / float64(count[k])
		if math.Abs(out[k]-want) > 0.003 {
			t.Errorf("P(move of group %d) = %.4f, sampling gives %.4f", k, out[k], want)
		}
		sum += float64(count[k]) * out[k]
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("probabilities sum to %g", sum)
	}
}

func TestLogPhi(t *testing.T) {
	for x := -45.0; x <= 40; x += 0.013 {
		want := math.Log(Phi(x))
		if x < -37.5 { // Φ underflows: the integral of the density, in logs
			want = math.Log(integrate(func(u float64) float64 { return math.Exp(-u*u/2 + x*x/2) }, x-30, x, 200000)) - x*x/2 - 0.9189385332046727
		}
		if got := logPhi(x); math.Abs(got-want) > 1e-4*(1+math.Abs(want)) {
			t.Fatalf("logPhi(%g) = %g, want %g", x, got, want)
		}
	}
}

// TestVWFast: the table of the ranker's inner loop agrees with vw.
func TestVWFast(t *testing.T) {
	for x := -15.0; x < 9; x += 0.0007 {
		v, w := vw(x)
		fv, fw := vwFast(x)
		if math.Abs(fv-v) > 1e-6*(1+v) || math.Abs(fw-w) > 1e-6 {
			t.Fatalf("vwFast(%g) = %g, %g; vw gives %g, %g", x, fv, fw, v, w)
		}
	}
}
