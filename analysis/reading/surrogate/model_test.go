package surrogate

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"aji/analysis/board"
	"aji/analysis/predict/bayes"
	"aji/analysis/reading"
	"aji/models"
)

// integrate is ∫₀¹ f by Simpson's rule on n intervals.
func integrate(f func(float64) float64, lo, hi float64, n int) float64 {
	h := (hi - lo) / float64(n)
	s := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(lo+float64(i)*h)
	}
	return s * h / 3
}

// TestBetaADFMatchesTheMomentsOfThePosterior integrates Stern's posterior p(q) ∝ {qm·q + (1 −
// qm)(1 − q)}·Beta(q; α, β) numerically and checks that Beta(α', β') has its mean and second
// moment, and that both agree with the closed forms A.12 and A.13.
func TestBetaADFMatchesTheMomentsOfThePosterior(t *testing.T) {
	for _, c := range []struct{ a, b, qm float64 }{
		{2, 3, 0.7}, // Stern's Figure A.2
		{1, 1, 0.3}, {5, 1.5, 0.9}, {1.5, 4, 0.05}, {30, 20, 0.5}, {2, 2, 0.999},
	} {
		lb, _ := math.Lgamma(c.a)
		lb2, _ := math.Lgamma(c.b)
		lab, _ := math.Lgamma(c.a + c.b)
		logNorm := lab - lb - lb2
		post := func(q float64) float64 {
			if q <= 0 || q >= 1 {
				return 0
			}
			return (c.qm*q + (1-c.qm)*(1-q)) * math.Exp(logNorm+(c.a-1)*math.Log(q)+(c.b-1)*math.Log(1-q))
		}
		const n = 200000
		z := integrate(post, 0, 1, n)
		m1 := integrate(func(q float64) float64 { return q * post(q) }, 0, 1, n) / z
		m2 := integrate(func(q float64) float64 { return q * q * post(q) }, 0, 1, n) / z
		// A.12, A.13 with Z of §4.4.2.
		a, b, qm := c.a, c.b, c.qm
		Z := a/(a+b)*(2*qm-1) + 1 - qm
		a12 := a * (qm*a + qm + b - qm*b) / ((a + b) * (a + b + 1)) / Z
		a13 := a * (a + 1) * (qm*a + 2*qm - qm*b + b) / ((a + b) * (a + b + 1) * (a + b + 2)) / Z
		if math.Abs(a12-m1) > 1e-6 || math.Abs(a13-m2) > 1e-6 {
			t.Errorf("%+v: A.12, A.13 give %v, %v; integration %v, %v", c, a12, a13, m1, m2)
		}
		a2, b2 := BetaADF(c.a, c.b, c.qm)
		gm1 := a2 / (a2 + b2)
		gm2 := a2 * (a2 + 1) / ((a2 + b2) * (a2 + b2 + 1))
		if math.Abs(gm1-m1) > 1e-6 || math.Abs(gm2-m2) > 1e-6 {
			t.Errorf("%+v: Beta(%v, %v) has moments %v, %v; the posterior %v, %v", c, a2, b2, gm1, gm2, m1, m2)
		}
	}
	// A hard observation is the count update, and 0.5 is no observation.
	if a, b := BetaADF(3, 4, 1); math.Abs(a-4) > 1e-9 || math.Abs(b-4) > 1e-9 {
		t.Errorf("qm = 1: Beta(%v, %v), want Beta(4, 4)", a, b)
	}
	if a, b := BetaADF(3, 4, 0.5); math.Abs(a-3) > 1e-9 || math.Abs(b-4) > 1e-9 {
		t.Errorf("qm = 0.5: Beta(%v, %v), want Beta(3, 4)", a, b)
	}
	// Large pseudo-counts (the size-dependent prior's 100000) stay accurate.
	if a, b := BetaADF(1e5, 1e5, 0.8); math.Abs(a/(a+b)-(0.5+0.3/(2e5+1))) > 1e-12 || !(a+b > 2e5 && a+b < 2e5+1) {
		t.Errorf("α = β = 1e5, qm = 0.8: Beta(%v, %v)", a, b)
	}
}

