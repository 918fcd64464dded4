package workbench

import (
	"aji/analysis/review"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestReviewPanel reviews the sample game from the Review tab: every move
// arrives on the graph, a tap on the graph and a listed move jump there,
// and opening another game forgets the review.
func TestReviewPanel(t *testing.T) {
	h := newHarness(t, variations)
	h.selectTab(tabReview)
	rt := tabOf[*reviewTab](h.wb)
	// The Boltzmann model alone: the pooled estimator's rollouts take
	// minutes under the race detector.
	rt.territory = "boltzmann5"
	// Stopped at once (nothing is cached yet, and the territory estimate
	// takes a while), the review says so.
	test.Tap(rt.startB)
	test.Tap(rt.startB)
	h.pump("the stopped review", func() bool { return strings.HasPrefix(rt.status.Text, "Review stopped after") })
	test.Tap(rt.startB)
	h.pump("the review", func() bool { return strings.HasPrefix(rt.status.Text, "Reviewed 14 moves") })
	for i, ok := range rt.have {
		if !ok {
			t.Fatalf("move %d was not delivered", i+1)
		}
		if rt.moves[i].Predictions[0].Legal && rt.graph.ranks[0][i] != rt.moves[i].Predictions[0].Rank {
			t.Errorf("move %d: the graph has rank %d, the review %d", i+1, rt.graph.ranks[0][i], rt.moves[i].Predictions[0].Rank)
		}
	}

	// The graph spans the moves: a tap a little right of the middle picks move 8.
	w := rt.graph.Size().Width - 2*graphPad
	test.TapAt(rt.graph, fyne.NewPos(graphPad+w*7.5/14, graphHeight/2))
	if got := h.wb.doc.cursor.Node(); got != rt.nodes[7] {
		t.Errorf("the tap went to move %d, want 8", h.move())
	}
	if rt.graph.current != 7 {
		t.Errorf("the graph marks move index %d, want 7", rt.graph.current)
	}

	var first *widget.Button
	for _, o := range rt.lists.Objects {
		if b, ok := o.(*widget.Button); ok {
			first = b
			break
		}
	}
	if first == nil {
		t.Fatal("no move listed")
	}
	test.Tap(first)
	if !strings.Contains(first.Text, "Move ") || !strings.HasPrefix(first.Text, "Move "+strconv.Itoa(h.move())+",") {
		t.Errorf("tapping %q went to move %d", first.Text, h.move())
	}

	// Written into the game: every move's comment gets its line, and the
	// game counts as changed.
	test.Tap(rt.writeB)
	for _, n := range rt.nodes {
		if !strings.Contains(n.Comment, review.Marker) {
			t.Fatalf("move comment %q has no review line", n.Comment)
		}
	}
	if !h.wb.doc.cursor.Modified() {
		t.Error("the annotated game does not count as changed")
	}

	if err := h.wb.Show("other.sgf", "", []byte("(;SZ[9];B[ee];W[cc])"), 0); err != nil {
		t.Fatal(err)
	}
	if rt.game != nil || len(rt.lists.Objects) != 0 || rt.graph.n != 0 {
		t.Error("the review of the previous game is still shown")
	}
}

// TestReviewScreenshot saves the workbench with the Review tab after a
// review of a whole professional game with mm, at its most surprising move,
// to the PNG named by AJI_SHOT_REVIEW (an absolute path):
// AJI_SHOT_REVIEW=$PWD/docs/review.png go test -run ReviewScreenshot ./ui/workbench.
func TestReviewScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_REVIEW")
	if out == "" {
		t.Skip("set AJI_SHOT_REVIEW=file.png to save a screenshot of the Review tab")
	}
	h := proGame(t, 0)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.w.Resize(fyne.NewSize(1300, 900))
	h.wb.settings.heat, h.wb.settings.topK = true, 5
	h.selectTab(tabReview)
	rt := tabOf[*reviewTab](h.wb)
	test.Tap(rt.startB)
	// A whole game takes minutes (the territory estimate's rollouts), longer
	// than pump's guard: drain the UI queue until the review ends.
	timeout := time.After(15 * time.Minute)
	for rt.result == nil {
		select {
		case f := <-h.ui:
			f()
		case <-timeout:
			t.Fatal("the review did not finish in 15 minutes")
		}
	}
	for _, o := range rt.lists.Objects {
		if b, ok := o.(*widget.Button); ok {
			test.Tap(b)
			break
		}
	}
	// Lay the window out afresh after the minutes of deliveries, then let
	// the heat map of the move jumped to arrive.
	h.w.Resize(fyne.NewSize(1300, 900))
	h.w.Content().Refresh()
	h.wb.render()
	h.pump("the heat map", func() bool { return len(h.ui) == 0 })
	h.saveWindow(out)
}
