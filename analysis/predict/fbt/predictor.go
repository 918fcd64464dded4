package fbt

import (
	"cmp"
	"math"
	"slices"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
)

// Predictor gives each legal move the probability exp(E_G) / Σ exp(E_G') over all legal moves (Xiao
// eqs. 3.2–3.3), E_G being the strength (eq. 3.1) of the move's feature group. One Predictor per
// goroutine.
type Predictor struct {
	name  string
	m     *Model
	teams *teams
	team  []int32
	moves []board.Point
	owner bool                    // the Monte Carlo owner feature is computed
	e     [board.NumCells]float64 // the strength of each legal move of the last position

	// The last position predicted and its distribution, for Explain (as mm's predictor does).
	seen    game.Key
	hasSeen bool
	dist    predict.Distribution
	ranks   predict.Ranks
}

// NewPredictor makes a predictor for model m; withOwner asks for the Monte Carlo owner feature, used
// only if the model has it (it costs 63 playouts per position).
func NewPredictor(name string, m *Model, withOwner bool) *Predictor {
	owner := withOwner && m.Owner()
	return &Predictor{name: name, m: m, teams: newTeams(m, owner), team: make([]int32, 0, 64), owner: owner}
}

func (p *Predictor) Name() string { return p.name }

// UsesOwner implements predict.OwnerUser.
func (p *Predictor) UsesOwner() bool { return p.owner }

// Predict implements predict.Predictor. It always computes afresh (benchmarks and evaluations call it on
// one position repeatedly and must measure the work), and remembers the result for Explain.
func (p *Predictor) Predict(pos *game.Position, out *predict.Distribution) {
	p.compute(pos)
	*out = p.dist
}

func (p *Predictor) compute(pos *game.Position) {
	p.moves = p.teams.Position(pos)
	out := &p.dist
	out.Reset(pos.Board.Size())
	var sum [MaxK]float64
	top := math.Inf(-1)
	for _, mv := range p.moves {
		p.team = p.teams.Team(p.team[:0], mv)
		e := p.m.Strength(p.team, sum[:])
		p.e[mv] = e
		top = max(top, e)
	}
	total := 0.0
	for _, mv := range p.moves {
		x := math.Exp(p.e[mv] - top) // relative to the strongest, so no exp overflows
		out.P[mv] = x
		total += x
	}
	out.Scale(pos, p.moves, total)
	p.seen, p.hasSeen = pos.Key(), true
	p.ranks.Reset()
}

// Explain implements predict.Explainer: the move's features with their strengths w (as Weight = e^w, the
// γ of a Bradley-Terry model), and every pair's interaction ⟨v_f, v_g⟩.
func (p *Predictor) Explain(pos *game.Position, move board.Point) predict.Explanation {
	if !p.hasSeen || pos.Key() != p.seen {
		p.compute(pos)
	}
	set := p.teams.mm.Set()
	ex := predict.Explanation{Point: move, Probability: p.dist.P[move], Rank: p.ranks.Of(&p.dist, p.moves, move, set.Legal(move))}
	if !set.Legal(move) {
		return ex
	}
	team := p.teams.Team(nil, move)
	ex.Factors = make([]predict.Factor, len(team))
	abs := 0.0
	for a, f := range team {
		abs += math.Abs(float64(p.m.W[f]))
		for b := a + 1; b < len(team); b++ {
			v := p.m.Interaction(f, team[b])
			ex.Interactions = append(ex.Interactions, predict.Interaction{A: a, B: b, Value: v})
			abs += math.Abs(v)
		}
	}
	slices.SortStableFunc(ex.Interactions, func(x, y predict.Interaction) int {
		return cmp.Compare(math.Abs(y.Value), math.Abs(x.Value))
	})
	for a, f := range team {
		w := float64(p.m.W[f])
		name := p.m.FeatureName(f)
		if size, ok := p.m.shapeSize(f); ok {
			ex.PatternSize = max(ex.PatternSize, size)
		}
		share := 0.0
		if abs > 0 {
			share = w / abs
		}
		g := math.Exp(w)
		ex.Factors[a] = predict.Factor{Name: name, Weight: g, Elo: bt.Elo(g), Share: share, LogStrength: w}
	}
	if ex.PatternSize > 0 {
		ex.Pattern = predict.PatternOf(&pos.Board, pos.ToPlay, move, ex.PatternSize)
	}
	return ex
}

// FeatureName names feature f for a Go player.
func (m *Model) FeatureName(f int32) string {
	i := int(f)
	switch {
	case i < feature.NumIndices:
		return feature.IndexName(i)
	case i < feature.NumIndices+m.Shapes.Len():
		return mm.ShapeName(m.Shapes.Entry(i - feature.NumIndices))
	}
	return string(predict.AppendShape3Name(nil, i-feature.NumIndices-m.Shapes.Len()))
}

// shapeSize is the size of the shape feature f is (3 for a 3x3 class), or false.
func (m *Model) shapeSize(f int32) (int, bool) {
	i := int(f) - feature.NumIndices
	switch {
	case i < 0:
		return 0, false
	case i < m.Shapes.Len():
		return m.Shapes.Entry(i).Size, true
	}
	return 3, true // Coulom's size-3 circle is the 3x3 square
}

// Shapes implements predict.Shaper: the model's shape dictionary, whose largest match is a move's shape
// factor.
func (p *Predictor) Shapes() *pattern.Dictionary { return p.m.Shapes }
