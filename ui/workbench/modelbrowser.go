package workbench

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"aji/analysis/board"
	"aji/analysis/findpattern"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/assets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// modelBrowser is Tools ▸ Model browser…: every weight of a model — its
// feature levels, shapes, 3x3 classes, CFG paths — in a table that
// filters by name, kind, size and weight range and sorts by any column,
// and a pane that draws the selected shape with its numbers. It is a
// window of its own, so a table of 400,000 patterns has room beside the
// board. The listing (predict.Weights) is made, filtered and sorted off the
// UI goroutine; the table is virtualised, so only the visible rows are
// ever drawn.
type modelBrowser struct {
	wb  *Workbench
	win fyne.Window

	picker                *widget.Select
	kinds                 *widget.Select
	text                  *widget.Entry
	minSize, maxSize      *widget.Entry
	minWeight, maxWeight  *widget.Entry
	table                 *widget.Table
	count                 *widget.Label // "1,234 of 105,946 rows", or why there are none
	diagram               *shapeDiagram
	detail                *widget.Label
	where                 *widget.Button // "Where does it fire?": wb.findPattern
	shapes                *widget.Label  // how many shapes can be drawn
	scan                  *widget.Button // learn shapes from a game collection
	weightCol, spreadCol  string         // the two number columns' titles, by measure
	w                     *predict.Weights
	view                  []int32 // rows of w shown, in order
	query                 predict.Query
	sel                   int  // the row of w shown in the detail pane, or -1
	filtering, again      bool // a Filter runs off the UI goroutine; run another after it
	loading               int  // bumped per model picked: a listing for an earlier pick is dropped
	cancelScan            context.CancelFunc
	scanning              bool   // shapes are being learned from games
	badBounds             string // which size or weight bounds are not numbers
	scannedGames, learned int
}

// Columns of the table; their sort order is browserSort.
const (
	colName = iota
	colSize
	colWeight
	colSpread
	colSeen
	colPlayed
	numBrowserCols
)

// rowKindChoices are the kinds filter's options, in predict.RowKind order
// after "All rows".
var rowKindChoices = []string{"All rows", "Feature levels", "Shapes", "3x3 shapes", "CFG paths", "Pass / no pattern"}

// showModelBrowser opens the model browser, or brings it to the front.
func (wb *Workbench) showModelBrowser() *modelBrowser {
	if b, ok := toolOf[*modelBrowser](wb); ok {
		b.win.RequestFocus()
		return b
	}
	b := &modelBrowser{wb: wb, sel: -1, query: predict.Query{By: predict.ByWeight, Desc: true}}
	b.win = fyne.CurrentApp().NewWindow("Model browser — Aji")
	b.win.SetContent(b.content())
	b.win.Resize(fyne.NewSize(1180, 720))
	wb.openTool(b, b.stopScan)
	first := wb.panel.pred.Selected
	if first == "" {
		first = "mm"
	}
	b.picker.SetSelected(first)
	return b
}

