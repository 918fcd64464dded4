package bayes

import "aji/analysis/pattern"

// The hierarchical Gaussian pattern model (Stern §3.3): the patterns that match at a move form a
// chain T1 ⊂ T2 ⊂ … ⊂ T_n, and each pattern's value is Gaussian about its parent's, x_{i+1} ~
// N(x_i, β_i²), with the T1 patterns (the point and its local features) the roots, N(0, 100) a priori
// (§3.3.2). Only the largest pattern's value is observed, through the move's urgency, so a large
// pattern seen rarely borrows strength from the smaller ones it contains. Each pattern stores one
// Gaussian (Hier.Back): a root its marginal, every other pattern its backward message m_b (eq. 3.5),
// uniform until it is observed. The forward pass from the root (eq. 3.4) gives the belief about the
// largest pattern's value; an observation's message updates the backward messages up the chain.
type Hier struct {
	Back  []Gauss                       // per pattern id: a T1 pattern's marginal, any other's m_b
	BetaT [pattern.NumStern - 1]float64 // β_i between templates T_i and T_{i+1}
}

// HierRootVar is the prior variance of a root (T1) pattern's value (Stern §3.3.2: N(0, 100)).
const HierRootVar = 100

// DefaultBetaT is β_i; Stern estimates them from a flat model (Figure 3.19) but notes that "very
// similar results are achieved if β_i is set to 1".
const DefaultBetaT = 1

// newHier returns the hierarchy of a model over d before any observation: roots at their prior,
// every other message uniform.
func newHier(d *pattern.Dictionary) *Hier {
	h := &Hier{Back: make([]Gauss, d.Len())}
	for id := range h.Back {
		if d.Entry(id).Size == 1 {
			h.Back[id] = MeanVar(0, HierRootVar)
		}
	}
	for i := range h.BetaT {
		h.BetaT[i] = DefaultBetaT
	}
	return h
}

// chain is the ids of the patterns that match at a move, by template (index t − 1; −1 where none
// does), and the largest template that matches (0: none).
type chain struct {
	ids [pattern.NumStern]int32
	top int
}

// chainOf looks up every template's key of k in d.
func chainOf(d *pattern.Dictionary, k *pattern.SternKeys) chain {
	var c chain
	for t := range pattern.NumStern {
		c.ids[t] = -1
		if id, ok := d.Lookup(k[t]); ok && d.Entry(id).Size == t+1 {
			c.ids[t] = int32(id)
			c.top = t + 1
		}
	}
	return c
}

// belief is the belief about the value of c's largest pattern: the forward pass of eq. 3.4 from the
// chain's smallest pattern — its stored marginal when it is a root, else a N(0, 100) in its stead
// (a chain whose T1 pattern was not harvested) — down to the largest, each step dividing out the
// next pattern's own message and adding the noise between their templates (skipped templates add
// theirs too).
func (h *Hier) belief(c *chain) Gauss {
	var down Gauss // the message from the parent side into the current pattern
	started := false
	gap := 0.0 // β² accumulated since the last pattern of the chain
	for t := 0; t < c.top; t++ {
		if t > 0 {
			gap += h.BetaT[t-1] * h.BetaT[t-1]
		}
		id := c.ids[t]
		if id < 0 {
			continue
		}
		back := h.Back[id]
		switch {
		case !started && t == 0:
			down = Gauss{} // a root: its stored Gaussian is its marginal
		case !started:
			down = MeanVar(0, HierRootVar)
		default:
			down = down.Noisy(gap)
		}
		started, gap = true, 0
		if t+1 == c.top {
			return down.Mul(back)
		}
		// The forward message to the next pattern: this one's marginal without the next's message
		// (eq. 3.4); the next is the chain's next present pattern.
		next, nextGap := int32(-1), 0.0
		for u := t + 1; u < c.top; u++ {
			nextGap += h.BetaT[u-1] * h.BetaT[u-1]
			if c.ids[u] >= 0 {
				next = c.ids[u]
				break
			}
		}
		down = down.Mul(back).Div(h.Back[next].Noisy(nextGap))
	}
	return MeanVar(PriorMu, PriorVar) // no pattern matches
}

// observe adds the message obs about the value of c's largest pattern to the hierarchy: the
// largest pattern's message takes it in, and each smaller pattern's message replaces the old
// contribution of the next one with the new (eq. 3.5), up to the root.
func (h *Hier) observe(c *chain, obs Gauss) {
	if c.top == 0 {
		return
	}
	id := c.ids[c.top-1]
	old := h.Back[id]
	h.Back[id] = old.Mul(obs)
	fresh := h.Back[id]
	gap := 0.0
	for t := c.top - 2; t >= 0; t-- {
		gap += h.BetaT[t] * h.BetaT[t]
		id := c.ids[t]
		if id < 0 {
			continue
		}
		before := h.Back[id]
		h.Back[id] = before.Div(old.Noisy(gap)).Mul(fresh.Noisy(gap))
		old, fresh, gap = before, h.Back[id], 0
	}
}
