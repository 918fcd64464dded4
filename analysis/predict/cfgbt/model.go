package cfgbt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"

	"aji/analysis/bt"
	"aji/analysis/cfg"
	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/analysis/predict/mm"
	"aji/models"
)

// Kind is the models container kind of a cfg model (both variants).
const Kind = "cfg"

const formatVersion = 1

// featureVersion names what the γ refer to: feature.Version's tactical levels, pattern.Class3's 3x3
// classes, mm's shape dictionaries and the path labels of analysis/cfg (Algorithm 1's constants in
// cfg/hash.go, 8 bits per vertex). Bump it when any of them changes meaning.
const featureVersion = 1

var fileHeader = models.Header{Kind: Kind, FormatVersion: formatVersion, FeatureVersion: featureVersion}

// Variant is the feature set beside the path features.
type Variant uint8

const (
	// Full: mm's features, the tactical levels of Coulom's Table 1 (with the Monte Carlo owner if
	// Model.Owner) and the largest matching shape of Model.Shapes.
	Full Variant = iota
	// Small: the 3x3 shape with atari bits and the local tactical levels (SmallFeatures), cheap enough
	// for a playout policy (Coulom §4.1, Graf §IV-A's playout patterns).
	Small
)

func (v Variant) String() string {
	switch v {
	case Full:
		return "full"
	case Small:
		return "small"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// SmallFeatures are the tactical features of the Small variant: those that look only near the move and the
// last move (Coulom §4.1's playout features, with the ladder levels kept), and pass so that a pass has
// a team. Distance to the border, to the move before the last and the Monte Carlo owner are left out.
var SmallFeatures = []feature.Feature{feature.Pass, feature.Capture, feature.Extension, feature.SelfAtari,
	feature.Atari, feature.PrevDistance}

// Model is a trained cfg predictor. Its γ are laid out as: one per tactical feature level
// (feature.Index), then one per shape of Shapes (Full) or per 3x3 class (Small, pattern.Class3), then one
// per path label of Labels.
type Model struct {
	Variant Variant
	Owner   bool // Full: trained with the Monte Carlo owner feature (63 playouts per position)
	// HashIterations is the number of neighbourhood-hash iterations of the vertex labels (Algorithm 1).
	HashIterations int
	Shapes         *pattern.Dictionary // Full: the shape dictionary; empty for Small
	// Labels are the path labels with a γ, in γ order, grouped for MM: the labels of path group g are
	// Labels[GroupEnd[g-1]:GroupEnd[g]]. Counts are the expert moves each was seen at in training.
	Labels   []uint32
	Counts   []uint32
	GroupEnd []int
	Gamma    []float64
	// Training metadata, for models/README.md and the inspector.
	Games, Positions int

	index labelIndex
	base  *mm.Model // Full: mm's view of the first PathBase() γ, for mm.MoveTeams
}

// NewModel returns an untrained model (every γ = 1) of the given variant for the path labels given in
// groups (each group's labels become one MM group). shapes is the Full variant's dictionary (nil for
// Small).
func NewModel(v Variant, shapes *pattern.Dictionary, owner bool, hashIterations int, groups [][]uint32, counts map[uint32]uint32) (*Model, error) {
	m := &Model{Variant: v, Owner: owner && v == Full, HashIterations: hashIterations, Shapes: shapes}
	if v == Small || m.Shapes == nil {
		d, err := pattern.NewDictionary(nil)
		if err != nil {
			return nil, err
		}
		m.Shapes = d
	}
	for _, g := range groups {
		for _, l := range g {
			m.Labels = append(m.Labels, l)
			m.Counts = append(m.Counts, counts[l])
		}
		m.GroupEnd = append(m.GroupEnd, len(m.Labels))
	}
	m.Gamma = make([]float64, m.PathBase()+len(m.Labels))
	for i := range m.Gamma {
		m.Gamma[i] = 1
	}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return m, nil
}

// PathBase returns the γ index of the first path label: the number of γ of the other features.
func (m *Model) PathBase() int {
	if m.Variant == Small {
		return feature.NumIndices + pattern.NumClasses3()
	}
	return feature.NumIndices + m.Shapes.Len()
}

// prepare checks the labels and builds the lookup table and mm's view.
func (m *Model) prepare() error {
	if len(m.Gamma) != m.PathBase()+len(m.Labels) || len(m.Counts) != len(m.Labels) {
		return fmt.Errorf("%d γ, %d labels and %d counts for %d other features", len(m.Gamma), len(m.Labels), len(m.Counts), m.PathBase())
	}
	prev := 0
	for _, e := range m.GroupEnd {
		if e < prev || e > len(m.Labels) {
			return fmt.Errorf("path group ends %v out of order for %d labels", m.GroupEnd, len(m.Labels))
		}
		prev = e
	}
	if prev != len(m.Labels) {
		return fmt.Errorf("path groups end at %d of %d labels", prev, len(m.Labels))
	}
	for _, l := range m.Labels {
		if l >= cfg.NumPathFeatures {
			return fmt.Errorf("path label %#x out of range", l)
		}
	}
	if !m.index.build(m.Labels) {
		return fmt.Errorf("a path label appears twice")
	}
	if m.HashIterations < 0 || m.HashIterations > 8 {
		return fmt.Errorf("%d hash iterations", m.HashIterations)
	}
	m.base = &mm.Model{Gamma: m.Gamma[:m.PathBase()], Shapes: m.Shapes, Owner: m.Owner}
	return nil
}

// PathIndex returns the γ index of path label l, if the model has one.
func (m *Model) PathIndex(l uint32) (int, bool) {
	i, ok := m.index.lookup(l)
	return m.PathBase() + int(i), ok
}

// Groups returns the γ groups for MM: mm's (Full) or the small features' and the 3x3 classes' (Small),
// then one Overlap group per path group, since a move has many path features at once.
func (m *Model) Groups() []bt.Group {
	var gs []bt.Group
	if m.Variant == Full {
		gs = m.base.Groups()
	} else {
		for _, f := range SmallFeatures {
			gs = append(gs, bt.Group{Name: f.String(), Lo: feature.Index(f, f.MinLevel()), Hi: feature.Index(f, f.MaxLevel()) + 1})
		}
		gs = append(gs, bt.Group{Name: "3x3 shape", Lo: feature.NumIndices, Hi: m.PathBase()})
	}
	lo := 0
	for g, hi := range m.GroupEnd {
		if hi > lo {
			gs = append(gs, bt.Group{Name: fmt.Sprintf("CFG paths %d", g+1), Lo: m.PathBase() + lo, Hi: m.PathBase() + hi, Overlap: true})
		}
		lo = hi
	}
	return gs
}

// PathGroup is the MM group (0..groups-1) of path label l: a fixed hash, so that the path features of
// one move, which share the label of their start, spread over the groups and an Overlap group's teams
// rarely hold many of its members.
func PathGroup(l uint32, groups int) int {
	return int(cfg.Mix32(l*0x9E3779B1+0x7F4A7C15) % uint32(groups))
}

// labelIndex maps a path label to its position in Labels: open addressing with linear probing, a table
// of at least twice the labels, so a lookup costs about one probe and allocates nothing.
type labelIndex struct {
	keys  []uint32
	vals  []int32 // position + 1; 0 marks an empty slot
	shift uint32
}

func (x *labelIndex) slot(l uint32) uint32 { return (l * 0x9E3779B1) >> x.shift }

func (x *labelIndex) build(labels []uint32) bool {
	bits := uint32(4)
	for 1<<bits < 2*len(labels) {
		bits++
	}
	x.keys = make([]uint32, 1<<bits)
	x.vals = make([]int32, 1<<bits)
	x.shift = 32 - bits
	mask := uint32(1)<<bits - 1
	for i, l := range labels {
		s := x.slot(l)
		for x.vals[s] != 0 {
			if x.keys[s] == l {
				return false
			}
			s = (s + 1) & mask
		}
		x.keys[s], x.vals[s] = l, int32(i+1)
	}
	return true
}

func (x *labelIndex) lookup(l uint32) (int32, bool) {
	mask := uint32(len(x.vals) - 1)
	for s := x.slot(l); ; s = (s + 1) & mask {
		v := x.vals[s]
		if v == 0 {
			return 0, false
		}
		if x.keys[s] == l {
			return v - 1, true
		}
	}
}

// payload layout (little-endian): u8 variant, u8 owner, u8 hash iterations, u8 feature.Version, u32 games,
// u32 positions, u32 n labels, n × u32 label, n × u32 count, u32 g groups, g × u32 group end, u32 m γ,
// m × f64 γ, then (Full) the shape dictionary in its own file format.
func (m *Model) payload() ([]byte, error) {
	le := binary.LittleEndian
	var buf bytes.Buffer
	owner := byte(0)
	if m.Owner {
		owner = 1
	}
	buf.Write([]byte{byte(m.Variant), owner, byte(m.HashIterations), feature.Version})
	binary.Write(&buf, le, uint32(m.Games))
	binary.Write(&buf, le, uint32(m.Positions))
	binary.Write(&buf, le, uint32(len(m.Labels)))
	binary.Write(&buf, le, m.Labels)
	binary.Write(&buf, le, m.Counts)
	binary.Write(&buf, le, uint32(len(m.GroupEnd)))
	for _, e := range m.GroupEnd {
		binary.Write(&buf, le, uint32(e))
	}
	binary.Write(&buf, le, uint32(len(m.Gamma)))
	binary.Write(&buf, le, m.Gamma)
	if m.Variant == Full {
		if _, err := m.Shapes.WriteTo(&buf); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// Save writes the model file atomically.
func (m *Model) Save(path string) error {
	p, err := m.payload()
	if err == nil {
		err = models.WriteFile(path, fileHeader, p)
	}
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// Load reads a model file.
func Load(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load cfg model: %w", err)
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
	r := reader{b: payload}
	head := r.bytes(4)
	games, positions, n := r.u32(), r.u32(), r.u32()
	if r.bad {
		return fail("cfg header truncated")
	}
	if head[0] > byte(Small) || head[1] > 1 {
		return fail("variant %d, owner %d", head[0], head[1])
	}
	if head[3] != feature.Version {
		return fail("tactical feature version %d, this program computes %d (retrain the model)", head[3], feature.Version)
	}
	m := &Model{Variant: Variant(head[0]), Owner: head[1] == 1, HashIterations: int(head[2]),
		Games: int(games), Positions: int(positions)}
	if uint64(n)*8 > uint64(len(payload)) {
		return fail("%d path labels do not fit in %d bytes", n, len(payload))
	}
	m.Labels = r.u32s(int(n))
	m.Counts = r.u32s(int(n))
	ng := r.u32()
	if uint64(ng)*4 > uint64(len(payload)) {
		return fail("%d path groups do not fit in %d bytes", ng, len(payload))
	}
	for _, e := range r.u32s(int(ng)) {
		m.GroupEnd = append(m.GroupEnd, int(e))
	}
	ngamma := r.u32()
	if r.bad || uint64(ngamma)*8 > uint64(len(r.b)) {
		return fail("truncated before the γ")
	}
	m.Gamma = make([]float64, ngamma)
	for i := range m.Gamma {
		g := math.Float64frombits(r.u64())
		if !(g > 0) || math.IsInf(g, 0) {
			return fail("γ %d is %v, not a positive number", i, g)
		}
		m.Gamma[i] = g
	}
	if m.Variant == Full {
		if m.Shapes, err = pattern.ReadDictionary(bytes.NewReader(r.b), name+" (shapes)"); err != nil {
			return nil, err
		}
	} else {
		if len(r.b) != 0 {
			return fail("%d bytes after the γ", len(r.b))
		}
		m.Shapes, _ = pattern.NewDictionary(nil)
	}
	if err := m.prepare(); err != nil {
		return fail("%v", err)
	}
	return m, nil
}

// reader reads little-endian values from a payload, remembering whether it ran out.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) bytes(n int) []byte {
	if len(r.b) < n {
		r.bad, r.b = true, nil
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.bytes(4)) }
func (r *reader) u64() uint64 { return binary.LittleEndian.Uint64(r.bytes(8)) }

func (r *reader) u32s(n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = r.u32()
	}
	return out
}

// pathGroups orders labels into groups for NewModel: by PathGroup, each group sorted.
func pathGroups(labels []uint32, groups int) [][]uint32 {
	groups = max(groups, 1)
	out := make([][]uint32, groups)
	for _, l := range labels {
		g := PathGroup(l, groups)
		out[g] = append(out[g], l)
	}
	for _, g := range out {
		slices.Sort(g)
	}
	return out
}
