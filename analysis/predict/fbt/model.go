package fbt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/analysis/predict/mm"
	"aji/models"
)

// Kind is the models container kind of an fbt model (both feature sets).
const Kind = "fbt"

const formatVersion = 1

// featureVersion names what the parameters refer to: feature.Version's tactical levels, pattern.Class3's
// 3x3 classes and mm's shape dictionaries. Bump it when any of them changes meaning.
const featureVersion = 1

var fileHeader = models.Header{Kind: Kind, FormatVersion: formatVersion, FeatureVersion: featureVersion}

// MaxK bounds the dimension of the interaction vectors; the predictor keeps its sums on the stack.
const MaxK = 32

// Model is a trained FBT predictor. Its features are laid out as: one per tactical feature level
// (feature.Index; the Monte Carlo owner's levels are active only in a model with an owner stage), one
// per shape of Shapes (empty for F_small), one per 3x3 class (pattern.Class3). Feature f has the strength W[f] and the interaction
// vector V[f·K : f·K+K].
type Model struct {
	K      int
	Shapes *pattern.Dictionary
	W      []float32
	V      []float32

	// Training record, for models/README.md and resuming: the passes over the training data done, the
	// validation top-1 of these weights, the positions and games trained on.
	Passes           int
	Top1             float64
	Games, Positions int

	base *mm.Model // mm's view of the features before the 3x3 classes, for mm.MoveTeams
}

// NumFeatures returns |F| for a model with the given shapes.
func NumFeatures(shapes *pattern.Dictionary) int {
	return feature.NumIndices + shapes.Len() + pattern.NumClasses3()
}

// NewModel returns a model of dimension k over shapes (an empty dictionary for F_small) with every
// parameter zero; Init draws the interaction vectors.
func NewModel(shapes *pattern.Dictionary, k int) (*Model, error) {
	if k < 0 || k > MaxK {
		return nil, fmt.Errorf("fbt: k = %d, want 0..%d", k, MaxK)
	}
	n := NumFeatures(shapes)
	m := &Model{K: k, Shapes: shapes, W: make([]float32, n), V: make([]float32, n*k)}
	m.base = &mm.Model{Shapes: shapes, Owner: true} // mm.MoveTeams reads only these
	return m, nil
}

// Owner reports whether the model has weights for the Monte Carlo owner feature, which an owner stage
// of training fits (`aji train fbt --owner-from`): the owner levels' w stay exactly 0 until then.
func (m *Model) Owner() bool {
	lo := feature.Index(feature.MCOwner, feature.MCOwner.MinLevel())
	hi := feature.Index(feature.MCOwner, feature.MCOwner.MaxLevel())
	for f := lo; f <= hi; f++ {
		if m.W[f] != 0 {
			return true
		}
	}
	return false
}

// IsOwner reports whether feature f is a level of the Monte Carlo owner.
func IsOwner(f int32) bool {
	return int(f) >= feature.Index(feature.MCOwner, feature.MCOwner.MinLevel()) &&
		int(f) <= feature.Index(feature.MCOwner, feature.MCOwner.MaxLevel())
}

// InitWFrom starts each w at ln γ of the same feature in the mm model mm (a Bradley-Terry strength is
// a log-γ, so a model without interactions starts where mm is), the Monte Carlo owner's levels
// excepted: they stay 0 until an owner stage. The models must share their shapes.
func (m *Model) InitWFrom(base *mm.Model) error {
	if base.Shapes.Len() != m.Shapes.Len() || len(base.Gamma) != feature.NumIndices+m.Shapes.Len() {
		return fmt.Errorf("fbt: the mm model has %d shapes, this model %d", base.Shapes.Len(), m.Shapes.Len())
	}
	for i := range m.Shapes.Len() {
		if base.Shapes.Entry(i).Key != m.Shapes.Entry(i).Key {
			return fmt.Errorf("fbt: the mm model's shape %d is not this model's", i)
		}
	}
	for f, g := range base.Gamma {
		if !IsOwner(int32(f)) {
			m.W[f] = float32(math.Log(g))
		}
	}
	return nil
}

