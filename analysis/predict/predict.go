package predict

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// Distribution is a probability for every point of the board and for pass, indexed by board.Point (the
// pass probability is P[board.Pass]). Legal moves' probabilities sum to 1; illegal points hold 0.
// It is a fixed-size value so that predicting allocates nothing.
type Distribution struct {
	Size int
	P    [board.NumCells]float64
}

// Reset clears d for a board of the given size.
func (d *Distribution) Reset(size int) {
	d.Size = size
	clear(d.P[:])
}

// Normalize scales the probabilities of the legal moves of pos (pass included) to sum to 1 and zeroes
// every other entry. If no legal move has positive weight the distribution becomes uniform over them.
func (d *Distribution) Normalize(pos *game.Position) {
	b := &pos.Board
	sum := d.P[board.Pass]
	for _, p := range b.Points() {
		if b.Legal(p, pos.ToPlay) {
			sum += d.P[p]
		} else {
			d.P[p] = 0
		}
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		d.Uniform(pos)
		return
	}
	for _, p := range b.Points() {
		d.P[p] /= sum
	}
	d.P[board.Pass] /= sum
}

// Scale divides the weights of moves, the legal moves of pos, by their sum total, the last step of a
// predictor that knows its legal moves (cheaper than Normalize, which finds them). Without a finite
// positive total d becomes Uniform.
func (d *Distribution) Scale(pos *game.Position, moves []board.Point, total float64) {
	if !(total > 0) || math.IsInf(total, 0) {
		d.Uniform(pos)
		return
	}
	for _, mv := range moves {
		d.P[mv] /= total
	}
}

// Uniform sets d to the same probability on every legal move of pos, pass included.
func (d *Distribution) Uniform(pos *game.Position) {
	d.Reset(pos.Board.Size())
	n := 1 // pass
	for _, p := range pos.Board.Points() {
		if pos.Board.Legal(p, pos.ToPlay) {
			d.P[p] = 1
			n++
		}
	}
	d.P[board.Pass] = 1
	inv := 1 / float64(n)
	for _, p := range pos.Board.Points() {
		d.P[p] *= inv
	}
	d.P[board.Pass] = inv
}

// Rank returns the rank of move among the legal moves of pos: 1 plus the number of other legal moves
// (pass included) whose probability is at least the move's own. Ties count against the prediction, so a
// predictor that cannot tell moves apart never ranks a move first.
func (d *Distribution) Rank(pos *game.Position, move board.Point) int {
	pm := d.P[move]
	rank := 1
	if move != board.Pass && d.P[board.Pass] >= pm {
		rank++
	}
	for _, p := range pos.Board.Points() {
		if p != move && d.P[p] >= pm && pos.Board.Legal(p, pos.ToPlay) {
			rank++
		}
	}
	return rank
}

// Candidate is a move with its probability.
type Candidate struct {
	Point       board.Point
	Probability float64
}

// Top returns the k most probable moves (pass included), most probable first, appended to buf.
func (d *Distribution) Top(k int, buf []Candidate) []Candidate {
	buf = buf[:0]
	consider := func(p board.Point) {
		if d.P[p] <= 0 {
			return
		}
		buf = append(buf, Candidate{p, d.P[p]})
	}
	consider(board.Pass)
	for _, p := range board.PointsOf(d.Size) {
		consider(p)
	}
	sort.Slice(buf, func(i, j int) bool { return buf[i].Probability > buf[j].Probability })
	if len(buf) > k {
		buf = buf[:k]
	}
	return buf
}

// A Predictor gives, for a position, the probability that a strong player chooses each move.
// A Predictor may keep scratch state, so one value is used by one goroutine at a time; make one per
// goroutine with New (the trained model behind it is shared and read-only).
type Predictor interface {
	Name() string
	// Predict fills out with a distribution over the legal moves of pos.
	Predict(pos *game.Position, out *Distribution)
}

// Batcher is a Predictor that predicts many positions at once faster than one at a time (the cnn's
// convolutions over a batch); aji eval uses it. Positions of one call share a board size.
type Batcher interface {
	Predictor
	PredictBatch(positions []*game.Position, out []Distribution)
}

