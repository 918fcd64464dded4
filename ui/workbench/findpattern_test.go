package workbench

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/findpattern"
	"aji/analysis/findpattern/findtest"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// plantedCollection writes the synthetic collection with the shape planted
// at known moves as a tar.xz archive and as a folder.
func plantedCollection(t *testing.T) (archive, folder string) {
	t.Helper()
	ms := findtest.Collection(findtest.Plants())
	dir := t.TempDir()
	archive, err := findtest.WriteTarXz(dir, "planted", ms)
	if err != nil {
		t.Fatal(err)
	}
	if folder, err = findtest.WriteFolder(dir, "planted", ms); err != nil {
		t.Fatal(err)
	}
	return archive, folder
}

// plantedShape is the planted shape of size 8, as the first plant shows it.
func plantedShape(t *testing.T) findpattern.Query {
	t.Helper()
	p := findtest.Plants()[0]
	h := newHarness(t, p.SGF()) // a throwaway window: the position, as the app reads it
	if _, err := h.wb.doc.cursor.Forward(p.Move()); err != nil {
		t.Fatal(err)
	}
	q, err := findpattern.ShapeAt(h.wb.doc.cursor.Position(), p.Point(), "8")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// found waits for the finder's search to end.
func (h *harness) found() *finder {
	h.t.Helper()
	f, ok := toolOf[*finder](h.wb)
	if !ok {
		h.t.Fatal("no finder window")
	}
	h.pump("the search", func() bool { return !f.running })
	return f
}

// rows are the match rows the finder's list shows now.
func rows(f *finder) []*matchRow {
	var rs []*matchRow
	for _, o := range test.LaidOutObjects(f.win.Content()) {
		if r, ok := o.(*matchRow); ok && r.Visible() && r.id >= 0 {
			rs = append(rs, r)
		}
	}
	return rs
}

// TestFinderListsPlantedShapes: the window finds every plant of the
// archive, in order, with the hit rate and the skipped records, and the
// progress bar full.
func TestFinderListsPlantedShapes(t *testing.T) {
	archive, _ := plantedCollection(t)
	q := plantedShape(t)
	h := newHarness(t, variations)
	h.wb.opts.Preferences.SetString(prefFindCollection, archive)
	h.wb.findPattern(q)
	f := h.found()
	plants := findtest.Plants()
	if len(f.matches) != len(plants) {
		t.Fatalf("%d matches listed, want the %d plants", len(f.matches), len(plants))
	}
	for i, m := range f.matches {
		p := plants[i]
		if m.File != fmt.Sprintf("planted/plant-%02d.sgf", i) || m.Move != p.Move() || m.Point != p.Point() || m.Color != p.Color || m.Played != p.Played {
			t.Errorf("match %d: %+v, want plant %+v", i, m, p)
		}
	}
	for _, want := range []string{"32 matches in 34 games", "the record played 16 of them (50.0%)", "2 records skipped", "Done."} {
		if !strings.Contains(f.summary.Text, want) {
			t.Errorf("summary %q lacks %q", f.summary.Text, want)
		}
	}
	if f.bar.Value != 1 || f.barText() != "35 / 35 files" {
		t.Errorf("progress bar at %v: %q", f.bar.Value, f.barText())
	}
	if !strings.Contains(f.title.Text, q.String()) {
		t.Errorf("title %q does not name the shape", f.title.Text)
	}
	rs := rows(f)
	if len(rs) == 0 || rs[0].Text != matchText(f.matches[0]) || !strings.Contains(rs[0].Text, "plant-00.sgf · move 5 · Black ") {
		t.Fatalf("first row: %v", rs)
	}
}

// TestFinderOpensMatch: a double click on a match opens its game at its
// move in the main board; over unsaved changes it asks first, and Cancel
// keeps the game.
func TestFinderOpensMatch(t *testing.T) {
	_, folder := plantedCollection(t)
	h := newHarness(t, variations)
	h.wb.opts.Preferences.SetString(prefFindCollection, folder)
	h.wb.findPattern(plantedShape(t))
	f := h.found()

	// Unsaved changes: the question, and Cancel.
	if err := h.wb.doc.cursor.Play(board.At(0, 0)); err != nil {
		t.Fatal(err)
	}
	rs := rows(f)
	if len(rs) < 4 {
		t.Fatalf("%d rows shown", len(rs))
	}
	test.DoubleTap(rs[3])
	h.pump("the unsaved-changes question", func() bool { return h.w.Canvas().Overlays().Top() != nil })
	test.Tap(h.button("Cancel"))
	if h.wb.doc.name != "test.sgf" || !h.wb.doc.cursor.Modified() {
		t.Fatalf("cancelled, yet the game is %s", h.wb.doc.name)
	}

	// Discard: the match's game at its move, the shape's point empty and
	// the record's next move the plant's.
	test.DoubleTap(rs[3])
	h.pump("the unsaved-changes question", func() bool { return h.w.Canvas().Overlays().Top() != nil })
	test.Tap(h.button("Discard"))
	p := findtest.Plants()[3]
	if h.wb.doc.name != "plant-03.sgf" || h.move() != p.Move() {
		t.Fatalf("opened %s at move %d, want plant-03.sgf at %d", h.wb.doc.name, h.move(), p.Move())
	}
	if h.wb.doc.path != folder+"/plant-03.sgf" {
		t.Errorf("a folder's game opens as its file, got path %q", h.wb.doc.path)
	}
	next := h.wb.doc.cursor.Next()
	if pos := h.wb.doc.cursor.Position(); pos.Board.At(p.Point()) != board.Empty || next == nil || (next.Move.Point == p.Point()) != p.Played {
		t.Errorf("the position does not show the plant")
	}
	if !strings.Contains(h.wb.status.msg.Text, "it fires at "+p.Point().GTP(19)) {
		t.Errorf("status %q", h.wb.status.msg.Text)
	}

	// The Open button does the same for the selected match, from an archive.
	f.list.Select(0)
	if f.open.Disabled() {
		t.Fatal("Open is disabled with a match selected")
	}
	test.Tap(f.open)
	h.pump("match 0 opened", func() bool { return h.wb.doc.name == "plant-00.sgf" })
}

// TestFinderStops: Stop ends the search and drops what it still delivers;
// closing the window stops it too; the collection chosen is remembered.
func TestFinderStops(t *testing.T) {
	archive, folder := plantedCollection(t)
	h := newHarness(t, variations)
	h.wb.findPattern(plantedShape(t))
	f, _ := toolOf[*finder](h.wb)
	if f.running || !strings.HasPrefix(f.summary.Text, "Choose a folder") {
		t.Fatalf("no collection known: %q", f.summary.Text)
	}
	f.setCollection(archive)
	if got := h.wb.opts.Preferences.String(prefFindCollection); got != archive {
		t.Fatalf("remembered %q", got)
	}
	if !f.running || f.stop.Disabled() {
		t.Fatal("not searching")
	}
	test.Tap(f.stop) // before anything was delivered to the window
	if f.running || !f.stop.Disabled() || f.again.Disabled() || !strings.HasSuffix(f.summary.Text, "Stopped.") {
		t.Fatalf("after Stop: running %v, %q", f.running, f.summary.Text)
	}
	// What the stopped search still sends is dropped.
	for len(h.ui) > 0 {
		(<-h.ui)()
	}
	if len(f.matches) != 0 {
		t.Errorf("%d matches listed after Stop", len(f.matches))
	}

	// Search again, on the folder; closing the window stops the search.
	f.setCollection(folder)
	f.win.Close()
	if _, open := toolOf[*finder](h.wb); open || f.running || f.cancel != nil {
		t.Fatal("the search goes on after the window closed")
	}
	h.wb.findPattern(plantedShape(t))
	if h.found().collection != folder {
		t.Error("a new window forgot the collection")
	}
}

// TestInspectorFindsShape: the inspector's "Where does it fire?" searches
// for the shape it shows, read at the point explained.
func TestInspectorFindsShape(t *testing.T) {
	archive, _ := plantedCollection(t)
	p := findtest.Plants()[0]
	h := newHarness(t, p.SGF())
	h.wb.opts.Preferences.SetString(prefFindCollection, archive)
	h.selectTab(tabInspector)
	h.wb.move(h.wb.doc.cursor.Forward(p.Move()))
	ex := h.explained()
	in := tabOf[*inspector](h.wb)
	h.pointer(0, goban.Point{X: p.X, Y: p.Y})
	h.inspectorSays(p.Point().GTP(19) + " · rank ")
	e := ex.Lookup(p.Point())
	if e == nil || e.PatternSize == 0 || !in.fire.Visible() {
		t.Fatalf("no shape shown at the plant (%+v); the button is shown %v", e, in.fire.Visible())
	}
	test.Tap(in.fire)
	f := h.found()
	want, err := findpattern.ShapeAt(h.wb.doc.cursor.Position(), p.Point(), fmt.Sprint(e.PatternSize))
	if err != nil {
		t.Fatal(err)
	}
	if f.query.Model == nil || f.query.Model.Len() == 0 {
		t.Fatal("the search is not for mm's shape factor")
	}
	got := f.query
	got.Model = nil
	if got != want {
		t.Fatalf("searched for %v, want %v", got, want)
	}
	if !strings.Contains(f.title.Text, "as the model's largest known shape") {
		t.Errorf("title %q", f.title.Text)
	}
	// The plants are one shape up to symmetry and colour at every size, so
	// mm's shape factor there is the same everywhere.
	if len(f.matches) != len(findtest.Plants()) || f.matches[0].File != "planted/plant-00.sgf" || f.matches[0].Point != p.Point() {
		t.Errorf("%d matches, want the %d plants: %v", len(f.matches), len(findtest.Plants()), f.matches)
	}
	// No shape, no button.
	h.away()
	in.message("nothing")
	if in.fire.Visible() {
		t.Error("the button stays without a shape")
	}
}

// TestFindPatternScreenshot saves the window after a search of the
// validation games for the size-6 shape of move 21 of the sample game (P6),
// its first match where the record played it selected, to the PNG named by
// AJI_SHOT_FIND:
// AJI_SHOT_FIND=$PWD/docs/find-pattern.png go test -run FindPatternScreenshot ./ui/workbench.
func TestFindPatternScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_FIND")
	if out == "" {
		t.Skip("set AJI_SHOT_FIND=file.png to save a screenshot of the find-pattern window")
	}
	const games = "../../../shared/data/games-validation.tar.xz"
	if _, err := os.Stat(games); err != nil {
		t.Skip("no validation games at", games)
	}
	data, err := os.ReadFile("../../assets/games/Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, string(data))
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.wb.move(h.wb.doc.cursor.Forward(20))
	q, err := findpattern.ShapeAt(h.wb.doc.cursor.Position(), board.At(14, 13), "6") // P6
	if err != nil {
		t.Fatal(err)
	}
	h.wb.opts.Preferences.SetString(prefFindCollection, games)
	h.wb.findPattern(q)
	f := h.found()
	for i, m := range f.matches {
		if m.Played {
			f.list.Select(i)
			f.list.ScrollTo(max(i-2, 0))
			break
		}
	}
	f.win.Resize(fyne.NewSize(640, 520))
	h.w = f.win // saveWindow writes the harness's window
	h.saveWindow(out)
}

// TestFinderFeature: a feature level, as a model browser would pick one,
// is searched as findpattern.Search finds it.
func TestFinderFeature(t *testing.T) {
	archive, _ := plantedCollection(t)
	q, err := findpattern.FeatureQuery("distance to previous move: 2")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := findpattern.Search(context.Background(), archive, q, findpattern.Options{}, func(findpattern.Match) error { return nil })
	if err != nil || sum.Matches == 0 {
		t.Fatalf("%+v, %v", sum, err)
	}
	h := newHarness(t, variations)
	h.wb.opts.Preferences.SetString(prefFindCollection, archive)
	h.wb.findPattern(q)
	f := h.found()
	if len(f.matches) != sum.Matches || f.progress.Played != sum.Played || !strings.Contains(f.title.Text, "feature distance to previous move: 2") {
		t.Fatalf("window: %d matches, %d played, %q; the search: %+v", len(f.matches), f.progress.Played, f.title.Text, sum)
	}
}