// TestSoftSignMatchesTheMomentsOfThePosterior integrates p(y) ∝ [q·I(y > 0) + (1 − q)·I(y <
// 0)]·N(y; μ, σ²) numerically.
func TestSoftSignMatchesTheMomentsOfThePosterior(t *testing.T) {
	for _, c := range []struct{ mu, v, q float64 }{
		{0, 1, 1}, {0, 1, 0}, {1, 1, 0.3}, {-2, 4, 0.8}, {3, 0.5, 0.01}, {0.5, 2, 0.5}, {-1, 1, 1}, {2, 1, 0},
	} {
		s := math.Sqrt(c.v)
		gauss := func(y float64) float64 { return math.Exp(-(y - c.mu) * (y - c.mu) / (2 * c.v)) }
		lo, hi := c.mu-12*s, c.mu+12*s
		// The two sides apart, each with its weight, so the step at 0 falls on an end point.
		moment := func(k int) float64 {
			f := func(y float64) float64 { return math.Pow(y, float64(k)) * gauss(y) }
			total := 0.0
			if lo < 0 {
				total += (1 - c.q) * integrate(f, lo, min(0, hi), 200000)
			}
			if hi > 0 {
				total += c.q * integrate(f, max(0, lo), hi, 200000)
			}
			return total
		}
		z := moment(0)
		m1, m2 := moment(1)/z, moment(2)/z
		mean, v := SoftSign(c.mu, c.v, c.q)
		if math.Abs(mean-m1) > 1e-6 || math.Abs(v-(m2-m1*m1)) > 1e-6 {
			t.Errorf("%+v: SoftSign gives N(%v, %v), the posterior has mean %v, variance %v", c, mean, v, m1, m2-m1*m1)
		}
		if c.q > 0 && c.q < 1 {
			// Stern's eqs. 2.29–2.31 as bayes.Truncate writes them, where they do not cancel.
			gm, gv := bayes.Truncate(c.mu, c.v, c.q)
			if math.Abs(gm-mean) > 1e-9 || math.Abs(gv-v) > 1e-9 {
				t.Errorf("%+v: bayes.Truncate gives N(%v, %v), SoftSign N(%v, %v)", c, gm, gv, mean, v)
			}
		}
	}
	// Far in the tail, where eq. 2.29 cancels: still a proper Gaussian on the right side.
	if m, v := SoftSign(40, 1, 1e-9); !(v > 0) || math.IsNaN(m) {
		t.Errorf("μ = 40, q = 1e-9: N(%v, %v)", m, v)
	}
}

// move keys for the table tests: two moves on one board, sharing their small patterns.
func twoMoves(t testing.TB) (*board.Board, board.Point, board.Point, board.Point) {
	t.Helper()
	b, err := board.Parse(`
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . O . . . .
		. . . . . . . . .
		. . . X . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`)
	if err != nil {
		t.Fatal(err)
	}
	// Both moves touch the target from the side; only the second has the X within its T4.
	return b, board.At(4, 2), board.At(4, 4), board.At(4, 3)
}

func TestBetaHarvestStartsFromTheParent(t *testing.T) {
	b, m1, m2, target := twoMoves(t)
	k1, k2 := KeysOf(b, m1, target, board.Black), KeysOf(b, m2, target, board.Black)
	shared := 0
	for shared < NumTemplates && k1[shared] == k2[shared] {
		shared++
	}
	if shared == 0 || shared == NumTemplates {
		t.Fatalf("the moves share %d templates", shared)
	}
	m := NewBeta(1, false, LearnAll)
	if p := m.Prior(b, m1, board.Black, target, board.Black); p != 0.5 {
		t.Fatalf("first prior %v, want 0.5", p)
	}
	if got := m.Patterns()[0]; got != [NumTemplates]int{1, 1, 1, 1, 1, 1, 1, 1} {
		t.Fatalf("harvested %v", got)
	}
	// Teach the last shared pattern something; the second move's larger patterns start from it.
	tab := m.tables[0]
	tab[k1[shared-1]] = betaEntry{a: 6, b: 2, t: uint8(shared - 1)}
	if p := m.Prior(b, m2, board.Black, target, board.Black); p != 0.75 {
		t.Fatalf("prior %v, want 0.75 from T%d", p, shared-1)
	}
	for u := shared; u < NumTemplates; u++ {
		if e := tab[k2[u]]; e.a != 6 || e.b != 2 || int(e.t) != u {
			t.Errorf("T%d harvested as %+v, want α 6, β 2", u, e)
		}
	}
	// The defender's table is apart.
	if p := m.Prior(b, m2, board.White, target, board.Black); p != 0.5 {
		t.Errorf("defender's prior %v, want 0.5", p)
	}

	// The size-dependent prior: a child keeps its parent's mean and evidence over its own α0.
	s := NewBeta(0, true, LearnAll)
	if s.Prior0(0) != 1e5 || s.Prior0(3) != 100 || s.Prior0(5) != 1 || s.Prior0(7) != 1 {
		t.Fatalf("α0 by template: %v %v %v %v", s.Prior0(0), s.Prior0(3), s.Prior0(5), s.Prior0(7))
	}
	s.Prior(b, m1, board.Black, target, board.Black)
	st := s.tables[0]
	st[k1[shared-1]] = betaEntry{a: s.Prior0(shared-1) + 9, b: s.Prior0(shared-1) + 1, t: uint8(shared - 1)}
	s.Prior(b, m2, board.Black, target, board.Black)
	parent := st[k1[shared-1]]
	e := st[k2[shared]]
	wantN := 10 + 2*s.Prior0(shared)
	if math.Abs(e.a+e.b-wantN) > 1e-9 || math.Abs(e.a/(e.a+e.b)-parent.a/(parent.a+parent.b)) > 1e-12 {
		t.Errorf("size prior: T%d harvested as Beta(%v, %v), want total %v at the parent's mean %v", shared, e.a, e.b, wantN, parent.a/(parent.a+parent.b))
	}
}

