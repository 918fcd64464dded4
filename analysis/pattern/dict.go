package pattern

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"aji/analysis/board"
	"aji/internal/hugepage"
	"aji/models"
)

// Entry is one harvested pattern: its invariant key, template size and the number of times it was seen
// at a move played in the harvested games. In a Stern dictionary (HarvestStern) Size is the template
// number, 1..NumStern (T1..T14; T3..T12 are the Coulom sizes 3..12 with Stern's local features).
type Entry struct {
	Key   uint64
	Size  int
	Count int
}

// Dictionary maps pattern keys to dense ids 0..Len()-1, the slots of the patterns' parameters in a
// trained model. It is read-only once built and safe for concurrent use.
type Dictionary struct {
	entries []Entry
	// slots is an open-addressing table (linear probing, at most half full) of key and id+1, 0 = empty:
	// one cache line per lookup, and no pointer for the garbage collector to scan. A large one is on
	// huge pages where the system offers them (internal/hugepage), so that a lookup misses no TLB.
	slots []slot
	mask  uint64
	// stern marks a dictionary of Stern's templates (keys from SternKeys, sizes 1..NumStern).
	stern bool
	// Threshold and Games describe the harvest (0 when unknown).
	Threshold int
	Games     int
}

type slot struct {
	key uint64
	id  int32 // id+1
}

// ErrDuplicate reports two entries with one key.
var ErrDuplicate = errors.New("duplicate pattern key")

// NewDictionary returns a dictionary of the given entries of the Coulom templates (sizes
// MinSize..MaxSize, keys from Keys), entry i getting id i.
func NewDictionary(entries []Entry) (*Dictionary, error) { return newDictionary(entries, false) }

// NewSternDictionary returns a dictionary of the given entries of Stern's templates (Size the template
// number 1..NumStern, keys from SternKeys), entry i getting id i.
func NewSternDictionary(entries []Entry) (*Dictionary, error) { return newDictionary(entries, true) }

func newDictionary(entries []Entry, stern bool) (*Dictionary, error) {
	lo, hi := MinSize, MaxSize
	if stern {
		lo, hi = 1, NumStern
	}
	for _, e := range entries {
		if e.Size < lo || e.Size > hi {
			return nil, fmt.Errorf("pattern %016x: size %d outside %d..%d", e.Key, e.Size, lo, hi)
		}
	}
	n := uint64(4)
	for n < 2*uint64(len(entries)) {
		n *= 2
	}
	d := &Dictionary{entries: entries, slots: hugepage.Slice[slot](int(n)), mask: n - 1, stern: stern}
	for id, e := range entries {
		i := slotOf(e.Key) & d.mask
		for d.slots[i].id != 0 {
			if d.slots[i].key == e.Key {
				return nil, fmt.Errorf("%w %016x (ids %d and %d)", ErrDuplicate, e.Key, d.slots[i].id-1, id)
			}
			i = (i + 1) & d.mask
		}
		d.slots[i] = slot{e.Key, int32(id + 1)}
	}
	return d, nil
}

// slotOf spreads a key over the table: keys are minima of 8 random numbers, so their high bits are
// mostly zero and their low bits alone would do, but remixing costs nothing next to the cache miss.
func slotOf(key uint64) uint64 { return board.Mix64(key) }

// Stern reports whether d holds patterns of Stern's templates (NewSternDictionary, HarvestStern,
// LoadSternDictionary): look them up with LargestStern. Otherwise it holds Coulom's: use Largest.
func (d *Dictionary) Stern() bool { return d.stern }

// Len returns the number of patterns.
func (d *Dictionary) Len() int { return len(d.entries) }

// Entry returns pattern id.
func (d *Dictionary) Entry(id int) Entry { return d.entries[id] }

// Entries returns all patterns by id; the slice is shared: do not modify it.
func (d *Dictionary) Entries() []Entry { return d.entries }

// Lookup returns the id of the pattern with the given key.
func (d *Dictionary) Lookup(key uint64) (id int, ok bool) {
	for i := slotOf(key) & d.mask; ; i = (i + 1) & d.mask {
		s := &d.slots[i]
		if s.id == 0 {
			return -1, false
		}
		if s.key == key {
			return int(s.id - 1), true
		}
	}
}

// Largest returns the largest pattern of the dictionary matching at a point whose keys are given, the
// shape feature of Coulom 2007 §3.2 and Stern 2008 §3.2.1. It looks the sizes up from the smallest and
// stops at the first miss: a harvested dictionary is closed under nesting (a pattern is seen at most as
// often as the smaller patterns nested in it, so a threshold on exact counts keeps those too), and
// Prune keeps it so. ok is false when not even the 3x3 pattern is known. It is for a Coulom
// dictionary; a Stern dictionary (Stern) has LargestStern.
func (d *Dictionary) Largest(keys Keys) (id, size int, ok bool) {
	id = -1
	for s, k := range keys {
		j, found := d.Lookup(k)
		if !found {
			break
		}
		id, size, ok = j, MinSize+s, true
	}
	return id, size, ok
}

