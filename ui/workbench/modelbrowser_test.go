package workbench

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/findpattern"
	"aji/analysis/predict"
	"aji/assets"
	"aji/models"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// openBrowser opens the model browser on predictor name and waits for its
// rows.
func openBrowser(h *harness, name string) *modelBrowser {
	h.t.Helper()
	b := h.wb.showModelBrowser()
	b.picker.SetSelected(name)
	h.pump("the "+name+" listing", func() bool {
		return b.w != nil && b.w.Predictor == name && !b.filtering && len(b.view) == len(b.w.Rows)
	})
	return b
}

// settled waits for the filter runs to finish.
func (b *modelBrowser) settled(h *harness) {
	h.t.Helper()
	h.pump("the filter", func() bool { return !b.filtering && !b.again })
}

// headerButton is the header of column col as drawn.
func headerButton(t *testing.T, b *modelBrowser, col int) *widget.Button {
	t.Helper()
	var found *widget.Button
	for _, o := range test.LaidOutObjects(b.table) {
		if btn, ok := o.(*widget.Button); ok && strings.HasPrefix(btn.Text, strings.Fields(b.header(col))[0]) {
			found = btn
		}
	}
	if found == nil {
		t.Fatalf("no header for column %d (%q)", col, b.header(col))
	}
	return found
}

func TestModelBrowserFilterSortSelect(t *testing.T) {
	h := newHarness(t, variations)
	b := openBrowser(h, "mm")
	if b.w.Count(predict.RowShape) < 100_000 || !strings.Contains(b.count.Text, "105,946 rows") {
		t.Fatalf("mm: %d rows, %q", len(b.w.Rows), b.count.Text)
	}
	// Sorted by weight, largest first, as it opens.
	for k := 1; k < len(b.view); k++ {
		if b.w.Rows[b.view[k-1]].Weight < b.w.Rows[b.view[k]].Weight {
			t.Fatalf("not by weight at %d", k)
		}
	}

	// A text narrows the rows to those that name it.
	test.Type(b.text, "ladder")
	b.settled(h)
	if len(b.view) == 0 || len(b.view) > 10 {
		t.Fatalf("ladder: %d rows", len(b.view))
	}
	for _, i := range b.view {
		if !strings.Contains(b.w.Name(int(i)), "ladder") {
			t.Errorf("kept %q", b.w.Name(int(i)))
		}
	}
	b.text.SetText("")
	b.minSize.SetText("5")
	b.maxSize.SetText("5")
	b.minWeight.SetText("2")
	b.settled(h)
	if len(b.view) == 0 {
		t.Fatal("no shape of size 5 with γ ≥ 2")
	}
	for _, i := range b.view {
		if r := b.w.Rows[i]; r.Size != 5 || r.Weight < 2 {
			t.Fatalf("kept %+v", r)
		}
	}
	b.maxWeight.SetText("x")
	b.settled(h)
	if !strings.Contains(b.count.Text, "max weight: not a number") {
		t.Errorf("a bad bound: %q", b.count.Text)
	}
	b.maxWeight.SetText("")
	b.settled(h)

	// Tapping the Seen header sorts by it, largest first; again flips it.
	test.Tap(headerButton(t, b, colSeen))
	b.settled(h)
	seen := func() []int64 {
		var s []int64
		for _, i := range b.view {
			s = append(s, b.w.Rows[i].Seen)
		}
		return s
	}
	desc := seen()
	if !slices.IsSortedFunc(desc, func(x, y int64) int { return int(y - x) }) || desc[0] == desc[len(desc)-1] {
		t.Fatalf("by seen, descending: %v…", desc[:5])
	}
	if !strings.HasSuffix(b.header(colSeen), "▼") {
		t.Errorf("header %q", b.header(colSeen))
	}
	test.Tap(headerButton(t, b, colSeen))
	b.settled(h)
	if asc := seen(); !slices.IsSorted(asc) || asc[0] != desc[len(desc)-1] {
		t.Fatalf("by seen, ascending: %v…", asc[:5])
	}

	// Selecting a shape the sample games show draws it.
	h.pump("shapes learned from the sample games", func() bool { return !b.scanning })
	if want := len(assets.Games()) + 1; b.scannedGames != want || b.learned == 0 {
		t.Errorf("shapes learned from %d games, want the game shown and the samples (%d); %d found", b.scannedGames, want, b.learned)
	}
	b.minSize.SetText("")
	b.maxSize.SetText("")
	b.minWeight.SetText("")
	b.settled(h)
	k := slices.IndexFunc(b.view, func(i int32) bool {
		cells, ok := b.w.Cells(int(i))
		return b.w.Rows[i].Kind == predict.RowShape && ok && len(cells) > 8
	})
	if k < 0 {
		t.Fatal("no drawable shape")
	}
	b.table.Select(widget.TableCellID{Row: k, Col: colName})
	want, _ := b.w.Cells(int(b.view[k]))
	if !b.diagram.Visible() || len(b.diagram.cells) != len(want) || !strings.Contains(b.detail.Text, "shape of size") {
		t.Errorf("selected %q: diagram of %d cells, %q", b.w.Name(int(b.view[k])), len(b.diagram.cells), b.detail.Text)
	}
	// Where does it fire? opens the search for it, as the model's shape factor.
	row := b.w.Rows[b.view[k]]
	if !b.where.Visible() {
		t.Fatal("a shape without its Where does it fire? button")
	}
	test.Tap(b.where)
	if f, ok := toolOf[*finder](h.wb); !ok || f.query.Kind != findpattern.Coulom || f.query.Key != row.ID ||
		f.query.Size != int(row.Size) || f.query.Model == nil {
		t.Errorf("the search opened for %+v, want the shape %d:%x as the model's", f.query, row.Size, row.ID)
	} else {
		f.halt()
		f.win.Close()
	}
	// A shape no game has shown yet says so.
	k = slices.IndexFunc(b.view, func(i int32) bool {
		_, ok := b.w.Cells(int(i))
		return !ok
	})
	b.table.Select(widget.TableCellID{Row: k, Col: colName})
	if b.diagram.Visible() || !strings.Contains(b.detail.Text, "Not drawn yet") {
		t.Errorf("an unknown shape: %q", b.detail.Text)
	}
}

