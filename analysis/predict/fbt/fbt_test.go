package fbt

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
	"aji/assets"
	"aji/models"
	"aji/models/modeltest"
)

// smallModel is an F_small model with random parameters.
func smallModel(t testing.TB, k int, seed uint64) *Model {
	t.Helper()
	shapes, err := pattern.NewDictionary(nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(shapes, k)
	if err != nil {
		t.Fatal(err)
	}
	m.InitV(seed, 0.3)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range m.W {
		m.W[i] = float32(rng.NormFloat64())
	}
	return m
}

// TestStrengthIsTheDoubleSum: the factorization machine identity gives eq. 3.1's explicit sum.
func TestStrengthIsTheDoubleSum(t *testing.T) {
	m := smallModel(t, 5, 1)
	rng := rand.New(rand.NewPCG(2, 2))
	sum := make([]float64, MaxK)
	for range 100 {
		team := make([]int32, 1+rng.IntN(12))
		for i := range team {
			team[i] = int32(rng.IntN(len(m.W)))
		}
		team = dedupe(team)
		want := 0.0
		for a, f := range team {
			want += float64(m.W[f])
			for _, g := range team[a+1:] {
				want += m.Interaction(f, g)
			}
		}
		if got := m.Strength(team, sum); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("team %v: Strength %v, double sum %v", team, got, want)
		}
	}
}