func (b *modelBrowser) content() fyne.CanvasObject {
	b.picker = widget.NewSelect(predict.Names(), b.pick)
	b.kinds = widget.NewSelect(rowKindChoices, func(s string) {
		b.query.Kinds = 0
		for k, c := range rowKindChoices[1:] {
			if c == s {
				b.query.Kinds = 1 << k
			}
		}
		b.refilter()
	})
	b.kinds.SetSelected(rowKindChoices[0])
	b.text = widget.NewEntry()
	b.text.SetPlaceHolder("name contains…")
	b.text.OnChanged = func(s string) { b.query.Text = s; b.refilter() }
	number := func(hint string) *widget.Entry {
		e := widget.NewEntry()
		e.SetPlaceHolder(hint)
		e.OnChanged = func(string) { b.readBounds() }
		return e
	}
	b.minSize, b.maxSize = number("min"), number("max")
	b.minWeight, b.maxWeight = number("min"), number("max")
	pair := func(label string, lo, hi *widget.Entry) fyne.CanvasObject {
		sized := func(e *widget.Entry) fyne.CanvasObject {
			return container.NewGridWrap(fyne.NewSize(72, e.MinSize().Height), e)
		}
		return container.NewHBox(widget.NewLabel(label), sized(lo), widget.NewLabel("–"), sized(hi))
	}
	filters := container.NewBorder(nil, nil,
		container.NewHBox(widget.NewLabel("Model"), b.picker, b.kinds),
		container.NewHBox(pair("Size", b.minSize, b.maxSize), pair("Weight", b.minWeight, b.maxWeight)),
		b.text)

	b.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(b.view), numBrowserCols },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		b.updateCell)
	b.table.ShowHeaderColumn = false
	b.table.CreateHeader = func() fyne.CanvasObject { return widget.NewButton("", nil) }
	b.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		btn := o.(*widget.Button)
		btn.SetText(b.header(id.Col))
		btn.OnTapped = func() { b.sortBy(id.Col) }
	}
	for c, wd := range []float32{360, 70, 100, 90, 90, 90} {
		b.table.SetColumnWidth(c, wd)
	}
	b.table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(b.view) {
			b.sel = int(b.view[id.Row])
			b.showDetail()
		}
	}

	b.count = widget.NewLabel("")
	b.diagram = newShapeDiagram()
	b.detail = widget.NewLabel("Select a row to see its weight and shape.")
	b.detail.Wrapping = fyne.TextWrapWord
	b.where = widget.NewButton("Where does it fire?", func() {
		if b.w != nil && b.sel >= 0 {
			if q, ok := queryOf(b.w, b.sel); ok {
				if q.Kind != findpattern.Feature {
					q.Model = shapesOf(b.w.Predictor) // where the model's shape factor fires
				}
				b.wb.findPattern(q)
			}
		}
	})
	b.where.Hide()
	b.shapes = widget.NewLabel("")
	b.shapes.Wrapping = fyne.TextWrapWord
	b.scan = widget.NewButton("Find shapes in games…", b.pickCollection)
	diagram := container.NewGridWrap(fyne.NewSquareSize(220), b.diagram)
	side := container.NewVBox(heading("Selected"), container.NewCenter(diagram), b.detail, b.where,
		heading("Shapes"), b.shapes, b.scan)
	sideScroll := container.NewVScroll(side)
	sideScroll.SetMinSize(fyne.NewSize(300, 0))
	return container.NewBorder(filters, b.count, nil, sideScroll, b.table)
}

// pick loads the listing of predictor name off the UI goroutine.
func (b *modelBrowser) pick(name string) {
	b.loading++
	gen := b.loading
	b.stopScan()
	b.w, b.view, b.sel = nil, nil, -1
	b.table.UnselectAll()
	b.table.Refresh()
	b.showDetail()
	b.count.SetText("Loading " + name + "…")
	go func() {
		p, err := predict.New(name, predict.Options{NoOwner: true})
		var w *predict.Weights
		if l, ok := p.(predict.Lister); ok && err == nil {
			w = l.Weights()
		}
		b.wb.opts.OnUI(func() {
			if gen != b.loading {
				return
			}
			switch {
			case err != nil:
				b.count.SetText(err.Error())
			case w == nil:
				b.count.SetText(name + " has no weights to list: " + noWeights(name))
			default:
				b.setListing(w)
			}
		})
	}()
}

// noWeights says why a predictor has no table of weights.
func noWeights(name string) string {
	if name == "cnn" {
		return "a convolutional network's filters look at the whole board at once, not at a feature or a shape each."
	}
	return "it has no trained features or shapes."
}