// problem is a small capture problem: Black to capture the white pair at G2 (F2 does it; about
// 400 nodes of probability propagation with the ignorant prior).
func problem(t testing.TB) (*board.Board, board.Point) {
	t.Helper()
	b, err := board.Parse(`
		. . . . X . X X .
		X . . . . . . . X
		. . O . . . O X .
		O . O X O X . . .
		. . . . . X . O .
		. . X X O . X . O
		. . X O O X . X .
		. . O . O . O O X
		. O . . . . X . .`)
	if err != nil {
		t.Fatal(err)
	}
	return b, board.At(6, 7)
}

// search runs probability propagation with prior on the problem and returns the solver.
func search(t testing.TB, prior reading.Prior, maxNodes int) *reading.Solver {
	t.Helper()
	b, target := problem(t)
	s := reading.NewSolver(reading.Options{Method: reading.PP, MaxNodes: maxNodes, Prior: prior})
	if _, err := s.Solve(context.Background(), b, target, reading.Attack); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLearnRegimes: what each regime adds to the T0 patterns is the count of the nodes it learns
// from — one per proof, one per disproof, and the ADF updates of the developed unsolved nodes.
func TestLearnRegimes(t *testing.T) {
	s := search(t, nil, 300)
	var proved, disproved, open, leaves int
	var last *reading.Observation
	count := func(developed bool) {
		switch {
		case last == nil:
		case last.Solved && last.True:
			proved++
		case last.Solved:
			disproved++
		case developed:
			open++
		default:
			leaves++
		}
	}
	s.Observe(func(o reading.Observation) {
		count(last != nil && o.Depth > last.Depth)
		c := o
		last = &c
	})
	count(false)
	if proved == 0 || disproved == 0 || open == 0 || leaves == 0 {
		t.Fatalf("the tree has %d proved, %d disproved, %d open and %d unsolved leaves: pick another problem", proved, disproved, open, leaves)
	}
	for _, c := range []struct {
		r          Regime
		dA, dB     int // added to Σα and Σβ of the T0 patterns by the counts
		softUpdate bool
	}{
		{LearnProved, proved, 0, false},
		{LearnSolved, proved, disproved, false},
		{LearnAll, proved, disproved, true},
	} {
		m := NewBeta(1, false, c.r)
		var calls int
		observe(s, c.r, func(*observed, float64) { calls++ })
		m.Learn(s)
		var sa, sb float64
		var n int
		for _, tab := range m.tables {
			for _, e := range tab {
				if e.t == 0 {
					sa, sb, n = sa+e.a-1, sb+e.b-1, n+1
				}
			}
		}
		want := c.dA + c.dB
		if c.softUpdate {
			want += open
		}
		if calls != want {
			t.Errorf("%v: learned from %d nodes, want %d", c.r, calls, want)
		}
		if !c.softUpdate && (math.Abs(sa-float64(c.dA)) > 1e-9 || math.Abs(sb-float64(c.dB)) > 1e-9) {
			t.Errorf("%v: T0 gained α %v, β %v; want %d, %d", c.r, sa, sb, c.dA, c.dB)
		}
		if c.softUpdate && (sa+sb < float64(c.dA+c.dB)) {
			t.Errorf("%v: T0 gained α %v, β %v; want at least %d in all", c.r, sa, sb, c.dA+c.dB)
		}
		if m.Searches != 1 {
			t.Errorf("%v: %d searches", c.r, m.Searches)
		}
	}
}

// TestHierObservationIsExact: a sign observation moment-matches the predictive of the move's value
// (the chain's forward pass after eq. 3.5's backward update gives SoftSign's Gaussian), and it
// reaches other moves through the patterns they share, less than the move itself.
func TestHierObservationIsExact(t *testing.T) {
	b, m1, m2, target := twoMoves(t)
	for _, q := range []float64{1, 0, 0.8, 0.2} {
		m := NewHier(1, 1, 100, 0, LearnAll)
		// Some history first, so no message is flat.
		for _, prior := range []float64{1, 0, 1} {
			k := KeysOf(b, m1, target, board.Black)
			c := m.load(m.tables[0], &k)
			m.learnSign(&c, prior)
			store(m.tables[0], &k, &c)
		}
		k := KeysOf(b, m1, target, board.Black)
		c := m.load(m.tables[0], &k)
		x := m.belief(&c)
		y := m.predictive(&c)
		// Conditioning the joint Gaussian of (x_7, y) on y's moment-matched posterior N(m', v'):
		// x_7's mean moves by k(m' − μ_y) and its variance falls by k²(σ_y² − v'), k = σ_x²/σ_y².
		ym, yv := SoftSign(y.Mean(), y.Var(), q)
		yv = min(yv, y.Var())
		gain := x.Var() / y.Var()
		wantM, wantV := x.Mean()+gain*(ym-y.Mean()), x.Var()-gain*gain*(y.Var()-yv)
		before2 := m.Prior(b, m2, board.Black, target, board.Black)
		before1 := m.Prior(b, m1, board.Black, target, board.Black)
		c = m.load(m.tables[0], &k)
		m.learnSign(&c, q)
		store(m.tables[0], &k, &c)
		got := m.belief(&c)
		if math.Abs(got.Mean()-wantM) > 1e-9 || math.Abs(got.Var()-wantV) > 1e-9 {
			t.Errorf("q %v: x_7 is N(%v, %v) after the update, want N(%v, %v)", q, got.Mean(), got.Var(), wantM, wantV)
		}
		after1 := m.Prior(b, m1, board.Black, target, board.Black)
		after2 := m.Prior(b, m2, board.Black, target, board.Black)
		up := q > 0.5
		if (after1 > before1) != up || (after2 > before2) != up || math.Abs(after2-before2) >= math.Abs(after1-before1) {
			t.Errorf("q %v: the move's prior went %v → %v, the other's %v → %v", q, before1, after1, before2, after2)
		}
	}
}

// TestHierPseudoObservation: a new leaf's pseudo-observation N(0, 0.5) pulls its prior toward 0.5.
func TestHierPseudoObservation(t *testing.T) {
	b, m1, _, target := twoMoves(t)
	for _, pseudo := range []float64{0, DefaultPseudoVar} {
		m := NewHier(1, 1, 100, pseudo, LearnAll)
		k := KeysOf(b, m1, target, board.Black)
		c := m.load(m.tables[0], &k)
		m.learnSign(&c, 1)
		store(m.tables[0], &k, &c)
		p1 := m.Prior(b, m1, board.Black, target, board.Black)
		p2 := m.Prior(b, m1, board.Black, target, board.Black)
		switch {
		case pseudo == 0 && p1 != p2:
			t.Errorf("no pseudo-observation: the prior moved from %v to %v by asking", p1, p2)
		case pseudo > 0 && !(p2 < p1 && p2 > 0.5):
			t.Errorf("pseudo-observation: priors %v then %v, want falling toward 0.5", p1, p2)
		}
	}
}

// trained returns both models after learning from a search each.
func trained(t *testing.T) []Model {
	beta := NewBeta(0, true, LearnAll)
	beta.Learn(search(t, beta, 300))
	hier := NewHier(1, 1, 100, 0.5, LearnSolved)
	hier.Learn(search(t, hier, 300))
	return []Model{beta, hier}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	b, m1, m2, target := twoMoves(t)
	for _, m := range trained(t) {
		path := filepath.Join(dir, "model.ajim")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		got, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("%T: loaded model differs", m)
		}
		for _, mv := range []board.Point{m1, m2} {
			for _, c := range []board.Color{board.Black, board.White} {
				if p, q := got.Prior(b, mv, c, target, board.Black), m.Prior(b, mv, c, target, board.Black); p != q {
					t.Errorf("%T: prior %v after loading, %v before", m, p, q)
				}
			}
		}
		// Saving is deterministic (the tables are written in key order).
		again := filepath.Join(dir, "again.ajim")
		if err := got.Save(again); err != nil {
			t.Fatal(err)
		}
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		x, _ := os.ReadFile(path)
		y, _ := os.ReadFile(again)
		if !bytes.Equal(x, y) {
			t.Errorf("%T: two saves of one model differ", m)
		}
	}
}