func dedupe(team []int32) []int32 {
	seen := map[int32]bool{}
	out := team[:0]
	for _, f := range team {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// synthetic makes n competitions of up to teams groups of 1–4 of nf features each, the winner drawn
// from the planted model's P (eq. 3.2).
func synthetic(t testing.TB, planted *Model, nf, n, teams int, seed uint64) *bt.Competitions {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	c := bt.NewCompetitions(len(planted.W))
	sum := make([]float64, MaxK)
	for range n {
		groups := make([][]int32, 2+rng.IntN(teams-1))
		p := make([]float64, len(groups))
		z := 0.0
		for i := range groups {
			g := make([]int32, 1+rng.IntN(4))
			for j := range g {
				g[j] = int32(rng.IntN(nf))
			}
			groups[i] = dedupe(g)
			p[i] = math.Exp(planted.Strength(groups[i], sum))
			z += p[i]
		}
		u, win := rng.Float64()*z, len(groups)-1
		for i := range p {
			if u -= p[i]; u < 0 {
				win = i
				break
			}
		}
		c.Begin()
		for i, g := range groups {
			if err := c.AddTeam(g, i == win); err != nil {
				t.Fatal(err)
			}
		}
		c.End()
	}
	return c
}

// loss is l_j (eq. 3.4) of competition j of c under m, computed directly.
func loss(m *Model, c *bt.Competitions, j int) float64 {
	lo, hi, win := c.Competition(j)
	sum := make([]float64, MaxK)
	z := 0.0
	for t := lo; t < hi; t++ {
		team, w := c.Team(t)
		z += float64(w) * math.Exp(m.Strength(team, sum))
	}
	team, _ := c.Team(win)
	return -m.Strength(team, sum) + math.Log(z)
}

// TestGradientIsTheDerivative: eqs. 3.8–3.9 as computed give the finite-difference gradient of l_j.
func TestGradientIsTheDerivative(t *testing.T) {
	m := smallModel(t, 4, 3)
	c := synthetic(t, m, 40, 20, 8, 4)
	s := newStepper(m, TrainOptions{})
	const h = 1e-3 // float32 parameters: a larger step than float64 would take
	for j := range c.Len() {
		s.gradient(c, j)
		for _, f := range s.touched {
			check := func(name string, p *float32, got float64) {
				old := *p
				*p = old + h
				up := loss(m, c, j)
				*p = old - h
				down := loss(m, c, j)
				*p = old
				want := (up - down) / (2 * h)
				if math.Abs(got-want) > 2e-3*(1+math.Abs(want)) {
					t.Errorf("competition %d, %s of feature %d: gradient %.6f, finite difference %.6f", j, name, f, got, want)
				}
			}
			check("w", &m.W[f], s.gw[f])
			for q := range m.K {
				check("v", &m.V[int(f)*m.K+q], s.gv[int(f)*m.K+q])
			}
		}
		clear(s.gw)
		clear(s.gv)
	}
}

// TestSampledGradientIsUnbiased: FBT_Sm's gradient (eq. 3.13) averages to the full gradient (Lemma 1).
func TestSampledGradientIsUnbiased(t *testing.T) {
	m := smallModel(t, 3, 5)
	c := synthetic(t, m, 30, 1, 12, 6)
	full := newStepper(m, TrainOptions{})
	full.gradient(c, 0)
	sampled := newStepper(m, TrainOptions{Samples: 5})
	sampled.rng = rand.New(rand.NewPCG(7, 7))
	const draws = 40000
	gw, gv := make([]float64, len(m.W)), make([]float64, len(m.V))
	for range draws {
		sampled.gradient(c, 0)
		for _, f := range sampled.touched {
			gw[f] += sampled.gw[f] / draws
			sampled.gw[f] = 0
			for q := range m.K {
				i := int(f)*m.K + q
				gv[i] += sampled.gv[i] / draws
				sampled.gv[i] = 0
			}
		}
	}
	for f := range m.W {
		if math.Abs(gw[f]-full.gw[f]) > 0.01 {
			t.Errorf("w of feature %d: sampled mean %.4f, full %.4f", f, gw[f], full.gw[f])
		}
	}
	for i := range m.V {
		if math.Abs(gv[i]-full.gv[i]) > 0.02 {
			t.Errorf("v %d: sampled mean %.4f, full %.4f", i, gv[i], full.gv[i])
		}
	}
}

// TestTrainingRecoversAPlantedModel: SGD on competitions drawn from a planted model finds its w and its
// interactions ⟨v_f, v_g⟩ (v itself only up to a rotation), with the full and the sampled gradient.
func TestTrainingRecoversAPlantedModel(t *testing.T) {
	const nf = 8
	planted := smallModel(t, 2, 8)
	rng := rand.New(rand.NewPCG(9, 9))
	for f := range nf {
		planted.W[f] = float32(rng.NormFloat64())
		for q := range 2 {
			planted.V[f*2+q] = float32(rng.NormFloat64() * 0.7)
		}
	}
	train := synthetic(t, planted, nf, 60000, 6, 10)
	valid := synthetic(t, planted, nf, 2000, 6, 11)
	for _, samples := range []int{0, 10} {
		m := smallModel(t, 2, 12)
		clear(m.W)
		m.InitV(13, 0.1)
		err := Train(context.Background(), []*bt.Competitions{train}, []*bt.Competitions{valid}, m,
			TrainOptions{Alpha: 0.005, LambdaW: 1e-6, LambdaV: 1e-6, Samples: samples, Seed: 14, MaxPasses: 30, Patience: 5,
				Pass: func(r PassResult, _ *Model) {
					t.Logf("samples %d pass %d: loss %.4f top-1 %.4f", samples, r.N, r.Loss, r.Top1)
				}})
		if err != nil {
			t.Fatal(err)
		}
		for f := range nf {
			if d := math.Abs(float64(m.W[f] - planted.W[f])); d > 0.25 {
				t.Errorf("samples %d: w of feature %d is %.3f, planted %.3f", samples, f, m.W[f], planted.W[f])
			}
			for g := f + 1; g < nf; g++ {
				got, want := m.Interaction(int32(f), int32(g)), planted.Interaction(int32(f), int32(g))
				if math.Abs(got-want) > 0.3 {
					t.Errorf("samples %d: ⟨v_%d, v_%d⟩ = %.3f, planted %.3f", samples, f, g, got, want)
				}
			}
		}
		if want := Evaluate([]*bt.Competitions{valid}, planted, 0); m.Top1 < want.Top1-0.02 {
			t.Errorf("samples %d: validation top-1 %.3f, the planted model's %.3f", samples, m.Top1, want.Top1)
		}
	}
}

// position9 is a 9x9 position with stones of both colours, for the predictor's tests.
func position9(t testing.TB) *game.Position {
	t.Helper()
	g, err := game.Parse([]byte("(;SZ[9]KM[7];B[ee];W[cc];B[gg];W[gc];B[cg];W[dg];B[ef])"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := game.NewCursor(g[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := c.End(); err != nil {
		t.Fatal(err)
	}
	return c.Position()
}

// TestPredictorMatchesStrengths: the probabilities are eq. 3.2 over the legal moves, and an explanation
// adds up: w of every factor and every pair's interaction make the move's strength.
func TestPredictorMatchesStrengths(t *testing.T) {
	m := smallModel(t, 5, 15)
	p := NewPredictor("fbt-test", m, false)
	pos := position9(t)
	var d predict.Distribution
	p.Predict(pos, &d)
	tm := newTeams(m, false)
	moves := tm.Position(pos)
	sum := make([]float64, MaxK)
	e := map[board.Point]float64{}
	z := 0.0
	for _, mv := range moves {
		e[mv] = m.Strength(tm.Team(nil, mv), sum)
		z += math.Exp(e[mv])
	}
	for _, mv := range moves {
		if want := math.Exp(e[mv]) / z; math.Abs(d.P[mv]-want) > 1e-9 {
			t.Fatalf("P(%s) = %v, want %v", mv.GTP(9), d.P[mv], want)
		}
		if mv == board.Pass {
			continue
		}
		ex := p.Explain(pos, mv)
		total := 0.0
		for _, f := range ex.Factors {
			total += math.Log(f.Weight)
		}
		for _, in := range ex.Interactions {
			total += in.Value
		}
		if math.Abs(total-e[mv]) > 1e-5 {
			t.Fatalf("%s: factors and interactions sum to %v, strength %v", mv.GTP(9), total, e[mv])
		}
		if n := len(ex.Factors); len(ex.Interactions) != n*(n-1)/2 {
			t.Fatalf("%s: %d interactions for %d factors", mv.GTP(9), len(ex.Interactions), n)
		}
	}
}

func TestModelFileRoundTripAndDamage(t *testing.T) {
	m := smallModel(t, 3, 16)
	m.Passes, m.Top1, m.Games, m.Positions = 4, 0.31, 10, 200
	path := filepath.Join(t.TempDir(), "m.ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.K != 3 || got.Passes != 4 || got.Top1 != 0.31 || got.Positions != 200 || len(got.W) != len(m.W) ||
		got.W[7] != m.W[7] || got.V[11] != m.V[11] {
		t.Fatalf("round trip changed the model: k %d passes %d top-1 %v", got.K, got.Passes, got.Top1)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{data[:len(data)/2], append(bytes.Clone(data[:40]), 0xff)} {
		if _, err := Decode(bad, "damaged"); !errors.Is(err, models.ErrFormat) {
			t.Errorf("a damaged file gave %v, not models.ErrFormat", err)
		}
	}
}

func FuzzDecodePayload(f *testing.F) {
	m := smallModel(f, 2, 17)
	p, err := m.payload()
	if err != nil {
		f.Fatal(err)
	}
	modeltest.FuzzDecode(f, fileHeader, [][]byte{p, p[:headerBytes]}, func(file []byte) error {
		_, err := Decode(file, "fuzz")
		return err
	})
}

// BenchmarkPredictDefault19 is a full 19x19 distribution of the embedded fbt (F_large, k = 10) without
// the Monte Carlo owner, stepping through the positions of a professional game.
func BenchmarkPredictDefault19(b *testing.B) {
	m, err := Shared("")
	if err != nil {
		b.Skip(err)
	}
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		b.Fatal(err)
	}
	gs, err := game.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var positions []game.Position
	_ = gs[0].WalkMainLine(func(pos *game.Position, _ game.Move) error {
		positions = append(positions, *pos)
		return nil
	})
	p := NewPredictor("fbt", m, false)
	var d predict.Distribution
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(&positions[i%len(positions)], &d)
		i++
	}
}

// BenchmarkPredictSmall19 is a full 19x19 distribution of an F_small model, k = 10, in the opening.
func BenchmarkPredictSmall19(b *testing.B) {
	m := smallModel(b, 10, 18)
	p := NewPredictor("fbt-bench", m, false)
	g, err := game.New(19)
	if err != nil {
		b.Fatal(err)
	}
	c, _ := game.NewCursor(g)
	for _, mv := range []string{"pd", "dp", "qp", "dd", "fq", "cn", "jp", "qj", "nc", "pf"} {
		if err := c.Play(board.At(int(mv[0]-'a'), int(mv[1]-'a'))); err != nil {
			b.Fatal(err)
		}
	}
	pos := c.Position()
	var d predict.Distribution
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(pos, &d)
	}
}

// TestResumeRepeatsTheRun: training resumed from a checkpoint after pass 2 reaches, at pass 4, the very
// weights of a run that was never stopped (each pass shuffles with its own seed), full and sampled.
func TestResumeRepeatsTheRun(t *testing.T) {
	planted := smallModel(t, 2, 20)
	train := synthetic(t, planted, 30, 3000, 6, 21)
	valid := synthetic(t, planted, 30, 300, 6, 22)
	for _, samples := range []int{0, 5} {
		snapshots := map[int]*Model{}
		snap := func(r PassResult, cur *Model) {
			c := *cur
			c.W, c.V = append([]float32(nil), cur.W...), append([]float32(nil), cur.V...)
			snapshots[r.N] = &c
		}
		opt := TrainOptions{Alpha: 0.01, Samples: samples, Seed: 23, MaxPasses: 4, Patience: 10, Pass: snap}
		m := smallModel(t, 2, 24)
		if err := Train(context.Background(), []*bt.Competitions{train}, []*bt.Competitions{valid}, m, opt); err != nil {
			t.Fatal(err)
		}
		straight := snapshots[4]
		resumed := snapshots[2]
		opt.Best = snapshots[2] // stands for the best so far; only its Top1 and Passes matter here
		if err := Train(context.Background(), []*bt.Competitions{train}, []*bt.Competitions{valid}, resumed, opt); err != nil {
			t.Fatal(err)
		}
		again := snapshots[4]
		if again == straight || !slices.Equal(again.W, straight.W) || !slices.Equal(again.V, straight.V) {
			t.Errorf("samples %d: the resumed run's weights after pass 4 differ from the straight run's", samples)
		}
	}
}

// TestInitWFromMM: w starts at mm's log γ of the same feature, the owner levels excepted, and a model
// over other shapes is refused.
func TestInitWFromMM(t *testing.T) {
	shapes, err := pattern.NewDictionary([]pattern.Entry{{Key: 11, Size: 4, Count: 50}, {Key: 12, Size: 6, Count: 40}})
	if err != nil {
		t.Fatal(err)
	}
	base := mm.NewModel(shapes, true)
	for i := range base.Gamma {
		base.Gamma[i] = 0.5 + float64(i)/10
	}
	m, err := NewModel(shapes, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.InitWFrom(base); err != nil {
		t.Fatal(err)
	}
	for f, g := range base.Gamma {
		want := float32(math.Log(g))
		if IsOwner(int32(f)) {
			want = 0
		}
		if m.W[f] != want {
			t.Fatalf("w of feature %d: %v, want %v", f, m.W[f], want)
		}
	}
	if m.Owner() {
		t.Error("the owner levels were set")
	}
	for f := len(base.Gamma); f < len(m.W); f++ {
		if m.W[f] != 0 {
			t.Fatalf("3x3 feature %d set to %v", f, m.W[f])
		}
	}
	other, _ := pattern.NewDictionary([]pattern.Entry{{Key: 11, Size: 4, Count: 50}, {Key: 13, Size: 6, Count: 40}})
	if err := m.InitWFrom(mm.NewModel(other, false)); err == nil {
		t.Error("an mm model over other shapes was accepted")
	}
}
