package bayes

import (
	"math"
	"slices"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// looker finds each legal move's slot in a model: its largest pattern of T1–T14 in the
// dictionary (the back-off of §3.2.3), pass, or none; and for a hierarchical model each move's whole
// chain of patterns. The trainer and the predictors share it.
type looker struct {
	matcher pattern.SternMatcher
	moves   []board.Point // the legal moves, pass last
	slots   []int32       // each move's slot
	chains  []chain       // each move's patterns (a hierarchical model only)

	// A linear model's tactical features: move i's are feats[featEnd[i−1]:featEnd[i]].
	ext     feature.Extractor
	set     feature.Set
	feats   []int32
	featEnd []int32
}

// features of move i (a linear model).
func (l *looker) features(i int) []int32 {
	from := int32(0)
	if i > 0 {
		from = l.featEnd[i-1]
	}
	return l.feats[from:l.featEnd[i]]
}

// look fills moves and slots (and chains) for pos.
func (l *looker) look(m *Model, pos *game.Position) {
	b := &pos.Board
	l.matcher.Sync(b)
	l.moves, l.slots, l.chains = l.moves[:0], l.slots[:0], l.chains[:0]
	none := int32(m.NoneSlot())
	for _, p := range b.Points() {
		if !b.Legal(p, pos.ToPlay) {
			continue
		}
		slot := none
		keys := l.matcher.Keys(b, p, pos.ToPlay)
		if m.Hier != nil {
			c := chainOf(m.Patterns, &keys)
			if c.top > 0 {
				slot = c.ids[c.top-1]
			}
			l.chains = append(l.chains, c)
		} else if id, _, ok := m.Patterns.LargestStern(keys); ok {
			slot = int32(id)
		}
		l.moves = append(l.moves, p)
		l.slots = append(l.slots, slot)
	}
	l.moves = append(l.moves, board.Pass)
	l.slots = append(l.slots, int32(m.PassSlot()))
	if m.Hier != nil {
		l.chains = append(l.chains, chain{})
	}
	if m.Linear != nil {
		l.ext.Extract(pos, &l.set)
		l.feats, l.featEnd = l.feats[:0], l.featEnd[:0]
		for _, mv := range l.moves {
			l.feats = moveFeatures(l.feats, &l.set.At[mv])
			l.featEnd = append(l.featEnd, int32(len(l.feats)))
		}
	}
}

// Predictor gives each legal move the probability that it is the most urgent under the full
// ranking model (eq. 3.1, by Predictive), or, for the Bernoulli model, eq. 3.3's probability
// renormalised over the position's moves (p_v/(1 − p_v) up to a common factor; Stern notes that the
// unnormalised form wastes probability on zero or several moves). One Predictor per goroutine.
type Predictor struct {
	name      string
	m         *Model
	bernoulli bool
	l         looker
	pr        Predictive

	order   []int32 // move indices sorted by slot
	groupOf []int32 // each move's group
	gm, gs  []float64
	gc      []int32
	gp      []float64

	// The last position predicted and its distribution: Explain on the same position reuses them (the
	// looker's moves and the matcher are that position's), so explaining every point of a position
	// costs one prediction.
	seen    game.Key
	hasSeen bool
	dist    predict.Distribution
	ranks   predict.Ranks
}

// NewPredictor makes a predictor for m: the ranking model's, or with bernoulli the counting one's.
func NewPredictor(name string, m *Model, bernoulli bool) *Predictor {
	return &Predictor{name: name, m: m, bernoulli: bernoulli}
}

func (p *Predictor) Name() string { return p.name }

// Predict implements predict.Predictor. It always computes afresh, and remembers the result for
// Explain.
func (p *Predictor) Predict(pos *game.Position, out *predict.Distribution) {
	p.predict(pos, out)
	p.dist = *out
	p.seen, p.hasSeen = pos.Key(), true
	p.ranks.Reset()
}

func (p *Predictor) predict(pos *game.Position, out *predict.Distribution) {
	p.l.look(p.m, pos)
	out.Reset(pos.Board.Size())
	p.group()
	if p.bernoulli {
		total := 0.0
		for k := range p.gp {
			q := p.m.Bernoulli(int(p.gm[k]))
			p.gp[k] = q / (1 - q)
			total += float64(p.gc[k]) * p.gp[k]
		}
		for k := range p.gp {
			p.gp[k] /= total
		}
	} else {
		p.pr.Probabilities(p.gm, p.gs, p.gc, p.gp)
	}
	for i, mv := range p.l.moves {
		out.P[mv] = p.gp[p.groupOf[i]]
	}
}

// group gathers the moves by slot: for each group its urgency's mean and spread (or, for the
// Bernoulli model, its slot in gm), its size, and each move's group.
func (p *Predictor) group() {
	n := len(p.l.moves)
	p.order = p.order[:0]
	for i := range n {
		p.order = append(p.order, int32(i))
	}
	slots := p.l.slots
	slices.SortFunc(p.order, func(a, b int32) int { return int(slots[a]) - int(slots[b]) })
	p.groupOf = slices.Grow(p.groupOf[:0], n)[:n]
	p.gm, p.gs, p.gc, p.gp = p.gm[:0], p.gs[:0], p.gc[:0], p.gp[:0]
	beta2 := p.m.Beta * p.m.Beta
	linear := p.m.Linear != nil && !p.bernoulli // its moves differ by their features: a group each
	last := int32(-1)
	for _, i := range p.order {
		slot := slots[i]
		if slot != last || linear {
			last = slot
			switch {
			case linear:
				m, v := p.m.Linear.prior(p.m.Belief(int(slot)), p.l.features(int(i)), beta2)
				p.gm = append(p.gm, m)
				p.gs = append(p.gs, math.Sqrt(v))
			case p.bernoulli:
				p.gm = append(p.gm, float64(slot))
				p.gs = append(p.gs, 0)
			case p.m.Hier != nil && p.l.chains[i].top > 0:
				// Moves with the same largest pattern have the same chain: it is nested in it.
				g := p.m.Hier.belief(&p.l.chains[i])
				p.gm = append(p.gm, g.Mean())
				p.gs = append(p.gs, math.Sqrt(g.Var()+beta2))
			default:
				p.gm = append(p.gm, p.m.Mu[slot])
				p.gs = append(p.gs, math.Sqrt(p.m.Var[slot]+beta2))
			}
			p.gc = append(p.gc, 0)
			p.gp = append(p.gp, 0)
		}
		k := len(p.gc) - 1
		p.gc[k]++
		p.groupOf[i] = int32(k)
	}
}

// Shapes implements predict.Shaper: the model's shape dictionary, whose largest match is a move's shape
// factor.
func (p *Predictor) Shapes() *pattern.Dictionary { return p.m.Patterns }
