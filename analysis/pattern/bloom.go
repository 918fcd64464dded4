package pattern

import (
	"math"
	"runtime"
	"sync/atomic"

	"aji/analysis/board"
)

// Bloom is a spectral Bloom filter (Cohen & Matias 2003; Stern 2008 §3.1.4): m saturating 8-bit counters,
// and for each key |K| = 4 of them; adding a key increments its counters and Count, the least of them,
// is never below the number of times the key was added. It answers "seen at least N times?" for
// hundreds of millions of pattern occurrences in a fixed, small memory, with false positives (a rare
// pattern whose counters are shared with others) but no false negatives.
//
// The four counters of a key lie in one 64-byte block (a blocked Bloom filter, Putze, Sanders & Singler
// 2007), so an Add or a Count costs one cache miss instead of four; the false-positive rate grows a
// little, and Harvest's exact second pass removes false positives anyway. Counters saturate at 255:
// Count(key) = 255 means "at least 255". The last byte of each block is a lock that makes AddMin's
// read-compare-increment atomic.
//
// Add, AddMin and Count are safe for concurrent use.
type Bloom struct {
	words  []atomic.Uint32 // 16 words (63 counters and a lock byte) per block
	blocks uint64
	sink   atomic.Uint32
}

// bloomK is |K|, the number of counters per key (Stern 2008 §3.1.4 chooses 4).
const bloomK = 4

// lockBit is the lock of a block, in the top byte of its last word.
const lockBit = 1 << 24

// NewBloom returns a filter of about the given number of bytes (one byte per counter), at least one
// 64-byte block.
func NewBloom(bytes int) *Bloom {
	blocks := max(uint64(bytes)/64, 1)
	return &Bloom{words: make([]atomic.Uint32, blocks*16), blocks: blocks}
}

// Bytes returns the size of the counter array.
func (f *Bloom) Bytes() int { return len(f.words) * 4 }

// lanes returns the first word of key's block and its four counters in it (0..62; two may coincide).
// The key is remixed first: pattern keys are minima over 8 variants, so their high bits are far from
// uniform.
func (f *Bloom) lanes(key uint64) (base uint64, l [bloomK]uint8) {
	h := board.Mix64(key ^ 0x5BD1E9955BD1E995)
	for k := range l {
		l[k] = uint8((h >> (6 * k) & 63) * 63 >> 6) // onto 0..62: lane 63 is the lock
	}
	// The high 32 bits pick the block by multiplication (Lemire's range reduction), so any number of
	// blocks below 2^32 works.
	return (h >> 32) * f.blocks >> 32 * 16, l
}

// Add counts one more occurrence of key, incrementing all its counters.
func (f *Bloom) Add(key uint64) {
	base, l := f.lanes(key)
	for k, lane := range l {
		if dup(l[:k], lane) {
			continue // one counter chosen twice still counts one occurrence
		}
		w := &f.words[base+uint64(lane>>2)]
		shift := 8 * (lane & 3)
		for {
			old := w.Load()
			if old>>shift&0xFF == 0xFF || w.CompareAndSwap(old, old+1<<shift) {
				break
			}
		}
	}
}

// AddMin counts one more occurrence of key by minimal increase (Cohen & Matias 2003 §3.2): only the
// counters equal to the current minimum are incremented. Count stays an upper bound on the true count
// (each counter is at least the count of every key using it), with far fewer false positives than Add
// (about 20 times fewer at the loads Harvest runs at). The block is locked while it is updated, so
// concurrent adds of one key cannot both read the same minimum.
func (f *Bloom) AddMin(key uint64) {
	base, l := f.lanes(key)
	lock := &f.words[base+15]
	for spins := 0; ; spins++ {
		old := lock.Load()
		if old&lockBit == 0 && lock.CompareAndSwap(old, old|lockBit) {
			break
		}
		if spins > 100 {
			runtime.Gosched()
		}
	}
	m := f.count(base, l)
	if m < math.MaxUint8 {
		for k, lane := range l {
			if !dup(l[:k], lane) && f.get(base, lane) == m {
				f.words[base+uint64(lane>>2)].Add(1 << (8 * (lane & 3)))
			}
		}
	}
	lock.And(^uint32(lockBit))
}

// AddMinAll is AddMin of each key in turn, faster for a batch: it first touches the blocks of all the
// keys, so their cache misses overlap instead of following one another (Harvest adds the ten sizes of
// a move at once).
func (f *Bloom) AddMinAll(keys []uint64) {
	var touch uint32
	for _, k := range keys {
		base, _ := f.lanes(k)
		touch |= f.words[base].Load()
	}
	f.sink.Store(touch) // keeps the loads
	for _, k := range keys {
		f.AddMin(k)
	}
}

// Count returns the least counter of key: at least the number of times it was added (up to 255).
func (f *Bloom) Count(key uint64) int {
	base, l := f.lanes(key)
	return int(f.count(base, l))
}

func (f *Bloom) count(base uint64, l [bloomK]uint8) uint8 {
	m := uint8(math.MaxUint8)
	for _, lane := range l {
		m = min(m, f.get(base, lane))
	}
	return m
}

func (f *Bloom) get(base uint64, lane uint8) uint8 {
	return uint8(f.words[base+uint64(lane>>2)].Load() >> (8 * (lane & 3)))
}

func dup(l []uint8, lane uint8) bool {
	for _, x := range l {
		if x == lane {
			return true
		}
	}
	return false
}

// Load returns the fraction of counters that are not zero (for reports: above about a half, the
// false-positive rate climbs fast).
func (f *Bloom) Load() float64 {
	nonzero := 0
	for i := range f.words {
		w := f.words[i].Load()
		if i%16 == 15 {
			w &^= 0xFF << 24 // the lock
		}
		for k := range 4 {
			if w>>(8*k)&0xFF != 0 {
				nonzero++
			}
		}
	}
	return float64(nonzero) / float64(63*f.blocks)
}
