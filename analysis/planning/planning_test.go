package planning

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// A tree is a function of its seed, and a P-Game leaf's outcome is the sign of the sum of the move
// values along its path: MAX's in [0, 1), MIN's in (−1, 0].
func TestTreeDeterministicAndPGameSums(t *testing.T) {
	a, b := NewTree(PGame, 3, 4, 7), NewTree(PGame, 3, 4, 7)
	if a.Root() != b.Root() || NewTree(PGame, 3, 4, 8).Root() == a.Root() {
		t.Fatal("root not a function of the seed")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		h, hb, sum := a.Root(), b.Root(), 0.0
		for d := range a.D {
			m := rng.IntN(a.B)
			h, hb = a.Child(h, m), b.Child(hb, m)
			v := a.MoveValue(h, d)
			if v != b.MoveValue(hb, d) {
				t.Fatal("move values differ between equal trees")
			}
			if (d%2 == 0 && (v < 0 || v >= 1)) || (d%2 == 1 && (v > 0 || v <= -1)) {
				t.Fatalf("move value %v at depth %d out of its interval", v, d)
			}
			sum += v
		}
		if a.LeafWin(h, sum) != (sum > 0) {
			t.Fatalf("leaf with sum %v: win %v", sum, a.LeafWin(h, sum))
		}
	}
}

// π_c solves x^B + x − 1 = 0; B = 2 gives the golden ratio, and a Random tree's leaves win at about
// that rate.
func TestCriticalWinAndRandomLeaves(t *testing.T) {
	if got := CriticalWin(2); math.Abs(got-0.6180339887) > 1e-9 {
		t.Fatalf("π_c(2) = %v", got)
	}
	if x := CriticalWin(7); math.Abs(math.Pow(x, 7)+x-1) > 1e-12 {
		t.Fatalf("π_c(7) = %v is not a root", x)
	}
	tr := NewTree(Random, 2, 12, 3)
	wins, n := 0, 0
	var walk func(h uint64, d int)
	walk = func(h uint64, d int) {
		if d == tr.D {
			n++
			if tr.LeafWin(h, 0) {
				wins++
			}
			return
		}
		for a := range tr.B {
			walk(tr.Child(h, a), d+1)
		}
	}
	walk(tr.Root(), 0)
	if f := float64(wins) / float64(n); math.Abs(f-tr.PiW) > 0.03 {
		t.Fatalf("leaf win rate %v, want about %v", f, tr.PiW)
	}
}

// bruteValue is plain minimax over every leaf, without pruning.
func bruteValue(t *Tree, h uint64, depth int, sum float64) bool {
	if depth == t.D {
		return t.LeafWin(h, sum)
	}
	maxToMove := depth%2 == 0
	res := !maxToMove
	for a := range t.B {
		c := t.Child(h, a)
		v := bruteValue(t, c, depth+1, sum+t.MoveValue(c, depth))
		if maxToMove {
			res = res || v
		} else {
			res = res && v
		}
	}
	return res
}

// The pruned solver agrees with full minimax on small trees of both kinds.
func TestRootValuesMatchBruteForce(t *testing.T) {
	for _, kind := range []Kind{Random, PGame} {
		for seed := range uint64(60) {
			b, d := 2+int(seed%3), 1+int(seed%6)
			tr := NewTree(kind, b, d, seed)
			got := tr.RootValues()
			for a := range b {
				c := tr.Child(tr.Root(), a)
				if want := bruteValue(tr, c, 1, tr.MoveValue(c, 0)); got[a] != want {
					t.Fatalf("%v B=%d D=%d seed %d move %d: %v, brute force %v", kind, b, d, seed, a, got[a], want)
				}
			}
		}
	}
}

// With a budget far beyond the size of small Random and P-Game trees (3^4 leaves) every planner that
// converges finds an optimal move. Uniform MC and the tree models converge to mean outcomes or
// latent values, not to minimax (Stern §6.4.1), so they are held to a looser standard.
func TestPlannersFindOptimalWithHugeBudget(t *testing.T) {
	for _, name := range Methods {
		p, err := NewPlanner(name, 3)
		if err != nil {
			t.Fatal(err)
		}
		wrong := 0
		for seed := range uint64(20) {
			tr := NewTree(Kind(seed%2), 3, 4, seed)
			opt := Optimal(tr.RootValues())
			got := p.Plan(tr, []int{20000}, rand.New(rand.NewPCG(seed, 9)))
			if !opt[got[0]] {
				wrong++
			}
		}
		// Uniform MC values moves by their mean outcome under random play, not minimax: it may err.
		t.Logf("%s: %d of 20 wrong", name, wrong)
		if limit := map[string]int{"mc": 6, "tree": 6, "dyntree": 6}[name]; wrong > limit {
			t.Errorf("%s: %d of 20 trees wrong after 20000 rollouts", name, wrong)
		}
	}
}

