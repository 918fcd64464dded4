package territory

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"aji/analysis/board"
)

// randomBoard sets stones at random (each point black, white or empty with equal odds): the model does
// not care whether the position is reachable, and such boards exercise every class of edge.
func randomBoard(t testing.TB, size int, r *rand.Rand) *board.Board {
	b, err := board.New(size)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Points() {
		if c := board.Color(r.IntN(3)); c != board.Empty {
			if err := b.Set(p, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b
}

func randomParams(kind string, scale float64, r *rand.Rand) []float64 {
	n, _ := ParamLen(kind)
	q := make([]float64, n)
	for i := range q {
		q[i] = scale * (2*r.Float64() - 1)
	}
	return q
}

// fieldEnergy is Const + Σ H s + Σ W s s of owners s (±1 by board.Point).
func fieldEnergy(f *Field, s *[board.NumCells]int8) float64 {
	e := f.Const
	for _, p := range board.PointsOf(f.Size) {
		e += f.H[p] * float64(s[p])
		x, y := p.XY()
		if x < f.Size-1 {
			e += f.W[p][Right] * float64(s[p]*s[p+1])
		}
		if y < f.Size-1 {
			e += f.W[p][Down] * float64(s[p]*s[p+board.Stride])
		}
	}
	return e
}

// The sufficient statistics reproduce the energy of Model.Field, Const included: θ·φ(s) is the log of
// Stern's product of factors, for every kind, on a real 19x19 position and on random boards.
func TestSufficientStatsMatchField(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	boards := []*board.Board{mustParse(t, pos19), randomBoard(t, 5, r), randomBoard(t, 9, r)}
	for _, kind := range Kinds {
		for bi, b := range boards {
			theta := randomParams(kind, 1, r)
			m, _ := NewModel(kind, theta)
			var f Field
			m.Field(b, &f)
			for range 5 {
				var s [board.NumCells]int8
				for _, p := range b.Points() {
					s[p] = int8(2*r.IntN(2) - 1)
				}
				phi, err := SufficientStats(kind, b, &s)
				if err != nil {
					t.Fatal(err)
				}
				var got float64
				for k := range theta {
					got += theta[k] * phi[k]
				}
				if want := fieldEnergy(&f, &s); math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
					t.Fatalf("%s board %d: θ·φ = %v, Field energy %v", kind, bi, got, want)
				}
			}
		}
	}
}

// The training code builds its fields from the design; they must equal Model.Field's exactly.
func TestDesignFieldMatchesModel(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := mustParse(t, pos19)
	labels := make([]int8, 361)
	ex, err := NewExample(b, 60, labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range Kinds {
		d, _ := newDesign(kind)
		theta := randomParams(kind, 1, r)
		m, _ := NewModel(kind, theta)
		var want Field
		m.Field(b, &want)
		p, err := d.prepareForField(&ex)
		if err != nil {
			t.Fatal(err)
		}
		ising := make([][4]float64, d.k*d.k)
		d.ising(theta, ising)
		w := newWork(d, board.MaxPoints)
		w.load(p, ising)
		w.field(p)
		if math.Abs(w.f.Const-want.Const) > 1e-9 {
			t.Errorf("%s: Const %v, want %v", kind, w.f.Const, want.Const)
		}
		for _, q := range b.Points() {
			if math.Abs(w.f.H[q]-want.H[q]) > 1e-12 || math.Abs(w.f.W[q][0]-want.W[q][0]) > 1e-12 || math.Abs(w.f.W[q][1]-want.W[q][1]) > 1e-12 {
				t.Fatalf("%s: field differs at %s: H %v W %v, want H %v W %v", kind, q.GTP(19), w.f.H[q], w.f.W[q], want.H[q], want.W[q])
			}
		}
	}
}

// bruteLogLik is log p(ŝ_L|c) by enumeration: log Σ over owner vectors agreeing with the non-zero
// labels, minus log Z. labels are in SGF order.
func bruteLogLik(f *Field, labels []int8) float64 {
	pts := board.PointsOf(f.Size)
	N := len(pts)
	var s [board.NumCells]int8
	var all, num []float64
	for mask := range 1 << N {
		ok := true
		for i, p := range pts {
			s[p] = int8(2*((mask>>i)&1) - 1)
			if labels[i] != 0 && labels[i] != s[p] {
				ok = false
			}
		}
		e := fieldEnergy(f, &s)
		all = append(all, e)
		if ok {
			num = append(num, e)
		}
	}
	return logSumExp(num) - logSumExp(all)
}

func logSumExp(v []float64) float64 {
	mx := math.Inf(-1)
	for _, x := range v {
		mx = max(mx, x)
	}
	var z float64
	for _, x := range v {
		z += math.Exp(x - mx)
	}
	return math.Log(z) + mx
}

// gradExamples are two 4x4 positions with neutral points: a two-point component, a single point, and
// one beside the edge.
func gradExamples(t *testing.T) ([]*board.Board, [][]int8) {
	b1 := mustParse(t, `
		.XO.
		XXO.
		.XOO
		X.O.`)
	l1 := []int8{
		1, 1, 0, -1,
		1, 1, -1, -1,
		1, 1, -1, -1,
		1, 0, -1, -1}
	b2 := mustParse(t, `
		X..O
		.X.O
		O.X.
		..OX`)
	l2 := []int8{
		1, 1, 0, -1,
		1, 1, 0, -1,
		-1, 1, 1, 1,
		-1, -1, 1, 1}
	return []*board.Board{b1, b2}, [][]int8{l1, l2}
}

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
	for _, kind := range Kinds {
		tr, err := NewTrainer(kind, data, 1)
		if err != nil {
			t.Fatal(err)
		}
		theta := randomParams(kind, 0.8, r)
		opt := TrainOptions{Inference: InferExact, Alpha: alpha, Workers: 2}
		grad, ll, err := tr.Gradient(context.Background(), theta, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		objective := func(q []float64) float64 {
			m, _ := NewModel(kind, q)
			var sum float64
			for i, b := range boards {
				var f Field
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

// sampleExamples draws owners from the exact p(s|c) of Boltzmann5 θ on random 4x4 boards.
func sampleExamples(t *testing.T, theta Boltzmann5Params, boards, perBoard int, seed uint64) []Example {
	r := rand.New(rand.NewPCG(seed, 9))
	var data []Example
	var s [board.NumCells]int8
	probs := make([]float64, 1<<16)
	for range boards {
		b := randomBoard(t, 4, r)
		var f Field
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
	truth := Boltzmann5Params{1.8, 0.5, 0.4, 0.45, 0.27}
	data := sampleExamples(t, truth, 400, 2, 11)
	train := func(opt TrainOptions) []float64 {
		tr, err := NewTrainer(KindBoltzmann5, data, 3)
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
	mle := train(TrainOptions{Inference: InferExact, Iterations: 500})
	t.Logf("map-exact: learned %.3f, truth %.3f", mle, []float64(truth))
	for k := range mle {
		if math.Abs(mle[k]-truth[k]) > 0.2 {
			t.Errorf("map-exact: parameter %d = %.3f, truth %.3f (tolerance 0.2)", k, mle[k], truth[k])
		}
	}
	for _, c := range []struct {
		name string
		opt  TrainOptions
		want []float64
		tol  float64
	}{
		// CD minimises another objective: on a finite sample its fixed point is not the MLE, so it is held
		// to the truth.
		{"map-sw", TrainOptions{Inference: InferSW, Iterations: 400}, mle, 0.06},
		{"cd", TrainOptions{Method: MethodCD, Iterations: 400}, truth, 0.2},
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

// The neutral spins that start a contrastive-divergence step are drawn from their conditional
// distribution given the labelled ones: the draws' mean matches the enumerated conditional mean.
func TestDameDrawsMatchConditional(t *testing.T) {
	boards, labels := gradExamples(t)
	ex, err := NewExample(boards[1], 50, labels[1])
	if err != nil {
		t.Fatal(err)
	}
	d, _ := newDesign(KindBoltzmann5)
	p, err := d.prepare(&ex, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.dames) != 1 || len(p.dames[0].pts) != 2 {
		t.Fatalf("want one neutral component of 2 points, got %d components", len(p.dames))
	}
	theta, _ := Boltzmann5Table51(80)
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

// Evaluate's cross-entropy and agreement with exact marginals equal a direct computation from brute-force
// marginals, neutral points skipped.
func TestEvaluateMatchesBruteForce(t *testing.T) {
	boards, labels := gradExamples(t)
	theta, _ := Boltzmann5Table51(150)
	var data []Example
	var ce, agree float64
	var points int
	for i, b := range boards {
		ex, _ := NewExample(b, 150, labels[i])
		data = append(data, ex)
		var f Field
		theta.Field(b, &f)
		m, _ := brute(&f)
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
	s, err := Evaluate(context.Background(), KindBoltzmann5, theta, data, InferExact, SampleOptions{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s.Points != points || s.Positions != 2 || math.Abs(s.CrossEntropy-ce/float64(points)) > 1e-9 || math.Abs(s.Agreement-agree/float64(points)) > 1e-12 {
		t.Errorf("Evaluate = %+v, want %d points, cross-entropy %.6f, agreement %.4f", s, points, ce/float64(points), agree/float64(points))
	}
}

// BenchmarkTrainStep is one MAP step with persistent Swendsen-Wang expectations over 20 copies of pos19
// (labels: the sign of its exact marginals, a few points neutral).
func BenchmarkTrainStep(b *testing.B) {
	for _, c := range []struct {
		name string
		opt  TrainOptions
	}{{"map-sw", TrainOptions{Inference: InferSW, Sweeps: 2}}, {"cd", TrainOptions{Method: MethodCD}}} {
		b.Run(c.name, func(b *testing.B) {
			bd := mustParse(b, pos19)
			f := field19(b)
			var e Exact
			var m Marginals
			e.Run(f, &m)
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
			tr, err := NewTrainer(KindBoltzmann5, data, 1)
			if err != nil {
				b.Fatal(err)
			}
			theta, _ := Boltzmann5Table51(80)
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

// The persistent chain of MAP training (Swendsen-Wang sweeps plus stone-chain block flips) samples p(s|c):
// its Rao-Blackwellised averages approach the brute-force marginals, on a position with strong fields
// where the block flips matter.
func TestPersistentChainMatchesBruteForce(t *testing.T) {
	boards, labels := gradExamples(t)
	ex, err := NewExample(boards[0], 50, labels[0])
	if err != nil {
		t.Fatal(err)
	}
	theta := Boltzmann5Params{3, 1.2, 0.5, 0.45, 0.8}
	var f Field
	theta.Field(boards[0], &f)
	want, _ := brute(&f)
	d, _ := newDesign(KindBoltzmann5)
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
	const sweeps = 100000
	for range sweeps {
		w.sw.step(p, w.h, w.w, s, p.rng, true)
		w.sw.addRB(p, mean, pair, 1.0/sweeps)
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

// An embedded vector gives the richer model the same field, Const aside (Boltzmann5 has none; the tables
// carry it), so the same p(s|c) on a real position.
func TestEmbedKeepsTheField(t *testing.T) {
	b := mustParse(t, pos19)
	r := rand.New(rand.NewPCG(8, 8))
	for _, c := range [][2]string{{KindBoltzmann5, KindBoltzmann12}, {KindBoltzmann5, KindLiberties}, {KindBoltzmann12, KindLiberties}, {KindLiberties, KindLiberties}} {
		theta := randomParams(c[0], 1, r)
		got, err := Embed(c[0], theta, c[1])
		if err != nil {
			t.Fatal(err)
		}
		m0, _ := NewModel(c[0], theta)
		m1, _ := NewModel(c[1], got)
		var f0, f1 Field
		m0.Field(b, &f0)
		m1.Field(b, &f1)
		for _, p := range b.Points() {
			if math.Abs(f0.H[p]-f1.H[p]) > 1e-12 || math.Abs(f0.W[p][0]-f1.W[p][0]) > 1e-12 || math.Abs(f0.W[p][1]-f1.W[p][1]) > 1e-12 {
				t.Fatalf("%s → %s: field differs at %s", c[0], c[1], p.GTP(19))
			}
		}
	}
	if _, err := Embed(KindLiberties, make([]float64, LenLiberties), KindBoltzmann5); err == nil {
		t.Error("embedding boltzmann-lib into boltzmann5 should fail")
	}
}

// The trained defaults (models/defaults, see models/README.md) are embedded for every kind, with a vector
// for each of the moves the validation figures are taken at.
func TestDefaultModelsEmbedded(t *testing.T) {
	for _, kind := range Kinds {
		tr, err := DefaultTrained(kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []int{20, 80, 150} {
			if !slices.Contains(tr.Moves, m) {
				t.Errorf("default %s has moves %v, lacks %d", kind, tr.Moves, m)
			}
		}
	}
}
