package mm

import (
	"math"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// Predictor gives each legal move the probability γ_team / Σ γ_team over all legal moves (Coulom §2.2),
// a team being the move's feature levels and its largest matching shape. One Predictor per goroutine.
type Predictor struct {
	name    string
	m       *Model
	owner   bool // compute the Monte Carlo owner feature (if the model has it)
	ext     feature.Extractor
	set     feature.Set
	tracker pattern.Tracker
	team    []int32

	// The last position whose features were computed, and its distribution: Explain on the same
	// position reuses them, so explaining every point of a position costs one prediction, not one per
	// point (which with the Monte Carlo owner feature is 63 playouts each).
	seen    game.Key
	hasSeen bool
	dist    predict.Distribution
	ranks   predict.Ranks
	runs    int // feature computations so far, for tests
}

// NewPredictor makes a predictor for model m; withOwner asks for the Monte Carlo owner feature, used only
// if the model was trained with it (it costs 63 playouts per position).
func NewPredictor(name string, m *Model, withOwner bool) *Predictor {
	return &Predictor{name: name, m: m, owner: withOwner && m.Owner}
}

func (p *Predictor) Name() string { return p.name }

// UsesOwner implements predict.OwnerUser.
func (p *Predictor) UsesOwner() bool { return p.owner }

// features computes the feature levels and pattern keys of every legal move of pos.
func (p *Predictor) features(pos *game.Position) {
	p.runs++
	p.ext.Extract(pos, &p.set)
	if p.owner {
		p.ext.AddOwner(pos, &p.set)
	}
	p.tracker.Sync(&pos.Board)
}

// teamOf appends the γ indices of move mv (its feature levels and largest shape) to dst.
func teamOf(dst []int32, m *Model, set *feature.Set, tr *pattern.Tracker, mv board.Point, toPlay board.Color, owner bool) []int32 {
	lv := &set.At[mv]
	for f, level := range lv {
		if level != 0 && (owner || feature.Feature(f) != feature.MCOwner) {
			dst = append(dst, int32(feature.Index(feature.Feature(f), level)))
		}
	}
	if mv != board.Pass && m.Shapes.Len() > 0 {
		if id, _, ok := tr.Largest(m.Shapes, mv, toPlay); ok {
			dst = append(dst, int32(ShapeIndex(id)))
		}
	}
	return dst
}

func (p *Predictor) strength(mv board.Point, toPlay board.Color) float64 {
	p.team = teamOf(p.team[:0], p.m, &p.set, &p.tracker, mv, toPlay, p.owner)
	s := 1.0
	for _, i := range p.team {
		s *= p.m.Gamma[i]
	}
	return s
}

// Predict implements predict.Predictor. It always computes afresh (benchmarks and evaluations call it
// on one position repeatedly and must measure the work), and remembers the result for Explain.
func (p *Predictor) Predict(pos *game.Position, out *predict.Distribution) {
	p.compute(pos)
	*out = p.dist
}

// compute predicts pos into p.dist and remembers pos as the position seen.
func (p *Predictor) compute(pos *game.Position) {
	p.predict(pos, &p.dist)
	p.seen, p.hasSeen = pos.Key(), true
	p.ranks.Reset()
}

func (p *Predictor) predict(pos *game.Position, out *predict.Distribution) {
	p.features(pos)
	out.Reset(pos.Board.Size())
	total := 0.0
	for _, mv := range p.set.Moves() {
		s := p.strength(mv, pos.ToPlay)
		out.P[mv] = s
		total += s
	}
	out.Scale(pos, p.set.Moves(), total)
}

// Explain implements predict.Explainer: the features and shape that fired for move, with γ, Elo and
// share of the move's log-strength. Explaining several moves of one position computes its features once.
func (p *Predictor) Explain(pos *game.Position, move board.Point) predict.Explanation {
	if !p.hasSeen || pos.Key() != p.seen {
		p.compute(pos)
	}
	ex := predict.Explanation{Point: move, Probability: p.dist.P[move], Rank: p.rank(move)}
	if !p.set.Legal(move) {
		return ex
	}
	p.team = teamOf(p.team[:0], p.m, &p.set, &p.tracker, move, pos.ToPlay, p.owner)
	ex.Factors = make([]predict.Factor, 0, len(p.team))
	abs := 0.0
	for _, i := range p.team {
		abs += math.Abs(math.Log(p.m.Gamma[i]))
	}
	for _, i := range p.team {
		g := p.m.Gamma[i]
		name := ""
		if int(i) < feature.NumIndices {
			name = feature.IndexName(int(i))
		} else {
			e := p.m.Shapes.Entry(int(i) - feature.NumIndices)
			name = ShapeName(e)
			ex.PatternSize = e.Size
			ex.Pattern = predict.PatternOf(&pos.Board, pos.ToPlay, move, e.Size)
		}
		share := 0.0
		if abs > 0 {
			share = math.Log(g) / abs
		}
		ex.Factors = append(ex.Factors, predict.Factor{Name: name, Weight: g, Elo: bt.Elo(g), Share: share, LogStrength: math.Log(g)})
	}
	return ex
}

// rank is predict.Distribution.Rank of move in the remembered position.
func (p *Predictor) rank(move board.Point) int {
	return p.ranks.Of(&p.dist, p.set.Moves(), move, p.set.Legal(move))
}

// ShapeName names a shape factor for an Explanation.
func ShapeName(e pattern.Entry) string {
	return string(predict.AppendShapeName(nil, e.Size, e.Count))
}

// Shapes implements predict.Shaper: the model's shape dictionary, whose largest match is a move's shape
// factor.
func (p *Predictor) Shapes() *pattern.Dictionary { return p.m.Shapes }