// Alpha-beta with the budget of a full search is exact on every tree, and before that it chooses
// moves not yet refuted.
func TestAlphaBetaExact(t *testing.T) {
	for seed := range uint64(30) {
		tr := NewTree(Random, 2, 8, seed)
		opt := Optimal(tr.RootValues())
		got := alphaBeta{}.Plan(tr, []int{1, 256}, nil)
		if !opt[got[1]] {
			t.Fatalf("seed %d: alpha-beta chose %d after a full search, optimal %v", seed, got[1], opt)
		}
	}
}

// The sign update matches the moments of the truncated posterior computed by quadrature.
func TestSignUpdateMoments(t *testing.T) {
	for _, c := range []struct {
		g     Gauss
		win   bool
		gamma float64
	}{{Gauss{0, 1}, true, 1}, {Gauss{0.3, 2.56}, false, 1}, {Gauss{-1, 0.49}, true, 0.5}, {Gauss{2, 1}, false, 1}} {
		got := c.g.SignUpdate(c.win, c.gamma)
		// p(x | c) ∝ N(x; μ, σ²) Φ(±x/γ).
		var z, m1, m2 float64
		sd := math.Sqrt(c.g.S2)
		for i := -40000; i <= 40000; i++ {
			x := c.g.Mu + sd*float64(i)/4000
			s := x / c.gamma
			if !c.win {
				s = -s
			}
			w := math.Exp(-0.5*math.Pow((x-c.g.Mu)/sd, 2)) * 0.5 * math.Erfc(-s/math.Sqrt2)
			z += w
			m1 += w * x
			m2 += w * x * x
		}
		mu := m1 / z
		s2 := m2/z - mu*mu
		if math.Abs(got.Mu-mu) > 1e-6 || math.Abs(got.S2-s2) > 1e-6 {
			t.Errorf("%+v win %v: got %+v, quadrature μ %v σ² %v", c.g, c.win, got, mu, s2)
		}
	}
}

// The counting model's beliefs after rollouts: the Beta variant counts each state's wins and
// losses exactly, and the Gaussian one moves a state's mean up after a win and down after a loss,
// shrinking its variance; Beta draws have the Beta's mean.
func TestCountingPosteriorUpdates(t *testing.T) {
	m := &counting{beta: true}
	var n countNode
	for _, w := range []bool{true, true, false, true} {
		m.observe(&n, w)
	}
	if n.wins != 3 || n.losses != 1 || m.mean(&n) != 4.0/6 {
		t.Fatalf("Beta counts %v wins %v losses, mean %v", n.wins, n.losses, m.mean(&n))
	}
	g := &counting{sigma: 1.6, gamma: 1}
	var x countNode
	x.g = Gauss{S2: 1.6 * 1.6}
	g.observe(&x, true)
	if !(x.g.Mu > 0 && x.g.S2 < 1.6*1.6) {
		t.Fatalf("after a win: %+v", x.g)
	}
	before := x.g
	g.observe(&x, false)
	if !(x.g.Mu < before.Mu && x.g.S2 < before.S2) {
		t.Fatalf("after a loss: %+v from %+v", x.g, before)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var sum float64
	for range 2000 {
		sum += BetaSample(3, 2, rng)
	}
	if mean := sum / 2000; math.Abs(mean-0.6) > 0.03 {
		t.Fatalf("Beta(3, 2) sample mean %v, want 0.6", mean)
	}
}

// UCT's error rate falls with the budget on a small P-Game family.
func TestUCTErrorFallsWithBudget(t *testing.T) {
	res, err := Run(context.Background(), Config{Kind: PGame, B: 4, D: 6, Trees: 200, Budgets: []int{10, 1000},
		Methods: []string{"uct", "mc", "tree", "dyntree"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	uct := res.Curves[0].ErrorRate
	if !(uct[1] < uct[0]-0.1 && uct[1] < 0.15) {
		t.Fatalf("UCT error rates %v after %v rollouts", uct, res.Budgets)
	}
	for _, c := range res.Curves[2:] {
		if !(c.ErrorRate[1] < 0.5) {
			t.Errorf("%s error rate %v", c.Method, c.ErrorRate)
		}
	}
	t.Logf("%+v", res.Curves)
}

// A cancelled experiment stops and says so.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Config{Kind: PGame, B: 2, D: 10, Trees: 1000, Budgets: []int{100}, Methods: []string{"uct"}})
	if err != context.Canceled {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if _, err := Run(context.Background(), Config{Kind: PGame, B: 2, D: 4, Trees: 1, Budgets: []int{5, 5}, Methods: []string{"uct"}}); err == nil {
		t.Fatal("budgets not ascending accepted")
	}
}
