package territory

import (
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

// brute enumerates all 2^N owner vectors of f.
func brute(f *Field) (m Marginals, logZ float64) {
	pts := board.PointsOf(f.Size)
	N := len(pts)
	m.Size = f.Size
	energy := func(mask int) float64 {
		s := func(i int) float64 { return float64(2*((mask>>i)&1) - 1) }
		e := f.Const
		for i, p := range pts {
			e += f.H[p] * s(i)
			x, y := p.XY()
			if x < f.Size-1 {
				e += f.W[p][Right] * s(i) * s(i+1)
			}
			if y < f.Size-1 {
				e += f.W[p][Down] * s(i) * s(i+f.Size)
			}
		}
		return e
	}
	mx := math.Inf(-1)
	for mask := range 1 << N {
		mx = max(mx, energy(mask))
	}
	var z float64
	for mask := range 1 << N {
		wt := math.Exp(energy(mask) - mx)
		z += wt
		for i, p := range pts {
			si := float64(2*((mask>>i)&1) - 1)
			m.Mean[p] += wt * si
			x, y := p.XY()
			if x < f.Size-1 {
				m.Pair[p][Right] += wt * si * float64(2*((mask>>(i+1))&1)-1)
			}
			if y < f.Size-1 {
				m.Pair[p][Down] += wt * si * float64(2*((mask>>(i+f.Size))&1)-1)
			}
		}
	}
	for _, p := range pts {
		m.Mean[p] /= z
		m.Pair[p][Right] /= z
		m.Pair[p][Down] /= z
	}
	return m, math.Log(z) + mx
}

// maxDiff is the largest absolute difference of any mean or pair expectation.
func maxDiff(a, b *Marginals) (mean, pair float64) {
	for _, p := range board.PointsOf(a.Size) {
		mean = max(mean, math.Abs(a.Mean[p]-b.Mean[p]))
		x, y := p.XY()
		if x < a.Size-1 {
			pair = max(pair, math.Abs(a.Pair[p][Right]-b.Pair[p][Right]))
		}
		if y < a.Size-1 {
			pair = max(pair, math.Abs(a.Pair[p][Down]-b.Pair[p][Down]))
		}
	}
	return mean, pair
}

func mustParse(t testing.TB, s string) *board.Board {
	t.Helper()
	b, err := board.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomField fills f for an empty board of the given size with random fields and couplings of both signs.
func randomField(size int, scale float64, seed uint64) *Field {
	r := rand.New(rand.NewPCG(seed, 1))
	f := &Field{}
	f.reset(size)
	for _, p := range board.PointsOf(size) {
		x, y := p.XY()
		f.H[p] = scale * (2*r.Float64() - 1)
		if x < size-1 {
			f.W[p][Right] = scale * (2*r.Float64() - 1)
		}
		if y < size-1 {
			f.W[p][Down] = scale * (2*r.Float64() - 1)
		}
	}
	f.Const = 0.3
	return f
}

// testFields are the small boards every method is checked on.
func testFields(t testing.TB) map[string]*Field {
	b5, _ := Boltzmann5Table51(80)
	fs := map[string]*Field{}
	for _, size := range []int{2, 3, 4} {
		b, _ := board.New(size)
		f := &Field{}
		b5.Field(b, f)
		fs["empty"+string(rune('0'+size))] = f
		fs["random"+string(rune('0'+size))] = randomField(size, 1, uint64(size))
	}
	// Stern's models on a 4x4 with stones (board.Parse needs square boards).
	b := mustParse(t, `
		.XO.
		XXO.
		.XOO
		X.O.`)
	f := &Field{}
	b5.Field(b, f)
	fs["b5-stones4"] = f
	q12 := make(Boltzmann12Params, Len12)
	ql := make(BoltzmannLibertiesParams, LenLiberties)
	r := rand.New(rand.NewPCG(7, 7))
	for i := range q12 {
		q12[i] = r.Float64() - 0.5
	}
	for i := range ql {
		ql[i] = r.Float64() - 0.5
	}
	f12, fl := &Field{}, &Field{}
	q12.Field(b, f12)
	ql.Field(b, fl)
	fs["b12-stones4"], fs["lib-stones4"] = f12, fl
	return fs
}

func TestExactMatchesBruteForce(t *testing.T) {
	var e Exact
	for name, f := range testFields(t) {
		want, wantZ := brute(f)
		var got Marginals
		logZ := e.Run(f, &got)
		dm, dp := maxDiff(&got, &want)
		if dm > 1e-9 || dp > 1e-9 || math.Abs(logZ-wantZ) > 1e-9 {
			t.Errorf("%s: exact vs brute force: mean %.2g pair %.2g logZ %v vs %v", name, dm, dp, logZ, wantZ)
		}
	}
}

func TestLBPTreeExact(t *testing.T) {
	// A 4x4 whose only non-zero couplings form a spanning comb (a tree): LBP is exact there.
	f := randomField(4, 1, 11)
	for _, p := range board.PointsOf(4) {
		if x, _ := p.XY(); x != 0 {
			f.W[p][Down] = 0
		}
	}
	want, _ := brute(f)
	var got Marginals
	l := NewLBP()
	l.Tol = 1e-10
	if !l.Run(f, &got) {
		t.Fatal("LBP did not converge on a tree")
	}
	dm, _ := maxDiff(&got, &want)
	var dp float64 // only pairs joined by a factor: the others are not beliefs LBP computes
	for _, p := range board.PointsOf(4) {
		for d := range 2 {
			if f.W[p][d] != 0 {
				dp = max(dp, math.Abs(got.Pair[p][d]-want.Pair[p][d]))
			}
		}
	}
	if dm > 1e-5 || dp > 1e-5 {
		t.Errorf("LBP on a tree: mean %.2g pair %.2g, want ≤ 1e-5", dm, dp)
	}
}

func TestLBPNearOnLoops(t *testing.T) {
	l := NewLBP()
	for name, f := range testFields(t) {
		want, _ := brute(f)
		var got Marginals
		conv := l.Run(f, &got)
		dm, dp := maxDiff(&got, &want)
		t.Logf("%s: converged %v in %d sweeps, mean %.3f pair %.3f", name, conv, l.Iters, dm, dp)
		if !conv || dm > 0.15 || dp > 0.15 {
			t.Errorf("%s: LBP mean error %.3f pair %.3f (converged %v), want ≤ 0.15", name, dm, dp, conv)
		}
	}
}
