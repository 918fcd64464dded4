package cfgbt

import (
	"math"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
)

// Predictor gives each legal move the probability γ_team / Σ γ_team over all legal moves (Coulom §2.2;
// Graf §II's π(s, a)), a team being the move's features of the model's variant and its path features.
// It keeps the common fate graph up to date incrementally while the positions it sees follow one
// another by single moves (Algorithm 2). One Predictor per goroutine.
type Predictor struct {
	name  string
	m     *Model
	teams *teams
	team  []int32
	moves []board.Point
	owner bool // the Monte Carlo owner feature is computed

	// The last position predicted and its distribution, for Explain (as mm's predictor does).
	seen    game.Key
	hasSeen bool
	dist    predict.Distribution
	ranks   predict.Ranks
	runs    int // feature computations so far, for tests
}

// NewPredictor makes a predictor for model m; withOwner asks for the Monte Carlo owner feature, used
// only if the model was trained with it (63 playouts per position).
func NewPredictor(name string, m *Model, withOwner bool) *Predictor {
	owner := withOwner && m.Owner
	return &Predictor{name: name, m: m, teams: newTeams(m, owner, true), team: make([]int32, 0, 64), owner: owner}
}

// Name implements predict.Predictor.
func (p *Predictor) Name() string { return p.name }

// Model returns the predictor's model.
func (p *Predictor) Model() *Model { return p.m }

// PathGamma returns the γ of path label l (a cfg path feature), if the model has one: what the CFG view
// shows for a walk.
func (p *Predictor) PathGamma(l uint32) (float64, bool) {
	i, ok := p.m.PathIndex(l)
	if !ok {
		return 0, false
	}
	return p.m.Gamma[i], true
}

// Predict implements predict.Predictor. It always computes afresh and remembers the result for Explain.
func (p *Predictor) Predict(pos *game.Position, out *predict.Distribution) {
	p.compute(pos)
	*out = p.dist
}

func (p *Predictor) compute(pos *game.Position) {
	p.runs++
	p.moves = p.teams.Position(pos)
	d := &p.dist
	d.Reset(pos.Board.Size())
	total := 0.0
	for _, mv := range p.moves {
		p.team = p.teams.Team(p.team[:0], mv)
		s := 1.0
		for _, i := range p.team {
			s *= p.m.Gamma[i]
		}
		d.P[mv] = s
		total += s
	}
	d.Scale(pos, p.moves, total)
	p.seen, p.hasSeen = pos.Key(), true
	p.ranks.Reset()
}

// Explain implements predict.Explainer: the tactical levels, the shape and the path features (with the
// count they were seen in training) that fired for move, with γ, Elo and share of the move's
// log-strength. Explaining several moves of one position computes its features once.
func (p *Predictor) Explain(pos *game.Position, move board.Point) predict.Explanation {
	if !p.hasSeen || pos.Key() != p.seen {
		p.compute(pos)
	}
	ex := predict.Explanation{Point: move, Probability: p.dist.P[move], Rank: p.rank(move)}
	if !p.teams.Set().Legal(move) {
		return ex
	}
	p.team = p.teams.Team(p.team[:0], move)
	ex.Factors = make([]predict.Factor, 0, len(p.team))
	abs := 0.0
	for _, i := range p.team {
		abs += math.Abs(math.Log(p.m.Gamma[i]))
	}
	base := p.m.PathBase()
	for _, i := range p.team {
		g := p.m.Gamma[i]
		var name string
		switch {
		case int(i) < feature.NumIndices:
			name = feature.IndexName(int(i))
		case int(i) < base:
			size := 3 // Coulom's size-3 circle is the 3x3 square
			if p.m.Variant == Small {
				name = string(predict.AppendShape3Name(nil, int(i)-feature.NumIndices))
			} else {
				e := p.m.Shapes.Entry(int(i) - feature.NumIndices)
				name = mm.ShapeName(e)
				size = e.Size
			}
			ex.PatternSize = size
			ex.Pattern = predict.PatternOf(&pos.Board, pos.ToPlay, move, size)
		default:
			k := int(i) - base
			name = pathName(p.m.Labels[k], p.m.Counts[k])
		}
		share := 0.0
		if abs > 0 {
			share = math.Log(g) / abs
		}
		ex.Factors = append(ex.Factors, predict.Factor{Name: name, Weight: g, Elo: 400 * math.Log10(g), Share: share, LogStrength: math.Log(g)})
	}
	return ex
}

// rank is predict.Distribution.Rank of move in the remembered position.
func (p *Predictor) rank(move board.Point) int {
	return p.ranks.Of(&p.dist, p.moves, move, p.teams.Set().Legal(move))
}

// Shapes implements predict.Shaper: the model's shape dictionary, whose largest match is a move's shape
// factor.
func (p *Predictor) Shapes() *pattern.Dictionary { return p.m.Shapes }
