package surrogate

import (
	"math"

	"aji/analysis/board"
	"aji/analysis/predict/bayes"
	"aji/analysis/reading"
)

// Hier is Stern's hierarchical Gaussian surrogate (§4.4.2 on §3.3): the patterns of a move form the
// chain T0 ⊂ T1 ⊂ … ⊂ T7, each pattern's latent value is Gaussian about its parent's, x_{i+1} ~
// N(x_i, β_i²), the T0 pattern's N(0, RootVar) a priori, and the move's value y ~ N(x_7, β²).
// The node the move generates is TRUE when y > 0 (eq. 4.14), so its prior is P(y > 0) = Φ(μ/σ)
// under the predictive N(μ, σ²) of y. Each pattern stores one Gaussian, as in §3.3.2: the T0
// pattern its marginal, every other its backward message m_b, flat until it is observed. It is not
// safe for concurrent use: Prior harvests.
type Hier struct {
	BetaT   float64 // β_i between successive templates (Stern: "very similar results" with 1)
	Beta    float64 // β between the largest pattern's value and the move's
	RootVar float64 // the prior variance of a T0 pattern's value (§3.3.2: 100)
	// PseudoVar, when positive, adds to every new leaf a soft pseudo-observation y ~ N(0,
	// PseudoVar) before its prior is read (Stern Figure 4.12, middle, with 0.5), so that patterns
	// seen little give priors near 0.5.
	PseudoVar float64
	Regime    Regime
	Searches  int // search trees learned from

	tables [2]map[uint64]hierEntry
}

// hierEntry is one pattern's stored Gaussian; t is its template.
type hierEntry struct {
	g bayes.Gauss
	t uint8
}

// Defaults of Hier.
const (
	DefaultBetaT     = 1
	DefaultBeta      = 1
	DefaultRootVar   = bayes.HierRootVar
	DefaultPseudoVar = 0.5
)

// NewHier returns an empty hierarchical model.
func NewHier(betaT, beta, rootVar, pseudoVar float64, regime Regime) *Hier {
	return &Hier{BetaT: betaT, Beta: beta, RootVar: rootVar, PseudoVar: pseudoVar, Regime: regime,
		tables: [2]map[uint64]hierEntry{{}, {}}}
}

// chain is the stored Gaussians of one move's patterns, T0 first.
type chain [NumTemplates]bayes.Gauss

// load harvests the missing patterns of k into tab — a T0 pattern at its prior N(0, RootVar), any
// other with a flat message (§3.3.2), which leaves the belief about it its parent's — and returns
// the chain.
func (m *Hier) load(tab map[uint64]hierEntry, k *Keys) chain {
	var c chain
	for t := range NumTemplates {
		e, ok := tab[k[t]]
		if !ok {
			e.t = uint8(t)
			if t == 0 {
				e.g = bayes.MeanVar(0, m.RootVar)
			}
			tab[k[t]] = e
		}
		c[t] = e.g
	}
	return c
}

// store writes the chain back.
func store(tab map[uint64]hierEntry, k *Keys, c *chain) {
	for t := range NumTemplates {
		tab[k[t]] = hierEntry{g: c[t], t: uint8(t)}
	}
}

// belief is the marginal of x_7, the largest pattern's value: the forward pass of eqs. 3.6 and
// 3.4 from the root, m_f,0 = p(x_0)/γ(m_b,1), m_f,i = γ(m_f,i−1)·m_b,i/γ(m_b,i+1), and the
// marginal γ(m_f,6)·m_b,7, where γ adds the noise β_i².
func (m *Hier) belief(c *chain) bayes.Gauss {
	b2 := m.BetaT * m.BetaT
	down := c[0].Div(c[1].Noisy(b2))
	for i := 1; i < NumTemplates-1; i++ {
		down = down.Noisy(b2).Mul(c[i]).Div(c[i+1].Noisy(b2))
	}
	return down.Noisy(b2).Mul(c[NumTemplates-1])
}

// observe takes in a message obs about x_7: the largest pattern's backward message multiplies by
// it, and each smaller pattern's stored Gaussian replaces the old contribution of the next pattern
// with the new, γ(m_b,i+1) (eq. 3.5), down to the root's marginal.
func (m *Hier) observe(c *chain, obs bayes.Gauss) {
	b2 := m.BetaT * m.BetaT
	last := NumTemplates - 1
	old := c[last]
	c[last] = nonNegative(old.Mul(obs))
	fresh := c[last]
	for i := last - 1; i >= 0; i-- {
		before := c[i]
		c[i] = nonNegative(before.Div(old.Noisy(b2)).Mul(fresh.Noisy(b2)))
		old, fresh = before, c[i]
	}
}

