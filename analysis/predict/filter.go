package predict

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"sync"
)

// Query selects and orders the rows of a Weights listing, as the model browser's filters set it.
type Query struct {
	// Text keeps the rows whose name holds it, ignoring case; "" keeps all.
	Text string
	// Kinds keeps the rows of the kinds whose bit (1 << RowKind) is set; 0 keeps all.
	Kinds uint8
	// MinSize and MaxSize keep the shapes of sizes in range (0: no bound); a bound drops every row
	// without a size (feature levels, paths).
	MinSize, MaxSize int
	// MinWeight and MaxWeight keep the rows whose Weight is in range; nil is no bound.
	MinWeight, MaxWeight *float64
	// By is the column sorted on, Desc its direction.
	By   Column
	Desc bool
}

// Column is a column of the listing to sort on.
type Column uint8

const (
	ByModel  Column = iota // the model's own order (parameter slot)
	ByName                 // by name: kind, then feature order or size, then count, as names read
	BySize                 // pattern size
	ByWeight               // Weight
	BySpread               // Spread
	BySeen                 // Seen
	ByPlayed               // Played
	NumColumns
)

// Filter appends to dst[:0] the indices of the rows of w that q keeps, in q's order, and returns it.
// It allocates nothing beyond dst's growth: names are written into one scratch buffer.
func Filter(w *Weights, q Query, dst []int32) []int32 {
	dst = dst[:0]
	text := []byte(strings.ToLower(q.Text))
	var name []byte
	sized := q.MinSize > 0 || q.MaxSize > 0
	lo, hi := math.Inf(-1), math.Inf(1)
	if q.MinWeight != nil {
		lo = *q.MinWeight
	}
	if q.MaxWeight != nil {
		hi = *q.MaxWeight
	}
	for i := range w.Rows {
		r := &w.Rows[i]
		if q.Kinds != 0 && q.Kinds&(1<<r.Kind) == 0 {
			continue
		}
		if sized && (r.Size == 0 || q.MinSize > 0 && int(r.Size) < q.MinSize || q.MaxSize > 0 && int(r.Size) > q.MaxSize) {
			continue
		}
		if r.Weight < lo || r.Weight > hi {
			continue
		}
		if len(text) > 0 {
			name = w.AppendName(name[:0], i)
			if !containsFold(name, text) {
				continue
			}
		}
		dst = append(dst, int32(i))
	}
	Sort(w, dst, q.By, q.Desc)
	return dst
}

// containsFold reports whether s holds the lower-case lower, ASCII letters of s compared without
// case (names are ASCII but for σ, γ and the like, which have no case to fold here).
func containsFold(s, lower []byte) bool {
	for i := range s {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			s[i] = c + 'a' - 'A'
		}
	}
	return bytes.Contains(s, lower)
}

// Sort orders the row indices view of w by column by, descending if desc; rows that tie keep the
// model's order (reversed, descending), so that one direction is the other reversed. It is a radix
// sort on a 64-bit key per row, O(n): a comparison sort reading rows scattered through a listing of
// 400,000 took five times as long.
func Sort(w *Weights, view []int32, by Column, desc bool) {
	if by == ByModel {
		slices.Sort(view)
	} else {
		s := sorters.Get().(*sorter)
		s.sort(w.Rows, view, by)
		sorters.Put(s)
	}
	if desc {
		slices.Reverse(view)
	}
}

var sorters = sync.Pool{New: func() any { return new(sorter) }}

// sorter holds a radix sort's scratch.
type sorter struct {
	keys, keys2 []uint64
	tmp         []int32
}

// sort orders view by the key of column by, ties by index.
func (s *sorter) sort(rows []Row, view []int32, by Column) {
	n := len(view)
	if n == 0 {
		return
	}
	slices.Sort(view) // the model's order first: the passes are stable, so ties keep it
	s.keys = slices.Grow(s.keys[:0], n)[:n]
	s.keys2 = slices.Grow(s.keys2[:0], n)[:n]
	s.tmp = slices.Grow(s.tmp[:0], n)[:n]
	for k, i := range view {
		s.keys[k] = sortKey(&rows[i], by)
	}
	keys, keys2, src, dst := s.keys, s.keys2, view, s.tmp
	for shift := 0; shift < 64; shift += 8 {
		var count [256]int
		for _, k := range keys {
			count[k>>shift&0xFF]++
		}
		if count[keys[0]>>shift&0xFF] == n {
			continue // every key has this byte: the pass would change nothing
		}
		pos := 0
		for b := range count {
			count[b], pos = pos, pos+count[b]
		}
		for k, key := range keys {
			b := key >> shift & 0xFF
			dst[count[b]], keys2[count[b]] = src[k], key
			count[b]++
		}
		keys, keys2, src, dst = keys2, keys, dst, src
	}
	if &src[0] != &view[0] {
		copy(view, src)
	}
}

// sortKey maps row r's value in column by to a key whose unsigned order is the column's order.
func sortKey(r *Row, by Column) uint64 {
	switch by {
	case ByName:
		// Kind, then a shape's size and count, a path's label (its name's hex digits), or the
		// model's order of feature levels.
		k := uint64(r.Kind) << 56
		switch r.Kind {
		case RowShape, RowShape3:
			return k | uint64(r.Size)<<48 | min(uint64(max(r.Seen, 0)), 1<<48-1)
		case RowPath:
			return k | r.ID
		}
		return k | uint64(r.Index)
	case BySize:
		return uint64(r.Size)
	case ByWeight:
		return floatKey(r.Weight)
	case BySpread:
		return floatKey(r.Spread)
	case BySeen:
		return uint64(r.Seen) ^ 1<<63
	case ByPlayed:
		return uint64(r.Played) ^ 1<<63
	}
	return 0
}

// floatKey maps x to a key in the same order (IEEE 754's bits, the negatives' reversed).
func floatKey(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}
