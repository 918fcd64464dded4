package workbench

import (
	"math"
	"slices"
	"strings"
	"testing"

	"aji/assets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// minigo opens the 21-move 9x9 professional game at move, with the Search
// tab shown and searches small enough for a shared test machine.
func minigo(t *testing.T, move int) (*harness, *searchView) {
	t.Helper()
	data, err := assets.Game("pro-Minigo-020303.sgf")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, string(data))
	h.wb.move(h.wb.doc.cursor.Forward(move))
	if h.move() != move {
		t.Fatalf("at move %d, want %d", h.move(), move)
	}
	sv := tabOf[*searchView](h.wb)
	sv.opts.Threads, sv.opts.Seed = 1, 7
	sv.everyPlayouts = 300
	h.selectTab(tabSearch)
	return h, sv
}

// stripX is the x, in the strip's coordinates, of the middle of node i's
// column among n.
func stripX(s *searchStrip, i, n int) float32 {
	return graphPad + (float32(i)+0.5)/float32(n)*(s.Size().Width-2*graphPad)
}

// TestSearchEveryMoveFillsTheStrip searches every move of a short
// professional game from move 8 to the end: the position shown stays, the
// progress counts the moves, the strip gets a value in [0, 1] for each
// move searched and none before, and a click on it goes to that move.
func TestSearchEveryMoveFillsTheStrip(t *testing.T) {
	h, sv := minigo(t, 8)
	shown := h.wb.doc.cursor.Node()
	line := h.wb.doc.cursor.Line()
	from := 8 // the root is line[0], move k is line[k]
	if line[from] != shown || len(line) != 22 {
		t.Fatalf("line of %d nodes, move 8 at %d", len(line), slices.Index(line, shown))
	}
	test.Tap(sv.everyB)
	if sv.every == nil || !sv.startB.Disabled() || !sv.everyB.Disabled() || sv.stopB.Disabled() {
		t.Fatal("Search every move did not start, or the buttons did not switch")
	}
	counted := false
	h.awaitSearch("every move searched", func() bool {
		if h.wb.doc.cursor.Node() != shown {
			t.Fatal("the position shown moved while every move was searched")
		}
		counted = counted || strings.HasPrefix(sv.progress.Text, "Searching every move · ") && strings.Contains(sv.progress.Text, " left")
		return sv.every == nil
	})
	if !counted {
		t.Error("no progress with the time left was shown")
	}
	if want := "Searched 14 moves, 300 playouts each."; sv.progress.Text != want {
		t.Errorf("progress %q, want %q", sv.progress.Text, want)
	}
	vals := sv.strip.values
	if len(vals) != len(line) || sv.strip.current != from {
		t.Fatalf("strip of %d values, current %d; want %d, %d", len(vals), sv.strip.current, len(line), from)
	}
	for i, v := range vals {
		switch {
		case i < from && !math.IsNaN(v):
			t.Errorf("node %d, before the search's start, has a value %v", i, v)
		case i >= from && !(v >= 0 && v <= 1):
			t.Errorf("node %d has the value %v, not a win rate", i, v)
		}
	}
	// The values are Black's: the node's search, from the mover's side,
	// turned round when White is to play.
	for i := from; i < len(line); i++ {
		if v := sv.values[line[i]]; v.black != vals[i] || v.playouts != 300 {
			t.Errorf("node %d: strip %v, kept %+v", i, vals[i], v)
		}
	}
	if !strings.Contains(sv.stripNote.Text, "Move 8: Black wins ") || !strings.Contains(sv.stripNote.Text, "14 of 22 moves searched") {
		t.Errorf("strip note %q", sv.stripNote.Text)
	}
	// A click on the strip goes to the move under it.
	test.TapAt(sv.strip, fyne.NewPos(stripX(sv.strip, 15, len(line)), stripHeight/2))
	if h.wb.doc.cursor.Node() != line[15] || sv.strip.current != 15 {
		t.Fatalf("the click went to move %d", h.move())
	}
	test.TapAt(sv.strip, fyne.NewPos(stripX(sv.strip, 3, len(line)), stripHeight/2))
	if h.wb.doc.cursor.Node() != line[3] {
		t.Fatalf("the click went to move %d, want 3", h.move())
	}
	if !strings.HasPrefix(sv.stripNote.Text, "Move 3 not searched") {
		t.Errorf("strip note at move 3: %q", sv.stripNote.Text)
	}
	// An interactive search adds its node's value.
	sv.choices.limit = searchLimit{name: "test", playouts: 200}
	sv.choices.apply(&sv.opts)
	test.Tap(sv.startB)
	h.awaitSearch("the search to end", func() bool { return !sv.running })
	h.ended(sv.runner.Done())
	h.drain()
	if v := sv.strip.values[3]; !(v >= 0 && v <= 1) || sv.values[line[3]].playouts != 200 {
		t.Errorf("move 3 searched: strip value %v", v)
	}
}

