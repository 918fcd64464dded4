package pattern

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

// checkTracker compares the tracker's keys at every point (empty or not) for both players with keys
// computed from scratch.
func checkTracker(t *testing.T, tr *Tracker, b *board.Board, what string) {
	t.Helper()
	var s Scanner
	s.Sync(b)
	for _, p := range b.Points() {
		for _, c := range []board.Color{board.Black, board.White} {
			if got, want := tr.Keys(p, c), s.Keys(p, c); got != want {
				t.Fatalf("%s: %dx%d %s %v to play: tracker %x, from scratch %x\n%s", what, b.Size(), b.Size(),
					p.GTP(b.Size()), c, got, want, b)
			}
		}
	}
}

// TestTrackerMatchesScratch is the property test of the incremental keys: over long random games with
// captures (to the end: random playouts fill the board and capture a lot), on sizes where the templates
// reach past every edge, after every move.
func TestTrackerMatchesScratch(t *testing.T) {
	rng := rand.NewPCG(5, 6)
	tr := new(Tracker)
	games, every := 6, 3
	if testing.Short() || raceEnabled {
		games, every = 2, 20
	}
	for g := range games {
		size := []int{19, 9, 25, 13, 5, 19}[g]
		b := mustBoard(t, size)
		tr.Sync(b)
		checkTracker(t, tr, b, "empty board")
		captures := 0
		c := board.Black
		for move := range 3 * size * size {
			before := b.Captures(board.Black) + b.Captures(board.White)
			c = randomPlay(b, rng, c, 1, nil)
			captures += b.Captures(board.Black) + b.Captures(board.White) - before
			tr.Sync(b)
			// Every move on small boards; on large ones every third (the check is the slow part).
			if size < 13 || move%every == 0 {
				checkTracker(t, tr, b, "random game")
			}
		}
		checkTracker(t, tr, b, "end of game")
		if captures == 0 {
			t.Errorf("%dx%d: no capture in %d moves; the test should cover captures", size, size, 3*size*size)
		}
	}
}

// TestTrackerJumps: Sync to unrelated positions (rebuild), a few setup changes (Set, including a stone
// changing colour), and board size changes.
func TestTrackerJumps(t *testing.T) {
	rng := rand.NewPCG(7, 8)
	tr := new(Tracker)
	b := mustBoard(t, 19)
	randomPlay(b, rng, board.Black, 150, nil)
	tr.Sync(b)
	checkTracker(t, tr, b, "jump to a middle-game position")

	for i, p := range b.Points()[:60] {
		if i%7 != 0 {
			continue
		}
		c := []board.Color{board.Empty, board.Black, board.White}[i%3]
		if err := b.Set(p, c); err != nil {
			t.Fatal(err)
		}
		tr.Sync(b)
		checkTracker(t, tr, b, "setup change")
	}
	// A stone changing colour directly (Black <-> White), which play never does.
	for _, p := range b.Points() {
		if c := b.At(p); c != board.Empty {
			if err := b.Set(p, c.Opponent()); err != nil {
				t.Fatal(err)
			}
			tr.Sync(b)
			checkTracker(t, tr, b, "colour change")
			break
		}
	}
	b2 := mustBoard(t, 19)
	tr.Sync(b2)
	checkTracker(t, tr, b2, "back to the empty board")

	b3 := mustBoard(t, 9)
	randomPlay(b3, rng, board.White, 30, nil)
	tr.Sync(b3)
	checkTracker(t, tr, b3, "size change")
	tr.Sync(b)
	checkTracker(t, tr, b, "size change back")

	// The rebuild and the incremental path agree on the same history.
	var inc Tracker
	b4 := mustBoard(t, 19)
	randomPlay(b4, rng, board.Black, 200, func(board.Point, board.Color) { inc.Sync(b4) })
	full := inc
	full.Rebuild()
	if full.rings != inc.rings {
		t.Fatal("rebuilt keys differ from incrementally updated keys")
	}
}

// TestNoAllocation: keeping keys up to date and reading them allocate nothing.
func TestNoAllocation(t *testing.T) {
	rng := rand.NewPCG(9, 10)
	b := mustBoard(t, 19)
	randomPlay(b, rng, board.Black, 100, nil)
	tr := new(Tracker)
	var s Scanner
	tr.Sync(b)
	c := board.White
	var sink uint64
	allocs := testing.AllocsPerRun(50, func() {
		c = randomPlay(b, rng, c, 1, nil)
		tr.Sync(b)
		s.Sync(b)
		for _, p := range b.EmptyPoints()[:10] {
			k := tr.Keys(p, c)
			sink ^= k[0]
			k = s.Keys(p, c)
			sink ^= k[0]
			sink ^= uint64(Code3At(b, p, c))
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per move", allocs)
	}
	_ = sink
}
