package predict

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/pattern"
)

// Lister is a Predictor whose model can list its weights, for the model browser and `aji
// diff-models`: every feature level and every shape, with the numbers the inspector shows for them.
// A model without such weights (the cnn's filters, uniform) does not implement it.
type Lister interface {
	Predictor
	Weights() *Weights
}

// RowKind is what a row of a Weights listing is.
type RowKind uint8

const (
	RowFeature RowKind = iota // a tactical feature level (feature.Index)
	RowShape                  // a pattern of a shape dictionary: a Coulom size, or a Stern template
	RowShape3                 // a 3x3 class (pattern.Class3) with atari bits
	RowPath                   // a common-fate-graph path label
	RowSlot                   // a Bayesian model's pass or no-known-pattern slot
	NumRowKinds
)

var rowKindNames = [NumRowKinds]string{"feature", "shape", "3x3 shape", "CFG path", "slot"}

func (k RowKind) String() string {
	if k < NumRowKinds {
		return rowKindNames[k]
	}
	return "RowKind(" + strconv.Itoa(int(k)) + ")"
}

// Measure is what a listing's Weight and Spread are.
type Measure uint8

const (
	// Gamma: Weight is a Bradley-Terry γ (Elo 400·log10 γ), Spread unused (mm, cfg).
	Gamma Measure = iota
	// Gaussian: Weight is the belief's mean μ, Spread its σ (Stern's ranking models).
	Gaussian
	// Beta: Weight is the Beta belief's mean probability of being played, Spread its standard
	// deviation (Stern's independent Bernoulli model, eq. 3.3).
	Beta
	// Factorized: Weight is FBT's strength w (ln γ), Spread the norm ‖v‖ of the interaction vector
	// (Xiao eq. 3.1).
	Factorized
)

// Log returns the weight w on the scale a difference of two models is measured on: ln γ for Gamma,
// the weight itself for the others.
func (m Measure) Log(w float64) float64 {
	if m == Gamma {
		return math.Log(w)
	}
	return w
}

// Row is one weight of a model. It holds no pointer the listing does not share, so a listing of a
// million rows is one allocation.
type Row struct {
	Kind RowKind
	// Size is the pattern's size: Coulom's 3..12, Stern's template 1..14, 3 for a 3x3 class; 0 else.
	Size int8
	// Index is the parameter's slot in the model (its γ index, feature id or Bayesian slot).
	Index int32
	// ID names the row across models of one kind: the feature index, the pattern key, the 3x3 class,
	// the path label, or the slot (0 pass, 1 no known pattern).
	ID     uint64
	Weight float64 // see Measure
	Spread float64 // see Measure; 0 for Gamma
	// Seen is how often the model saw it in training, Played how often at the move played; -1 where
	// the model does not store it. For a shape of mm's dictionaries Seen is the harvest's count, the
	// one its name gives.
	Seen, Played int64
	// label is the name of a feature level, slot or path (shared or made once per row kind);
	// shapes' names are made from their numbers.
	label string
}

// Weights is the listing of a model's weights, and what draws its shapes.
type Weights struct {
	// Predictor is the name the listing was made from, Family the kind of model: two listings of one
	// family can be compared row by row (mm, cfg, fbt, bayes, bayes-hier, bayes-linear, bernoulli).
	Predictor, Family string
	Measure           Measure
	Rows              []Row
	// Note says what the numbers are where a reader needs telling (a hierarchical model's messages).
	Note string

	dict      *pattern.Dictionary // the shapes' dictionary (nil without RowShape rows)
	shapeBase int32               // Rows[shapeBase+id] is pattern id of dict
	vec       func(index int32) []float32

	mu    sync.Mutex
	atlas map[int32][]PatternCell // cells of RowShape rows found in positions (Learn)
}

// NewWeights starts a listing of n rows.
func NewWeights(predictor, family string, m Measure, n int) *Weights {
	return &Weights{Predictor: predictor, Family: family, Measure: m, Rows: make([]Row, 0, n)}
}

// featureNames are feature.IndexName of every index, made once: a listing's feature rows share them.
var featureNames = sync.OnceValue(func() []string {
	s := make([]string, feature.NumIndices)
	for i := range s {
		s[i] = feature.IndexName(i)
	}
	return s
})

// AddFeature appends the row of feature index i (feature.Index).
func (w *Weights) AddFeature(i int, weight, spread float64, seen, played int64) {
	w.Rows = append(w.Rows, Row{Kind: RowFeature, Index: int32(i), ID: uint64(i), Weight: weight, Spread: spread,
		Seen: seen, Played: played, label: featureNames()[i]})
}

