package workbench

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// variations is a 9x9 record with 14 main-line moves and, at move 3, a
// second variation (C3) besides the main line's G3.
const variations = `(;SZ[9]KM[7]PB[Alice]PW[Bob]RE[B+R]
;B[ee];W[cc](;B[gg];W[gc];B[cg];W[dg];B[ef];W[fc];B[ce];W[bd];B[hd];W[he];B[ge];W[id])
(;B[cg]C[a side line]))`

// harness is a workbench in a test window whose UI queue the test drains
// itself: the test driver would run fyne.Do on the worker's goroutine.
type harness struct {
	t    *testing.T
	w    fyne.Window
	wb   *Workbench
	ui   chan func()
	mods fyne.KeyModifier
	quit int
}

// tabOf is the workbench's tab of type T.
func tabOf[T tab](wb *Workbench) T {
	for _, t := range wb.tabs {
		if t, ok := t.(T); ok {
			return t
		}
	}
	panic("no such tab")
}

// selectTab selects the tab saved as name, as a click on it does.
func (h *harness) selectTab(name string) {
	h.t.Helper()
	i := slices.IndexFunc(h.wb.tabs, func(t tab) bool { return t.base().name == name })
	if i < 0 {
		h.t.Fatalf("no tab %q", name)
	}
	h.wb.panel.tabs.SelectIndex(i)
}

// taskCount is how many engine tasks t asks for now, shown or not.
func taskCount(t tab) int {
	b, text := t.tasks(t.base().shown())
	return len(b) + len(text)
}

func newHarness(t *testing.T, sgf string) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	h := &harness{t: t, ui: make(chan func(), 1<<12)}
	h.w = test.NewWindow(nil)
	h.wb = New(h.w, Options{
		OnUI:        func(f func()) { h.ui <- f },
		Modifiers:   func() fyne.KeyModifier { return h.mods },
		Quit:        func() { h.quit++ },
		Preferences: a.Preferences(),
	})
	t.Cleanup(func() {
		h.wb.Stop()
		h.w.Close()
	})
	h.w.Resize(fyne.NewSize(1000, 700))
	if err := h.wb.Show("test.sgf", "", []byte(sgf), 0); err != nil {
		t.Fatal(err)
	}
	return h
}

// saveWindow writes the window as it is drawn now to the PNG file out (the
// screenshot tests, run by hand to make the README's images).
func (h *harness) saveWindow(out string) {
	h.t.Helper()
	f, err := os.Create(out)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(f, h.w.Canvas().Capture()); err != nil {
		h.t.Fatal(err)
	}
}

// pump runs queued UI work until cond holds, failing after 10 s. The limit
// only guards against a hang: nothing is asserted about timing.
func (h *harness) pump(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case f := <-h.ui:
			f()
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// key sends a key to the window's canvas as the driver would, with mods
// held.
func (h *harness) key(k fyne.KeyName, mods fyne.KeyModifier) {
	h.mods = mods
	h.w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: k})
	h.mods = 0
}

func (h *harness) move() int { return h.wb.doc.cursor.Position().MoveNumber }

func (h *harness) at(s string) goban.Point {
	h.t.Helper()
	p, err := board.ParseGTP(s, h.wb.doc.cursor.Game().Size())
	if err != nil {
		h.t.Fatal(err)
	}
	x, y := p.XY()
	return goban.Point{X: x, Y: y}
}

// button finds a button by its text in the window's top overlay (a dialog).
func (h *harness) button(text string) *widget.Button {
	h.t.Helper()
	top := h.w.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatalf("no dialog shown, looking for %q", text)
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	h.t.Fatalf("no %q button in the dialog", text)
	return nil
}

