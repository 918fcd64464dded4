package territory

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
)

// stones4 is a 4x4 position with single stones only, so that plain Gibbs sampling mixes too.
const stones4 = `
	....
	.X.O
	..X.
	.O..`

// estimateOf runs a fresh estimator on pos.
func estimateOf(t *testing.T, model Kind, method Method, pos *game.Position, tune func(*Estimator)) Marginals {
	t.Helper()
	e, err := NewEstimator(model, method)
	if err != nil {
		t.Fatal(err)
	}
	if tune != nil {
		tune(e)
	}
	var m Marginals
	if err := e.Estimate(context.Background(), pos, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Every method against brute-force enumeration of the default Boltzmann5 model at move 70.
func TestEstimatorMethods(t *testing.T) {
	pos := mustPosition(t, stones4, board.Black)
	pos.MoveNumber = 70
	q := defaultBoltzmann5(t, pos.MoveNumber)
	var f Field
	q.Field(&pos.Board, &f)
	want, _ := brute(&f)
	long := func(e *Estimator) { e.Sweeps = 40000 }
	for _, c := range []struct {
		method   Method
		tune     func(*Estimator)
		mean, pr float64 // tolerances of the point and pair expectations
	}{
		{MethodExact, nil, 1e-9, 1e-9},
		{MethodLBP, nil, 0.15, 0.15},
		{MethodGibbs, long, 0.04, 0.04},
		{MethodSW, long, 0.04, 0.04},
	} {
		got := estimateOf(t, KindBoltzmann5, c.method, pos, c.tune)
		dm, dp := maxDiff(&got, &want)
		t.Logf("%s: max error mean %.3g pair %.3g", c.method, dm, dp)
		if dm > c.mean || dp > c.pr {
			t.Errorf("%s: max error mean %.3g pair %.3g, want ≤ %v, %v", c.method, dm, dp, c.mean, c.pr)
		}
	}
	// Another phase gives other marginals: move 10 uses the move-20 parameters.
	pos.MoveNumber = 10
	early := estimateOf(t, KindBoltzmann5, MethodExact, pos, nil)
	if dm, _ := maxDiff(&early, &want); dm < 1e-3 {
		t.Error("move 10 used the move-80 parameters")
	}
}

// An explicit trained model replaces the default.
func TestTrainedEstimator(t *testing.T) {
	pos := mustPosition(t, stones4, board.White)
	q := Boltzmann5Params{1, 0.5, 0.4, 0.3, 0.2}
	e, err := NewTrainedEstimator(&Trained{Kind: KindBoltzmann5, Moves: []int{50}, Params: [][]float64{q}}, MethodExact)
	if err != nil {
		t.Fatal(err)
	}
	var got Marginals
	if err := e.Estimate(context.Background(), pos, &got); err != nil {
		t.Fatal(err)
	}
	var f Field
	q.Field(&pos.Board, &f)
	var want Marginals
	var ex Exact
	ex.Run(&f, &want)
	if dm, _ := maxDiff(&got, &want); dm > 1e-12 {
		t.Errorf("trained model: error %v", dm)
	}
	if _, err := NewTrainedEstimator(&Trained{Kind: KindBoltzmann5}, MethodExact); err == nil {
		t.Error("a model without phases was accepted")
	}
}

func TestNewEstimatorErrors(t *testing.T) {
	for _, c := range []struct {
		kind   Kind
		method Method
	}{{0, MethodExact}, {KindBoltzmann5, 9}, {KindBoltzmann5, 0}} {
		if _, err := NewEstimator(c.kind, c.method); err == nil {
			t.Errorf("NewEstimator(%v, %v) accepted", c.kind, c.method)
		}
	}
	if e, err := NewEstimator(KindMC, MethodSW); err != nil || e.Method != 0 {
		t.Errorf("mc with a method: %v, method %v", err, e.Method)
	}
}

// Names read back as the enums, and an unknown name lists the valid ones.
func TestParseNames(t *testing.T) {
	for _, m := range Methods {
		if got, err := ParseMethod(m.String()); err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v", m, got, err)
		}
	}
	for _, k := range EstimatorKinds {
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if want := []string{"boltzmann5", "boltzmann12", "boltzmann-lib", "mc", "boltzmann5+mc"}; !slices.Equal(Names(EstimatorKinds), want) {
		t.Errorf("kind names %v, want %v", Names(EstimatorKinds), want)
	}
	if want := []string{"exact", "lbp", "gibbs", "sw"}; !slices.Equal(Names(Methods), want) {
		t.Errorf("method names %v, want %v", Names(Methods), want)
	}
	if _, err := ParseMethod("bp"); err == nil || !strings.Contains(err.Error(), "exact, lbp, gibbs, sw") {
		t.Errorf("ParseMethod(bp): %v", err)
	}
	if _, err := ParseKind("ising"); err == nil || !strings.Contains(err.Error(), "boltzmann5, boltzmann12, boltzmann-lib, mc, boltzmann5+mc") {
		t.Errorf("ParseKind(ising): %v", err)
	}
	if Method(0).String() != "Method(0)" || Kind(7).String() != "Kind(7)" {
		t.Error("out-of-range values should print as their number")
	}
}

// bruteScore enumerates the distribution of Σ s_i of a Field: p(Σ s − komi > 0), a tie counting half,
// and E[Σ s].
func bruteScore(f *Field, komi float64) (pWin, mean float64) {
	pts := board.PointsOf(f.Size)
	var z float64
	energies := make([]float64, 1<<len(pts))
	mx := math.Inf(-1)
	for mask := range energies {
		e := 0.0
		for i, p := range pts {
			si := float64(2*(mask>>i&1) - 1)
			e += f.H[p] * si
			x, y := p.XY()
			if x < f.Size-1 {
				e += f.W[p][Right] * si * float64(2*(mask>>(i+1)&1)-1)
			}
			if y < f.Size-1 {
				e += f.W[p][Down] * si * float64(2*(mask>>(i+f.Size)&1)-1)
			}
		}
		energies[mask] = e
		mx = max(mx, e)
	}
	for mask, e := range energies {
		w := math.Exp(e - mx)
		z += w
		sum := 0.0
		for i := range pts {
			sum += float64(2*(mask>>i&1) - 1)
		}
		mean += w * sum
		switch d := sum - komi; {
		case d > 0:
			pWin += w
		case d == 0:
			pWin += w / 2
		}
	}
	return pWin / z, mean / z
}

// Score against enumeration on a 4x4 with two chains, for each method (the win probability always comes
// from Swendsen-Wang states) and komi that does and does not allow ties.
func TestScoreAgainstBruteForce(t *testing.T) {
	pos := mustPosition(t, `
		.XO.
		XXO.
		.XOO
		X.O.`, board.Black)
	pos.MoveNumber = 79
	q, _ := Boltzmann5Table51(80)
	var f Field
	q.Field(&pos.Board, &f)
	for _, komi := range []float64{0, 2, 3.5} {
		pos.Komi = komi
		pWin, mean := bruteScore(&f, komi)
		for _, method := range []Method{MethodExact, MethodSW} {
			e, _ := NewEstimator(KindBoltzmann5, method)
			got, err := e.Score(context.Background(), pos, 40000)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("komi %v %s: P(B wins) %.4f (exact %.4f), mean %.3f (exact %.3f), sd %.2f", komi, method,
				got.PBlackWins, pWin, got.Mean, mean-komi, got.StdDev)
			if math.Abs(got.PBlackWins-pWin) > 0.02 || math.Abs(got.Mean-(mean-komi)) > 0.2 || got.Samples < 40000 {
				t.Errorf("komi %v %s: P(B wins) %.4f mean %.3f from %d samples, want %.4f and %.3f", komi, method,
					got.PBlackWins, got.Mean, got.Samples, pWin, mean-komi)
			}
		}
	}
}

func TestScoreMC(t *testing.T) {
	pos := mustPosition(t, allBlack5, board.White)
	pos.Komi = 7.5
	e, _ := NewEstimator(KindMC, 0)
	got, err := e.Score(context.Background(), pos, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mean != 25-7.5 || got.PBlackWins != 1 || got.StdDev != 0 || got.Samples != 50 {
		t.Errorf("score of a board all Black's: %+v", got)
	}
	if e.MC.Playouts != 0 {
		t.Errorf("Score changed the estimator's playouts to %d", e.MC.Playouts)
	}
}

func TestChainSafety(t *testing.T) {
	b := mustParse(t, `
		XX.
		.O.
		.OO`)
	var m Marginals
	m.Size = 3
	m.Mean[board.At(0, 0)], m.Mean[board.At(1, 0)] = 0.5, 0.7  // black chain: p = 0.75, 0.85
	m.Mean[board.At(1, 1)], m.Mean[board.At(1, 2)] = -0.2, 0.2 // white chain: p = 0.6, 0.4, 0.2
	m.Mean[board.At(2, 2)] = 0.6
	if p, ok := ChainSafety(b, &m, board.At(1, 0)); !ok || math.Abs(p-0.8) > 1e-12 {
		t.Errorf("black chain: %v %v, want 0.8", p, ok)
	}
	if p, ok := ChainSafety(b, &m, board.At(2, 2)); !ok || math.Abs(p-0.4) > 1e-12 {
		t.Errorf("white chain: %v %v, want 0.4", p, ok)
	}
	if _, ok := ChainSafety(b, &m, board.At(2, 0)); ok {
		t.Error("an empty point has a safety")
	}
}

// boltzmann5+mc adds β·atanh of the rollout ownership to the field of α times Boltzmann5.
func TestBoltzmann5MCField(t *testing.T) {
	pos := mustPosition(t, contested7, board.Black)
	pos.MoveNumber = 150
	e, err := NewEstimator(KindBoltzmann5MC, MethodExact)
	if err != nil {
		t.Fatal(err)
	}
	e.MC.Playouts, e.MCWeight, e.ModelWeight = 30, 0.7, 0.5
	var got Marginals
	if err := e.Estimate(context.Background(), pos, &got); err != nil {
		t.Fatal(err)
	}
	mc := MC{Playouts: 30, Seed: e.MC.Seed, Policy: e.MC.Policy}
	var own Marginals
	mc.Run(context.Background(), pos, &own)
	q := defaultBoltzmann5(t, pos.MoveNumber)
	var f Field
	q.Field(&pos.Board, &f)
	for _, p := range pos.Board.Points() {
		f.H[p] = 0.5*f.H[p] + 0.7*math.Atanh(own.Mean[p])
		f.W[p][0] *= 0.5
		f.W[p][1] *= 0.5
	}
	var want Marginals
	var ex Exact
	ex.Run(&f, &want)
	if dm, dp := maxDiff(&got, &want); dm > 1e-12 || dp > 1e-12 {
		t.Errorf("boltzmann5+mc differs from its definition by %v, %v", dm, dp)
	}
}

// Field and Sample give the field Estimate infers on, pooled evidence included (the app's "show a
// sample" draws from them), and Sample is a Swendsen-Wang state of that field.
func TestEstimatorFieldAndSample(t *testing.T) {
	pos := &game.Position{Board: *mustParse(t, pos19), ToPlay: board.Black, MoveNumber: 79}
	ctx := context.Background()
	for _, model := range []Kind{KindBoltzmann5, KindBoltzmann5MC} {
		for _, method := range []Method{MethodLBP, MethodSW} {
			used, err := NewEstimator(model, method)
			if err != nil {
				t.Fatal(err)
			}
			used.MC.Playouts, used.Sweeps = 64, 50
			var m Marginals
			if err := used.Estimate(ctx, pos, &m); err != nil {
				t.Fatal(err)
			}
			e, _ := NewEstimator(model, method)
			e.MC.Playouts = 64
			var f Field
			if err := e.Field(ctx, pos, &f); err != nil {
				t.Fatal(err)
			}
			if f != used.f {
				t.Errorf("%s/%s: Field differs from the field Estimate used", model, method)
			}
			var plain Field
			defaultBoltzmann5(t, pos.MoveNumber).Field(&pos.Board, &plain)
			alpha := 1.0
			if model == KindBoltzmann5MC {
				alpha = e.ModelWeight
			}
			for _, p := range pos.Board.Points() {
				if f.W[p] != [2]float64{alpha * plain.W[p][Right], alpha * plain.W[p][Down]} {
					t.Fatalf("%s: couplings %v at %v, want %v·%v", model, f.W[p], p, alpha, plain.W[p])
				}
			}
			var got, want Sample
			if err := e.Sample(ctx, pos, 20, 9, &got); err != nil {
				t.Fatal(err)
			}
			var sw SW
			sw.Sample(&used.f, 20, 9, &want)
			if got != want {
				t.Errorf("%s/%s: Sample is not the Swendsen-Wang state of the estimate's field", model, method)
			}
		}
	}
	e, _ := NewEstimator(KindMC, 0)
	if err := e.Field(ctx, pos, &Field{}); err == nil {
		t.Error("mc gave a field")
	}
	if err := e.Sample(ctx, pos, 1, 1, &Sample{}); err == nil {
		t.Error("mc gave a sample")
	}
}

// A cancelled context stops every long method promptly.
func TestEstimateCancel(t *testing.T) {
	pos := &game.Position{Board: *mustParse(t, pos19), ToPlay: board.Black, MoveNumber: 60}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, model := range []Kind{KindBoltzmann5, KindMC} {
		for _, method := range []Method{MethodExact, MethodGibbs, MethodSW} {
			e, _ := NewEstimator(model, method)
			e.Sweeps = 1 << 30
			e.MC.Playouts = 1 << 20
			start := time.Now()
			var m Marginals
			if err := e.Estimate(ctx, pos, &m); !errors.Is(err, context.Canceled) {
				t.Errorf("%s/%s: cancelled estimate returned %v", model, method, err)
			}
			if _, err := e.Score(ctx, pos, 1<<20); !errors.Is(err, context.Canceled) {
				t.Errorf("%s/%s: cancelled score returned %v", model, method, err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("%s/%s: cancelled after %v", model, method, d)
			}
		}
	}
}

// Parallel chains give the same result whatever the scheduling.
func TestSWChainsDeterministic(t *testing.T) {
	pos := mustPosition(t, contested7, board.Black)
	tune := func(e *Estimator) { e.Chains, e.Sweeps = 3, 600 }
	a := estimateOf(t, KindBoltzmann5, MethodSW, pos, tune)
	b := estimateOf(t, KindBoltzmann5, MethodSW, pos, tune)
	if a != b {
		t.Error("two runs with 3 chains differ")
	}
}

func TestEstimateNoAllocPerPosition(t *testing.T) {
	pos := mustPosition(t, contested7, board.Black)
	for _, model := range []Kind{KindBoltzmann5, KindMC, KindBoltzmann5MC} {
		for _, method := range Methods {
			e, _ := NewEstimator(model, method)
			e.Sweeps, e.MC.Playouts = 50, 10
			var m Marginals
			ctx := context.Background()
			e.Estimate(ctx, pos, &m)
			if a := testing.AllocsPerRun(3, func() { e.Estimate(ctx, pos, &m) }); a != 0 {
				t.Errorf("%s/%s: %v allocations per estimate", model, method, a)
			}
		}
	}
}

// defaultBoltzmann5 is the model the estimator uses for boltzmann5 at a move number.
func defaultBoltzmann5(t *testing.T, move int) Model {
	t.Helper()
	tr, err := DefaultTrained(KindBoltzmann5)
	if err != nil {
		t.Fatal(err)
	}
	return tr.At(move)
}