// setListing shows w and starts learning its shapes from the game shown
// and the sample games.
func (b *modelBrowser) setListing(w *predict.Weights) {
	b.w = w
	b.weightCol, b.spreadCol = measureTitles(w.Measure)
	b.table.Refresh()
	b.refilter()
	b.learned, b.scannedGames = 0, 0
	b.updateShapes()
	if w.Count(predict.RowShape) == 0 {
		return
	}
	// The game shown is copied here, on the UI goroutine that edits it.
	var shown bytes.Buffer
	if err := b.wb.doc.cursor.Game().Save(&shown); err != nil {
		shown.Reset()
	}
	ctx := b.startScan()
	go func() {
		records := [][]byte{shown.Bytes()}
		for _, name := range assets.Games() {
			if data, err := assets.Game(name); err == nil {
				records = append(records, data)
			}
		}
		games := 0
		for _, data := range records {
			gs, err := game.Parse(data)
			if err != nil {
				continue
			}
			for _, g := range gs {
				w.LearnGame(ctx, g)
				games++
			}
		}
		b.deliverScan(ctx, w, games, true)
	}()
}

// pickCollection asks, over the browser's window, for a collection (an
// .sgf file, or a .tar.xz or .tar.gz archive) to find shapes in.
func (b *modelBrowser) pickCollection() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, b.win)
			return
		}
		if r == nil {
			return // cancelled
		}
		r.Close()
		b.scanCollection(r.URI().Path())
	}, b.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".sgf", ".xz", ".gz"}))
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// scanCollection learns shapes from the games of the collection at path,
// with progress in the Shapes section.
func (b *modelBrowser) scanCollection(path string) {
	w := b.w
	if w == nil || w.Count(predict.RowShape) == 0 {
		return
	}
	ctx := b.startScan()
	base := b.scannedGames
	b.shapes.SetText("Reading " + filepath.Base(path) + "…")
	go func() {
		var last atomic.Int64
		err := w.LearnCollection(ctx, path, func(games, _ int) {
			last.Store(int64(games))
			if games%50 == 0 {
				b.deliverScan(ctx, w, base+games, false)
			}
		})
		if err != nil && ctx.Err() == nil {
			b.wb.opts.OnUI(func() {
				b.scanning = false
				b.shapes.SetText(fmt.Sprintf("%s: %v", filepath.Base(path), err))
			})
			return
		}
		b.deliverScan(ctx, w, base+int(last.Load()), true)
	}()
}

// deliverScan shows how many shapes can be drawn now, games being the
// games read so far and done whether the scan ended; it redraws the
// selected shape, which may have become known.
func (b *modelBrowser) deliverScan(ctx context.Context, w *predict.Weights, games int, done bool) {
	b.wb.opts.OnUI(func() {
		if ctx.Err() != nil || w != b.w {
			return
		}
		b.scannedGames = games
		if done {
			b.scanning = false
		}
		b.learned = w.Learned()
		b.updateShapes()
		if b.sel >= 0 {
			b.showDetail()
		}
	})
}

func (b *modelBrowser) startScan() context.Context {
	b.stopScan()
	ctx, cancel := context.WithCancel(context.Background())
	b.cancelScan, b.scanning = cancel, true
	return ctx
}

func (b *modelBrowser) stopScan() {
	if b.cancelScan != nil {
		b.cancelScan()
		b.cancelScan, b.scanning = nil, false
	}
}

// updateShapes says how many of the listing's shapes can be drawn.
func (b *modelBrowser) updateShapes() {
	if b.w == nil {
		b.shapes.SetText("")
		b.scan.Disable()
		return
	}
	n := b.w.Count(predict.RowShape)
	if n == 0 {
		b.shapes.SetText("Every shape of this model is drawn from its code.")
		b.scan.Disable()
		return
	}
	b.scan.Enable()
	b.shapes.SetText(fmt.Sprintf("%s of %s shapes can be drawn, found in %s games. A shape's key is a hash: "+
		"it is drawn once a game shows it (1,940 professional games find about 9 in 10 of mm's).",
		thousands(b.learned), thousands(n), thousands(b.scannedGames)))
}

