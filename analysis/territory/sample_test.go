package territory

import (
	"testing"

	"aji/analysis/board"
)

// Samplers are checked against brute force with 20000 sweeps: the Monte Carlo error of a ±1 average is
// then about sqrt(τ/20000) for an autocorrelation time of τ sweeps; the frustrated random 4x4 has τ of
// order 25 for SW (its error falls as 1/sqrt(sweeps): 0.0096 at 1e5 sweeps, 0.00096 at 4e6), so 0.07
// is about 4σ there. Gibbs is not checked on b5-stones4: its two 5-stone chains with w_chains = 2.74 are
// frozen for Gibbs (the point of TestSWMixesFasterThanGibbs), an error of 0.58 after 20000 sweeps.
func TestSamplersMatchBruteForce(t *testing.T) {
	var gs Gibbs
	var sw SW
	opt := SampleOptions{Burnin: 200, Sweeps: 20000, Seed: 1, RaoBlack: true}
	if testing.Short() {
		opt.Sweeps = 5000
	}
	tol := 0.07
	if testing.Short() {
		tol = 0.12
	}
	for name, f := range testFields(t) {
		want, _ := brute(f)
		for _, rb := range []bool{true, false} {
			opt.RaoBlack = rb
			var got Marginals
			gs.Run(f, &got, opt)
			if dm, dp := maxDiff(&got, &want); name != "b5-stones4" && (dm > tol || dp > tol) {
				t.Errorf("%s: Gibbs (RB %v) mean %.3f pair %.3f, want ≤ %v", name, rb, dm, dp, tol)
			}
			sw.Run(f, &got, opt)
			if dm, dp := maxDiff(&got, &want); dm > tol || dp > tol {
				t.Errorf("%s: SW (RB %v) mean %.3f pair %.3f, want ≤ %v", name, rb, dm, dp, tol)
			}
		}
	}
}

func TestSWSampleBondsRespectCouplings(t *testing.T) {
	b := mustParse(t, `
		.XO.
		XXO.
		.XOO
		X.O.`)
	b5, _ := Boltzmann5Table51(80)
	var f Field
	b5.Field(b, &f)
	f.W[board.At(0, 0)][Right] = -1 // one antiferromagnetic pair
	var sw SW
	var s Sample
	for seed := range uint64(50) {
		sw.Sample(&f, 3, seed, &s)
		for _, p := range b.Points() {
			for d, q := range [2]board.Point{p + 1, p + board.Stride} {
				if !s.Bond[p][d] {
					continue
				}
				w := f.W[p][d]
				if (w > 0) != (s.S[p] == s.S[q]) {
					t.Fatalf("seed %d: bond %v-%v with w=%v joins spins %d, %d", seed, p, q, w, s.S[p], s.S[q])
				}
			}
		}
	}
}

// tauInt is the integrated autocorrelation time of x, summing autocorrelations until the first
// non-positive one.
func tauInt(x []float64) float64 {
	n := len(x)
	var mu float64
	for _, v := range x {
		mu += v
	}
	mu /= float64(n)
	var c0 float64
	for _, v := range x {
		c0 += (v - mu) * (v - mu)
	}
	if c0 == 0 {
		return 1
	}
	tau := 1.0
	for lag := 1; lag < n/2; lag++ {
		var c float64
		for i := 0; i+lag < n; i++ {
			c += (x[i] - mu) * (x[i+lag] - mu)
		}
		rho := c / c0
		if rho <= 0 {
			break
		}
		tau += 2 * rho
	}
	return tau
}

// Stern's Figure 5.5 idea: on a strongly coupled model Swendsen-Wang decorrelates in far fewer sweeps.
// A 9x9 Boltzmann5 position with w_chains = 3 and w_empty = 0.6 (above the critical 0.44).
func TestSWMixesFasterThanGibbs(t *testing.T) {
	b := mustParse(t, `
		.........
		..XX.....
		..X..OO..
		.....O...
		...X.....
		.....OOO.
		.XXX.....
		.........
		.........`)
	q := Boltzmann5Params{3, 0.5, 0.5, 0.6, 0.05}
	var f Field
	q.Field(b, &f)
	opt := SampleOptions{Burnin: 100, Sweeps: 2000, Seed: 3}
	gs := Gibbs{TraceMagnetisation: true}
	sw := SW{TraceMagnetisation: true}
	var m Marginals
	gs.Run(&f, &m, opt)
	sw.Run(&f, &m, opt)
	tg, ts := tauInt(gs.Magnetisation()), tauInt(sw.Magnetisation())
	t.Logf("integrated autocorrelation time of the magnetisation: Gibbs %.1f sweeps, SW %.1f sweeps", tg, ts)
	if !(ts*3 < tg) {
		t.Errorf("SW τ = %.1f, Gibbs τ = %.1f: want SW at least 3 times faster", ts, tg)
	}
}

func TestNoAllocPerRun(t *testing.T) {
	f := randomField(9, 0.5, 5)
	var m Marginals
	var gs Gibbs
	var sw SW
	var e Exact
	var s Sample
	l := NewLBP()
	opt := SampleOptions{Burnin: 5, Sweeps: 20, Seed: 1, RaoBlack: true}
	gs.Run(f, &m, opt)
	sw.Run(f, &m, opt)
	l.Run(f, &m)
	e.Run(f, &m)
	for name, fn := range map[string]func(){
		"gibbs":  func() { gs.Run(f, &m, opt) },
		"sw":     func() { sw.Run(f, &m, opt) },
		"lbp":    func() { l.Run(f, &m) },
		"exact":  func() { e.Run(f, &m) },
		"sample": func() { sw.Sample(f, 3, 1, &s) },
	} {
		if a := testing.AllocsPerRun(5, fn); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}
}