func TestCorruptFilesError(t *testing.T) {
	dir := t.TempDir()
	for _, m := range trained(t) {
		path := filepath.Join(dir, "model.ajim")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		good, _ := os.ReadFile(path)
		check := func(what string, data []byte) {
			t.Helper()
			bad := filepath.Join(dir, "bad.ajim")
			if err := os.WriteFile(bad, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(bad); !errors.Is(err, models.ErrFormat) {
				t.Errorf("%T, %s: %v, want an error wrapping models.ErrFormat", m, what, err)
			}
		}
		flipped := bytes.Clone(good)
		flipped[len(flipped)-3] ^= 0x40
		check("a flipped bit", flipped)
		check("truncated", good[:len(good)-10])
		check("header only", good[:20])
		// A payload that passes the checksum but says nonsense.
		h := betaHeader
		if _, ok := m.(*Hier); ok {
			h = hierHeader
		}
		var nan bytes.Buffer
		p := m.(interface{ payload() []byte }).payload()
		p[len(p)-1] = 0xff // the last f64 becomes NaN (or −Inf-like garbage)
		p[len(p)-2] = 0xff
		_ = models.Write(&nan, h, p)
		check("a NaN parameter", nan.Bytes())
		var extra bytes.Buffer
		_ = models.Write(&extra, h, append(m.(interface{ payload() []byte }).payload(), 0))
		check("a byte after the model", extra.Bytes())
	}
	// Another kind of model.
	other := filepath.Join(dir, "other.ajim")
	_ = models.WriteFile(other, models.Header{Kind: "bayes", FormatVersion: 1, FeatureVersion: 1}, []byte{1})
	if _, err := Load(other); !errors.Is(err, models.ErrFormat) {
		t.Errorf("a bayes model: %v, want an error wrapping models.ErrFormat", err)
	}
}

// TestLearningRanksTheRootMoves: after learning from a finished search, the priors of the root's
// moves put those the search proved above those it disproved, as 0.5 did not.
func TestLearningRanksTheRootMoves(t *testing.T) {
	b, target := problem(t)
	for _, m := range []Model{NewBeta(1, false, LearnSolved), NewBeta(1, false, LearnAll), NewHier(1, 1, 100, 0, LearnSolved), NewHier(1, 1, 100, 0.5, LearnAll)} {
		s := reading.NewSolver(reading.Options{Method: reading.PP, Prior: m})
		res, err := s.Solve(context.Background(), b, target, reading.Attack)
		if err != nil || !res.Proved || res.Code != reading.Win {
			t.Fatalf("%T: %v, %+v", m, err, res)
		}
		m.Learn(s)
		var good, bad []board.Point
		s.Observe(func(o reading.Observation) {
			switch {
			case o.Depth != 1 || !o.Solved:
			case o.True:
				good = append(good, o.Move)
			default:
				bad = append(bad, o.Move)
			}
		})
		if len(good) == 0 || len(bad) == 0 {
			t.Fatalf("%T: root moves proved %v, disproved %v", m, good, bad)
		}
		worst := 1.0
		for _, p := range good {
			worst = min(worst, m.Prior(b, p, board.Black, target, board.Black))
		}
		for _, p := range bad {
			if q := m.Prior(b, p, board.Black, target, board.Black); q >= worst || worst <= 0.5 {
				t.Errorf("%T: a disproved root move %s has prior %v, a proved one %v", m, p.GTP(9), q, worst)
			}
		}
	}
}
