package mm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"aji/analysis/bt"
	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/models"
)

// Kind is the models container kind of an mm model.
const Kind = "mm"

const formatVersion = 1

var fileHeader = models.Header{Kind: Kind, FormatVersion: formatVersion, FeatureVersion: feature.Version}

// Model is a trained mm predictor: one γ per tactical feature level (feature.Index) followed by one γ per
// shape of its pattern dictionary.
type Model struct {
	Gamma  []float64
	Shapes *pattern.Dictionary
	// Owner says the model was trained with the Monte Carlo owner feature (63 playouts per position).
	Owner bool
	// Training metadata, for models/README.md and the inspector.
	Games, Positions int
}

// NewModel returns an untrained model (every γ = 1) for the given shapes.
func NewModel(shapes *pattern.Dictionary, owner bool) *Model {
	g := make([]float64, feature.NumIndices+shapes.Len())
	for i := range g {
		g[i] = 1
	}
	return &Model{Gamma: g, Shapes: shapes, Owner: owner}
}

// ShapeIndex returns the γ index of shape id.
func ShapeIndex(id int) int { return feature.NumIndices + id }

// Groups returns the mutually exclusive γ groups: the levels of each feature, and all shapes (a move has
// only its largest matching shape).
func (m *Model) Groups() []bt.Group {
	var gs []bt.Group
	for f := range feature.NumFeatures {
		lo := feature.Index(f, f.MinLevel())
		hi := feature.Index(f, f.MaxLevel()) + 1
		if f == feature.MCOwner && !m.Owner {
			continue
		}
		gs = append(gs, bt.Group{Name: f.String(), Lo: lo, Hi: hi})
	}
	if m.Shapes.Len() > 0 {
		gs = append(gs, bt.Group{Name: "shape", Lo: feature.NumIndices, Hi: len(m.Gamma)})
	}
	return gs
}

// payload layout (little-endian): u8 owner, u32 games, u32 positions, u32 n, n × f64 γ, then the pattern
// dictionary in its own file format.
func (m *Model) payload() ([]byte, error) {
	le := binary.LittleEndian
	var buf bytes.Buffer
	owner := byte(0)
	if m.Owner {
		owner = 1
	}
	buf.WriteByte(owner)
	binary.Write(&buf, le, uint32(m.Games))
	binary.Write(&buf, le, uint32(m.Positions))
	binary.Write(&buf, le, uint32(len(m.Gamma)))
	binary.Write(&buf, le, m.Gamma)
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
		return nil, fmt.Errorf("load mm model: %w", err)
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
	if len(payload) < 13 {
		return fail("mm header truncated")
	}
	m := &Model{Owner: payload[0] == 1, Games: int(le.Uint32(payload[1:])), Positions: int(le.Uint32(payload[5:]))}
	n := uint64(le.Uint32(payload[9:]))
	rest := payload[13:]
	if uint64(len(rest)) < 8*n {
		return fail("%d γ need %d bytes, found %d", n, 8*n, len(rest))
	}
	m.Gamma = make([]float64, n)
	for i := range m.Gamma {
		g := math.Float64frombits(le.Uint64(rest[8*i:]))
		if !(g > 0) || math.IsInf(g, 0) {
			return fail("γ %d is %v, not a positive number", i, g)
		}
		m.Gamma[i] = g
	}
	shapes, err := pattern.ReadDictionary(bytes.NewReader(rest[8*n:]), name+" (shapes)")
	if err != nil {
		return nil, err
	}
	if int(n) != feature.NumIndices+shapes.Len() {
		return fail("%d γ for %d features and %d shapes", n, feature.NumIndices, shapes.Len())
	}
	m.Shapes = shapes
	return m, nil
}
