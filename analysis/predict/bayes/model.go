package bayes

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"aji/analysis/pattern"
	"aji/models"
)

// Kind is the models container kind of a Bayesian pattern model.
const Kind = "bayes"

const formatVersion = 1

var fileHeader = models.Header{Kind: Kind, FormatVersion: formatVersion, FeatureVersion: pattern.SternVersion}

// Model is what one pass over expert games teaches both of Stern's pattern models: per pattern
// (the largest of T1–T14 in the dictionary at a move), the Gaussian belief N(μ, σ²) of the full
// ranking model (§3.2.1), and the counts behind the independent Bernoulli model (§3.2.2): how often
// the pattern was the largest at the move played, and at any legal move. Two slots follow the
// patterns: pass, and a move no pattern of the dictionary matches.
type Model struct {
	Patterns *pattern.Dictionary
	Mu, Var  []float64 // the ranking model's belief per slot
	Played   []uint32  // times a slot's pattern was the move played
	Seen     []uint32  // times it was a legal move's largest pattern (played or not)
	Beta     float64   // the urgency noise β of eq. 3.1's model
	// Hier, when set, makes the ranking model hierarchical (§3.3): the beliefs of the patterns are
	// its messages, not Mu and Var, which then serve pass and the moves without a pattern only.
	Hier *Hier
	// Linear, when set, adds Coulom's tactical features to the flat ranking model (§3.4).
	Linear *Linear
	// Training metadata: games and positions learned from, for models/README.md, the inspector and
	// resuming a run.
	Games, Positions int
}

// Prior is Stern's prior on a pattern's value, N(0, 1) (§3.2.3); DefaultBeta is β (Stern does not
// give his; 1, the prior's own spread, is the natural scale).
const (
	PriorMu     = 0
	PriorVar    = 1
	DefaultBeta = 1
)

// NewModel returns an untrained model over the patterns of d: every belief the prior, every count 0.
func NewModel(d *pattern.Dictionary, beta float64) *Model {
	n := d.Len() + extraSlots
	m := &Model{Patterns: d, Mu: make([]float64, n), Var: make([]float64, n), Played: make([]uint32, n), Seen: make([]uint32, n), Beta: beta}
	for i := range m.Var {
		m.Mu[i], m.Var[i] = PriorMu, PriorVar
	}
	return m
}

// The slots after the patterns'.
const extraSlots = 2

// PassSlot and NoneSlot are the slots of pass and of a move without a known pattern.
func (m *Model) PassSlot() int { return m.Patterns.Len() }
func (m *Model) NoneSlot() int { return m.Patterns.Len() + 1 }

// Belief is slot's Gaussian belief.
func (m *Model) Belief(slot int) Gauss { return MeanVar(m.Mu[slot], m.Var[slot]) }

// Bernoulli is slot's mean probability of being played under the independent Bernoulli model,
// α/(α + β) with the Beta(1, 1) prior (eq. 3.3).
func (m *Model) Bernoulli(slot int) float64 {
	played, seen := float64(m.Played[slot]), float64(m.Seen[slot])
	return (1 + played) / (2 + seen)
}

// NewHierModel returns an untrained hierarchical model over the patterns of d.
func NewHierModel(d *pattern.Dictionary, beta float64) *Model {
	m := NewModel(d, beta)
	m.Hier = newHier(d)
	return m
}

// NewLinearModel returns an untrained linear feature model over the patterns of d.
func NewLinearModel(d *pattern.Dictionary, beta float64) *Model {
	m := NewModel(d, beta)
	m.Linear = newLinear()
	return m
}

// payload layout (little-endian): f64 β, u32 games, u32 positions, u32 n slots, then per slot
// f32 μ, f32 σ², u32 played, u32 seen, then the pattern dictionary in its own format; a
// hierarchical model then adds 'H', the β_i as f64, and per pattern its message as f32 precision,
// f32 precision-adjusted mean; a linear model adds 'L' and per feature index f32 μ, f32 σ².
func (m *Model) payload() ([]byte, error) {
	le := binary.LittleEndian
	var buf bytes.Buffer
	n := len(m.Mu)
	buf.Grow(20 + 16*n)
	binary.Write(&buf, le, m.Beta)
	binary.Write(&buf, le, uint32(m.Games))
	binary.Write(&buf, le, uint32(m.Positions))
	binary.Write(&buf, le, uint32(n))
	rec := make([]byte, 16)
	for i := range n {
		le.PutUint32(rec[0:], math.Float32bits(float32(m.Mu[i])))
		le.PutUint32(rec[4:], math.Float32bits(float32(m.Var[i])))
		le.PutUint32(rec[8:], m.Played[i])
		le.PutUint32(rec[12:], m.Seen[i])
		buf.Write(rec)
	}
	if _, err := m.Patterns.WriteTo(&buf); err != nil {
		return nil, err
	}
	if h := m.Hier; h != nil {
		buf.WriteByte('H')
		binary.Write(&buf, le, h.BetaT[:])
		for _, g := range h.Back {
			le.PutUint32(rec[0:], math.Float32bits(float32(g.Pi)))
			le.PutUint32(rec[4:], math.Float32bits(float32(g.Tau)))
			buf.Write(rec[:8])
		}
	}
	if l := m.Linear; l != nil {
		buf.WriteByte('L')
		for i := range l.Mu {
			le.PutUint32(rec[0:], math.Float32bits(float32(l.Mu[i])))
			le.PutUint32(rec[4:], math.Float32bits(float32(l.Var[i])))
			buf.Write(rec[:8])
		}
	}
	return buf.Bytes(), nil
}