// Large reports whether the model has circular shapes (F_large).
func (m *Model) Large() bool { return m.Shapes.Len() > 0 }

// class3Index returns the feature index of 3x3 class c.
func (m *Model) class3Index(c uint16) int32 {
	return int32(feature.NumIndices + m.Shapes.Len() + int(c))
}

// Strength is eq. 3.1 for the group of features team: Σ w_f + Σ_{f<g} ⟨v_f, v_g⟩, by the factorization
// machine identity Σ_{f<g} ⟨v_f, v_g⟩ = ½ Σ_q [(Σ_f v_fq)² − Σ_f v_fq²], in O(k·|team|). It leaves
// Σ_f v_fq in sum[q] (len(sum) ≥ K), which the gradient needs.
func (m *Model) Strength(team []int32, sum []float64) float64 {
	k := m.K
	s := sum[:k]
	clear(s)
	e, sq := 0.0, 0.0
	for _, f := range team {
		e += float64(m.W[f])
		row := m.V[int(f)*k:][:len(s)] // one bounds check per feature, none per factor
		for q, x := range row {
			v := float64(x)
			s[q] += v
			sq += v * v
		}
	}
	pairs := 0.0
	for _, x := range s {
		pairs += x * x
	}
	return e + 0.5*(pairs-sq)
}

// Interaction is ⟨v_f, v_g⟩.
func (m *Model) Interaction(f, g int32) float64 {
	k := m.K
	a, b := m.V[int(f)*k:int(f)*k+k], m.V[int(g)*k:int(g)*k+k]
	d := 0.0
	for q := range a {
		d += float64(a[q]) * float64(b[q])
	}
	return d
}

// payload layout (little-endian): u32 k, u32 passes, f64 top-1, u32 games, u32 positions, u32 n,
// n × f32 w, n·k × f32 v, then the shape dictionary in its own file format.
func (m *Model) payload() ([]byte, error) {
	le := binary.LittleEndian
	var buf bytes.Buffer
	for _, v := range []any{uint32(m.K), uint32(m.Passes), m.Top1, uint32(m.Games), uint32(m.Positions), uint32(len(m.W)), m.W, m.V} {
		if err := binary.Write(&buf, le, v); err != nil {
			return nil, err
		}
	}
	if _, err := m.Shapes.WriteTo(&buf); err != nil {
		return nil, err
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
		return nil, fmt.Errorf("load fbt model: %w", err)
	}
	return Decode(data, path)
}

// headerBytes is the payload's fixed part before the parameters.
const headerBytes = 4 + 4 + 8 + 4 + 4 + 4

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
	if len(payload) < headerBytes {
		return fail("fbt header truncated")
	}
	k := int(le.Uint32(payload))
	if k > MaxK {
		return fail("k = %d, more than %d", k, MaxK)
	}
	m := &Model{
		K: k, Passes: int(le.Uint32(payload[4:])), Top1: math.Float64frombits(le.Uint64(payload[8:])),
		Games: int(le.Uint32(payload[16:])), Positions: int(le.Uint32(payload[20:])),
	}
	n := uint64(le.Uint32(payload[24:]))
	rest := payload[headerBytes:]
	params := n * uint64(1+k)
	if uint64(len(rest)) < 4*params {
		return fail("%d features of k = %d need %d bytes, found %d", n, k, 4*params, len(rest))
	}
	vals := make([]float32, params)
	for i := range vals {
		v := math.Float32frombits(le.Uint32(rest[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fail("parameter %d is %v", i, v)
		}
		vals[i] = v
	}
	m.W, m.V = vals[:n:n], vals[n:]
	shapes, err := pattern.ReadDictionary(bytes.NewReader(rest[4*params:]), name+" (shapes)")
	if err != nil {
		return nil, err
	}
	if want := NumFeatures(shapes); int(n) != want {
		return fail("%d features, but %d tactical levels, %d shapes and %d 3x3 classes make %d",
			n, feature.NumIndices, shapes.Len(), pattern.NumClasses3(), want)
	}
	m.Shapes = shapes
	m.base = &mm.Model{Shapes: shapes, Owner: true} // mm.MoveTeams reads only these
	return m, nil
}