func TestKeysNavigate(t *testing.T) {
	h := newHarness(t, variations)
	steps := []struct {
		key  fyne.KeyName
		mods fyne.KeyModifier
		want int
	}{
		{fyne.KeyRight, 0, 1},
		{fyne.KeyRight, fyne.KeyModifierShift, 11},
		{fyne.KeyRight, fyne.KeyModifierShift, 14}, // stops at the end
		{fyne.KeyLeft, 0, 13},
		{fyne.KeyLeft, fyne.KeyModifierShift, 3},
		{fyne.KeyHome, 0, 0},
		{fyne.KeyEnd, 0, 14},
		{fyne.KeyHome, 0, 0},
	}
	for _, s := range steps {
		h.key(s.key, s.mods)
		if got := h.move(); got != s.want {
			t.Fatalf("after %s (mods %d): move %d, want %d", s.key, s.mods, got, s.want)
		}
	}

	// ↓ at move 3 switches to the C3 variation, ↑ back to the main line.
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	c := h.wb.doc.cursor
	if c.Node().Move.Point != board.At(6, 6) {
		t.Fatalf("move 3 is not the main line's G3")
	}
	h.key(fyne.KeyDown, 0)
	if n, i := c.Variations(); n != 2 || i != 1 || h.move() != 3 {
		t.Fatalf("↓: variation %d of %d at move %d, want 2 of 2 at move 3", i+1, n, h.move())
	}
	if got := tabOf[*commentTab](h.wb).text.Text; got != "a side line" {
		t.Errorf("comment of the variation %q", got)
	}
	if len(tabOf[*moveList](h.wb).line) != 4 {
		t.Errorf("move list shows %d rows for the side line, want 4", len(tabOf[*moveList](h.wb).line))
	}
	h.key(fyne.KeyEnd, 0)
	if h.move() != 3 {
		t.Errorf("End on the side line: move %d, want 3", h.move())
	}
	h.key(fyne.KeyUp, 0)
	if _, i := c.Variations(); i != 0 {
		t.Errorf("↑ did not return to the main line")
	}
	h.key(fyne.KeyEnd, 0)
	if h.move() != 14 || len(tabOf[*moveList](h.wb).line) != 15 {
		t.Errorf("End on the main line: move %d, %d rows", h.move(), len(tabOf[*moveList](h.wb).line))
	}
	// The wheel steps like the arrows.
	h.wb.scrolled(-2)
	if h.move() != 12 {
		t.Errorf("wheel back 2: move %d, want 12", h.move())
	}
	if h.wb.Key(fyne.KeyA, 0) {
		t.Error("A handled as a navigation key")
	}
}

func TestMoveListJumps(t *testing.T) {
	h := newHarness(t, variations)
	h.selectTab(tabMoves)
	target := tabOf[*moveList](h.wb).line[5]
	tabOf[*moveList](h.wb).list.ScrollTo(5)
	var row *moveRow
	for _, o := range test.LaidOutObjects(tabOf[*moveList](h.wb).list) {
		if r, ok := o.(*moveRow); ok && r.node == target {
			row = r
		}
	}
	if row == nil {
		t.Fatal("row 5 is not shown")
	}
	test.Tap(row)
	if h.move() != 5 {
		t.Fatalf("tapping row 5 went to move %d", h.move())
	}
	h.key(fyne.KeyRight, 0)
	if h.move() != 6 {
		t.Errorf("→ after a jump: move %d", h.move())
	}
	if h.w.Canvas().Focused() != nil {
		t.Errorf("the move list kept the keyboard focus")
	}
}

func TestClickPlaysAndMakesAVariation(t *testing.T) {
	h := newHarness(t, variations)
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	c := h.wb.doc.cursor
	// The recorded move follows the record.
	h.wb.tapped(h.at("G3"))
	if h.move() != 3 || c.Modified() {
		t.Fatalf("playing the recorded move: move %d, modified %v", h.move(), c.Modified())
	}
	h.key(fyne.KeyLeft, 0)
	// An occupied point is not a move.
	h.wb.tapped(h.at("E5"))
	if h.move() != 2 {
		t.Fatalf("a click on a stone moved to %d", h.move())
	}
	h.wb.tapped(h.at("D4"))
	if h.move() != 3 || !c.Modified() || c.Node().Move.Point != board.At(3, 5) {
		t.Fatalf("D4 not played: move %d, modified %v", h.move(), c.Modified())
	}
	if n, i := c.Variations(); n != 3 || i != 2 {
		t.Errorf("new move is variation %d of %d, want 3 of 3", i+1, n)
	}
	if !strings.HasSuffix(h.w.Title(), "*") {
		t.Errorf("title %q does not show unsaved changes", h.w.Title())
	}
	if c.Position().ToPlay != board.White {
		t.Error("not White's turn after Black's new move")
	}
}