// Options configure the predictor a Factory makes. The zero value is the predictor as registered.
type Options struct {
	Model string // a model file ("": the embedded default)
	// NoOwner leaves out the Monte Carlo owner feature, as a search prior does: its 63 playouts per
	// position cost more than the search spends on a node, and the search measures ownership itself.
	NoOwner bool
}

// over returns o with the fields it leaves unset taken from base.
func (o Options) over(base Options) Options {
	if o.Model == "" {
		o.Model = base.Model
	}
	o.NoOwner = o.NoOwner || base.NoOwner
	return o
}

// OwnerUser is a Predictor that may use the Monte Carlo owner feature, whose 63 playouts per position
// dominate its cost; UsesOwner says whether this one does (Options.NoOwner and the model decide).
type OwnerUser interface {
	UsesOwner() bool
}

// Factory makes a Predictor called name; it may load a model once and share it between the predictors
// it makes.
type Factory func(name string, o Options) (Predictor, error)

// entry is a registered name: its factory and the options it was registered or configured with.
type entry struct {
	f Factory
	o Options
}

var (
	registryMu sync.RWMutex
	registry   = map[string]entry{}
	kinds      = map[string]Factory{} // by model kind (models.Header.Kind), for Load
)

// Register makes a predictor available by name; it panics on a duplicate name (a programming error).
func Register(name string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("predict: Register called twice for " + name)
	}
	registry[name] = entry{f: f}
}

// Configure sets the options a registered predictor is made with, as the programs do from the
// environment (AJI_MM_MODEL and the like); options given to New override them field by field.
func Configure(name string, o Options) error {
	registryMu.Lock()
	defer registryMu.Unlock()
	e, err := lookup(name)
	if err == nil {
		e.o = o
		registry[name] = e
	}
	return err
}

// Configured returns the options a registered predictor is made with.
func Configured(name string) (Options, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	e, err := lookup(name)
	return e.o, err
}

// New makes a predictor by its registered name, with o over the options it is configured with.
func New(name string, o Options) (Predictor, error) {
	registryMu.RLock()
	e, err := lookup(name)
	registryMu.RUnlock()
	if err != nil {
		return nil, err
	}
	p, err := e.f(name, o.over(e.o))
	if err != nil {
		return nil, fmt.Errorf("predictor %s: %w", name, err)
	}
	return p, nil
}

// lookup finds a registered name; call it with registryMu held.
func lookup(name string) (entry, error) {
	e, ok := registry[name]
	if !ok {
		return e, fmt.Errorf("unknown predictor %q (known: %v)", name, names())
	}
	return e, nil
}

// Names lists the registered predictors in sorted order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return names()
}

func names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Factor is one feature or pattern that fired for a move, with its learned weight.
//
// A Bayesian model (Stern's pattern ranking, analysis/predict/bayes) holds a belief about each weight
// rather than one number: its factors have SD > 0, Weight is the belief's mean, Elo is 0, and Seen and
// Played count the training moves behind the belief. Other models leave SD, Seen and Played 0, which
// there means "unknown", not "never seen".
type Factor struct {
	Name   string  // readable by a Go player, e.g. "atari: ladder atari"
	Weight float64 // the model's weight (γ for Bradley-Terry models, the belief's mean μ for Bayesian ones)
	Elo    float64 // 400·log10 γ; 0 for a Bayesian factor
	// Share is the factor's part of the move's log-strength: its log-weight over the sum of the absolute
	// log-weights of all the move's factors, so shares are signed and their absolute values sum to 1.
	// A Bayesian factor that sets the move's value has Share 1, one shown beside it (the smaller
	// patterns nested in the one used) 0.
	Share float64
	// SD is the standard deviation σ of the model's belief about Weight; 0 for a model without one.
	SD float64
	// LogStrength is the factor's exact additive term in the move's log-probability: for every
	// explained move, log p(move) = Σ LogStrength + Σ Interactions' Value − log Z, with Z the same for
	// every move of the position, so that two moves' terms, subtracted, give log(p_A/p_B) (WhyNot).
	// It is log γ for a Bradley-Terry model and w for FBT. A Bayesian ranking model's probability
	// (Stern eq. 3.1) is no sum over factors: there the factor that sets the move's value carries the
	// whole log p and the others 0 (bayes-linear splits it between pattern and features, see there).
	LogStrength float64
	// Seen is how often the factor was at a legal move in training, Played how often at the move
	// played (Seen ≥ Played ≥ 0); meaningful only where SD > 0.
	Seen, Played int
}

