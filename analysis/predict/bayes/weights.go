package bayes

import (
	"math"

	"aji/analysis/feature"
	"aji/analysis/predict"
)

// Weights implements predict.Lister: every pattern's belief, μ ± σ for the ranking models or the
// Beta belief's mean ± standard deviation for the Bernoulli one (as Explain gives them), with the
// times it was seen at a legal move and played, then the pass and no-pattern slots, and for the
// linear model its tactical features' beliefs. In a hierarchical model a pattern's number is its own
// evidence message m_b (eq. 3.5; a T1 root's is its marginal): its belief at a move is the forward
// pass down the chain of patterns nested there (eq. 3.4), which the inspector shows.
func (p *Predictor) Weights() *predict.Weights {
	m := p.m
	family, measure := Kind, predict.Gaussian
	switch {
	case p.bernoulli:
		family, measure = "bernoulli", predict.Beta
	case m.Hier != nil:
		family = HierName
	case m.Linear != nil:
		family = LinearName
	}
	n := len(m.Mu)
	if m.Linear != nil {
		n += feature.NumIndices
	}
	w := predict.NewWeights(p.name, family, measure, n)
	if m.Linear != nil && !p.bernoulli {
		for i := range feature.NumIndices {
			if f, _ := feature.FromIndex(i); f != feature.MCOwner { // left out of the model
				w.AddFeature(i, m.Linear.Mu[i], math.Sqrt(m.Linear.Var[i]), -1, -1)
			}
		}
	}
	hier := m.Hier != nil && !p.bernoulli
	if hier {
		w.Note = "μ ± σ of each pattern's own evidence (Stern eq. 3.5; a T1 pattern's marginal): its belief at a move adds the patterns nested in it, as the inspector shows"
	}
	w.AddShapes(m.Patterns, 0, func(id int) (float64, float64, int64, int64) {
		mean, sd := p.belief(id)
		if hier {
			g := m.Hier.Back[id]
			mean, sd = g.Mean(), math.Sqrt(g.Var())
		}
		return mean, sd, int64(m.Seen[id]), int64(m.Played[id])
	})
	for k, slot := range []int{m.PassSlot(), m.NoneSlot()} {
		mean, sd := p.belief(slot)
		w.AddSlot(k, slot, mean, sd, int64(m.Seen[slot]), int64(m.Played[slot]))
	}
	return w
}

var _ predict.Lister = (*Predictor)(nil)

// Model returns the model the predictor reads.
func (p *Predictor) Model() *Model { return p.m }
