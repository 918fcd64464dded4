package bayes

import (
	"math"
	"slices"

	"aji/analysis/feature"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// SpreadFactor names the term of a bayes-linear explanation that is no weight of the model: the part of
// log p that the wider urgency spread of the move's tactical features accounts for.
const SpreadFactor = "spread the features add (linear)"

// Explain implements predict.Explainer. A move's factors are Stern's nested patterns that match at
// it, largest first: the one whose belief sets the move's value (Share 1), then, for the hierarchy
// to show how the belief changes as the context narrows, the smaller ones nested in it down to T1
// (Share 0: they do not enter the probability), each with its belief, μ ± σ for the ranking model or
// the Beta belief's mean ± standard deviation for the Bernoulli one, and its counts. In a
// hierarchical model (§3.3) a pattern's belief is the forward pass down the chain to it (Hier.belief
// of the chain cut there). A level the dictionary lacks is left out. Pass and a move without a known
// pattern have one factor each. Explaining several moves of one position predicts it once.
//
// The probability (eq. 3.1, an integral over every move's urgency) is no sum over factors, so the
// factor used carries the move's whole log-probability as its LogStrength, the nested ones 0: two
// moves' difference is then log(p_A/p_B) exactly, and says it is the belief used that differs. In the
// linear model that belief is the pattern's and the move's tactical features' together (§3.4).
func (p *Predictor) Explain(pos *game.Position, move board.Point) predict.Explanation {
	ex := p.explain(pos, move)
	if len(ex.Factors) == 0 {
		return ex
	}
	ex.Factors[0].LogStrength = math.Log(ex.Probability)
	if p.m.Linear != nil && !p.bernoulli {
		p.explainLinear(&ex)
	}
	return ex
}

// explainLinear adds to ex the move's tactical features with their beliefs (§3.4), after its
// patterns, and splits its log-probability exactly between the pattern, the spread the features add
// and each feature's mean. The urgency's prior is N(μ_pat + Σ μ_i, σ_pat² + β² + Σ (σ_i² + β²)): the
// pattern's part is the log-probability of a move with the pattern's belief alone (and β); the
// spread's, the change as the features' variances (each σ_i² + β²) widen it; each feature's, the
// change as its μ_i is added in turn; the last feature takes what is left, so the parts add up to
// log p. A feature's part so has the sign of its μ; its size depends on the order, as any sequence of
// gains does. Where a partial urgency lies too far below the field for the grid to see (the move's
// probability underflows there), the pattern keeps the whole log p.
func (p *Predictor) explainLinear(ex *predict.Explanation) {
	i := slices.Index(p.l.moves, ex.Point)
	if i < 0 {
		return
	}
	feats := p.l.features(i)
	if len(feats) == 0 {
		return
	}
	beta2 := p.m.Beta * p.m.Beta
	pat := p.m.Belief(int(p.l.slots[i]))
	mk, vk := p.m.Linear.prior(pat, feats, beta2)
	sk := math.Sqrt(vk)
	m := pat.Mean()
	added := 0.0 // the features' variance
	for _, f := range feats {
		added += p.m.Linear.Var[f] + beta2
	}
	parts := []float64{p.pr.LogWith(mk, sk, m, math.Sqrt(pat.Var()+beta2)), p.pr.LogWith(mk, sk, m, sk)}
	for _, f := range feats[:len(feats)-1] {
		m += p.m.Linear.Mu[f]
		parts = append(parts, p.pr.LogWith(mk, sk, m, sk))
	}
	parts = append(parts, ex.Factors[0].LogStrength)
	first := len(ex.Factors)
	ex.Factors = append(ex.Factors, predict.Factor{Name: SpreadFactor, SD: math.Sqrt(added), Share: 1})
	for _, f := range feats {
		ex.Factors = append(ex.Factors, predict.Factor{Name: feature.IndexName(int(f)) + " (linear)",
			Weight: p.m.Linear.Mu[f], SD: math.Sqrt(p.m.Linear.Var[f]), Share: 1})
	}
	for _, x := range parts {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
	}
	ex.Factors[0].LogStrength = parts[0]
	for j := range len(parts) - 1 {
		ex.Factors[first+j].LogStrength = parts[j+1] - parts[j]
	}
}

func (p *Predictor) explain(pos *game.Position, move board.Point) predict.Explanation {
	if !p.hasSeen || pos.Key() != p.seen {
		p.Predict(pos, &p.dist)
	}
	b := &pos.Board
	ex := predict.Explanation{Point: move}
	if !b.Legal(move, pos.ToPlay) { // pass included
		return ex
	}
	ex.Probability, ex.Rank = p.dist.P[move], p.ranks.Of(&p.dist, p.l.moves, move, true)
	if move == board.Pass {
		ex.Factors = []predict.Factor{p.factor(predict.SlotPass, p.m.PassSlot(), 1)}
		return ex
	}
	keys := p.l.matcher.Keys(b, move, pos.ToPlay)
	d := p.m.Patterns
	id, template, ok := d.LargestStern(keys)
	if !ok {
		ex.Factors = []predict.Factor{p.factor(predict.SlotNone, p.m.NoneSlot(), 1)}
		return ex
	}
	ex.PatternSize = template
	ex.Pattern = predict.SternPatternOf(b, pos.ToPlay, move, template)
	ex.Factors = make([]predict.Factor, 0, template)
	var c chain // a hierarchical model's beliefs come down the chain
	if p.m.Hier != nil && !p.bernoulli {
		c = chainOf(d, &keys)
	}
	level := func(name string, t, id int, share float64) {
		f := p.factor(name, id, share)
		if c.top > 0 {
			at := c
			at.top = t
			g := p.m.Hier.belief(&at)
			f.Weight, f.SD = g.Mean(), math.Sqrt(g.Var())
		}
		ex.Factors = append(ex.Factors, f)
	}
	level(string(predict.AppendSternName(nil, template))+" (used)", template, id, 1)
	for t := template - 1; t >= 1; t-- {
		if k := keys.Of(t); k != 0 {
			if id, ok := d.Lookup(k); ok && d.Entry(id).Size == t {
				level(string(predict.AppendSternName(nil, t))+" (nested, unused)", t, id, 0)
			}
		}
	}
	return ex
}

// factor is slot's belief as a factor called name.
func (p *Predictor) factor(name string, slot int, share float64) predict.Factor {
	mean, sd := p.belief(slot)
	return predict.Factor{Name: name, Weight: mean, Share: share, SD: sd, Seen: int(p.m.Seen[slot]), Played: int(p.m.Played[slot])}
}

// belief is the mean and standard deviation of slot's belief: N(μ, σ²) for the ranking model, the
// Beta(1 + played, 1 + seen − played) of the Bernoulli model's probability.
func (p *Predictor) belief(slot int) (mean, sd float64) {
	if !p.bernoulli {
		return p.m.Mu[slot], math.Sqrt(p.m.Var[slot])
	}
	a := 1 + float64(p.m.Played[slot])
	n := 2 + float64(p.m.Seen[slot]) // α + β
	return a / n, math.Sqrt(a * (n - a) / (n * n * (n + 1)))
}

// priorSD is the σ of a slot never learned from: the N(0, 1) prior's, or Beta(1, 1)'s.
func (p *Predictor) priorSD() float64 {
	if p.bernoulli {
		return math.Sqrt(1.0 / 12)
	}
	return math.Sqrt(PriorVar)
}

// Spread implements predict.Uncertain: the σ of each legal move's belief, without β (in a
// hierarchical model, the σ of the forward pass down the move's chain).
func (p *Predictor) Spread(pos *game.Position, out *[board.NumCells]float64) (prior float64) {
	if !p.hasSeen || pos.Key() != p.seen {
		p.hasSeen = false // the looker moves on to pos; Explain must predict again
		p.l.look(p.m, pos)
	}
	clear(out[:])
	hier := p.m.Hier != nil && !p.bernoulli
	for i, mv := range p.l.moves {
		_, out[mv] = p.belief(int(p.l.slots[i]))
		if hier && mv != board.Pass {
			keys := p.l.matcher.Keys(&pos.Board, mv, pos.ToPlay)
			if c := chainOf(p.m.Patterns, &keys); c.top > 0 {
				out[mv] = math.Sqrt(p.m.Hier.belief(&c).Var())
			}
		}
	}
	return p.priorSD()
}

var (
	_ predict.Explainer = (*Predictor)(nil)
	_ predict.Uncertain = (*Predictor)(nil)
)