// Bayesian reports whether f carries a belief (SD > 0) rather than a single weight.
func (f Factor) Bayesian() bool { return f.SD > 0 }

// Explanation says why a predictor gave a move its probability.
type Explanation struct {
	Point       board.Point
	Probability float64
	Rank        int
	Factors     []Factor
	// Pattern is the largest matching shape, as board cells around the move (the move's own point left
	// out), when the model uses shapes. PatternSize is its template's number: Coulom's size 3..12
	// (pattern.Cells) for a shape model, Stern's template T1..T14 (pattern.SternCells) for a Bayesian
	// one, whose T3..T12 are Coulom's sizes 3..12; 0 without a pattern. T1 is the move's point alone:
	// PatternSize 1 with no cells.
	PatternSize int
	Pattern     []PatternCell
	// Interactions are the pairwise terms of a model whose factors interact (FBT's ⟨v_f, v_g⟩, Xiao
	// eq. 3.1): every pair of Factors, the largest in absolute value first. Empty for other models.
	Interactions []Interaction
}

// Interaction is what two factors of a move add to its log-strength together, beyond their own weights.
type Interaction struct {
	A, B  int // indices into Explanation.Factors, A < B
	Value float64
}

// PatternCell is one point of a shape relative to the move: offset (x to the right, y downwards, as the
// board is drawn) and state.
type PatternCell struct {
	DX, DY int
	State  string // CellOwn, CellOpponent, CellEmpty or CellEdge, relative to the player to move
}

// States of a PatternCell.
const (
	CellOwn      = "own"      // a stone of the player to move
	CellOpponent = "opponent" // a stone of the other player
	CellEmpty    = "empty"
	CellEdge     = "edge" // off the board
)

// Shaper is a Predictor whose shape factor at a move is the largest pattern of its dictionary that
// matches there (Coulom 2007 §3.2, Stern 2008 §3.2.1): Dictionary.Largest for Coulom's templates (mm,
// fbt, cfg), LargestStern for Stern's (the bayes models). Shapes is nil or empty for a model without
// shapes. The pattern search (analysis/findpattern) uses it to find exactly where a model's shape fires.
type Shaper interface {
	Predictor
	Shapes() *pattern.Dictionary
}

// Explainer is a Predictor that can explain its probability for a move.
//
// An inspector explains every point of one position (ExplainAll), so an Explainer should remember what it
// computed for the last position it saw and reuse it while the position stays the same: explaining all
// the points should cost about one prediction, not one per point.
type Explainer interface {
	Predictor
	Explain(pos *game.Position, move board.Point) Explanation
}

// Uncertain is a Predictor whose model holds a belief with a spread about each move's value (Stern's
// Bayesian pattern models): it can say per move how sure it is, so that a teacher sees where the
// model is guessing.
type Uncertain interface {
	Predictor
	// Spread writes into out, for every legal move of pos (pass included), the standard deviation σ of
	// the model's belief about the value of the move's pattern, and 0 everywhere else. It is the
	// model's own uncertainty, without noise the model adds to every move alike (the urgency noise β
	// of Stern's ranking model). It returns the prior's σ, that of a pattern never learned from: the
	// top of the scale.
	Spread(pos *game.Position, out *[board.NumCells]float64) (prior float64)
}

// SternPatternOf returns the cells of Stern's template T_template around move on b, for the player
// toPlay, as an Explanation shows them (pattern.SternCells).
func SternPatternOf(b *board.Board, toPlay board.Color, move board.Point, template int) []PatternCell {
	cells := pattern.SternCells(b, toPlay, move, template)
	if cells == nil {
		return nil
	}
	out := make([]PatternCell, len(cells))
	for i, c := range cells {
		out[i] = PatternCell{DX: c.DX, DY: c.DY, State: cellStates[c.State]}
	}
	return out
}

// ExplainAll explains every legal move on the board of pos (pass excluded), in board order.
func ExplainAll(e Explainer, pos *game.Position) []Explanation {
	var out []Explanation
	for _, p := range pos.Board.Points() {
		if pos.Board.Legal(p, pos.ToPlay) {
			out = append(out, e.Explain(pos, p))
		}
	}
	return out
}
