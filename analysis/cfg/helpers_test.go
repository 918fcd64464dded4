package cfg

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"aji/analysis/board"
)

var validationPath = filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")

func needValidation(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat(validationPath); err != nil {
		tb.Skipf("validation archive not available (%v); it lives in ../shared/data beside the repository", err)
	}
}

// fullRun reports whether AJI_FULL asks for the long variants of the data tests.
func fullRun() bool { return os.Getenv("AJI_FULL") != "" }

// checker compares a tracker with graphs built from scratch, reusing its buffers so that a check costs
// little more than the two builds.
type checker struct {
	graphs  [2]Graph
	paths   []Path
	scratch []labelCount
	tracked []labelCount
}

// check compares the tracker's labels (every iteration, both perspectives) and walk counts (every empty
// point, both perspectives) with graphs built from scratch and fails the test at the first difference.
func (ck *checker) check(t *testing.T, tr *Tracker, what string) {
	t.Helper()
	if err := ck.diff(tr); err != "" {
		t.Fatalf("%s: %s\n%s", what, err, tr.Board())
	}
}

func (ck *checker) diff(tr *Tracker) string {
	b := tr.Board()
	for s, c := range perspColor {
		g := &ck.graphs[s]
		g.Build(b, c, tr.Iterations())
		for _, p := range b.Points() {
			v := g.VertexOf(p)
			for k := 0; k <= tr.Iterations(); k++ {
				if got, want := tr.Label(p, c, k), g.Label(v, k); got != want {
					return sprintf("%v to play: label of %s at iteration %d: tracker %08x, scratch %08x",
						c, p.GTP(b.Size()), k, got, want)
				}
			}
			if b.At(p) != board.Empty {
				if len(tr.walks[p]) != 0 {
					return sprintf("%v to play: walks recorded from the stone at %s", c, p.GTP(b.Size()))
				}
				continue
			}
			// A multiset fingerprint first (a sum of 64-bit hashes of the labels: equal multisets give
			// equal sums, and unequal ones collide with probability about 2^-64); the sorted lists only
			// to show a difference.
			if h, ok := ck.trackerPrint(tr, s, p); ok && h == ck.scratchPrint(g, p) {
				continue
			}
			got, want := ck.trackerCounts(tr, s, p), ck.scratchCounts(g, p)
			if !slices.Equal(got, want) {
				return sprintf("%v to play: walks from %s: tracker %v, scratch %v", c, p.GTP(b.Size()), got, want)
			}
		}
	}
	return ""
}

// fingerprint is the additive multiset hash of n walks labelled l.
func fingerprint(l uint32, n int32) uint64 { return uint64(n) * board.Mix64(uint64(l)+1) }

func (ck *checker) scratchPrint(g *Graph, p board.Point) uint64 {
	var h uint64
	ck.paths = g.Paths(p, ck.paths[:0])
	for _, w := range ck.paths {
		h += fingerprint(g.PathLabel(w, g.Iterations()), 1)
	}
	return h
}

// trackerPrint is the fingerprint of the tracker's walks from p; ok is false when a count is not
// positive (a count that drops to zero must be deleted).
func (ck *checker) trackerPrint(tr *Tracker, s int, p board.Point) (h uint64, ok bool) {
	for _, w := range tr.walks[p] {
		if w.n <= 0 {
			return 0, false
		}
		h += fingerprint(w.label(s), w.n)
	}
	return h, true
}

// labelCount is a number of walks with one path label.
type labelCount struct {
	label uint32
	n     int32
}

// sortMerge sorts counts by label and adds up those of equal labels.
func sortMerge(c []labelCount) []labelCount {
	slices.SortFunc(c, func(a, b labelCount) int { return cmp.Compare(a.label, b.label) })
	out := c[:0]
	for _, w := range c {
		if n := len(out); n > 0 && out[n-1].label == w.label {
			out[n-1].n += w.n
		} else {
			out = append(out, w)
		}
	}
	return out
}

// scratchCounts returns the walk counts by label from the empty point p of g, sorted by label.
func (ck *checker) scratchCounts(g *Graph, p board.Point) []labelCount {
	ck.paths = g.Paths(p, ck.paths[:0])
	ck.scratch = ck.scratch[:0]
	for _, w := range ck.paths {
		ck.scratch = append(ck.scratch, labelCount{g.PathLabel(w, g.Iterations()), 1})
	}
	return sortMerge(ck.scratch)
}

// trackerCounts returns the tracker's walk counts from p for perspective s, sorted by label.
func (ck *checker) trackerCounts(tr *Tracker, s int, p board.Point) []labelCount {
	ck.tracked = ck.tracked[:0]
	for _, w := range tr.walks[p] {
		ck.tracked = append(ck.tracked, labelCount{w.label(s), w.n})
	}
	return sortMerge(ck.tracked)
}

// randomMove plays a random legal move that does not fill an own eye (a pass when there is none) on the
// tracker and returns it.
func randomMove(t *testing.T, tr *Tracker, rng *rand.PCG, c board.Color) board.Point {
	t.Helper()
	b := *tr.Board() // RandomMove reorders the board's empty list; keep the tracker's board untouched
	p := b.RandomMove(rng, c)
	if err := tr.Play(p, c); err != nil {
		t.Fatalf("random move %s: %v", p.GTP(b.Size()), err)
	}
	return p
}

func mustParse(t testing.TB, drawing string) *board.Board {
	t.Helper()
	b, err := board.Parse(drawing)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var osStat = os.Stat

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