// LargestStern returns the largest of Stern's templates whose pattern at a point, whose keys are given,
// the dictionary knows (Stern 2008 §3.2.1, "the largest matching pattern"), and its id: it looks the
// templates up from T14 down to T1 and stops at the first hit, so it needs no closure under nesting.
// Zero keys (not computed) are skipped. ok is false when no template matches.
func (d *Dictionary) LargestStern(k SternKeys) (id, template int, ok bool) {
	for i := NumStern - 1; i >= 0; i-- {
		if k[i] == 0 {
			continue
		}
		if id, found := d.Lookup(k[i]); found {
			return id, i + 1, true
		}
	}
	return -1, 0, false
}

// CountBySize returns the number of patterns of each Coulom size (index size-MinSize); for a Stern
// dictionary, those of T3..T12.
func (d *Dictionary) CountBySize() [NumSizes]int {
	var n [NumSizes]int
	for _, e := range d.entries {
		if e.Size >= MinSize && e.Size <= MaxSize {
			n[e.Size-MinSize]++
		}
	}
	return n
}

// CountBySternTemplate returns the number of patterns of each Stern template (index template-1); for a
// Coulom dictionary the sizes 3..12 are counted at indices 2..11.
func (d *Dictionary) CountBySternTemplate() [NumStern]int {
	var n [NumStern]int
	for _, e := range d.entries {
		n[e.Size-1]++
	}
	return n
}

// Prune returns a dictionary of the patterns seen at least minCount times, in the same order (so with
// new ids). It stays closed under nesting.
func (d *Dictionary) Prune(minCount int) *Dictionary {
	var kept []Entry
	for _, e := range d.entries {
		if e.Count >= minCount {
			kept = append(kept, e)
		}
	}
	p, err := newDictionary(kept, d.stern)
	if err != nil {
		panic(err) // a subset of valid, distinct entries
	}
	p.Threshold, p.Games = max(d.Threshold, minCount), d.Games
	return p
}

// The file format is a models container (magic, kind, format version, template-set version, length,
// CRC-32C) holding:
//
//	u8  MinSize, u8 MaxSize
//	u64 fingerprint of the key function (see fingerprint)
//	u32 threshold, u32 games
//	u32 number of entries
//	entries by id: u64 key, u8 size, u32 count
//
// all little-endian. A Stern dictionary has the same payload with the sizes 1 and NumStern and the
// fingerprint of the Stern key function (sternFingerprint), in a container of kind SternKind whose
// feature version is SternVersion: ReadDictionary refuses it, ReadSternDictionary reads only it.
const (
	// Kind is the models container kind of a pattern dictionary.
	Kind = "patterns"
	// SternKind is the models container kind of a dictionary of Stern's templates.
	SternKind     = "stern-patterns"
	formatVersion = 1
	headerBytes   = 2 + 8 + 4 + 4 + 4
	entryBytes    = 8 + 1 + 4
)

var (
	fileHeader      = models.Header{Kind: Kind, FormatVersion: formatVersion, FeatureVersion: TemplateVersion}
	sternFileHeader = models.Header{Kind: SternKind, FormatVersion: formatVersion, FeatureVersion: SternVersion}
)

// header returns the container header of d's kind.
func (d *Dictionary) header() models.Header {
	if d.stern {
		return sternFileHeader
	}
	return fileHeader
}

// fingerprint hashes the keys of a few fixed positions. A dictionary records it, so a change to the
// templates, the Zobrist numbers or the symmetry reduction that forgot to bump TemplateVersion is still
// caught when an old file is read.
var fingerprint = sync.OnceValue(func() uint64 {
	b, _ := board.New(19)
	h := uint64(TemplateVersion)
	mix := func(k Keys) {
		for _, x := range k {
			h = board.Mix64(h ^ x)
		}
	}
	mix(KeysAt(b, board.At(0, 0), board.Black))
	mix(KeysAt(b, board.At(3, 2), board.Black))
	for i, m := range [][2]int{{3, 3}, {15, 3}, {16, 16}, {2, 15}, {5, 2}, {9, 9}} {
		c := board.Black
		if i%2 == 1 {
			c = board.White
		}
		_ = b.Play(board.At(m[0], m[1]), c)
	}
	mix(KeysAt(b, board.At(4, 4), board.Black))
	mix(KeysAt(b, board.At(2, 3), board.White))
	mix(KeysAt(b, board.At(10, 8), board.White))
	return h
})

