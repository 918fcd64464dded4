package bayes

import (
	"math"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Explain implements predict.Explainer. A move's factors are Stern's nested patterns that match at
// it, largest first: the one whose belief sets the move's value (Share 1), then, for the hierarchy
// to show how the belief changes as the context narrows, the smaller ones nested in it down to T1
// (Share 0: they do not enter the probability), each with its belief, μ ± σ for the ranking model or
// the Beta belief's mean ± standard deviation for the Bernoulli one, and its counts. In a
// hierarchical model (§3.3) a pattern's belief is the forward pass down the chain to it (Hier.belief
// of the chain cut there). A level the dictionary lacks is left out. Pass and a move without a known
// pattern have one factor each. Explaining several moves of one position predicts it once.
func (p *Predictor) Explain(pos *game.Position, move board.Point) predict.Explanation {
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