// TestModelBrowserModels picks every kind of model: the rows load, the
// numbers' columns follow the model, a 3x3 class is drawn without a game,
// the cnn says why it has nothing to list, and "Where does it fire?" opens
// the search for the shape selected, as the model's shape factor.
func TestModelBrowserModels(t *testing.T) {
	h := newHarness(t, variations)
	b := openBrowser(h, "fbt-small")
	if b.header(colWeight) != "w ▼" || b.header(colSpread) != "‖v‖" {
		t.Errorf("fbt headers %q, %q", b.header(colWeight), b.header(colSpread))
	}
	b.kinds.SetSelected("3x3 shapes")
	b.settled(h)
	if len(b.view) != b.w.Count(predict.RowShape3) {
		t.Fatalf("3x3 shapes: %d rows", len(b.view))
	}
	b.table.Select(widget.TableCellID{Row: 0, Col: colName})
	if len(b.diagram.cells) != 8 || b.where.Visible() {
		t.Fatalf("a 3x3 class drawn with %d cells, where shown %v (no search looks for one)", len(b.diagram.cells), b.where.Visible())
	}

	b.kinds.SetSelected("All rows") // the filters stay as they are across models
	b.settled(h)
	b = openBrowser(h, "bayes")
	if b.header(colWeight) != "μ ▼" || b.header(colSpread) != "σ" || len(b.view) < 400_000 {
		t.Errorf("bayes: %q %q, %d rows", b.header(colWeight), b.header(colSpread), len(b.view))
	}
	b.text.SetText("t14")
	b.settled(h)
	for _, i := range b.view {
		if b.w.Rows[i].Size != 14 {
			t.Fatalf("t14 kept %q", b.w.Name(int(i)))
		}
	}

	b.picker.SetSelected("cnn")
	h.pump("the cnn's answer", func() bool { return strings.Contains(b.count.Text, "no weights") })
	if b.w != nil || len(b.view) != 0 {
		t.Error("rows left from the last model")
	}
}

