package workbench

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"aji/analysis/dataset"
	"aji/analysis/findpattern"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// prefFindCollection is the collection searched last, where the next
// search goes unless the user picks another.
const prefFindCollection = "find-pattern-collection"

// maxListed bounds the matches the window keeps to list: a common shape
// matches hundreds of thousands of moves; past this the search goes on
// counting them, and the hit rate is over all of them.
const maxListed = 100_000

// finder is the "Where does it fire?" window: the moves of a game collection
// where a shape or a feature matches, listed as they stream in from
// findpattern.Search on a goroutine of its own, with the running hit rate and
// a progress bar; a match opens in the main board at its move. Closing the
// window stops the search.
type finder struct {
	wb  *Workbench
	win fyne.Window

	query      findpattern.Query
	collection string

	title, where, summary *widget.Label
	bar                   *widget.ProgressBar
	stop, again, open     *widget.Button
	list                  *widget.List

	matches  []findpattern.Match
	progress findpattern.Progress
	skipped  int
	running  bool
	selected int // -1: none

	// The search on its goroutine: cancel stops it; gen tells a stale
	// search's deliveries from the current one's.
	cancel context.CancelFunc
	gen    int
	// What the search has found since the UI last took it: at most one
	// flush is queued on the UI at a time.
	mu      sync.Mutex
	pending findBatch
}

// findBatch is what a search hands the UI in one go.
type findBatch struct {
	gen       int
	matches   []findpattern.Match
	progress  findpattern.Progress
	skipped   []string
	done      bool
	err       error
	scheduled bool
}

// findPattern opens the "Where does it fire?" window on q and searches the
// collection searched last (or asks for one): the entry point for a shape
// or a feature picked anywhere in the app (the inspector's button, a model
// browser). A window already open searches for q instead.
func (wb *Workbench) findPattern(q findpattern.Query) {
	f, ok := toolOf[*finder](wb)
	if !ok {
		f = newFinder(wb)
		wb.openTool(f, f.halt)
	}
	f.query = q
	f.win.RequestFocus()
	if f.collection == "" {
		f.collection = wb.opts.Preferences.String(prefFindCollection)
	}
	if f.collection == "" {
		f.halt()
		f.reset()
		f.summary.SetText("Choose a folder of games or an archive (.tar.xz) to search.")
		return
	}
	f.search()
}

func newFinder(wb *Workbench) *finder {
	f := &finder{wb: wb, selected: -1}
	f.win = fyne.CurrentApp().NewWindow("Where does it fire?")
	f.title = widget.NewLabel("")
	f.title.TextStyle.Bold = true
	f.title.Wrapping = fyne.TextWrapWord
	f.where = widget.NewLabel("")
	f.where.Truncation = fyne.TextTruncateEllipsis
	f.summary = widget.NewLabel("")
	f.summary.Wrapping = fyne.TextWrapWord
	f.bar = widget.NewProgressBar()
	f.bar.TextFormatter = f.barText
	f.stop = widget.NewButton("Stop", f.halt)
	f.again = widget.NewButton("Search", f.search)
	folder := widget.NewButton("Folder…", f.chooseFolder)
	archive := widget.NewButton("Archive…", f.chooseArchive)
	f.open = widget.NewButton("Open at this move", func() { f.openMatch(f.selected) })
	f.open.Disable()
	f.list = widget.NewList(func() int { return len(f.matches) },
		func() fyne.CanvasObject { return newMatchRow(f) },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*matchRow).set(id) })
	f.list.OnSelected = func(id widget.ListItemID) {
		f.selected = id
		f.open.Enable()
	}
	f.list.OnUnselected = func(widget.ListItemID) {
		f.selected = -1
		f.open.Disable()
	}
	top := container.NewVBox(f.title,
		container.NewBorder(nil, nil, widget.NewLabel("Games:"), container.NewHBox(folder, archive), f.where),
		container.NewBorder(nil, nil, nil, container.NewHBox(f.stop, f.again), f.bar),
		f.summary)
	bottom := container.NewBorder(nil, nil, nil, f.open, widget.NewLabel("Double-click a match to open its game at that move."))
	f.win.SetContent(container.NewBorder(top, bottom, nil, nil, f.list))
	f.win.Resize(fyne.NewSize(640, 600))
	return f
}

func (f *finder) window() fyne.Window { return f.win }

// predictorsChanged: the window searches what it was asked for, whatever is loaded.
func (f *finder) predictorsChanged() {}

