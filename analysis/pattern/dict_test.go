package pattern

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/models"
)

// nestedDictionary returns a dictionary of the patterns at a few points of a position: for each point
// the sizes up to some limit, so Largest has something to find, with a closed set.
func nestedDictionary(t testing.TB) (*Dictionary, *board.Board, map[board.Point]int) {
	t.Helper()
	b := mustBoard(t, 19)
	randomPlay(b, rand.NewPCG(21, 22), board.Black, 40, nil)
	largest := map[board.Point]int{}
	seen := map[uint64]bool{}
	var entries []Entry
	for i, p := range b.EmptyPoints()[:30] {
		top := MinSize + i%(NumSizes+1) - 1 // MinSize-1 (nothing known) .. MaxSize
		k := KeysAt(b, p, board.Black)
		for s := MinSize; s <= top; s++ {
			if !seen[k.Of(s)] {
				seen[k.Of(s)] = true
				entries = append(entries, Entry{Key: k.Of(s), Size: s, Count: 100 - s})
			}
		}
		largest[p] = top
	}
	d, err := NewDictionary(entries)
	if err != nil {
		t.Fatal(err)
	}
	d.Threshold, d.Games = 3, 7
	return d, b, largest
}

func TestDictionaryLookup(t *testing.T) {
	d, b, largest := nestedDictionary(t)
	var tr Tracker
	tr.Sync(b)
	for _, p := range b.EmptyPoints() {
		for _, c := range []board.Color{board.Black, board.White} {
			id, size, ok := d.Largest(KeysAt(b, p, c))
			if id2, size2, ok2 := tr.Largest(d, p, c); id2 != id || size2 != size || ok2 != ok {
				t.Errorf("%s %v: Tracker.Largest = %d, %d, %v; Largest of the keys %d, %d, %v", p.GTP(19), c, id2, size2, ok2, id, size, ok)
			}
		}
	}
	for p, top := range largest {
		id, size, ok := d.Largest(KeysAt(b, p, board.Black))
		if top < MinSize {
			continue // its small patterns may still be known through another point
		}
		if !ok || size < top {
			t.Errorf("%s: Largest = size %d (ok %v), want at least %d", p.GTP(19), size, ok, top)
			continue
		}
		if e := d.Entry(id); e.Size != size || e.Key != KeysAt(b, p, board.Black).Of(size) {
			t.Errorf("%s: entry %+v for size %d", p.GTP(19), e, size)
		}
	}
	for id, e := range d.Entries() {
		if got, ok := d.Lookup(e.Key); !ok || got != id {
			t.Errorf("Lookup(%x) = %d, %v; want %d", e.Key, got, ok, id)
		}
	}
	if _, ok := d.Lookup(12345); ok {
		t.Error("Lookup of an absent key succeeded")
	}
	if _, err := NewDictionary([]Entry{{Key: 1, Size: 3}, {Key: 1, Size: 4}}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate keys: %v", err)
	}
	if _, err := NewDictionary([]Entry{{Key: 1, Size: 2}}); err == nil {
		t.Error("size 2 accepted")
	}
	p := d.Prune(96)
	for _, e := range p.Entries() {
		if e.Count < 96 {
			t.Errorf("Prune kept %+v", e)
		}
	}
	if got := p.CountBySize(); got[0] == 0 || got[NumSizes-1] != 0 || p.Threshold != 96 {
		t.Errorf("pruned counts by size %v, threshold %d", got, p.Threshold)
	}
}

func TestDictionaryRoundTrip(t *testing.T) {
	d, _, _ := nestedDictionary(t)
	path := filepath.Join(t.TempDir(), "patterns.bin")
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadDictionary(path)
	if err != nil {
		t.Fatal(err)
	}
	if !equalEntries(got.Entries(), d.Entries()) || got.Threshold != 3 || got.Games != 7 {
		t.Fatal("round trip changed the dictionary")
	}
	var buf bytes.Buffer
	n, err := d.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo: %d, %v (wrote %d)", n, err, buf.Len())
	}
	file, _ := os.ReadFile(path)
	if !bytes.Equal(file, buf.Bytes()) {
		t.Fatal("Save and WriteTo differ")
	}
	empty, _ := NewDictionary(nil)
	buf.Reset()
	empty.WriteTo(&buf)
	if e, err := ReadDictionary(&buf, "empty"); err != nil || e.Len() != 0 {
		t.Fatalf("empty dictionary: %v", err)
	}
}

func equalEntries(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDictionaryCorrupt: every truncation and every flipped byte gives an error naming the file.
func TestDictionaryCorrupt(t *testing.T) {
	d, _, _ := nestedDictionary(t)
	var buf bytes.Buffer
	d.WriteTo(&buf)
	data := buf.Bytes()
	for n := range len(data) {
		_, err := ReadDictionary(bytes.NewReader(data[:n]), "cut.bin")
		if err == nil || !strings.Contains(err.Error(), "cut.bin") || !errors.Is(err, models.ErrFormat) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x10
		if _, err := ReadDictionary(bytes.NewReader(bad), "flip.bin"); err == nil || !strings.Contains(err.Error(), "flip.bin") {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
	}
	if _, err := LoadDictionary(filepath.Join(t.TempDir(), "absent.bin")); err == nil || !strings.Contains(err.Error(), "absent.bin") {
		t.Errorf("absent file: %v", err)
	}
}

// TestDictionaryFingerprint: a payload whose key-function fingerprint differs is refused with a message
// saying to harvest again, even under the right versions and a valid checksum.
func TestDictionaryFingerprint(t *testing.T) {
	d, _, _ := nestedDictionary(t)
	payload := d.payload()
	payload[5] ^= 1
	var buf bytes.Buffer
	if err := models.Write(&buf, fileHeader, payload); err != nil {
		t.Fatal(err)
	}
	_, err := ReadDictionary(&buf, "old.bin")
	if err == nil || !strings.Contains(err.Error(), "harvest again") {
		t.Errorf("fingerprint mismatch: %v", err)
	}
}

func FuzzReadDictionary(f *testing.F) {
	d, _, _ := nestedDictionary(f)
	var buf bytes.Buffer
	d.WriteTo(&buf)
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:40])
	f.Add([]byte("AJIMODEL"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// models.Read trusts the payload length of the header up to 1 GiB; keep the fuzzer from asking
		// for that much memory, which says nothing about this reader.
		if i := len("AJIMODEL") + 1; len(data) > i {
			if j := i + int(data[i-1]) + 8; len(data) >= j+8 && leUint64(data[j:]) > 1<<20 {
				return
			}
		}
		dict, err := ReadDictionary(bytes.NewReader(data), "fuzz")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz") {
				t.Fatalf("error does not name the input: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if _, err := dict.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		again, err := ReadDictionary(&out, "again")
		if err != nil || !equalEntries(again.Entries(), dict.Entries()) {
			t.Fatalf("a dictionary read back does not round-trip: %v", err)
		}
	})
}

func leUint64(b []byte) uint64 {
	var x uint64
	for i := 7; i >= 0; i-- {
		x = x<<8 | uint64(b[i])
	}
	return x
}
