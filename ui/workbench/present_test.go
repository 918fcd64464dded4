package workbench

import (
	"image/color"
	"slices"
	"strconv"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// laidOut reports whether o is in the window's content now.
func (h *harness) laidOut(o fyne.CanvasObject) bool {
	return slices.Contains(test.LaidOutObjects(h.w.Content()), o)
}

// windowTexts are the texts of the labels in the window's content.
func (h *harness) windowTexts() string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(h.w.Content()) {
		if l, ok := o.(*widget.Label); ok && l.Visible() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// presentMenuItem is View ▸ Presentation mode.
func presentMenuItem(t *testing.T, w fyne.Window) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.MainMenu().Items {
		if m.Label != "View" {
			continue
		}
		for _, it := range m.Items {
			if it.Label == "Presentation mode" {
				return it
			}
		}
	}
	t.Fatal("no View ▸ Presentation mode")
	return nil
}

func TestPresentEntersFullScreenAndRestoresTheLayout(t *testing.T) {
	h := newHarness(t, variations)
	wb := h.wb
	wb.settings.compare = true
	wb.settings.compareWith = wb.settings.predictor
	wb.layoutBoards()
	root := h.w.Content()
	for _, o := range []fyne.CanvasObject{wb.views[0].board, wb.views[1].board, wb.panel.tabs, wb.status.widget()} {
		if !h.laidOut(o) {
			t.Fatalf("%T not shown before presenting", o)
		}
	}
	before := wb.doc.cursor.Node()

	presentMenuItem(t, h.w).Action()
	if !h.w.FullScreen() {
		t.Error("presentation is not full screen")
	}
	if !h.laidOut(wb.views[0].board) || !h.laidOut(wb.present.caption) {
		t.Error("the main board or the caption is not shown")
	}
	for _, o := range []fyne.CanvasObject{wb.views[1].board, wb.panel.tabs, wb.status.widget()} {
		if h.laidOut(o) {
			t.Errorf("%T still shown while presenting", o)
		}
	}
	// A click does not play: presenting only navigates.
	wb.tapped(h.at("A1"))
	if h.move() != 0 || wb.doc.cursor.Modified() {
		t.Errorf("a click while presenting played: move %d, modified %v", h.move(), wb.doc.cursor.Modified())
	}

	h.key(fyne.KeyEscape, 0)
	if h.w.FullScreen() {
		t.Error("still full screen after Esc")
	}
	if h.w.Content() != root {
		t.Error("Esc did not restore the window's content")
	}
	for _, o := range []fyne.CanvasObject{wb.views[0].board, wb.views[1].board, wb.panel.tabs, wb.status.widget()} {
		if !h.laidOut(o) {
			t.Errorf("%T not shown again after Esc", o)
		}
	}
	if h.laidOut(wb.present.caption) {
		t.Error("the caption stays after Esc")
	}
	if wb.doc.cursor.Node() != before || wb.doc.cursor.Modified() {
		t.Error("presenting changed the game")
	}
	// Esc when not presenting is not the presenter's.
	if wb.present.takeKey(fyne.KeyEscape, 0) {
		t.Error("Esc taken while not presenting")
	}
	// F5 enters, and from the keyboard too.
	h.key(fyne.KeyF5, 0)
	if !wb.present.on || !h.w.FullScreen() {
		t.Error("F5 did not enter presentation mode")
	}
}

func TestPresentHeatAndReveal(t *testing.T) {
	h := newHarness(t, variations)
	wb := h.wb
	v := wb.views[0]
	wb.move(wb.doc.cursor.Forward(2)) // Black to play G3 (B[gg]) next
	ready := func() {
		h.pump("the heat map", func() bool { return v.shown != nil && v.node == wb.doc.cursor.Node() })
	}
	ready()
	h.key(fyne.KeyF5, 0)

	// The heat map starts hidden; H shows it and hides it again.
	empty := func() []goban.Point {
		var ps []goban.Point
		pos := v.board.CurrentPosition()
		for y := range pos.Size {
			for x := range pos.Size {
				if pos.At(goban.Point{X: x, Y: y}) == goban.Empty {
					ps = append(ps, goban.Point{X: x, Y: y})
				}
			}
		}
		return ps
	}
	pixels := func() map[goban.Point]color.RGBA {
		_, at := h.boardPixels()
		m := map[goban.Point]color.RGBA{}
		for _, p := range empty() {
			m[p] = at(p)
		}
		return m
	}
	differ := func(a, b map[goban.Point]color.RGBA) int {
		n := 0
		for p, c := range a {
			if b[p] != c {
				n++
			}
		}
		return n
	}
	cold := pixels()
	h.key(fyne.KeyH, 0)
	hot := pixels()
	shown := 0 // the points the heat map colours
	for _, q := range v.shown.Heat {
		if q >= wb.settings.hideBelow {
			shown++
		}
	}
	if n := differ(cold, hot); shown == 0 || n < shown*9/10 {
		t.Errorf("H coloured %d empty points, want about %d", n, shown)
	}
	h.key(fyne.KeyH, 0)
	if n := differ(cold, pixels()); n != 0 {
		t.Errorf("%d points still coloured after the second H", n)
	}

	// Before R nothing in the window names the next move.
	if txt := h.windowTexts(); strings.Contains(txt, "G3") || strings.Contains(txt, "Played") {
		t.Errorf("the window names the next move before R:\n%s", txt)
	}
	if wb.status.next.Text != "" {
		t.Errorf("status bar says %q", wb.status.next.Text)
	}
	h.key(fyne.KeyR, 0)
	want := "Played: G3 — " + wb.settings.predictor + " rank "
	if txt := wb.present.caption.Text; !strings.Contains(txt, want) || !strings.Contains(txt, "%") {
		t.Errorf("caption after R %q, want %q with a percentage", txt, want)
	}
	if !strings.Contains(wb.present.caption.Text, "Alice") || !strings.Contains(wb.present.caption.Text, "move 2") {
		t.Errorf("caption %q does not name the players and the move", wb.present.caption.Text)
	}

	// → after R moves on and hides the new next move (W G7).
	h.key(fyne.KeyRight, 0)
	if h.move() != 3 {
		t.Fatalf("at move %d after →, want 3", h.move())
	}
	ready()
	if txt := h.windowTexts(); strings.Contains(txt, "G7") || strings.Contains(txt, "Played") {
		t.Errorf("the next move is shown after →:\n%s", txt)
	}
	h.key(fyne.KeyR, 0)
	if txt := wb.present.caption.Text; !strings.Contains(txt, "Played: G7") {
		t.Errorf("caption after the second R %q", txt)
	}
	h.key(fyne.KeyLeft, 0)
	if h.move() != 2 || strings.Contains(wb.present.caption.Text, "Played") {
		t.Errorf("← went to move %d, caption %q", h.move(), wb.present.caption.Text)
	}
	if wb.doc.cursor.Modified() {
		t.Error("presenting changed the game")
	}
}

func TestPresentKCyclesAndPercentagesSwitchOff(t *testing.T) {
	h := newHarness(t, variations)
	wb := h.wb
	v := wb.views[0]
	h.pump("the heat map", func() bool { return v.shown != nil && v.node == wb.doc.cursor.Node() })
	userK := wb.settings.topK
	h.key(fyne.KeyF5, 0)
	var got []int
	for range 5 {
		got = append(got, wb.present.settings(&wb.settings).topK)
		h.key(fyne.KeyK, 0)
	}
	if want := []int{5, 10, 0, 3, 5}; !slices.Equal(got, want) {
		t.Errorf("k through K: %v, want %v", got, want)
	}
	labels := func() []goban.Label {
		s := wb.present.settings(&wb.settings)
		return labelsWith(v.shown, s.topK, board.NoPoint, false, wb.present.labelText())
	}
	pct := labels()
	if len(pct) < 2 {
		t.Fatalf("labels %v: want at least two candidates", pct)
	}
	h.key(fyne.KeyP, 0)
	ranks := labels()
	if len(ranks) != len(pct) {
		t.Fatalf("labels %v with ranks, %v with percentages", ranks, pct)
	}
	for i, l := range ranks {
		r, p, _ := v.shown.RankOf(board.At(l.Point.X, l.Point.Y))
		if l.Text != strconv.Itoa(r) || pct[i].Text != labelText(p) {
			t.Errorf("label at %v says %q, then %q; want %q, then %d", l.Point, pct[i].Text, l.Text, labelText(p), r)
		}
	}
	h.key(fyne.KeyEscape, 0)
	if wb.settings.topK != userK || wb.present.labelText()(1, 0.5) != "50" {
		t.Errorf("after leaving: top k %d (was %d), label %q", wb.settings.topK, userK, wb.present.labelText()(1, 0.5))
	}
}
