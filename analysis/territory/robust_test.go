package territory

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

// pos9 is a 9x9 middle-game position (hand-made) with chains of both colours, a contact fight and
// empty areas.
const pos9 = `
.........
..XX.O...
..XO.O...
.XOO..X..
..X.O....
...XO.XX.
..X.OO...
..XXO.O..
.........`

// hugeModels are parameter vectors a badly trained model might hold: couplings and fields of ±50
// (exp(±50) is far past where tanh and the messages' probabilities round to ±1) of both signs, so that
// ferromagnetic and antiferromagnetic pairs and fields against them all occur.
func hugeModels() map[string]Model {
	r := rand.New(rand.NewPCG(5, 50))
	q12 := make(Boltzmann12Params, Len12)
	ql := make(BoltzmannLibertiesParams, LenLiberties)
	for i := range q12 {
		q12[i] = 100*r.Float64() - 50
	}
	for i := range ql {
		ql[i] = 100*r.Float64() - 50
	}
	return map[string]Model{
		"b5+50":         Boltzmann5Params{50, 50, 50, 50, 50},
		"b5-mixed":      Boltzmann5Params{50, -50, 50, -50, 50},
		"b5-frustrated": Boltzmann5Params{-50, 50, -50, 50, -50},
		"b12-random50":  q12,
		"lib-random50":  ql,
	}
}

// checkFinite fails unless every mean and pair expectation of m on the board is finite and in [−1, 1].
func checkFinite(t *testing.T, what string, m *Marginals) {
	t.Helper()
	bad := 0
	for _, p := range board.PointsOf(m.Size) {
		for _, v := range [3]float64{m.Mean[p], m.Pair[p][Right], m.Pair[p][Down]} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < -1 || v > 1 {
				if bad == 0 {
					t.Errorf("%s: at %v mean %v pairs %v, want finite values in [-1, 1]", what, p, m.Mean[p], m.Pair[p])
				}
				bad++
			}
		}
	}
	if bad > 1 {
		t.Errorf("%s: %d bad values in all", what, bad)
	}
}

// Huge parameters must give finite marginals in [−1, 1] from every method, not NaN or ±Inf: loopy BP's
// messages saturate tanh at ±1 (atanh(±1) = ±Inf, then Inf − Inf), and a pair expectation of three
// saturated tanh can be 0/0.
func TestHugeParametersFinite(t *testing.T) {
	positions := map[string]string{"9x9": pos9, "19x19": pos19}
	opt := SampleOptions{Burnin: 10, Sweeps: 50, Seed: 1, RaoBlack: true}
	var e Exact
	l := NewLBP()
	var gs Gibbs
	var sw SW
	for pname, text := range positions {
		b := mustParse(t, text)
		for mname, q := range hugeModels() {
			var f Field
			q.Field(b, &f)
			what := pname + " " + mname
			var m Marginals
			l.Run(&f, &m)
			checkFinite(t, what+" lbp", &m)
			for _, rb := range []bool{true, false} {
				opt.RaoBlack = rb
				gs.Run(&f, &m, opt)
				checkFinite(t, what+" gibbs", &m)
				sw.Run(&f, &m, opt)
				checkFinite(t, what+" sw", &m)
			}
			// Exact 19x19 takes ~1 s a field in float and ~12 s where it falls back to logs (the b5
			// models here; the 9x9 ones take that path too): one field that stays in float, and none
			// under -short or -race.
			if b.Size() == 19 && (testing.Short() || raceEnabled || mname != "b12-random50") {
				continue
			}
			logZ := e.Run(&f, &m)
			checkFinite(t, what+" exact", &m)
			if math.IsNaN(logZ) || math.IsInf(logZ, 0) {
				t.Errorf("%s exact: log Z = %v", what, logZ)
			}
		}
	}
}

