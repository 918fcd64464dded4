package planning

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Planner chooses a root move of a tree by evaluating leaves (rollouts; for alpha-beta, one leaf
// reached depth first counts as one, as Stern counts it). Plan evaluates budgets[len-1] leaves and
// returns the move it would choose after each of budgets (ascending, ≥ 1): the root move the model
// currently values best (§6.2.3).
type Planner interface {
	Plan(t *Tree, budgets []int, rng *rand.Rand) []int
}

// Methods are the planners' names, in the order figures draw them.
var Methods = []string{"mc", "uct", "ab", "counting", "counting-prior", "beta", "tree", "dyntree"}

// MethodSummary says in a few words what each method is.
var MethodSummary = map[string]string{
	"mc":             "uniform Monte Carlo (§6.1.1)",
	"uct":            "UCT, UCB1 with c = √(2 ln n / n_q) (§6.1.2)",
	"ab":             "alpha-beta, depth first, one leaf = one rollout (§6.2.3)",
	"counting":       "independent dynamic counting model, Gaussian, Thompson selection (§6.3.1, Table 6.1)",
	"counting-prior": "counting model with the P-Game move value as prior mean, σ² = 0.25 (§6.4.2, Figure 6.7)",
	"beta":           "independent Beta-Bernoulli win counts, Thompson selection (a conjugate variant of §6.3.1)",
	"tree":           "inductive tree model (§6.3.2, Table 6.2)",
	"dyntree":        "dynamic inductive tree model (§6.3.3, Table 6.3)",
}

// NewPlanner is the planner of the given name for trees of branching b: the Bayesian models take the
// hyperparameters of Stern's Tables 6.1–6.3, the B = 2, D = 20 column for b = 2 and the B = 7, D = 7
// one otherwise.
func NewPlanner(name string, b int) (Planner, error) {
	binary := b == 2
	pick := func(wide, bin float64) float64 {
		if binary {
			return bin
		}
		return wide
	}
	switch name {
	case "mc":
		return uniformMC{}, nil
	case "uct":
		return uct{}, nil
	case "ab":
		return alphaBeta{}, nil
	case "counting":
		return &counting{sigma: pick(1.6, 0.7), gamma: 1, tau: 0}, nil
	case "counting-prior":
		return &counting{sigma: 0.5, gamma: 1, tau: 0, knowledge: true}, nil
	case "beta":
		return &counting{beta: true}, nil
	case "tree":
		return &inductive{muMax: pick(0.6, 1.6), muMin: pick(-0.4, -1.7), sigmaMove: pick(0.2, 0.1),
			sigma0: pick(0.015, 0.21), gamma: 1}, nil
	case "dyntree":
		return &inductive{muMax: pick(-0.1, 1.0), muMin: pick(0.2, -0.1), sigmaMove: pick(1, 0.4),
			sigma0: pick(1.7, 1.1), gamma: 1, tau: pick(0.02, 0.01)}, nil
	}
	return nil, fmt.Errorf("planning: unknown method %q (%s)", name, strings.Join(Methods, ", "))
}

// checkpoints records choose() into out at every budget equal to leaves; it returns the next index.
func checkpoints(out []int, k int, budgets []int, leaves int, choose func() int) int {
	for k < len(budgets) && budgets[k] == leaves {
		out[k] = choose()
		k++
	}
	return k
}

// rollout plays uniformly random moves from node h at depth depth (P-Game sum sum) to a leaf and
// reports whether it is a win for MAX.
func rollout(t *Tree, h uint64, depth int, sum float64, rng *rand.Rand) bool {
	for ; depth < t.D; depth++ {
		h = t.Child(h, rng.IntN(t.B))
		sum += t.MoveValue(h, depth)
	}
	return t.LeafWin(h, sum)
}

// uniformMC values each root move by the mean outcome of uniformly random rollouts through it.
type uniformMC struct{}

func (uniformMC) Plan(t *Tree, budgets []int, rng *rand.Rand) []int {
	n, w := make([]float64, t.B), make([]float64, t.B)
	out := make([]int, len(budgets))
	for i, k := 1, 0; k < len(budgets); i++ {
		a := rng.IntN(t.B)
		c := t.Child(t.root, a)
		n[a]++
		if rollout(t, c, 1, t.MoveValue(c, 0), rng) {
			w[a]++
		}
		k = checkpoints(out, k, budgets, i, func() int { return bestMean(n, w) })
	}
	return out
}

// bestMean is the move of highest mean w/n among those tried (move 0 when none is).
func bestMean(n, w []float64) int {
	best, bv := 0, math.Inf(-1)
	for a := range n {
		if n[a] > 0 && w[a]/n[a] > bv {
			best, bv = a, w[a]/n[a]
		}
	}
	return best
}

// uct is Kocsis and Szepesvári's UCT as Stern §6.1.2 gives it: each node keeps n and the sum of MAX's
// rewards (1 win, 0 loss); the side to move picks the child of highest mean (its own) plus
// √(2 ln n_s / n_q), untried children first in random order; one node joins the tree per rollout,
// and the rest of the rollout is uniformly random.
type uct struct{}

type uctNode struct {
	n, w float64
	kids []*uctNode
}

func (uct) Plan(t *Tree, budgets []int, rng *rand.Rand) []int {
	root := &uctNode{}
	out := make([]int, len(budgets))
	path := make([]*uctNode, 0, t.D+1)
	for i, k := 1, 0; k < len(budgets); i++ {
		node, h, sum, depth := root, t.root, 0.0, 0
		path = append(path[:0], root)
		for depth < t.D {
			if node.kids == nil {
				node.kids = make([]*uctNode, t.B)
			}
			a := uctSelect(node, depth%2 == 0, rng)
			h = t.Child(h, a)
			sum += t.MoveValue(h, depth)
			depth++
			fresh := node.kids[a] == nil
			if fresh {
				node.kids[a] = &uctNode{}
			}
			node = node.kids[a]
			path = append(path, node)
			if fresh {
				break
			}
		}
		r := 0.0
		if rollout(t, h, depth, sum, rng) {
			r = 1
		}
		for _, p := range path {
			p.n++
			p.w += r
		}
		k = checkpoints(out, k, budgets, i, func() int {
			n, w := make([]float64, t.B), make([]float64, t.B)
			for a, c := range root.kids {
				if c != nil {
					n[a], w[a] = c.n, c.w
				}
			}
			return bestMean(n, w)
		})
	}
	return out
}

func uctSelect(node *uctNode, maxToMove bool, rng *rand.Rand) int {
	untried := 0
	for _, c := range node.kids {
		if c == nil {
			untried++
		}
	}
	if untried > 0 {
		j := rng.IntN(untried)
		for a, c := range node.kids {
			if c == nil {
				if j == 0 {
					return a
				}
				j--
			}
		}
	}
	best, bv := 0, math.Inf(-1)
	ln := math.Log(node.n)
	for a, c := range node.kids {
		mean := c.w / c.n
		if !maxToMove {
			mean = 1 - mean
		}
		if v := mean + math.Sqrt(2*ln/c.n); v > bv {
			best, bv = a, v
		}
	}
	return best
}

// alphaBeta searches depth first, children in order, stopping at a node's first winning move for the
// side to move (alpha-beta on win/loss values). Until a root move is proven a win it chooses the root
// move being searched, the first not yet proven a loss.
type alphaBeta struct{}

func (alphaBeta) Plan(t *Tree, budgets []int, _ *rand.Rand) []int {
	out := make([]int, len(budgets))
	k, leaves, cur := 0, 0, 0
	stop := false
	var solve func(h uint64, depth int, sum float64) bool
	solve = func(h uint64, depth int, sum float64) bool {
		if depth == t.D {
			leaves++
			k = checkpoints(out, k, budgets, leaves, func() int { return cur })
			stop = k == len(budgets)
			return t.LeafWin(h, sum)
		}
		maxToMove := depth%2 == 0
		for a := range t.B {
			c := t.Child(h, a)
			w := solve(c, depth+1, sum+t.MoveValue(c, depth))
			if stop || w == maxToMove {
				return w
			}
		}
		return !maxToMove
	}
	for cur = 0; cur < t.B; cur++ {
		c := t.Child(t.root, cur)
		if solve(c, 1, t.MoveValue(c, 0)) || stop {
			break
		}
	}
	cur = min(cur, t.B-1) // all lost: every move is as good
	for ; k < len(budgets); k++ {
		out[k] = cur
	}
	return out
}