// readBounds reads the size and weight entries into the query; a bound
// that is not a number is no bound, and the count line says so.
func (b *modelBrowser) readBounds() {
	var bad []string
	size := func(e *widget.Entry, what string) int {
		s := strings.TrimSpace(e.Text)
		if s == "" {
			return 0
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			bad = append(bad, what)
			return 0
		}
		return n
	}
	weight := func(e *widget.Entry, what string) *float64 {
		s := strings.TrimSpace(e.Text)
		if s == "" {
			return nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) {
			bad = append(bad, what)
			return nil
		}
		return &x
	}
	b.query.MinSize, b.query.MaxSize = size(b.minSize, "min size"), size(b.maxSize, "max size")
	b.query.MinWeight, b.query.MaxWeight = weight(b.minWeight, "min weight"), weight(b.maxWeight, "max weight")
	b.badBounds = ""
	if len(bad) > 0 {
		b.badBounds = strings.Join(bad, ", ") + ": not a number, no bound"
	}
	b.refilter()
}

// refilter runs the query off the UI goroutine, one run at a time: a
// change while one runs asks for one more run after it, with the query as
// it is then.
func (b *modelBrowser) refilter() {
	if b.w == nil {
		return
	}
	if b.filtering {
		b.again = true
		return
	}
	b.filtering = true
	w, q := b.w, b.query
	go func() {
		view := predict.Filter(w, q, nil)
		b.wb.opts.OnUI(func() {
			b.filtering = false
			if w == b.w {
				b.view = view
				b.table.UnselectAll()
				b.table.Refresh()
				b.table.ScrollToTop()
				text := fmt.Sprintf("%s of %s rows", thousands(len(view)), thousands(len(w.Rows)))
				for _, s := range []string{b.badBounds, w.Note} {
					if s != "" {
						text += " · " + s
					}
				}
				b.count.SetText(text)
			}
			if b.again {
				b.again = false
				b.refilter()
			}
		})
	}()
}

// browserSort maps a column to its sort order: the second number column
// is Elo for a γ model, in γ's order.
func (b *modelBrowser) browserSort(col int) predict.Column {
	switch col {
	case colName:
		return predict.ByName
	case colSize:
		return predict.BySize
	case colWeight:
		return predict.ByWeight
	case colSpread:
		if b.w != nil && b.w.Measure == predict.Gamma {
			return predict.ByWeight
		}
		return predict.BySpread
	case colSeen:
		return predict.BySeen
	}
	return predict.ByPlayed
}

// sortBy sorts on col, or flips the direction if it is the column sorted on.
func (b *modelBrowser) sortBy(col int) {
	by := b.browserSort(col)
	if by == b.query.By {
		b.query.Desc = !b.query.Desc
	} else {
		// Numbers start largest first, names in order.
		b.query.By, b.query.Desc = by, col != colName
	}
	b.table.Refresh()
	b.refilter()
}

// header is column col's title, with an arrow on the column sorted on.
func (b *modelBrowser) header(col int) string {
	title := [...]string{"Name", "Size", b.weightCol, b.spreadCol, "Seen", "Played"}[col]
	if b.browserSort(col) == b.query.By && (col != colSpread || b.query.By != b.browserSort(colWeight)) {
		if b.query.Desc {
			return title + " ▼"
		}
		return title + " ▲"
	}
	return title
}

// measureTitles are the number columns' titles for a measure.
func measureTitles(m predict.Measure) (weight, spread string) {
	switch m {
	case predict.Gaussian:
		return "μ", "σ"
	case predict.Beta:
		return "p", "σ"
	case predict.Factorized:
		return "w", "‖v‖"
	}
	return "γ", "Elo"
}

func (b *modelBrowser) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*widget.Label)
	if b.w == nil || id.Row < 0 || id.Row >= len(b.view) {
		l.SetText("")
		return
	}
	i := int(b.view[id.Row])
	l.Alignment = fyne.TextAlignTrailing
	if id.Col == colName {
		l.Alignment = fyne.TextAlignLeading
	}
	l.SetText(b.cellText(i, id.Col))
}