// With huge parameters loopy BP on a tree is still exact: the messages in log space lose nothing when
// tanh rounds to ±1. A 4x4 comb (a spanning tree) with fields and couplings up to ±50 and ±20, against
// enumeration.
func TestLBPTreeExactHuge(t *testing.T) {
	for seed := range uint64(6) {
		f := randomField(4, 50, 100+seed)
		for _, p := range board.PointsOf(4) {
			if x, _ := p.XY(); x != 0 {
				f.W[p][Down] = 0
			}
			// Fields of a size that can balance the couplings, so that some marginals are not ±1.
			f.H[p] *= 0.4
		}
		want, _ := brute(f)
		var got Marginals
		l := NewLBP()
		l.Tol = 1e-12
		conv := l.Run(f, &got)
		checkFinite(t, "lbp tree", &got)
		dm, _ := maxDiff(&got, &want)
		var dp float64
		for _, p := range board.PointsOf(4) {
			for d := range 2 {
				if f.W[p][d] != 0 {
					dp = max(dp, math.Abs(got.Pair[p][d]-want.Pair[p][d]))
				}
			}
		}
		if !conv || dm > 1e-6 || dp > 1e-6 {
			t.Errorf("seed %d: LBP on a tree (converged %v): mean %.2g pair %.2g, want ≤ 1e-6", seed, conv, dm, dp)
		}
	}
}

// Exact inference with huge parameters against enumeration on 4x4 boards.
func TestExactMatchesBruteForceHuge(t *testing.T) {
	var e Exact
	for seed := range uint64(4) {
		f := randomField(4, 50, 200+seed)
		want, wantZ := brute(f)
		var got Marginals
		logZ := e.Run(f, &got)
		dm, dp := maxDiff(&got, &want)
		if dm > 1e-9 || dp > 1e-9 || math.Abs(logZ-wantZ) > 1e-9*math.Abs(wantZ) {
			t.Errorf("seed %d: exact vs brute force: mean %.2g pair %.2g logZ %v vs %v", seed, dm, dp, logZ, wantZ)
		}
	}
}

// pairMean must agree with enumeration of the four joint states wherever it is evaluated, saturated or
// not.
func TestPairMeanStable(t *testing.T) {
	vals := []float64{-800, -60, -20, -9.5, -3, -0.2, 0, 0.7, 5, 9, 19, 40, 700}
	for _, a := range vals {
		for _, b := range vals {
			for _, w := range vals {
				var num, den float64
				ls := [4]float64{a + b + w, -a - b + w, a - b - w, -a + b - w}
				mx := max(ls[0], ls[1], ls[2], ls[3])
				for k, l := range ls {
					x := math.Exp(l - mx)
					den += x
					if k < 2 {
						num += x
					} else {
						num -= x
					}
				}
				want := num / den
				got := pairMean(a, b, w)
				if math.IsNaN(got) || math.Abs(got-want) > 1e-9 {
					t.Errorf("pairMean(%v, %v, %v) = %v, want %v", a, b, w, got, want)
				}
			}
		}
	}
}

// The log-space pass of Exact, which takes over when the float pass underflows, must give what the float
// pass and enumeration give wherever they are trustworthy.
func TestExactLogPass(t *testing.T) {
	var e Exact
	for name, f := range testFields(t) {
		want, wantZ := brute(f)
		var got Marginals
		e.Run(f, &got) // loads the field and sizes the buffers
		logZ, err := e.runLog(context.Background(), f, &got)
		if err != nil {
			t.Fatal(err)
		}
		dm, dp := maxDiff(&got, &want)
		if dm > 1e-9 || dp > 1e-9 || math.Abs(logZ-wantZ) > 1e-9 {
			t.Errorf("%s: log pass vs brute force: mean %.2g pair %.2g logZ %v vs %v", name, dm, dp, logZ, wantZ)
		}
	}
	f := randomField(9, 1, 3)
	var want, got Marginals
	wantZ := e.Run(f, &want)
	if e.under {
		t.Fatal("the float pass underflowed on a 9x9 field of scale 1")
	}
	logZ, _ := e.runLog(context.Background(), f, &got)
	if dm, dp := maxDiff(&got, &want); dm > 1e-9 || dp > 1e-9 || math.Abs(logZ-wantZ) > 1e-9*math.Abs(wantZ) {
		t.Errorf("9x9: log pass vs float pass: mean %.2g pair %.2g logZ %v vs %v", dm, dp, logZ, wantZ)
	}
	// The frustrated 9x9 of TestHugeParametersFinite does underflow, and its answer is the log pass's.
	var hf Field
	Boltzmann5Params{-50, 50, -50, 50, -50}.Field(mustParse(t, pos9), &hf)
	e.Run(&hf, &got)
	if !e.under {
		t.Error("the float pass did not notice the underflow of a frustrated 9x9 with |w| = 50")
	}
}