// reset empties the list and the figures for a new search.
func (f *finder) reset() {
	f.title.SetText("Where does the " + f.query.Describe() + " fire?")
	f.where.SetText(f.collection)
	f.matches, f.progress, f.skipped, f.selected = nil, findpattern.Progress{}, 0, -1
	f.list.UnselectAll()
	f.list.Refresh()
	f.open.Disable()
	f.bar.SetValue(0)
	f.summary.SetText("")
}

// search starts the search of the collection for the query, stopping any
// search running.
func (f *finder) search() {
	f.halt()
	if f.collection == "" {
		return
	}
	f.reset()
	f.gen++
	gen := f.gen
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel, f.running = cancel, true
	f.stop.Enable()
	f.again.Disable()
	f.summary.SetText("Searching…")
	q, path := f.query, f.collection
	go func() {
		sum, err := findpattern.Search(ctx, path, q, findpattern.Options{
			Progress: func(p findpattern.Progress) { f.deliver(gen, func(b *findBatch) { b.progress = p }) },
			Skipped: func(name string, err error) {
				f.deliver(gen, func(b *findBatch) { b.skipped = append(b.skipped, fmt.Sprintf("%s: %v", name, err)) })
			},
		}, func(m findpattern.Match) error {
			f.deliver(gen, func(b *findBatch) { b.matches = append(b.matches, m) })
			return nil
		})
		f.deliver(gen, func(b *findBatch) { b.done, b.err, b.progress = true, err, sum })
	}()
}

// halt stops the search running, if any; what it found stays listed.
func (f *finder) halt() {
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
	if f.running {
		f.running = false
		f.gen++ // what the stopped search still delivers is dropped
		f.summary.SetText(f.figures() + " Stopped.")
	}
	f.stop.Disable()
	f.again.Enable()
}

// deliver records what the search of generation gen found (off the UI
// goroutine) and queues a flush unless one is queued already.
func (f *finder) deliver(gen int, add func(*findBatch)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pending.gen != gen {
		f.pending = findBatch{gen: gen}
	}
	add(&f.pending)
	if !f.pending.scheduled {
		f.pending.scheduled = true
		f.wb.opts.OnUI(f.flush)
	}
}

// flush shows what the search delivered since the last flush.
func (f *finder) flush() {
	f.mu.Lock()
	b := f.pending
	f.pending = findBatch{gen: b.gen}
	f.mu.Unlock()
	if b.gen != f.gen || !f.running {
		return // a stopped search's
	}
	if room := maxListed - len(f.matches); room > 0 {
		f.matches = append(f.matches, b.matches[:min(room, len(b.matches))]...)
	}
	if b.progress.Files > 0 || b.done {
		f.progress = b.progress
	}
	f.skipped += len(b.skipped)
	if b.progress.Total > 0 {
		f.bar.SetValue(float64(b.progress.Files) / float64(b.progress.Total))
	}
	f.list.Refresh()
	switch {
	case !b.done:
		f.summary.SetText(f.figures())
		return
	case b.err != nil:
		f.summary.SetText(f.figures() + " Stopped: " + b.err.Error())
	default:
		f.bar.SetValue(1)
		f.summary.SetText(f.figures() + " Done.")
	}
	f.running, f.cancel = false, nil
	f.stop.Disable()
	f.again.Enable()
}

// figures are the counts so far: "120 matches in 340 games; the record
// played 45 of them (37.5%). 2 records skipped."
func (f *finder) figures() string {
	p := f.progress
	s := fmt.Sprintf("%d %s in %d games (%d positions); the record played %d of them (%.1f%%).",
		len(f.matches), pluralOf(len(f.matches), "match", "matches"), p.Games, p.Positions, p.Played, 100*p.HitRate())
	if p.Matches > len(f.matches) {
		s = fmt.Sprintf("%d matches, the first %d listed, in %d games (%d positions); the record played %d of them (%.1f%%).",
			p.Matches, len(f.matches), p.Games, p.Positions, p.Played, 100*p.HitRate())
	}
	if f.skipped > 0 {
		s += fmt.Sprintf(" %d %s skipped (unreadable or illegal).", f.skipped, pluralOf(f.skipped, "record", "records"))
	}
	return s
}