// cellText is row i's text in column col.
func (b *modelBrowser) cellText(i, col int) string {
	r := &b.w.Rows[i]
	count := func(n int64) string {
		if n < 0 {
			return "–"
		}
		return thousands(int(n))
	}
	switch col {
	case colName:
		return b.w.Name(i)
	case colSize:
		return b.w.Template(i)
	case colWeight:
		switch b.w.Measure {
		case predict.Gamma:
			return strconv.FormatFloat(r.Weight, 'g', 4, 64)
		case predict.Beta:
			return strconv.FormatFloat(r.Weight, 'f', 4, 64)
		}
		return fmt.Sprintf("%+.3f", r.Weight)
	case colSpread:
		if b.w.Measure == predict.Gamma {
			return fmt.Sprintf("%+.0f", 400*math.Log10(r.Weight))
		}
		if math.IsInf(r.Spread, 1) {
			return "∞"
		}
		return strconv.FormatFloat(r.Spread, 'f', 3, 64)
	case colSeen:
		return count(r.Seen)
	}
	return count(r.Played)
}

// showDetail shows the selected row: its name, numbers and shape.
func (b *modelBrowser) showDetail() {
	if b.w == nil || b.sel < 0 {
		b.diagram.set(nil, board.Black)
		b.diagram.Hide()
		b.detail.SetText("Select a row to see its weight and shape.")
		b.where.Hide()
		return
	}
	w, i := b.w, b.sel
	r := &w.Rows[i]
	var sb strings.Builder
	sb.WriteString(w.Name(i))
	if t := w.Template(i); t != "" {
		fmt.Fprintf(&sb, "\n%s, key %016x", t, r.ID)
	}
	fmt.Fprintf(&sb, "\n%s", w.WeightText(i))
	if r.Seen >= 0 {
		fmt.Fprintf(&sb, "\nseen %s times in training", thousands(int(r.Seen)))
		if r.Played >= 0 {
			fmt.Fprintf(&sb, ", played %s", thousands(int(r.Played)))
		}
	}
	cells, known := w.Cells(i)
	shape := r.Kind == predict.RowShape || r.Kind == predict.RowShape3
	switch {
	case shape && known:
		b.diagram.set(cells, board.Black)
		b.diagram.Show()
		sb.WriteString("\nDrawn for Black to move: black stones are the mover's.")
	case shape:
		b.diagram.set(nil, board.Black)
		b.diagram.Hide()
		sb.WriteString("\nNot drawn yet: no game read so far shows this shape (Find shapes in games…).")
	default:
		b.diagram.Hide()
	}
	b.detail.SetText(sb.String())
	if _, ok := queryOf(b.w, b.sel); ok {
		b.where.Show()
	} else {
		b.where.Hide()
	}
}

// queryOf is the "Where does it fire?" query of row i of w (without the
// model's dictionary): a shape or a feature level; false for the rows no
// search looks for (3x3 classes, CFG paths, Bayesian slots).
func queryOf(w *predict.Weights, i int) (findpattern.Query, bool) {
	if w == nil || i < 0 || i >= len(w.Rows) {
		return findpattern.Query{}, false
	}
	switch r := &w.Rows[i]; r.Kind {
	case predict.RowShape:
		q := findpattern.Query{Kind: findpattern.Coulom, Size: int(r.Size), Key: r.ID}
		if w.Stern() {
			q.Kind = findpattern.Stern
		}
		return q, true
	case predict.RowFeature:
		q, err := findpattern.FeatureQuery(w.Name(i))
		return q, err == nil
	}
	return findpattern.Query{}, false
}

func (b *modelBrowser) window() fyne.Window { return b.win }

// predictorsChanged offers a model file just loaded in the picker.
func (b *modelBrowser) predictorsChanged() {
	b.picker.SetOptions(predict.Names())
}

// thousands writes n with commas: 105,946.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
