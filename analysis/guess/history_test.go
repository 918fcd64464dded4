package guess

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestHistoryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aji", "guess.json")
	h, note, err := Load(path)
	if err != nil || note != "" || len(h.Entries) != 0 {
		t.Fatalf("a missing file: %+v, %q, %v", h, note, err)
	}
	first := time.Date(2026, 11, 3, 14, 2, 0, 0, time.UTC)
	second := first.Add(48 * time.Hour)
	tally := func(moves, first, mm int) Tally {
		return Tally{Moves: moves, FirstTry: first, Right: first, Revealed: moves - first, Predictors: []PredictorTally{{"mm", moves, mm}}}
	}
	h.Put(Entry{Sitting: first, Game: "a.sgf", Colors: "both", Tally: tally(10, 3, 4)})
	h.Put(Entry{Sitting: first, Game: "b.sgf", Colors: "both", Tally: tally(5, 1, 2)})
	h.Put(Entry{Sitting: second, Game: "a.sgf", Colors: "black", Tally: tally(4, 2, 1)})
	h.Put(Entry{Sitting: first, Game: "a.sgf", Colors: "both", Tally: tally(12, 4, 5)}) // replaces the first
	if err := Save(path, h); err != nil {
		t.Fatal(err)
	}
	back, note, err := Load(path)
	if err != nil || note != "" {
		t.Fatal(note, err)
	}
	if !reflect.DeepEqual(back.Entries, h.Entries) || back.Version != historyVersion {
		t.Fatalf("read back %+v, wrote %+v", back, h)
	}
	ss := back.Sittings()
	if len(ss) != 2 || !ss[0].Start.Equal(second) || ss[1].Games != 2 || ss[1].Tally.Moves != 17 || ss[1].Tally.FirstTry != 5 {
		t.Fatalf("sittings %+v", ss)
	}
	if p, _ := ss[1].Tally.Predictor("mm"); p.Top1 != 7 || p.Moves != 17 {
		t.Errorf("mm over the first sitting: %+v", p)
	}
}

// TestDamagedHistoryIsKeptAside: a file that does not parse is renamed, never overwritten, and a new
// history begins with a note naming where it went; a newer format or an unreadable file is an error and
// stays where it is.
func TestDamagedHistoryIsKeptAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "guess.json")
	for i, bad := range []string{`{"version": 1, "entries": [`, `[1, 2]`, `{}`} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		h, note, err := Load(path)
		if err != nil || h == nil || len(h.Entries) != 0 {
			t.Fatalf("%q: %+v, %v", bad, h, err)
		}
		kept := path + ".bad"
		if i > 0 {
			kept += "." + string(rune('1'+i))
		}
		if data, err := os.ReadFile(kept); err != nil || string(data) != bad {
			t.Fatalf("%q: kept as %s: %q, %v", bad, kept, data, err)
		}
		if !strings.Contains(note, kept) {
			t.Errorf("the note %q does not say where the file went (%s)", note, kept)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%q: the damaged file is still at %s", bad, path)
		}
	}

	newer := []byte(`{"version": 2, "entries": []}`)
	if err := os.WriteFile(path, newer, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(path); !errors.Is(err, ErrNewer) {
		t.Errorf("a newer file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != string(newer) {
		t.Error("a newer file was changed")
	}

	folder := filepath.Join(dir, "folder.json")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(folder); err == nil {
		t.Error("an unreadable history loaded")
	}
}

func TestSaverWritesTheLatestSnapshot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "guess.json")
	var failures []error
	s := NewSaver(path, func(err error) { failures = append(failures, err) })
	h := &History{}
	start := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	for i := range 20 {
		h.Put(Entry{Sitting: start, Game: "g.sgf", Colors: "both", Tally: Tally{Moves: i + 1}})
		s.Save(h)
	}
	s.Wait()
	back, _, err := Load(path)
	if err != nil || len(back.Entries) != 1 || back.Entries[0].Tally.Moves != 20 {
		t.Fatalf("read back %+v, %v", back, err)
	}
	// A folder in the way: the failure is reported, nothing panics.
	bad := NewSaver(filepath.Join(path, "x.json"), func(err error) { failures = append(failures, err) })
	bad.Save(h)
	bad.Wait()
	if len(failures) != 1 {
		t.Errorf("failures %v, want one", failures)
	}
}