// nonNegative clears a precision that rounding pushed below zero: every message observe stores is
// a product of messages of non-negative precision.
func nonNegative(g bayes.Gauss) bayes.Gauss {
	if g.Pi < 0 {
		g.Pi = 0
	}
	return g
}

// predictive is the distribution of the move's value y.
func (m *Hier) predictive(c *chain) bayes.Gauss { return m.belief(c).Noisy(m.Beta * m.Beta) }

// Prior is P(y > 0) = Φ(μ/σ) under the predictive distribution of the move's value (eq. 4.14),
// after harvesting the move's patterns and, with PseudoVar, the pseudo-observation.
func (m *Hier) Prior(parent *board.Board, move board.Point, toPlay board.Color, target board.Point, attacker board.Color) float64 {
	k := KeysOf(parent, move, target, attacker)
	tab := m.tables[side(toPlay, attacker)]
	c := m.load(tab, &k)
	if m.PseudoVar > 0 {
		// A Gaussian observation of y reaches x_7 through the noise β² (eq. 2.19).
		m.observe(&c, bayes.MeanVar(0, m.PseudoVar+m.Beta*m.Beta))
	}
	store(tab, &k, &c)
	y := m.predictive(&c)
	return clampProb(bayes.Phi(y.Mean() / math.Sqrt(y.Var())))
}

// clampProb keeps a prior off 0 and 1, which probability propagation would read as a proof.
func clampProb(p float64) float64 { return min(max(p, 1e-12), 1-1e-12) }

// Learn updates the chain of every node of s's last search tree that the regime learns from by the
// sign constraint of eq. 4.14 — y > 0 for a proof, y < 0 for a disproof, the mixture P·[y > 0] +
// (1 − P)·[y < 0] for an unsolved node — moment-matched (assumed-density filtering, §2.4.2).
func (m *Hier) Learn(s *reading.Solver) {
	observe(s, m.Regime, func(o *observed, q float64) {
		tab := m.tables[0]
		if !o.attacker {
			tab = m.tables[1]
		}
		c := m.load(tab, &o.keys)
		m.learnSign(&c, q)
		store(tab, &o.keys, &c)
	})
	m.Searches++
}

// learnSign observes that the move's value is positive with probability q: the predictive of y
// is moment-matched to its product with the constraint, the message to y is the quotient of the
// two (eq. 2.26), and it reaches x_7 through the noise β².
func (m *Hier) learnSign(c *chain, q float64) {
	b2 := m.Beta * m.Beta
	y := m.predictive(c)
	mu, v := y.Mean(), y.Var()
	mean, variance := SoftSign(mu, v, q)
	// A soft constraint can widen the belief (two far-apart halves); a message of negative
	// precision would not survive the noise factors, so it keeps the mean's shift and no more
	// than the prior's variance.
	variance = min(variance, v)
	if !(variance > 0) || math.IsNaN(mean) {
		return
	}
	msg := bayes.Gauss{Pi: 1/variance - 1/v, Tau: mean/variance - mu/v}
	m.observe(c, msg.Noisy(b2))
}

// SoftSign is the mean and variance of the Gaussian closest to p(y) ∝ [q·I(y > 0) + (1 − q)·I(y <
// 0)]·N(y; μ, σ²) (Stern eqs. 2.28–2.31): q = 1 is the truncation to y > 0, q = 0 to y < 0, and
// between them the mixture of the two truncated halves, weighted q·Φ(μ/σ) and (1 − q)·Φ(−μ/σ).
// Each half comes from bayes.Truncate's stable form, so the moments hold far into the tails, where
// eqs. 2.29–2.30 as written cancel.
func SoftSign(mu, variance, q float64) (mean, v float64) {
	m1, v1 := bayes.Truncate(mu, variance, 1)
	n0, v0 := bayes.Truncate(-mu, variance, 1)
	m0 := -n0
	switch {
	case q >= 1:
		return m1, v1
	case q <= 0:
		return m0, v0
	}
	t := mu / math.Sqrt(variance)
	w1, w0 := q*bayes.Phi(t), (1-q)*bayes.Phi(-t)
	z := w1 + w0
	w1, w0 = w1/z, w0/z
	mean = w1*m1 + w0*m0
	v = w1*(v1+(m1-mean)*(m1-mean)) + w0*(v0+(m0-mean)*(m0-mean))
	return mean, v
}

// Patterns counts the patterns in the attacker's and the defender's table by template.
func (m *Hier) Patterns() [2][NumTemplates]int {
	var out [2][NumTemplates]int
	for i, tab := range m.tables {
		for _, e := range tab {
			out[i][e.t]++
		}
	}
	return out
}
