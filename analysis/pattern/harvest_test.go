package pattern

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"aji/analysis/board"
	"aji/analysis/dataset"
)

// collection writes random games as .sgf files in a temporary folder and returns the folder and the
// exact count of every pattern (by size) at the moves of the first files games, computed from the
// generator's own boards.
type collection struct {
	dir   string
	sizes []int                              // board size of each file, in name order
	truth []map[uint64]struct{ size, n int } // per file: key -> size and occurrences
	occur []Keys                             // the keys at every move of every file
}

func writeCollection(t *testing.T, files int) *collection {
	t.Helper()
	rng := rand.NewPCG(31, 32)
	c := &collection{dir: t.TempDir()}
	for f := range files {
		size := []int{9, 9, 13, 19}[f%4]
		b := mustBoard(t, size)
		var sgf strings.Builder
		fmt.Fprintf(&sgf, "(;GM[1]FF[4]SZ[%d]", size)
		truth := map[uint64]struct{ size, n int }{}
		col := board.Black
		// Openings repeat (fixed first moves) so that large patterns reach the threshold too.
		opening := []board.Point{board.At(2, 2), board.At(size-3, size-3), board.At(2, size-3)}
		for move := range 70 {
			p := board.Pass
			if move < len(opening) && f%2 == 0 {
				p = opening[move]
			} else {
				p = b.RandomMove(rng, col)
			}
			if p == board.Pass {
				break
			}
			k := KeysAt(b, p, col)
			c.occur = append(c.occur, k)
			for s, key := range k {
				e := truth[key]
				truth[key] = struct{ size, n int }{MinSize + s, e.n + 1}
			}
			b.PlayLegal(p, col)
			x, y := p.XY()
			fmt.Fprintf(&sgf, ";%s[%c%c]", map[board.Color]string{board.Black: "B", board.White: "W"}[col], 'a'+x, 'a'+y)
			col = col.Opponent()
		}
		sgf.WriteString(")\n")
		name := filepath.Join(c.dir, fmt.Sprintf("g%03d.sgf", f))
		if err := os.WriteFile(name, []byte(sgf.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		c.sizes = append(c.sizes, size)
		c.truth = append(c.truth, truth)
	}
	return c
}

// want returns the entries a harvest of the first files with the given board size (0: any) should
// keep at the threshold, as a map.
func (c *collection) want(files, boardSize, threshold int) map[uint64]Entry {
	total := map[uint64]Entry{}
	for f := range files {
		if boardSize != 0 && c.sizes[f] != boardSize {
			continue
		}
		for k, e := range c.truth[f] {
			x := total[k]
			total[k] = Entry{Key: k, Size: e.size, Count: x.Count + e.n}
		}
	}
	for k, e := range total {
		if e.Count < threshold {
			delete(total, k)
		}
	}
	return total
}

func (c *collection) check(t *testing.T, d *Dictionary, want map[uint64]Entry, what string) {
	t.Helper()
	if d.Len() != len(want) {
		t.Fatalf("%s: %d patterns, want %d", what, d.Len(), len(want))
	}
	for _, e := range d.Entries() {
		if want[e.Key] != e {
			t.Fatalf("%s: harvested %+v, want %+v", what, e, want[e.Key])
		}
	}
	// Closed under nesting, as Largest assumes: wherever a kept pattern occurs, the smaller patterns
	// nested in it are kept.
	for _, k := range c.occur {
		for s := 1; s < NumSizes; s++ {
			_, big := d.Lookup(k[s])
			if _, small := d.Lookup(k[s-1]); big && !small {
				t.Fatalf("%s: size %d kept, not the size %d inside it", what, MinSize+s, MinSize+s-1)
			}
		}
	}
}

// TestHarvestExact: the harvest keeps exactly the patterns seen at least Threshold times with their
// exact counts, even with a tiny filter full of false positives, and gives the same ids whatever the
// number of workers.
func TestHarvestExact(t *testing.T) {
	c := writeCollection(t, 16)
	want := c.want(16, 0, 2)
	var first *Dictionary
	for _, workers := range []int{1, 3} {
		var calls atomic.Int64
		d, st, err := Harvest(context.Background(), c.dir, Options{
			Threshold: 2, FilterBytes: 1 << 12, Workers: workers,
			Progress: func(pass, games int) { calls.Add(1) },
		})
		if err != nil {
			t.Fatal(err)
		}
		c.check(t, d, want, fmt.Sprintf("%d workers", workers))
		if st.Games != 16 || st.Files != 16 || st.Errors != 0 || calls.Load() != 32 {
			t.Errorf("stats %+v, %d progress calls", st, calls.Load())
		}
		if st.Candidates <= d.Len() {
			t.Errorf("a 4 KB filter should let false positives through: %d candidates, %d kept", st.Candidates, d.Len())
		}
		if first == nil {
			first = d
		} else if !equalEntries(first.Entries(), d.Entries()) {
			t.Error("ids depend on the number of workers")
		}
		if d.Threshold != 2 || d.Games != 16 {
			t.Errorf("threshold %d, games %d", d.Threshold, d.Games)
		}
		t.Logf("%d workers: %+v", workers, st)
	}
	if n := first.CountBySize(); n[NumSizes-1] == 0 {
		t.Errorf("no size-%d pattern kept (%v): the repeated openings should give some", MaxSize, n)
	}
}

func TestHarvestOptions(t *testing.T) {
	c := writeCollection(t, 16)
	// MaxFiles takes the first files in collection order, in both passes.
	for _, n := range []int{1, 5, 16, 40} {
		d, st, err := Harvest(context.Background(), c.dir, Options{Threshold: 2, FilterBytes: 1 << 14, Workers: 2, MaxFiles: n})
		if err != nil {
			t.Fatal(err)
		}
		c.check(t, d, c.want(min(n, 16), 0, 2), fmt.Sprintf("MaxFiles %d", n))
		if st.Files != min(n, 16) {
			t.Errorf("MaxFiles %d: %d files", n, st.Files)
		}
	}
	// The game filter.
	d, st, err := Harvest(context.Background(), c.dir, Options{Threshold: 3, FilterBytes: 1 << 14, Filter: dataset.Filter{Size: 9}})
	if err != nil {
		t.Fatal(err)
	}
	c.check(t, d, c.want(16, 9, 3), "9x9 only")
	if st.Games != 8 {
		t.Errorf("9x9 filter: %d games", st.Games)
	}
}

func TestHarvestBadGames(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.sgf": "(;SZ[19];B[dd];W[pp];B[dp];W[pd])",
		"b.sgf": "(;SZ[19];B[dd];W[pp];B[dd];W[pd])", // the third move is on a stone
		"c.sgf": "(;SZ[19];B[dd",                     // broken
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, st, err := Harvest(context.Background(), dir, Options{Threshold: 2, FilterBytes: 1 << 12})
	if err != nil {
		t.Fatal(err)
	}
	if st.Errors != 2 || st.Moves != 6 {
		t.Errorf("stats %+v, want 2 errors and 6 moves (4 + the 2 before the illegal one)", st)
	}
	// The 4-4 points are 24 apart, beyond every template: each move, Black's or White's, is the 4-4
	// point of the empty board, one pattern of each size seen 6 times.
	if n := d.CountBySize(); n != [NumSizes]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1} {
		t.Errorf("kept %v, want one pattern of each size", n)
	}
	for _, e := range d.Entries() {
		if e.Count != 6 {
			t.Errorf("%+v: want count 6", e)
		}
	}
}

func TestHarvestCancel(t *testing.T) {
	c := writeCollection(t, 16)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Harvest(ctx, c.dir, Options{FilterBytes: 1 << 12}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	for _, maxFiles := range []int{0, 10} {
		ctx, cancel = context.WithCancel(context.Background())
		var games atomic.Int64
		_, _, err := Harvest(ctx, c.dir, Options{FilterBytes: 1 << 12, Workers: 2, MaxFiles: maxFiles, Progress: func(pass, n int) {
			if games.Add(1) == 3 {
				cancel()
			}
		}})
		if !errors.Is(err, context.Canceled) || games.Load() > 6 {
			t.Errorf("MaxFiles %d, cancelled after 3 games: %v after %d games", maxFiles, err, games.Load())
		}
		cancel()
	}
	if _, _, err := Harvest(context.Background(), filepath.Join(c.dir, "absent"), Options{FilterBytes: 1 << 12}); err == nil ||
		!strings.Contains(err.Error(), "absent") {
		t.Errorf("absent collection: %v", err)
	}
}