func pluralOf(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// barText is the progress bar's text: files done of the total, and the time
// left.
func (f *finder) barText() string {
	p := f.progress
	switch {
	case p.Total == 0:
		return fmt.Sprintf("%d files", p.Files)
	case p.ETA > 0 && f.running:
		return fmt.Sprintf("%d / %d files · %s left", p.Files, p.Total, p.ETA.Round(time.Second))
	}
	return fmt.Sprintf("%d / %d files", p.Files, p.Total)
}

// matchText is a match in the list: "Agon-01-8.sgf · move 21 · Black Q16 ·
// played" (the move it would be: Move+1).
func matchText(m findpattern.Match) string {
	name := filepath.Base(m.File)
	if m.Game > 0 {
		name += fmt.Sprintf(" (game %d)", m.Game+1)
	}
	played := "not played: " + m.Next.GTP(m.Size)
	if m.Played {
		played = "played"
	}
	return fmt.Sprintf("%s · move %d · %s %s · %s", name, m.Move+1, colorName(m.Color), m.Point.GTP(m.Size), played)
}

// chooseFolder and chooseArchive pick the collection and search it.
func (f *finder) chooseFolder() {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err == nil && u != nil {
			f.setCollection(u.Path())
		}
	}, f.win)
	if l := f.startFolder(); l != nil {
		d.SetLocation(l)
	}
	d.Resize(fyne.NewSize(600, 500))
	d.Show()
}

func (f *finder) chooseArchive() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err == nil && r != nil {
			r.Close()
			f.setCollection(r.URI().Path())
		}
	}, f.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".xz", ".gz", ".tgz", ".tar", ".sgf"}))
	if l := f.startFolder(); l != nil {
		d.SetLocation(l)
	}
	d.Resize(fyne.NewSize(600, 500))
	d.Show()
}

// startFolder is where the dialogs open: beside the last collection.
func (f *finder) startFolder() fyne.ListableURI {
	if f.collection == "" {
		return nil
	}
	l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(f.collection)))
	if err != nil {
		return nil
	}
	return l
}

// setCollection searches path from now on, remembered for the next start.
func (f *finder) setCollection(path string) {
	f.collection = path
	f.wb.opts.Preferences.SetString(prefFindCollection, path)
	f.search()
}

// openMatch opens match i's game in the main board at its move, asking
// first about unsaved changes as opening a file does. The record is read
// off the UI goroutine: an archive is streamed up to it.
func (f *finder) openMatch(i int) {
	if i < 0 || i >= len(f.matches) {
		return
	}
	m, collection := f.matches[i], f.collection
	wb := f.wb
	go func() {
		data, disk, err := dataset.Member(context.Background(), collection, m.File)
		wb.opts.OnUI(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf("open %s: %w", m.File, err), f.win)
				return
			}
			wb.confirmDiscard(func() { wb.showMatch(m, data, disk) })
			wb.win.RequestFocus()
		})
	}()
}

// showMatch shows the record data of match m at its move and says in the
// status bar what was found there.
func (wb *Workbench) showMatch(m findpattern.Match, data []byte, disk string) {
	if err := wb.Show(filepath.Base(m.File), disk, data, m.Move); err != nil {
		dialog.ShowError(fmt.Errorf("open: %w", err), wb.win)
		return
	}
	what := "the record played it"
	if !m.Played {
		what = "the record played " + m.Next.GTP(m.Size)
	}
	note := ""
	if m.Game > 0 {
		note = fmt.Sprintf(" (the match is in game %d of the file; the first is shown)", m.Game+1)
	}
	wb.setStatus("%s: it fires at %s for %s before move %d; %s%s", filepath.Base(m.File), m.Point.GTP(m.Size),
		colorName(m.Color), m.Move+1, what, note)
}

// matchRow is one match in the list: a tap selects it, a double tap opens it.
type matchRow struct {
	widget.Label
	f  *finder
	id widget.ListItemID
}

func newMatchRow(f *finder) *matchRow {
	r := &matchRow{f: f, id: -1}
	r.Truncation = fyne.TextTruncateEllipsis
	r.ExtendBaseWidget(r)
	return r
}

func (r *matchRow) set(id widget.ListItemID) {
	r.id = id
	if id < len(r.f.matches) {
		r.SetText(matchText(r.f.matches[id]))
	}
}

// Tapped selects the row, as the list would.
func (r *matchRow) Tapped(*fyne.PointEvent) { r.f.list.Select(r.id) }

// DoubleTapped opens the match.
func (r *matchRow) DoubleTapped(*fyne.PointEvent) {
	r.f.list.Select(r.id)
	r.f.openMatch(r.id)
}

var (
	_ fyne.Tappable       = (*matchRow)(nil)
	_ fyne.DoubleTappable = (*matchRow)(nil)
)
