package surrogate

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"aji/analysis/predict/bayes"
	"aji/models"
)

const formatVersion = 1

var (
	betaHeader = models.Header{Kind: BetaKind, FormatVersion: formatVersion, FeatureVersion: KeyVersion}
	hierHeader = models.Header{Kind: HierKind, FormatVersion: formatVersion, FeatureVersion: KeyVersion}
)

// The payloads, little-endian. Beta: u8 size prior (0/1), f64 α0, u8 regime, u64 searches, then the
// attacker's table and the defender's. Hier: f64 β_i, f64 β, f64 root variance, f64 pseudo-
// observation variance, u8 regime, u64 searches, then the two tables. A table is u32 n, then n
// entries in increasing key order: u64 key, u8 template, f64 ×2 (α, β; or precision,
// precision-adjusted mean).
const entryBytes = 8 + 1 + 16

// record is an entry as the file holds it.
type record struct {
	key  uint64
	t    uint8
	x, y float64
}

func writeTable(buf *bytes.Buffer, recs []record) {
	slices.SortFunc(recs, func(a, b record) int { return cmp.Compare(a.key, b.key) })
	le := binary.LittleEndian
	buf.Write(le.AppendUint32(nil, uint32(len(recs))))
	var e [entryBytes]byte
	for _, r := range recs {
		le.PutUint64(e[0:], r.key)
		e[8] = r.t
		le.PutUint64(e[9:], math.Float64bits(r.x))
		le.PutUint64(e[17:], math.Float64bits(r.y))
		buf.Write(e[:])
	}
}