func TestIllegalClickIsIgnoredWithAMessage(t *testing.T) {
	// White to play; A9 is surrounded by black stones: suicide.
	h := newHarness(t, "(;SZ[9]AB[ba][ab]PL[W])")
	h.wb.tapped(h.at("A9"))
	if h.wb.doc.cursor.Modified() || h.move() != 0 {
		t.Fatal("an illegal click changed the game")
	}
	if msg := h.wb.status.msg.Text; !strings.Contains(msg, "suicide") {
		t.Errorf("status %q does not say why", msg)
	}
}

func TestHeatArrivesForTheCurrentPosition(t *testing.T) {
	h := newHarness(t, variations)
	v := h.wb.views[0]
	h.pump("the first heat map", func() bool { return v.shown != nil && v.node == h.wb.doc.cursor.Node() })
	first := v.shown
	for range 4 {
		h.key(fyne.KeyRight, 0)
	}
	// Until the new result is delivered the board keeps the previous one.
	if v.shown != first {
		t.Fatal("navigation cleared the heat map before the new one arrived")
	}
	c := h.wb.doc.cursor
	h.pump("the heat map of move 4", func() bool { return v.node == c.Node() })
	pr := v.shown
	if pr.Size != 9 || pr.Predictor != h.wb.settings.predictor {
		t.Fatalf("prediction for size %d by %q", pr.Size, pr.Predictor)
	}
	e5 := h.at("E5")
	if pr.Heat[e5.Y*9+e5.X] >= 0 {
		t.Error("an occupied point has a probability")
	}
	// The record's next move (B[cg] = C3, move 5) is ranked in the panel.
	if got := h.wb.panel.next.Text; !strings.Contains(got, "C3") || !strings.Contains(got, "rank") {
		t.Errorf("next-move line %q", got)
	}
}

func TestLabelsMarkTheBestAndTheNextMove(t *testing.T) {
	pos := &game.Position{ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint}
	b, _ := board.New(9)
	pos.Board = *b
	var d predict.Distribution
	d.Uniform(pos)
	c3, d4 := board.At(2, 6), board.At(3, 5)
	d.P[c3] += 0.2
	d.P[d4] += 0.1
	d.Normalize(pos)
	pr := live.Summarize("test", pos, &d)
	ls := labelsOf(pr, 2, d4, true)
	if len(ls) != 2 || !ls[0].Best || ls[0].Point != (goban.Point{X: 2, Y: 6}) || ls[1].Best || ls[1].Mark != goban.MarkRing {
		t.Errorf("labels %+v: want C3 best, D4 second with the ring", ls)
	}
	// Moves tied with the (k+1)-th are not labelled: uniform labels nothing.
	var u predict.Distribution
	u.Uniform(pos)
	if ls := labelsOf(live.Summarize("uniform", pos, &u), 5, d4, true); len(ls) != 1 || ls[0].Text != "" || ls[0].Mark != goban.MarkRing {
		t.Errorf("uniform labels %+v: want only the ring on the next move", ls)
	}
}

func TestUnsavedChangesInterceptClose(t *testing.T) {
	h := newHarness(t, variations)
	h.wb.RequestClose()
	if h.quit != 1 {
		t.Fatalf("closing an unmodified game: quit called %d times", h.quit)
	}
	h.wb.tapped(h.at("D4"))
	h.wb.RequestClose()
	if h.quit != 1 {
		t.Fatal("closed with unsaved changes without asking")
	}
	test.Tap(h.button("Cancel"))
	if h.quit != 1 || !h.wb.doc.cursor.Modified() {
		t.Fatal("Cancel closed or lost the changes")
	}
	h.wb.RequestClose()
	test.Tap(h.button("Discard"))
	if h.quit != 2 {
		t.Fatal("Discard did not close")
	}
}