// Save writes the model file atomically.
func (m *Model) Save(path string) error {
	p, err := m.payload()
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return models.WriteFile(path, fileHeader, p)
}

// Load reads a model file.
func Load(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load bayes model: %w", err)
	}
	return Decode(data, path)
}

// Decode reads a model from the bytes of a model file; name is used in error messages. A truncated,
// corrupted or mismatched file gives an error wrapping models.ErrFormat.
func Decode(data []byte, name string) (*Model, error) {
	payload, err := models.Read(bytes.NewReader(data), name, fileHeader)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*Model, error) {
		return nil, fmt.Errorf("%s: %w: %s", name, models.ErrFormat, fmt.Sprintf(format, args...))
	}
	le := binary.LittleEndian
	if len(payload) < 20 {
		return fail("bayes header truncated")
	}
	m := &Model{Beta: math.Float64frombits(le.Uint64(payload)), Games: int(le.Uint32(payload[8:])), Positions: int(le.Uint32(payload[12:]))}
	n := uint64(le.Uint32(payload[16:]))
	rest := payload[20:]
	if !(m.Beta > 0) || math.IsInf(m.Beta, 0) {
		return fail("β is %v", m.Beta)
	}
	if uint64(len(rest)) < 16*n {
		return fail("%d slots need %d bytes, found %d", n, 16*n, len(rest))
	}
	m.Mu, m.Var = make([]float64, n), make([]float64, n)
	m.Played, m.Seen = make([]uint32, n), make([]uint32, n)
	for i := range n {
		r := rest[16*i:]
		m.Mu[i] = float64(math.Float32frombits(le.Uint32(r)))
		m.Var[i] = float64(math.Float32frombits(le.Uint32(r[4:])))
		m.Played[i], m.Seen[i] = le.Uint32(r[8:]), le.Uint32(r[12:])
		switch {
		case math.IsNaN(m.Mu[i]) || math.IsInf(m.Mu[i], 0):
			return fail("μ of slot %d is %v", i, m.Mu[i])
		case !(m.Var[i] > 0) || math.IsInf(m.Var[i], 0):
			return fail("σ² of slot %d is %v, not a positive number", i, m.Var[i])
		case m.Played[i] > m.Seen[i]:
			return fail("slot %d was played %d times but seen %d", i, m.Played[i], m.Seen[i])
		}
	}
	r := bytes.NewReader(rest[16*n:])
	d, err := pattern.ReadSternDictionary(r, name+" (patterns)")
	if err != nil {
		return nil, err
	}
	if int(n) != d.Len()+extraSlots {
		return fail("%d slots for %d patterns", n, d.Len())
	}
	m.Patterns = d
	tail := rest[len(rest)-r.Len():]
	if len(tail) > 0 && tail[0] == 'H' {
		h := &Hier{Back: make([]Gauss, d.Len())}
		want := 1 + 8*len(h.BetaT) + 8*d.Len()
		if len(tail) < want {
			return fail("a hierarchy of %d bytes, %d found", want, len(tail))
		}
		body := tail[1:]
		for i := range h.BetaT {
			h.BetaT[i] = math.Float64frombits(le.Uint64(body[8*i:]))
			if !(h.BetaT[i] > 0) || math.IsInf(h.BetaT[i], 0) {
				return fail("β_%d is %v", i+1, h.BetaT[i])
			}
		}
		body = body[8*len(h.BetaT):]
		for i := range h.Back {
			g := Gauss{Pi: float64(math.Float32frombits(le.Uint32(body[8*i:]))), Tau: float64(math.Float32frombits(le.Uint32(body[8*i+4:])))}
			if !(g.Pi >= 0) || math.IsInf(g.Pi, 0) || math.IsNaN(g.Tau) || math.IsInf(g.Tau, 0) {
				return fail("the message of pattern %d is not a Gaussian (precision %v, %v)", i, g.Pi, g.Tau)
			}
			h.Back[i] = g
		}
		m.Hier, tail = h, tail[want:]
	}
	if len(tail) > 0 && tail[0] == 'L' {
		l := newLinear()
		want := 1 + 8*len(l.Mu)
		if len(tail) < want {
			return fail("linear features of %d bytes, %d found", want, len(tail))
		}
		for i := range l.Mu {
			l.Mu[i] = float64(math.Float32frombits(le.Uint32(tail[1+8*i:])))
			l.Var[i] = float64(math.Float32frombits(le.Uint32(tail[5+8*i:])))
			if math.IsNaN(l.Mu[i]) || math.IsInf(l.Mu[i], 0) || !(l.Var[i] > 0) || math.IsInf(l.Var[i], 0) {
				return fail("feature %d: N(%v, %v)", i, l.Mu[i], l.Var[i])
			}
		}
		m.Linear, tail = l, tail[want:]
	}
	if len(tail) > 0 {
		return fail("%d bytes after the model", len(tail))
	}
	return m, nil
}
