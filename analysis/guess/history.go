package guess

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"aji/internal/atomicfile"
)

// historyVersion is the format of the history file this code writes.
const historyVersion = 1

// DefaultPath is where the app keeps the history: aji/guess.json in the user's config folder.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("guess history: %w", err)
	}
	return filepath.Join(dir, "aji", "guess.json"), nil
}

// History is the guess history file: one entry per game guessed in each sitting, so that a user can
// see progress over time.
type History struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// Entry is the tally of one game in one sitting (a run of the app) with one choice of colours.
type Entry struct {
	Sitting time.Time `json:"sitting"` // when the sitting began; it names the sitting
	Game    string    `json:"game"`    // the record's name, e.g. its file name
	Players string    `json:"players,omitempty"`
	Colors  string    `json:"colors"` // Colors.String
	Updated time.Time `json:"updated"`
	Tally   Tally     `json:"tally"`
}

// Put records e, replacing the entry of the same sitting, game and colours.
func (h *History) Put(e Entry) {
	same := func(o Entry) bool { return o.Sitting.Equal(e.Sitting) && o.Game == e.Game && o.Colors == e.Colors }
	if i := slices.IndexFunc(h.Entries, same); i >= 0 {
		h.Entries[i] = e
		return
	}
	h.Entries = append(h.Entries, e)
}

// SittingTally is one sitting's tallies summed over its games.
type SittingTally struct {
	Start time.Time
	Games int
	Tally Tally
}

// Sittings sums the entries per sitting, the latest sitting first.
func (h *History) Sittings() []SittingTally {
	var out []SittingTally
	for _, e := range h.Entries {
		i := slices.IndexFunc(out, func(s SittingTally) bool { return s.Start.Equal(e.Sitting) })
		if i < 0 {
			out = append(out, SittingTally{Start: e.Sitting})
			i = len(out) - 1
		}
		out[i].Games++
		out[i].Tally.Add(e.Tally)
	}
	slices.SortStableFunc(out, func(a, b SittingTally) int { return b.Start.Compare(a.Start) })
	return out
}

// ErrNewer reports a history file written by a newer version of Aji: it is left alone, and not
// saved over.
var ErrNewer = errors.New("guess history written by a newer version of Aji")

// Load reads the history at path; a missing file is an empty history. A file that does not parse as
// one is not lost: it is renamed to path.bad (path.bad.2, ... when that exists), an empty history is
// returned, and note says where the file went. A file that cannot be read, or that a newer Aji wrote,
// is an error, and the caller must not save over it.
func Load(path string) (h *History, note string, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &History{Version: historyVersion}, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("guess history: %w", err)
	}
	h = new(History)
	perr := json.Unmarshal(data, h)
	switch {
	case perr == nil && h.Version > historyVersion:
		return nil, "", fmt.Errorf("%s: %w (format %d, this one reads %d)", path, ErrNewer, h.Version, historyVersion)
	case perr == nil && h.Version < 1:
		perr = errors.New("no format version")
	}
	if perr == nil {
		return h, "", nil
	}
	bad, err := setAside(path)
	if err != nil {
		return nil, "", fmt.Errorf("guess history %s is damaged (%v) and could not be kept aside: %w", path, perr, err)
	}
	note = fmt.Sprintf("The guess history %s was damaged (%v); it is kept as %s and a new history begins.", path, perr, bad)
	return &History{Version: historyVersion}, note, nil
}

// setAside renames path to the first of path.bad, path.bad.2, ... that does not exist.
func setAside(path string) (string, error) {
	for i := 1; i < 1000; i++ {
		bad := path + ".bad"
		if i > 1 {
			bad += "." + strconv.Itoa(i)
		}
		if _, err := os.Lstat(bad); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return bad, os.Rename(path, bad)
	}
	return "", errors.New("too many damaged histories kept already")
}

// encode is h as the file holds it.
func encode(h *History) ([]byte, error) {
	v := *h
	v.Version = historyVersion
	data, err := json.MarshalIndent(&v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("guess history: %w", err)
	}
	return append(data, '\n'), nil
}

// Save writes h to path atomically (internal/atomicfile), making its folder if needed.
func Save(path string, h *History) error {
	data, err := encode(h)
	if err != nil {
		return err
	}
	return write(path, data)
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("guess history: %w", err)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// Saver writes the history in the background, so that a slow disk never holds up the caller (the
// app's UI goroutine): Save encodes a snapshot at once and one goroutine writes the snapshots in order,
// skipping any that a newer one replaced before its turn.
type Saver struct {
	path   string
	failed func(error) // called on the writing goroutine

	mu      sync.Mutex
	pending []byte // the newest snapshot not yet written; nil when none
	busy    bool   // a writer goroutine is running
	wg      sync.WaitGroup
}

// NewSaver saves to path, reporting failures to failed (from its own goroutine; nil: ignored).
func NewSaver(path string, failed func(error)) *Saver {
	if failed == nil {
		failed = func(error) {}
	}
	return &Saver{path: path, failed: failed}
}

// Path is the file saved to.
func (s *Saver) Path() string { return s.path }

// Save writes h (as it is now) to the file soon.
func (s *Saver) Save(h *History) {
	data, err := encode(h)
	if err != nil {
		s.failed(err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = data
	if !s.busy {
		s.busy = true
		s.wg.Add(1)
		go s.run()
	}
}

func (s *Saver) run() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		data := s.pending
		s.pending = nil
		if data == nil {
			s.busy = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		if err := write(s.path, data); err != nil {
			s.failed(err)
		}
	}
}

// Wait returns once every snapshot handed to Save is written.
func (s *Saver) Wait() { s.wg.Wait() }