// AddShapes appends a row per pattern of d, pattern id at parameter slot base+id, its weight and
// counts given by at; Learn then finds the shapes' cells in positions.
func (w *Weights) AddShapes(d *pattern.Dictionary, base int, at func(id int) (weight, spread float64, seen, played int64)) {
	w.dict, w.shapeBase = d, int32(len(w.Rows))
	for id, e := range d.Entries() {
		wt, sp, seen, played := at(id)
		w.Rows = append(w.Rows, Row{Kind: RowShape, Size: int8(e.Size), Index: int32(base + id), ID: e.Key,
			Weight: wt, Spread: sp, Seen: seen, Played: played})
	}
}

// AddShape3 appends the row of 3x3 class c at parameter slot index.
func (w *Weights) AddShape3(c int, index int, weight, spread float64) {
	w.Rows = append(w.Rows, Row{Kind: RowShape3, Size: 3, Index: int32(index), ID: uint64(c), Weight: weight,
		Spread: spread, Seen: -1, Played: -1})
}

// AddPath appends the row of a CFG path label called name (the name is kept, one string per path).
func (w *Weights) AddPath(label uint32, name string, index int, weight float64, seen int64) {
	w.Rows = append(w.Rows, Row{Kind: RowPath, Index: int32(index), ID: uint64(label), Weight: weight,
		Seen: seen, Played: -1, label: name})
}

// Slot names of a Bayesian model's slots after its patterns, as its explanations name them.
const (
	SlotPass = "pass"
	SlotNone = "no known pattern"
)

// AddSlot appends a Bayesian model's pass (id 0) or no-pattern (id 1) slot.
func (w *Weights) AddSlot(id int, index int, weight, spread float64, seen, played int64) {
	name := SlotPass
	if id == 1 {
		name = SlotNone
	}
	w.Rows = append(w.Rows, Row{Kind: RowSlot, Index: int32(index), ID: uint64(id), Weight: weight, Spread: spread,
		Seen: seen, Played: played, label: name})
}

// SetVectors gives FBT's interaction vectors by parameter slot, for a diff's ‖Δv‖.
func (w *Weights) SetVectors(v func(index int32) []float32) { w.vec = v }

// Vector returns row i's interaction vector, or nil.
func (w *Weights) Vector(i int) []float32 {
	if w.vec == nil {
		return nil
	}
	return w.vec(w.Rows[i].Index)
}

// Stern reports whether the shapes are Stern's templates (their names are "T5 pattern").
func (w *Weights) Stern() bool { return w.dict != nil && w.dict.Stern() }

// AppendShapeName appends the name a Coulom-size shape has in explanations.
func AppendShapeName(dst []byte, size, count int) []byte {
	dst = append(dst, "shape of size "...)
	dst = strconv.AppendInt(dst, int64(size), 10)
	dst = append(dst, " (seen "...)
	dst = strconv.AppendInt(dst, int64(count), 10)
	return append(dst, " times in training)"...)
}

// AppendShape3Name appends the name a 3x3 class has in explanations.
func AppendShape3Name(dst []byte, class int) []byte {
	dst = append(dst, "3x3 shape (class "...)
	dst = strconv.AppendInt(dst, int64(class), 10)
	return append(dst, ", atari bits included)"...)
}

// AppendSternName appends the name of a pattern of Stern's template t; explanations add whether the
// pattern was used, "T5 pattern (used)".
func AppendSternName(dst []byte, t int) []byte {
	dst = append(dst, 'T')
	dst = strconv.AppendInt(dst, int64(t), 10)
	return append(dst, " pattern"...)
}

// AppendName appends row i's readable name, as the inspector names it.
func (w *Weights) AppendName(dst []byte, i int) []byte {
	r := &w.Rows[i]
	switch r.Kind {
	case RowShape:
		if w.Stern() {
			return AppendSternName(dst, int(r.Size))
		}
		return AppendShapeName(dst, int(r.Size), int(r.Seen))
	case RowShape3:
		return AppendShape3Name(dst, int(r.ID))
	}
	return append(dst, r.label...)
}

// Name returns row i's readable name.
func (w *Weights) Name(i int) string { return string(w.AppendName(nil, i)) }

