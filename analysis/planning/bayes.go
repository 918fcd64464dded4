package planning

import (
	"math"
	"math/rand/v2"
)

// Gauss is a Gaussian belief N(Mu, S2) over a value, from MAX's point of view.
type Gauss struct{ Mu, S2 float64 }

// vw are the truncated-Gaussian correction factors of Stern's Figure 2.6 at t: v = φ(t)/Φ(t) and
// w = v(v + t).
func vw(t float64) (v, w float64) {
	if t < -35 { // Φ underflows; v → −t, w → 1
		v = -t
	} else {
		v = math.Exp(-t*t/2) / math.Sqrt(2*math.Pi) / (0.5 * math.Erfc(-t/math.Sqrt2))
	}
	return v, v * (v + t)
}

// SignUpdate is the ADF update of Figure 2.6 for the sign constraint (6.2): the belief over x after
// observing that y ~ N(x, γ²) is positive (win) or negative (loss), projected back onto a Gaussian.
func (g Gauss) SignUpdate(win bool, gamma float64) Gauss {
	s := -1.0
	if win {
		s = 1
	}
	c2 := g.S2 + gamma*gamma
	c := math.Sqrt(c2)
	v, w := vw(s * g.Mu / c)
	return Gauss{Mu: g.Mu + s*g.S2*v/c, S2: g.S2 * (1 - g.S2*w/c2)}
}

// counting is the independent dynamic counting model (§6.3.1): every state has its own Gaussian
// belief N(μ, σ²) over its value (prior mean 0, or with knowledge the P-Game value of the move that
// led to it, Figure 6.7), drifting by τ² a rollout (6.1); a rollout's outcome is a sign observation of
// the value of every state it visited. Moves are chosen by sampling each child's value and taking the
// best for the side to move (Thompson sampling); the root move chosen is the child of highest mean.
// With beta set it keeps Beta(1 + wins, 1 + losses) counts instead (the conjugate way to count).
type counting struct {
	sigma, gamma, tau float64
	knowledge, beta   bool
}

// countNode is one state's belief: g for the Gaussian model, wins and losses for the Beta one.
type countNode struct {
	g            Gauss
	wins, losses float64
	kids         []countNode
}

// sample draws the node's value (the Gaussian's, or the Beta's win probability).
func (m *counting) sample(n *countNode, rng *rand.Rand) float64 {
	if m.beta {
		return BetaSample(1+n.wins, 1+n.losses, rng)
	}
	return n.g.Mu + math.Sqrt(n.g.S2)*rng.NormFloat64()
}

// mean is the node's posterior mean value.
func (m *counting) mean(n *countNode) float64 {
	if m.beta {
		return (1 + n.wins) / (2 + n.wins + n.losses)
	}
	return n.g.Mu
}

// observe updates one node with a rollout's outcome.
func (m *counting) observe(n *countNode, win bool) {
	if m.beta {
		if win {
			n.wins++
		} else {
			n.losses++
		}
		return
	}
	n.g.S2 += m.tau * m.tau
	n.g = n.g.SignUpdate(win, m.gamma)
}

// expand gives node h at depth depth its children with their priors.
func (m *counting) expand(t *Tree, n *countNode, h uint64, depth int) {
	n.kids = make([]countNode, t.B)
	for a := range n.kids {
		n.kids[a].g = Gauss{S2: m.sigma * m.sigma}
		if m.knowledge {
			n.kids[a].g.Mu = t.MoveValue(t.Child(h, a), depth)
		}
	}
}

func (m *counting) Plan(t *Tree, budgets []int, rng *rand.Rand) []int {
	root := &countNode{}
	out := make([]int, len(budgets))
	path := make([]*countNode, 0, t.D)
	for i, k := 1, 0; k < len(budgets); i++ {
		node, h, sum := root, t.root, 0.0
		path = path[:0]
		for depth := 0; depth < t.D; depth++ {
			if node.kids == nil {
				m.expand(t, node, h, depth)
			}
			best := argmax(len(node.kids), func(a int) float64 { return forMover(m.sample(&node.kids[a], rng), depth) })
			h = t.Child(h, best)
			sum += t.MoveValue(h, depth)
			node = &node.kids[best]
			path = append(path, node)
		}
		win := t.LeafWin(h, sum)
		for _, p := range path {
			m.observe(p, win)
		}
		k = checkpoints(out, k, budgets, i, func() int {
			return argmax(len(root.kids), func(a int) float64 { return m.mean(&root.kids[a]) })
		})
	}
	return out
}