// TestSearchEveryMoveStops: Stop, leaving the tab and opening another game
// each end "Search every move" — its goroutine returns and no later result
// is shown — and another game clears the strip.
func TestSearchEveryMoveStops(t *testing.T) {
	h, sv := minigo(t, 0)
	sv.everyPlayouts = 1_000_000 // each search outlasts the test unless stopped
	for _, how := range []string{"Stop", "another tab", "another game"} {
		test.Tap(sv.everyB)
		e := sv.every
		if e == nil {
			t.Fatalf("%s: Search every move did not start", how)
		}
		switch how {
		case "Stop":
			test.Tap(sv.stopB)
		case "another tab":
			h.selectTab(tabTerritory)
		case "another game":
			data, err := assets.Game("castle-cg048.sgf")
			if err != nil {
				t.Fatal(err)
			}
			if err := h.wb.Show("other.sgf", "", data, 0); err != nil {
				t.Fatal(err)
			}
		}
		h.ended(e.done)
		h.drain()
		if sv.every != nil || sv.stopB.Disabled() == false || sv.everyB.Disabled() {
			t.Errorf("%s: still searching every move, or the buttons did not switch back", how)
		}
		if e.searched != 0 {
			t.Errorf("%s: a search cut short was kept (%d searched)", how, e.searched)
		}
		switch how {
		case "another game":
			if len(sv.values) != 0 || len(sv.strip.values) != 144 {
				t.Errorf("another game: %d values kept, strip of %d nodes", len(sv.values), len(sv.strip.values))
			}
		default:
			if !strings.HasPrefix(sv.progress.Text, "Search every move stopped after 0 of 22 moves") {
				t.Errorf("%s: progress %q", how, sv.progress.Text)
			}
		}
		h.selectTab(tabSearch)
	}
}

// TestSearchEveryMoveFollowsChoices: a change of rule while every move is
// searched goes on with the new rule from the move reached, the old
// goroutine ended; closing the window ends the new one.
func TestSearchEveryMoveFollowsChoices(t *testing.T) {
	h, sv := minigo(t, 5)
	sv.everyPlayouts = 1_000_000
	test.Tap(sv.everyB)
	old := sv.every
	sv.selection.SetSelected("uct")
	if sv.every == nil || sv.every == old || sv.opts.Selection.String() != "uct" {
		t.Fatal("the change of rule did not restart the search of every move")
	}
	if !slices.Equal(sv.every.nodes, old.nodes) {
		t.Errorf("restarted on %d nodes, want the %d not yet searched", len(sv.every.nodes), len(old.nodes))
	}
	h.ended(old.done)
	done := sv.every.done
	h.w.Close()
	h.w = test.NewWindow(nil) // the test driver panics when a window is closed twice, as the cleanup would
	select {
	case <-done:
	default:
		t.Fatal("the search of every move still runs after the window closed")
	}
}