// Template describes row i's pattern size for a person: "size 5", "T7", "3x3", or "".
func (w *Weights) Template(i int) string {
	r := &w.Rows[i]
	switch {
	case r.Kind == RowShape3:
		return "3x3"
	case r.Kind != RowShape:
		return ""
	case w.Stern():
		return "T" + strconv.Itoa(int(r.Size))
	}
	return "size " + strconv.Itoa(int(r.Size))
}

// Cells returns the points of row i's shape around the move, as an Explanation's Pattern, with ok
// true, or ok false where the shape is not known yet. A 3x3 class is decoded from its code. A larger
// shape's key is a hash and cannot be decoded: its cells are those of a position where Learn found
// it. A row without a shape (a feature level) gives nil and true.
func (w *Weights) Cells(i int) (cells []PatternCell, ok bool) {
	r := &w.Rows[i]
	switch r.Kind {
	case RowShape3:
		return class3Cells(uint16(r.ID)), true
	case RowShape:
		if r.Size == 1 { // Stern's T1: the move's point alone
			return []PatternCell{}, true
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		c, ok := w.atlas[int32(i)]
		return c, ok
	}
	return nil, true
}

// class3Cells draws 3x3 class c: the eight neighbours of its canonical code, in ring order.
func class3Cells(c uint16) []PatternCell {
	code := pattern.Class3Code(c)
	cells := make([]PatternCell, 8)
	for i := range 8 {
		dx, dy := i%3-1, i/3-1
		if i >= 4 { // the centre is not in the ring
			dx, dy = (i+1)%3-1, (i+1)/3-1
		}
		cells[i] = PatternCell{DX: dx, DY: dy, State: cellStates[code.State(i)]}
	}
	return cells
}

// Learn looks at the pattern around move on b, for the player toPlay, and keeps the cells of every
// one of the listing's shapes that matches there and has none yet, so that Cells can draw it; it
// returns how many it found. A shape's key is a hash, so finding a position where it matches is the
// only way to draw it: scanning games' played moves (where the dictionaries were harvested) finds
// most. Safe to call beside Cells.
func (w *Weights) Learn(b *board.Board, toPlay board.Color, move board.Point) int {
	if w.dict == nil || !b.OnBoard(move) || b.At(move) != board.Empty {
		return 0
	}
	var keys []uint64
	if w.Stern() {
		k := pattern.SternKeysAt(b, move, toPlay)
		keys = k[:]
	} else {
		k := pattern.KeysAt(b, move, toPlay)
		keys = k[:]
	}
	found := 0
	for j, key := range keys {
		size := j + pattern.MinSize
		if w.Stern() {
			size = j + 1
		}
		id, ok := w.dict.Lookup(key)
		if !ok || w.dict.Entry(id).Size != size {
			continue
		}
		row := w.shapeBase + int32(id)
		w.mu.Lock()
		_, have := w.atlas[row]
		w.mu.Unlock()
		if have {
			continue
		}
		var cells []PatternCell
		if w.Stern() {
			cells = SternPatternOf(b, toPlay, move, size)
		} else {
			cells = PatternOf(b, toPlay, move, size)
		}
		w.mu.Lock()
		if w.atlas == nil {
			w.atlas = map[int32][]PatternCell{}
		}
		w.atlas[row] = cells
		w.mu.Unlock()
		found++
	}
	return found
}

// Learned returns how many shapes Learn has found.
func (w *Weights) Learned() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.atlas)
}

// Count returns the number of rows of kind k.
func (w *Weights) Count(k RowKind) int {
	n := 0
	for i := range w.Rows {
		if w.Rows[i].Kind == k {
			n++
		}
	}
	return n
}

// WeightText is row i's weight as the inspector writes it: "γ 2.31 (Elo 145)", "μ 0.42 ± 0.11",
// "p 0.031 ± 0.004", "w +0.84, ‖v‖ 0.52".
func (w *Weights) WeightText(i int) string {
	r := &w.Rows[i]
	switch w.Measure {
	case Gaussian:
		if math.IsInf(r.Spread, 1) {
			return "no evidence yet (a flat message)"
		}
		return fmt.Sprintf("μ %+.3f ± %.3f", r.Weight, r.Spread)
	case Beta:
		return fmt.Sprintf("p %.4f ± %.4f", r.Weight, r.Spread)
	case Factorized:
		return fmt.Sprintf("w %+.3f, ‖v‖ %.3f", r.Weight, r.Spread)
	}
	return fmt.Sprintf("γ %.3g (Elo %+.0f)", r.Weight, 400*math.Log10(r.Weight))
}
