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
	// The same for Stern's templates (Size the template number).
	sternTruth []map[uint64]struct{ size, n int }
	sternOccur []SternKeys
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
		sternTruth := map[uint64]struct{ size, n int }{}
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
			sk := SternKeysAt(b, p, col)
			c.sternOccur = append(c.sternOccur, sk)
			for i, key := range sk {
				e := sternTruth[key]
				sternTruth[key] = struct{ size, n int }{i + 1, e.n + 1}
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
		c.sternTruth = append(c.sternTruth, sternTruth)
	}
	return c
}

// want returns the entries a harvest of the first files with the given board size (0: any) should
// keep at the threshold, as a map.
func (c *collection) want(files, boardSize, threshold int) map[uint64]Entry {
	return c.wantOf(c.truth, files, boardSize, threshold)
}

func (c *collection) wantOf(truth []map[uint64]struct{ size, n int }, files, boardSize, threshold int) map[uint64]Entry {
	total := map[uint64]Entry{}
	for f := range files {
		if boardSize != 0 && c.sizes[f] != boardSize {
			continue
		}
		for k, e := range truth[f] {
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

// TestHarvestSternExact: HarvestStern keeps exactly the Stern patterns (features included) seen at
// least Threshold times with their exact counts, through a tiny filter, whatever the number of workers,
// and the dictionary is closed under nesting.
func TestHarvestSternExact(t *testing.T) {
	c := writeCollection(t, 16)
	want := c.wantOf(c.sternTruth, 16, 0, 2)
	var first *Dictionary
	for _, workers := range []int{1, 3} {
		d, st, err := HarvestStern(context.Background(), c.dir, Options{Threshold: 2, FilterBytes: 1 << 12, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if !d.Stern() {
			t.Fatal("not a Stern dictionary")
		}
		if d.Len() != len(want) {
			t.Fatalf("%d workers: %d patterns, want %d", workers, d.Len(), len(want))
		}
		for _, e := range d.Entries() {
			if want[e.Key] != e {
				t.Fatalf("%d workers: harvested %+v, want %+v", workers, e, want[e.Key])
			}
		}
		for _, k := range c.sternOccur {
			for i := 1; i < NumStern; i++ {
				_, big := d.Lookup(k[i])
				if _, small := d.Lookup(k[i-1]); big && !small {
					t.Fatalf("T%d kept, not the T%d inside it", i+1, i)
				}
			}
		}
		if st.KeptStern != d.CountBySternTemplate() || st.Kept != [NumSizes]int{} {
			t.Errorf("stats %v, dictionary %v", st.KeptStern, d.CountBySternTemplate())
		}
		if first == nil {
			first = d
		} else if !equalEntries(first.Entries(), d.Entries()) {
			t.Error("ids depend on the number of workers")
		}
		t.Logf("%d workers: kept by template %v", workers, st.KeptStern)
	}
	if n := first.CountBySternTemplate(); n[NumStern-1] == 0 {
		t.Errorf("no T14 pattern kept (%v): the repeated openings should give some", n)
	}
}

var trainPath = filepath.Join("..", "..", "..", "shared", "data", "games-train.tar.xz")

// TestHarvestSternTrain harvests Stern's templates from the first games of the training split: every
// template keeps patterns, many small ones and few T14 (Stern 2008 Fig. 3.5), and the dictionary
// survives a file.
func TestHarvestSternTrain(t *testing.T) {
	if _, err := os.Stat(trainPath); err != nil {
		t.Skipf("training archive not available (%v)", err)
	}
	files := 400
	if testing.Short() || raceEnabled {
		files = 60
	}
	d, st, err := HarvestStern(context.Background(), trainPath, Options{MaxFiles: files, FilterBytes: 1 << 24, Filter: dataset.Filter{Size: 19}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d games, %d moves, %d errors; pass 1 %v, pass 2 %v; filter load %.3f; %d candidates, %d kept",
		st.Files, st.Games, st.Moves, st.Errors, st.Pass1, st.Pass2, st.FilterLoad, st.Candidates, d.Len())
	for i, n := range st.KeptStern {
		t.Logf("T%-2d %7d patterns", i+1, n)
	}
	if d.Threshold != 3 || d.Games != st.Games || st.Games == 0 {
		t.Errorf("threshold %d, games %d", d.Threshold, d.Games)
	}
	for i, n := range st.KeptStern {
		if n == 0 {
			t.Errorf("T%d: nothing kept", i+1)
		}
	}
	path := filepath.Join(t.TempDir(), "stern.pat")
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadSternDictionary(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Stern() || !equalEntries(back.Entries(), d.Entries()) || back.Games != d.Games {
		t.Error("the dictionary changed through its file")
	}
}