// TestModelBrowserScreenshot saves the model browser on mm, its shapes of
// size 8 with γ ≥ 1.5 sorted by how often they were seen, the first drawn:
// AJI_SHOT_BROWSER=$PWD/docs/model-browser.png go test -run ModelBrowserScreenshot ./ui/workbench.
// AJI_SHOT_GAMES names a collection to find the shapes in (default: the
// sample games).
func TestModelBrowserScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_BROWSER")
	if out == "" {
		t.Skip("set AJI_SHOT_BROWSER=file.png to save a screenshot of the model browser")
	}
	h := newHarness(t, variations)
	b := openBrowser(h, "mm")
	h.pump("shapes learned from the sample games", func() bool { return b.learned > 0 })
	if games := os.Getenv("AJI_SHOT_GAMES"); games != "" {
		b.scanCollection(games)
		deadline := time.After(10 * time.Minute) // a guard against a hang only
		for b.scanning {
			select {
			case f := <-h.ui:
				f()
			case <-deadline:
				t.Fatal("timed out reading", games)
			}
		}
	}
	b.minSize.SetText("8")
	b.maxSize.SetText("8")
	b.minWeight.SetText("1.5")
	b.sortBy(colSeen)
	b.settled(h)
	k := slices.IndexFunc(b.view, func(i int32) bool { // a shape with stones of both colours
		cells, _ := b.w.Cells(int(i))
		return slices.ContainsFunc(cells, func(c predict.PatternCell) bool { return c.State == predict.CellOwn }) &&
			slices.ContainsFunc(cells, func(c predict.PatternCell) bool { return c.State == predict.CellOpponent })
	})
	if k < 0 {
		t.Fatal("no shape drawn")
	}
	b.table.Select(widget.TableCellID{Row: k, Col: colName})
	b.win.Resize(fyne.NewSize(1180, 640))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(f, b.win.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkModelBrowserScroll jumps the table through the bayes model's
// 402,309 rows, as dragging its scroll bar does: the UI goroutine's work per
// step (the scroll, the layout and the text of the visible cells; drawing
// is the driver's). The table is virtualised, so the cost does not grow
// with the rows.
func BenchmarkModelBrowserScroll(bm *testing.B) {
	test.NewTempApp(bm)
	ui := make(chan func(), 1<<12)
	w := test.NewWindow(nil)
	defer w.Close()
	wb := New(w, Options{OnUI: func(f func()) { ui <- f }})
	defer wb.Stop()
	b := wb.showModelBrowser()
	b.picker.SetSelected("bayes")
	for b.w == nil || b.filtering || len(b.view) != len(b.w.Rows) {
		(<-ui)()
	}
	b.stopScan()
	n := len(b.view)
	bm.ReportAllocs()
	k := 0
	for bm.Loop() {
		k = (k + 7919) % n
		b.table.ScrollTo(widget.TableCellID{Row: k, Col: colName})
	}
	bm.ReportMetric(float64(n), "rows")
}

// TestModelBrowserLoadedModel loads a model file while the browser is open:
// the picker offers it and lists its weights.
func TestModelBrowserLoadedModel(t *testing.T) {
	data, ok := models.Default("fbt-small")
	if !ok {
		t.Skip("no embedded fbt-small model")
	}
	file := filepath.Join(t.TempDir(), "tuned-small.ajim")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, variations)
	b := h.wb.showModelBrowser()
	h.wb.LoadModel(file)
	h.pump("the model file offered", func() bool { return slices.Contains(b.picker.Options, "tuned-small") })
	b = openBrowser(h, "tuned-small")
	if b.w.Family != "fbt-small" || b.w.Count(predict.RowShape3) == 0 {
		t.Errorf("the file's listing: %s, %d rows", b.w.Family, len(b.w.Rows))
	}
}

// TestModelBrowserScanCollection finds shapes in a collection (the sample
// games written to a folder): the count of games read grows by it and the
// shapes drawn do not shrink; a missing collection says so.
func TestModelBrowserScanCollection(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, variations)
	b := openBrowser(h, "mm")
	h.pump("the first scan", func() bool { return !b.scanning })
	games, learned := b.scannedGames, b.learned
	b.scanCollection(dir)
	if !b.scanning {
		t.Fatal("no scan started")
	}
	h.pump("the collection's scan", func() bool { return !b.scanning })
	if b.scannedGames != games+len(assets.Games()) || b.learned < learned || !strings.Contains(b.shapes.Text, "can be drawn") {
		t.Errorf("after the collection: %d games, %d shapes (before: %d, %d): %q", b.scannedGames, b.learned, games, learned, b.shapes.Text)
	}
	b.scanCollection(filepath.Join(dir, "missing.tar.xz"))
	h.pump("the missing collection's error", func() bool { return !b.scanning })
	if !strings.Contains(b.shapes.Text, "missing.tar.xz") {
		t.Errorf("a missing collection: %q", b.shapes.Text)
	}
}

// TestToolWindows: the workbench keeps the open tool windows, one of each
// kind, and forgets each as its window closes.
func TestToolWindows(t *testing.T) {
	h := newHarness(t, variations)
	b := h.wb.showModelBrowser()
	if again := h.wb.showModelBrowser(); again != b {
		t.Error("a second model browser opened")
	}
	h.wb.findPattern(plantedShape(t))
	if len(h.wb.tools) != 2 {
		t.Fatalf("%d tool windows open, want 2", len(h.wb.tools))
	}
	b.win.Close()
	if _, open := toolOf[*modelBrowser](h.wb); open {
		t.Error("the closed browser is still kept")
	}
	f, open := toolOf[*finder](h.wb)
	if !open {
		t.Fatal("closing the browser lost the finder")
	}
	f.win.Close()
	if len(h.wb.tools) != 0 {
		t.Errorf("%d tool windows kept after both closed", len(h.wb.tools))
	}
}