// BetaSample draws from Beta(a, b) as X/(X+Y) of Gamma(a) and Gamma(b) draws.
func BetaSample(a, b float64, rng *rand.Rand) float64 {
	x, y := gammaSample(a, rng), gammaSample(b, rng)
	return x / (x + y)
}

// gammaSample draws from Gamma(shape, 1) for shape ≥ 1 by Marsaglia and Tsang's method.
func gammaSample(shape float64, rng *rand.Rand) float64 {
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < x*x/2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// inductive is the inductive game tree model (§6.3.2; with tau > 0 the dynamic one of §6.3.3): the
// root's value x₀ ~ N(0, σ₀²) and each move's value δ ~ N(μ_MAX or μ_MIN, σ_i²) add up along a path
// to the leaf's value, whose sign is observed through noise γ² after each rollout. The posterior is
// kept factorised, one Gaussian per move (and the root's), updated by ADF in time linear in the depth:
// the leaf's value is Gaussian with the sum of the path's means and variances, and its sign constraint
// corrects each term in proportion to its variance. The dynamic model lets the root's and each move's
// value drift by τ² between the rollouts that meet it. Moves are chosen by sampling every child's δ
// and taking the best for the side to move; the root move chosen is the child of highest mean δ.
type inductive struct {
	muMax, muMin, sigmaMove, sigma0, gamma, tau float64
}

type indNode struct {
	d    Gauss // the value of the move into this node
	kids []indNode
}

func (m *inductive) Plan(t *Tree, budgets []int, rng *rand.Rand) []int {
	root := &indNode{}
	x0 := Gauss{S2: m.sigma0 * m.sigma0}
	tau2 := m.tau * m.tau
	out := make([]int, len(budgets))
	path := make([]*indNode, 0, t.D)
	for i, k := 1, 0; k < len(budgets); i++ {
		node, h, sum := root, t.root, 0.0
		path = path[:0]
		for depth := 0; depth < t.D; depth++ {
			if node.kids == nil {
				mu := m.muMax
				if depth%2 == 1 {
					mu = m.muMin
				}
				node.kids = make([]indNode, t.B)
				for a := range node.kids {
					node.kids[a].d = Gauss{Mu: mu, S2: m.sigmaMove * m.sigmaMove}
				}
			}
			best := argmax(len(node.kids), func(a int) float64 {
				g := node.kids[a].d
				return forMover(g.Mu+math.Sqrt(g.S2)*rng.NormFloat64(), depth)
			})
			h = t.Child(h, best)
			sum += t.MoveValue(h, depth)
			node = &node.kids[best]
			path = append(path, node)
		}
		win := t.LeafWin(h, sum)
		x0.S2 += tau2
		leaf := x0
		for _, p := range path {
			p.d.S2 += tau2
			leaf.Mu += p.d.Mu
			leaf.S2 += p.d.S2
		}
		post := leaf.SignUpdate(win, m.gamma)
		// Each term z of the sum moves by its share of the sum's change: μ += σ_z² Δμ/σ², and
		// σ_z² −= σ_z⁴ (σ² − σ'²)/σ⁴ (the sum's ADF factors v/c and w/c² scaled by σ_z²).
		dm, ds := (post.Mu-leaf.Mu)/leaf.S2, (leaf.S2-post.S2)/(leaf.S2*leaf.S2)
		upd := func(g *Gauss) {
			g.Mu += g.S2 * dm
			g.S2 -= g.S2 * g.S2 * ds
		}
		upd(&x0)
		for _, p := range path {
			upd(&p.d)
		}
		k = checkpoints(out, k, budgets, i, func() int {
			return argmax(len(root.kids), func(a int) float64 { return root.kids[a].d.Mu })
		})
	}
	return out
}

// argmax is the first of the n choices with the largest value, each value asked once in order (so
// a sampling value draws its random numbers in the same order as a loop would).
func argmax(n int, value func(a int) float64) int {
	best, bv := 0, math.Inf(-1)
	for a := range n {
		if v := value(a); v > bv {
			best, bv = a, v
		}
	}
	return best
}

// forMover turns a value for MAX into one for the player to move at depth (MIN moves at odd depths).
func forMover(x float64, depth int) float64 {
	if depth%2 == 1 {
		return -x
	}
	return x
}