// sternFingerprint is fingerprint for the Stern key function: the keys of a few fixed positions, the
// local features included (a ko among them).
var sternFingerprint = sync.OnceValue(func() uint64 {
	h := uint64(TemplateVersion)<<32 | SternVersion
	mix := func(k SternKeys) {
		for _, x := range k {
			h = board.Mix64(h ^ x)
		}
	}
	b, _ := board.New(19)
	mix(SternKeysAt(b, board.At(0, 0), board.Black))
	mix(SternKeysAt(b, board.At(3, 2), board.White))
	for i, m := range [][2]int{{3, 3}, {15, 3}, {16, 16}, {2, 15}, {5, 2}, {9, 9}, {4, 3}, {3, 4}} {
		c := board.Black
		if i%2 == 1 {
			c = board.White
		}
		_ = b.Play(board.At(m[0], m[1]), c)
	}
	mix(SternKeysAt(b, board.At(4, 4), board.Black))
	mix(SternKeysAt(b, board.At(2, 3), board.White))
	mix(SternKeysAt(b, board.At(10, 8), board.White))
	// A ko on 9x9: Black captures at c2 (2,1).
	k, _ := board.New(9)
	for _, s := range []struct {
		x, y int
		c    board.Color
	}{{1, 0, board.Black}, {0, 1, board.Black}, {1, 2, board.Black}, {2, 0, board.White}, {3, 1, board.White}, {2, 2, board.White}, {1, 1, board.White}} {
		_ = k.Set(board.At(s.x, s.y), s.c)
	}
	_ = k.Play(board.At(2, 1), board.Black)
	mix(SternKeysAt(k, board.At(4, 4), board.White))
	mix(SternKeysAt(k, board.At(2, 3), board.Black))
	return h
})

// payload encodes the dictionary as the container's payload.
func (d *Dictionary) payload() []byte {
	le := binary.LittleEndian
	buf := make([]byte, 0, headerBytes+entryBytes*len(d.entries))
	if d.stern {
		buf = append(buf, 1, NumStern)
		buf = le.AppendUint64(buf, sternFingerprint())
	} else {
		buf = append(buf, MinSize, MaxSize)
		buf = le.AppendUint64(buf, fingerprint())
	}
	buf = le.AppendUint32(buf, clamp32(d.Threshold))
	buf = le.AppendUint32(buf, clamp32(d.Games))
	buf = le.AppendUint32(buf, uint32(len(d.entries)))
	for _, e := range d.entries {
		buf = le.AppendUint64(buf, e.Key)
		buf = append(buf, byte(e.Size))
		buf = le.AppendUint32(buf, clamp32(e.Count))
	}
	return buf
}

// WriteTo writes the dictionary in its file format.
func (d *Dictionary) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	err := models.Write(cw, d.header(), d.payload())
	return cw.n, err
}

func clamp32(x int) uint32 { return uint32(min(max(x, 0), 1<<32-1)) }

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadDictionary reads a dictionary of the Coulom templates written by WriteTo; name (a path, or
// "embedded mm") is used in error messages. A truncated, corrupted or mismatched input (a Stern
// dictionary among them) gives an error naming it, wrapping models.ErrFormat, never a panic.
func ReadDictionary(r io.Reader, name string) (*Dictionary, error) {
	return readDictionary(r, name, false)
}

// ReadSternDictionary reads a dictionary of Stern's templates written by WriteTo, as ReadDictionary
// does; a Coulom dictionary is refused.
func ReadSternDictionary(r io.Reader, name string) (*Dictionary, error) {
	return readDictionary(r, name, true)
}

func readDictionary(r io.Reader, name string, stern bool) (*Dictionary, error) {
	header, lo, hi, fprint := fileHeader, byte(MinSize), byte(MaxSize), fingerprint
	if stern {
		header, lo, hi, fprint = sternFileHeader, 1, NumStern, sternFingerprint
	}
	payload, err := models.Read(r, name, header)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*Dictionary, error) {
		return nil, fmt.Errorf("%s: %w: %s", name, models.ErrFormat, fmt.Sprintf(format, args...))
	}
	if len(payload) < headerBytes {
		return fail("pattern header truncated")
	}
	le := binary.LittleEndian
	if payload[0] != lo || payload[1] != hi {
		return fail("template sizes %d..%d, this program computes %d..%d", payload[0], payload[1], lo, hi)
	}
	if fp := le.Uint64(payload[2:]); fp != fprint() {
		return fail("pattern keys were computed by another key function (fingerprint %016x, want %016x); harvest again", fp, fprint())
	}
	threshold, games := le.Uint32(payload[10:]), le.Uint32(payload[14:])
	n := uint64(le.Uint32(payload[18:]))
	body := payload[headerBytes:]
	if uint64(len(body)) != n*entryBytes {
		return fail("%d entries need %d bytes, found %d", n, n*entryBytes, len(body))
	}
	entries := make([]Entry, n)
	for i := range entries {
		e := body[i*entryBytes:]
		entries[i] = Entry{Key: le.Uint64(e), Size: int(e[8]), Count: int(le.Uint32(e[9:]))}
	}
	d, err := newDictionary(entries, stern)
	if err != nil {
		return fail("%v", err)
	}
	d.Threshold, d.Games = int(threshold), int(games)
	return d, nil
}

// Save writes the dictionary to a file, atomically.
func (d *Dictionary) Save(path string) error { return models.WriteFile(path, d.header(), d.payload()) }

// LoadDictionary reads a dictionary file of the Coulom templates.
func LoadDictionary(path string) (*Dictionary, error) { return loadDictionary(path, false) }

// LoadSternDictionary reads a dictionary file of Stern's templates.
func LoadSternDictionary(path string) (*Dictionary, error) { return loadDictionary(path, true) }

func loadDictionary(path string, stern bool) (*Dictionary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load patterns: %w", err)
	}
	defer f.Close()
	return readDictionary(f, path, stern)
}
