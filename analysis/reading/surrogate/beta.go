package surrogate

import (
	"math"

	"aji/analysis/board"
	"aji/analysis/reading"
)

// Beta is Stern's Beta surrogate with back-off (§4.4.2): every pattern in the two partial-
// transposition tables (attacker moves, defender moves) holds a Beta(α, β) belief about the
// probability q that a node its move generates is TRUE; a new leaf takes the predictive
// probability α/(α + β) of the largest of its move's patterns seen before. It is not safe for
// concurrent use: Prior harvests.
type Beta struct {
	// Alpha0 is the prior pseudo-count α0 = β0 of every template, unless SizePrior.
	Alpha0 float64
	// SizePrior sets α0 = β0 by template instead (Stern Figure 4.10, bottom): 100000·10^−i for
	// T_i with i ≤ 5, 1 beyond — small patterns pinned near 0.5, large ones free to learn.
	SizePrior bool
	Regime    Regime
	// Searches counts the search trees learned from.
	Searches int

	tables [2]map[uint64]betaEntry
}

// betaEntry is one pattern's belief; t is its template.
type betaEntry struct {
	a, b float64
	t    uint8
}

// NewBeta returns an empty Beta model with prior pseudo-counts alpha0 (ignored with sizePrior).
func NewBeta(alpha0 float64, sizePrior bool, regime Regime) *Beta {
	return &Beta{Alpha0: alpha0, SizePrior: sizePrior, Regime: regime, tables: [2]map[uint64]betaEntry{{}, {}}}
}

// Prior0 is α0 = β0 of template t.
func (m *Beta) Prior0(t int) float64 {
	if !m.SizePrior {
		return m.Alpha0
	}
	if t <= 5 {
		return 100000 * math.Pow(10, -float64(t))
	}
	return 1
}

// Prior is the predictive probability that the node move generates is TRUE, from the largest of its
// patterns seen before (Stern §4.4.2); 0.5, the mean of Beta(α0, α0), when none was. Every pattern
// of the move not yet in the table is harvested.
func (m *Beta) Prior(parent *board.Board, move board.Point, toPlay board.Color, target board.Point, attacker board.Color) float64 {
	k := KeysOf(parent, move, target, attacker)
	e, seen := m.harvest(m.tables[side(toPlay, attacker)], &k)
	if !seen {
		return 0.5
	}
	return e.a / (e.a + e.b)
}

// harvest adds every pattern of k missing from tab, and returns the belief of the largest pattern
// that was there before, if any (the patterns present always form a chain T0 … T_i: a pattern
// holds its parent). A new pattern starts from its parent's belief (the pattern one template
// smaller, Stern §4.4.2: "the child pattern contains all of the information of the bigger
// pattern"), T0 from Beta(α0, α0). With the size-dependent prior, where the parent's α0 differs,
// the child keeps the parent's mean and the evidence the parent gathered (α + β − 2α0 of the
// parent) over its own 2α0: copying the pseudo-counts outright would carry T0's 100000 into every
// pattern and leave nothing to learn — this is the reading under which Stern's size-dependent prior
// does what he says it does.
func (m *Beta) harvest(tab map[uint64]betaEntry, k *Keys) (largest betaEntry, seen bool) {
	var parent betaEntry
	for t := range NumTemplates {
		e, ok := tab[k[t]]
		switch {
		case ok:
			largest, seen = e, true
		case t == 0:
			a0 := m.Prior0(0)
			e = betaEntry{a: a0, b: a0}
		case m.Prior0(t) == m.Prior0(t-1):
			e = parent
		default:
			a0 := m.Prior0(t)
			n := max(parent.a+parent.b-2*m.Prior0(t-1), 0) + 2*a0
			mean := parent.a / (parent.a + parent.b)
			e = betaEntry{a: mean * n, b: (1 - mean) * n}
		}
		if !ok {
			e.t = uint8(t)
			tab[k[t]] = e
		}
		parent = e
	}
	return largest, seen
}

// Learn updates the patterns of every template at every node of s's last search tree that the
// regime learns from: a proof adds one to α, a disproof one to β, and an unsolved node with
// probability P of TRUE makes the assumed-density-filtering update of eqs. 4.12–4.13. Updating
// every template, not only the largest, is Stern's: a large pattern is unlikely to be seen again,
// and what it learned would be lost.
func (m *Beta) Learn(s *reading.Solver) {
	observe(s, m.Regime, func(o *observed, q float64) {
		tab := m.tables[0]
		if !o.attacker {
			tab = m.tables[1]
		}
		m.harvest(tab, &o.keys)
		for _, key := range o.keys {
			e := tab[key]
			switch q {
			case 1:
				e.a++
			case 0:
				e.b++
			default:
				e.a, e.b = BetaADF(e.a, e.b, q)
			}
			tab[key] = e
		}
	})
	m.Searches++
}

// BetaADF is the Beta(α', β') with the first two moments of the posterior of q under the prior
// Beta(α, β) and a soft observation of the node's value, TRUE with probability qm (Stern eqs.
// 4.12–4.13, Appendix A.2):
//
//	p(q) ∝ {qm·q + (1 − qm)·(1 − q)}·Beta(q; α, β),
//
// a mixture of Beta(α+1, β) and Beta(α, β+1) with weights ∝ qm·α and (1 − qm)·β. Its moments
// (A.12, A.13) are taken from the mixture, which avoids the cancellation of ⟨q²⟩ − ⟨q⟩² when α
// and β are large; then α' = m(m(1 − m)/v − 1) and β' = α'(1 − m)/m (A.2.2).
func BetaADF(a, b, qm float64) (float64, float64) {
	n := a + b
	w1, w0 := qm*a, (1-qm)*b
	z := w1 + w0
	if !(z > 0) {
		return a, b
	}
	w1, w0 = w1/z, w0/z
	m1, m0 := (a+1)/(n+1), a/(n+1)
	v1, v0 := m1*(1-m1)/(n+2), m0*(1-m0)/(n+2)
	m := w1*m1 + w0*m0
	v := w1*(v1+(m1-m)*(m1-m)) + w0*(v0+(m0-m)*(m0-m))
	s := m*(1-m)/v - 1 // α' + β'
	if !(v > 0) || !(s > 0) || math.IsInf(s, 0) {
		return a, b
	}
	return m * s, (1 - m) * s
}

// Patterns counts the patterns in the attacker's and the defender's table by template.
func (m *Beta) Patterns() [2][NumTemplates]int {
	var out [2][NumTemplates]int
	for i, tab := range m.tables {
		for _, e := range tab {
			out[i][e.t]++
		}
	}
	return out
}