// reader reads a payload, remembering the first failure.
type reader struct {
	b    []byte
	name string
	err  error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: %w: %s", r.name, models.ErrFormat, fmt.Sprintf(format, args...))
	}
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.fail("truncated in %s", what)
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8(what string) uint8 {
	if b := r.take(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u64(what string) uint64 {
	if b := r.take(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// positive reads an f64 that must be a finite number > 0 (≥ 0 with zeroOK).
func (r *reader) positive(what string, zeroOK bool) float64 {
	x := math.Float64frombits(r.u64(what))
	if r.err == nil && (math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x == 0 && !zeroOK) {
		r.fail("%s is %v", what, x)
	}
	return x
}

func (r *reader) regime() Regime {
	g := Regime(r.u8("the regime"))
	if r.err == nil && (g < LearnProved || g > LearnAll) {
		r.fail("learning regime %d", g)
	}
	return g
}

func (r *reader) searches() int {
	n := r.u64("the search count")
	if r.err == nil && n > math.MaxInt32 {
		r.fail("%d searches", n)
	}
	return int(n)
}

// table reads one table, checking each entry with check (nil: fine).
func (r *reader) table(which string, check func(rec record) string) []record {
	b := r.take(4, which+" table")
	if b == nil {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n > len(r.b)/entryBytes {
		r.fail("%s table of %d entries needs %d bytes, %d left", which, n, n*entryBytes, len(r.b))
		return nil
	}
	recs := make([]record, n)
	for i := range recs {
		e := r.take(entryBytes, which+" table")
		le := binary.LittleEndian
		rec := record{key: le.Uint64(e), t: e[8], x: math.Float64frombits(le.Uint64(e[9:])), y: math.Float64frombits(le.Uint64(e[17:]))}
		switch {
		case i > 0 && rec.key <= recs[i-1].key:
			r.fail("%s table: keys out of order at entry %d", which, i)
		case rec.t >= NumTemplates:
			r.fail("%s table: entry %d has template %d", which, i, rec.t)
		}
		if msg := check(rec); msg != "" {
			r.fail("%s table: entry %d: %s", which, i, msg)
		}
		if r.err != nil {
			return nil
		}
		recs[i] = rec
	}
	return recs
}

func (r *reader) end() {
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes after the model", len(r.b))
	}
}

var tableNames = [2]string{"attacker", "defender"}

func finitePositive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// payload encodes the model.
func (m *Beta) payload() []byte {
	var buf bytes.Buffer
	le := binary.LittleEndian
	size := byte(0)
	if m.SizePrior {
		size = 1
	}
	buf.WriteByte(size)
	buf.Write(le.AppendUint64(nil, math.Float64bits(m.Alpha0)))
	buf.WriteByte(byte(m.Regime))
	buf.Write(le.AppendUint64(nil, uint64(m.Searches)))
	for _, tab := range m.tables {
		recs := make([]record, 0, len(tab))
		for k, e := range tab {
			recs = append(recs, record{k, e.t, e.a, e.b})
		}
		writeTable(&buf, recs)
	}
	return buf.Bytes()
}

// Save writes the model file atomically.
func (m *Beta) Save(path string) error { return models.WriteFile(path, betaHeader, m.payload()) }

// DecodeBeta reads a Beta model from the bytes of a model file; name is for error messages. A
// truncated, corrupted or mismatched file gives an error wrapping models.ErrFormat.
func DecodeBeta(data []byte, name string) (*Beta, error) {
	payload, err := models.Read(bytes.NewReader(data), name, betaHeader)
	if err != nil {
		return nil, err
	}
	r := &reader{b: payload, name: name}
	size := r.u8("the prior kind")
	if r.err == nil && size > 1 {
		r.fail("prior kind %d", size)
	}
	m := NewBeta(r.positive("α0", size == 1), size == 1, Regime(0))
	m.Regime = r.regime()
	m.Searches = r.searches()
	for i := range m.tables {
		recs := r.table(tableNames[i], func(rec record) string {
			if !finitePositive(rec.x) || !finitePositive(rec.y) {
				return fmt.Sprintf("Beta(%v, %v)", rec.x, rec.y)
			}
			return ""
		})
		for _, rec := range recs {
			m.tables[i][rec.key] = betaEntry{a: rec.x, b: rec.y, t: rec.t}
		}
	}
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

// payload encodes the model.
func (m *Hier) payload() []byte {
	var buf bytes.Buffer
	le := binary.LittleEndian
	for _, x := range []float64{m.BetaT, m.Beta, m.RootVar, m.PseudoVar} {
		buf.Write(le.AppendUint64(nil, math.Float64bits(x)))
	}
	buf.WriteByte(byte(m.Regime))
	buf.Write(le.AppendUint64(nil, uint64(m.Searches)))
	for _, tab := range m.tables {
		recs := make([]record, 0, len(tab))
		for k, e := range tab {
			recs = append(recs, record{k, e.t, e.g.Pi, e.g.Tau})
		}
		writeTable(&buf, recs)
	}
	return buf.Bytes()
}

// Save writes the model file atomically.
func (m *Hier) Save(path string) error { return models.WriteFile(path, hierHeader, m.payload()) }

// DecodeHier reads a hierarchical model from the bytes of a model file; name is for error
// messages. A truncated, corrupted or mismatched file gives an error wrapping models.ErrFormat.
func DecodeHier(data []byte, name string) (*Hier, error) {
	payload, err := models.Read(bytes.NewReader(data), name, hierHeader)
	if err != nil {
		return nil, err
	}
	r := &reader{b: payload, name: name}
	m := NewHier(r.positive("β_i", false), r.positive("β", false), r.positive("the root variance", false),
		r.positive("the pseudo-observation variance", true), Regime(0))
	m.Regime = r.regime()
	m.Searches = r.searches()
	for i := range m.tables {
		recs := r.table(tableNames[i], func(rec record) string {
			g := bayes.Gauss{Pi: rec.x, Tau: rec.y}
			switch {
			case math.IsNaN(g.Pi) || math.IsInf(g.Pi, 0) || g.Pi < 0 || math.IsNaN(g.Tau) || math.IsInf(g.Tau, 0):
				return fmt.Sprintf("precision %v, precision-adjusted mean %v", g.Pi, g.Tau)
			case rec.t == 0 && g.Pi == 0:
				return "a T0 pattern with a flat belief"
			}
			return ""
		})
		for _, rec := range recs {
			m.tables[i][rec.key] = hierEntry{g: bayes.Gauss{Pi: rec.x, Tau: rec.y}, t: rec.t}
		}
	}
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}