func TestOpeningAnotherGameAsksFirst(t *testing.T) {
	h := newHarness(t, variations)
	path := filepath.Join(t.TempDir(), "other.sgf")
	if err := os.WriteFile(path, []byte("(;SZ[13];B[aa])"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.wb.tapped(h.at("D4"))
	h.wb.OpenPath(path)
	if h.wb.doc.cursor.Game().Size() != 9 {
		t.Fatal("opened another game over unsaved changes without asking")
	}
	test.Tap(h.button("Discard"))
	if h.wb.doc.cursor.Game().Size() != 13 || h.wb.doc.path != path {
		t.Fatalf("after Discard the game is %dx%d from %q", h.wb.doc.cursor.Game().Size(), h.wb.doc.cursor.Game().Size(), h.wb.doc.path)
	}
	if got := h.wb.opts.Preferences.StringList(prefRecent); len(got) != 1 || got[0] != path {
		t.Errorf("recent files %v", got)
	}
	if ml := tabOf[*moveList](h.wb); len(ml.line) != 2 || ml.line[1].Move == nil || ml.line[1].Move.Point != board.At(0, 0) {
		t.Errorf("the move list shows %d rows, not the new game's start and B[aa]", len(ml.line))
	}
}

// TestTabsKeepTheirSavedNames: every tab has its own saved name; the tab
// saved is shown at start, and one no longer there gives the inspector.
func TestTabsKeepTheirSavedNames(t *testing.T) {
	for saved, want := range map[string]string{tabSearch: tabSearch, "no-such-tab": tabInspector} {
		a := test.NewTempApp(t)
		a.Preferences().SetString(prefTab, saved)
		w := test.NewWindow(nil)
		// UI callbacks are queued, never run, so none races the test.
		ui := make(chan func(), 1<<12)
		wb := New(w, Options{OnUI: func(f func()) { ui <- f }, Preferences: a.Preferences()})
		names := map[string]bool{}
		for _, tb := range wb.tabs {
			if n := tb.base().name; names[n] || n == "" {
				t.Errorf("tab %q: name empty or used twice", n)
			}
			names[tb.base().name] = true
		}
		if got := wb.tabs[wb.panel.tabs.SelectedIndex()].base().name; got != want || wb.settings.tab != want {
			t.Errorf("saved %q: shows %q (settings say %q), want %q", saved, got, wb.settings.tab, want)
		}
		wb.Stop()
		w.Close()
	}
}

func TestSaveWritesAtomicallyAndAsksAboutChangesOnDisk(t *testing.T) {
	h := newHarness(t, variations)
	path := filepath.Join(t.TempDir(), "g.sgf")
	if err := os.WriteFile(path, []byte(variations), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.wb.ShowFile(path, 2); err != nil {
		t.Fatal(err)
	}
	h.wb.tapped(h.at("D4"))
	h.wb.Save(nil)
	if h.wb.doc.cursor.Modified() || strings.HasSuffix(h.w.Title(), "*") {
		t.Fatal("still modified after saving")
	}
	back, err := game.LoadFile(path)
	if err != nil || len(back[0].Root.Children[0].Children[0].Children) != 3 {
		t.Fatalf("saved file lacks the new variation (%v)", err)
	}

	// Another program rewrites the file: saving asks before replacing it.
	other := []byte("(;SZ[9]C[someone else's])")
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	h.wb.tapped(h.at("F4"))
	h.wb.Save(nil)
	if data, _ := os.ReadFile(path); string(data) != string(other) {
		t.Fatal("overwrote a file changed on disk without asking")
	}
	test.Tap(h.button("Yes"))
	if data, _ := os.ReadFile(path); string(data) == string(other) || h.wb.doc.cursor.Modified() {
		t.Fatal("confirmed save did not write")
	}
}

func TestBrokenRecords(t *testing.T) {
	h := newHarness(t, variations)
	before := h.wb.doc
	if err := h.wb.Show("bad.sgf", "", []byte("(;SZ[9];B[ee"), -1); err == nil {
		t.Fatal("malformed record accepted")
	}
	if h.wb.doc != before {
		t.Fatal("a failed load replaced the game")
	}
	// Move 3 plays on move 1's stone: the record opens, stopped before it.
	if err := h.wb.Show("illegal.sgf", "", []byte("(;SZ[9];B[ee];W[cc];B[ee];W[gg])"), -1); err != nil {
		t.Fatal(err)
	}
	if h.move() != 2 {
		t.Errorf("stopped at move %d, want 2", h.move())
	}
	if msg := h.wb.status.msg.Text; !strings.Contains(msg, "illegal") {
		t.Errorf("status %q does not report the illegal move", msg)
	}
}

func TestCompareShowsASecondBoard(t *testing.T) {
	h := newHarness(t, variations)
	h.wb.settings.compare = true
	h.wb.settings.compareWith = h.wb.settings.predictor
	h.wb.layoutBoards()
	h.wb.analyze()
	v := h.wb.views[1]
	h.pump("the second board's heat map", func() bool { return v.node == h.wb.doc.cursor.Node() && v.shown != nil })
	objs := test.LaidOutObjects(h.wb.boards)
	found := false
	for _, o := range objs {
		found = found || o == v.board
	}
	if !found {
		t.Error("the second board is not shown")
	}
}

func TestDropOpensARecord(t *testing.T) {
	h := newHarness(t, variations)
	dir := t.TempDir()
	txt := filepath.Join(dir, "notes.txt")
	sgf := filepath.Join(dir, "dropped.sgf")
	for path, data := range map[string]string{txt: "hello", sgf: "(;SZ[13];B[aa];W[bb])"} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.wb.dropped(fyne.Position{}, []fyne.URI{storage.NewFileURI(txt)})
	if h.wb.doc.cursor.Game().Size() != 9 || !strings.Contains(h.wb.status.msg.Text, "not an .sgf") {
		t.Fatalf("dropping a text file: size %d, status %q", h.wb.doc.cursor.Game().Size(), h.wb.status.msg.Text)
	}
	h.wb.dropped(fyne.Position{}, []fyne.URI{storage.NewFileURI(txt), storage.NewFileURI(sgf)})
	if h.wb.doc.path != sgf || h.move() != 2 {
		t.Errorf("dropping a record: path %q, move %d", h.wb.doc.path, h.move())
	}
}

func TestSaveAsNeverSilentlyReplacesAnotherFile(t *testing.T) {
	h := newHarness(t, variations)
	other := filepath.Join(t.TempDir(), "other.sgf")
	keep := []byte("(;SZ[19]C[keep me])")
	if err := os.WriteFile(other, keep, 0o644); err != nil {
		t.Fatal(err)
	}
	h.wb.tapped(h.at("D4"))
	saveAs := func(path string) {
		t.Helper()
		h.wb.SaveAs(nil)
		var entry *widget.Entry
		for _, o := range test.LaidOutObjects(h.w.Canvas().Overlays().Top()) {
			if e, ok := o.(*widget.Entry); ok {
				entry = e
			}
		}
		if entry == nil {
			t.Fatal("no file name entry in the save dialog")
		}
		entry.SetText(path)
		test.Tap(h.button("Save"))
	}
	saveAs(other)
	test.Tap(h.button("No"))
	if data, _ := os.ReadFile(other); string(data) != string(keep) || !h.wb.doc.cursor.Modified() {
		t.Fatal("declining the replacement still wrote, or the game was marked saved")
	}
	saveAs(other)
	test.Tap(h.button("Yes"))
	if data, _ := os.ReadFile(other); string(data) == string(keep) || h.wb.doc.cursor.Modified() || h.wb.doc.path != other {
		t.Fatal("confirmed replacement did not save there")
	}
	// A name without an extension gets .sgf; a new file needs no confirmation.
	fresh := filepath.Join(filepath.Dir(other), "fresh")
	h.wb.tapped(h.at("F4"))
	saveAs(fresh)
	if _, err := os.Stat(fresh + ".sgf"); err != nil || h.wb.doc.path != fresh+".sgf" {
		t.Errorf("save as %s: %v, path %q", fresh, err, h.wb.doc.path)
	}
}
