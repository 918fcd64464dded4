package workbench

import (
	"context"
	"fmt"
	"image/color"
	"runtime"
	"slices"
	"strings"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
	"aji/analysis/predict"
	"aji/internal/boardimage"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// The Search tab runs the Monte Carlo tree search on the current position
// until the user stops it or moves on, through an mcts.Runner: one long job
// outside the engine's pool, not a result to cache. Every searchRefresh the
// runner hands over a snapshot, which the tab lists and draws on the boards
// (goban.Search); hovering a candidate on a board or in the table shows its
// principal variation. The runner keeps the tree for the position searched
// and its children, so starting again there goes on where it stopped.

// tabSearch is the saved name of the Search tab.
const tabSearch = "search"

// searchDepth puts the search's moves above the labels and the graph.
const searchDepth = 2

const (
	// searchRefresh is how often a running search shows its snapshot: live
	// enough to watch, and each snapshot costs a walk of the root's children
	// and their variations.
	searchRefresh = 300 * time.Millisecond
	// searchShown is how many candidates the table lists and the boards
	// mark, most visited first.
	searchShown = 10
	// searchPVShown is how many moves of each variation the table writes.
	searchPVShown = 6
	// searchPlayouts stops a forgotten search: about ten minutes of a
	// 19x19 search on a laptop's cores. The tree itself is bounded by
	// mcts.DefaultMaxNodes (64 MiB).
	searchPlayouts = 1_000_000
)

// prefSearchPrior is the preference key of the search's prior.
const prefSearchPrior = "search_prior"

// searchOptions are the search's options in the app: `aji gtp`'s defaults
// (RAVE with the prior, mm unless the user picks another, without its Monte
// Carlo owner feature, as progressive bias; the pattern playout policy; no
// progressive widening), on every core.
func searchOptions(prior string) mcts.Options {
	return mcts.Options{
		Playouts:  searchPlayouts,
		Threads:   runtime.NumCPU(),
		Selection: mcts.RAVE,
		Policy:    mcts.PolicyPattern,
		Widening:  false,
		NewPrior:  func() (predict.Predictor, error) { return mcts.NewPrior(prior) },

		ProgressInterval: searchRefresh,
	}
}

// searchPriors are the predictors offered as the search's prior: all but
// uniform, which would be no prior at all.
func searchPriors() []string {
	return slices.DeleteFunc(predict.Names(), func(n string) bool { return n == "uniform" })
}

// searchResult is one snapshot of a run, with what the UI needs to show it.
type searchResult struct {
	mcts.Snapshot
	node   *game.Node
	key    game.Key // the node's position when searched: a setup edit changes it, not the node
	size   int
	toPlay board.Color
}

// searchView is the Search tab and the runner it drives, all on the Fyne
// goroutine.
type searchView struct {
	tabBase
	opts   mcts.Options // of the runner, made at the first start; tests shrink them
	runner *mcts.Runner

	running bool
	node    *game.Node    // the position of the current (or last) run
	key     game.Key      // and that position's key, which a setup edit of node changes
	size    int           // its board's
	toPlay  board.Color   // its side to move
	result  *searchResult // the last snapshot of node's run
	shown   []mcts.Candidate
	drawn   *goban.Search // on the boards now; nil for none

	// Where the pointer is: over a board's point, or over a row of the
	// table. The variation shown follows whatever candidate lies there now,
	// as snapshots reorder the candidates under a resting pointer.
	hoverPoint   goban.Point
	hoverOnBoard bool
	hoverRowAt   int // -1: off the rows

	box      fyne.CanvasObject
	prior    *widget.Select // the predictor the search takes its prior from
	startB   *widget.Button
	stopB    *widget.Button
	progress *widget.Label // playouts, rate, time
	summary  *widget.Label // side to move, best move
	head     *searchRow
	rows     []*searchRow
}

func newSearchTab(wb *Workbench) tab {
	sv := &searchView{tabBase: tabBase{wb: wb, name: tabSearch, title: "Search"}, hoverRowAt: -1}
	priors := searchPriors()
	prior := wb.opts.Preferences.StringWithFallback(prefSearchPrior, mcts.DefaultPriorName)
	if !slices.Contains(priors, prior) {
		prior = mcts.DefaultPriorName
	}
	sv.opts = searchOptions(prior)
	sv.prior = widget.NewSelect(priors, nil)
	sv.prior.SetSelected(prior)
	sv.prior.OnChanged = sv.setPrior
	sv.startB = widget.NewButton("Start", sv.start)
	sv.startB.Importance = widget.HighImportance
	sv.stopB = widget.NewButton("Stop", sv.cancel)
	line := func(bold bool) *widget.Label {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		l.TextStyle.Bold = bold
		return l
	}
	sv.progress, sv.summary = line(false), line(true)
	sv.head = newSearchRow(sv, -1)
	sv.head.set([]string{"Move", "Visits", "Win", "Prior", "Variation"}, false, false)
	list := []fyne.CanvasObject{sv.head}
	for i := range searchShown {
		r := newSearchRow(sv, i)
		sv.rows = append(sv.rows, r)
		list = append(list, r)
	}
	top := container.NewVBox(
		container.NewBorder(nil, nil, container.NewHBox(sv.startB, sv.stopB), nil, sv.progress),
		container.NewBorder(nil, nil, widget.NewLabel("Prior"), nil, sv.prior),
		sv.summary)
	sv.box = container.NewBorder(top, nil, nil, nil, container.NewVScroll(container.NewVBox(list...)))
	sv.update()
	return sv
}

func (sv *searchView) content() fyne.CanvasObject { return sv.box }

func (sv *searchView) layer() (goban.Layer, int) {
	if sv.drawn == nil {
		return nil, searchDepth // a nil *goban.Search would not be a nil Layer
	}
	return sv.drawn, searchDepth
}

// start searches the current position.
func (sv *searchView) start() {
	if sv.running {
		return
	}
	c := sv.wb.doc.cursor
	node, pos := c.Node(), c.Position()
	if sv.result != nil && !sv.showing(sv.result.node, sv.result.key) {
		sv.result = nil
	}
	if sv.runner == nil {
		sv.runner = mcts.NewRunner(sv.opts, func() { sv.wb.opts.OnUI(sv.flush) })
	}
	sv.node, sv.key, sv.size, sv.toPlay, sv.running = node, pos.Key(), pos.Board.Size(), pos.ToPlay, true
	sv.runner.Start(context.Background(), pos)
	sv.update()
	if cv := sv.wb.win.Canvas(); cv != nil {
		cv.Unfocus() // keep the arrow keys for navigation
	}
}

// setPrior makes the next run search with the prior of the named
// predictor. The runner goes, and its tree with it: the tree's priors are
// the old predictor's.
func (sv *searchView) setPrior(name string) {
	sv.wb.opts.Preferences.SetString(prefSearchPrior, name)
	if sv.runner != nil {
		sv.runner.Discard()
		sv.runner, sv.running = nil, false
	}
	sv.opts.NewPrior = searchOptions(name).NewPrior
	sv.update()
	if cv := sv.wb.win.Canvas(); cv != nil {
		cv.Unfocus()
	}
}

// predictorsChanged offers a predictor loaded from a model file as a prior.
func (sv *searchView) predictorsChanged() { sv.prior.SetOptions(searchPriors()) }

// cancel ends the current run without waiting for it; its final snapshot
// comes as the others do, and stays on show.
func (sv *searchView) cancel() {
	if sv.running {
		sv.runner.Cancel()
		sv.running = false
	}
	sv.update()
	if cv := sv.wb.win.Canvas(); cv != nil {
		cv.Unfocus()
	}
}

// navigated stops the run when the position shown is no longer the one
// searched (navigation, a move played, another file). Its snapshots are
// dropped from then on; the last one shown comes back if the user returns.
func (sv *searchView) navigated() {
	if sv.running && !sv.showing(sv.node, sv.key) {
		sv.drop()
	}
	sv.update()
}

// stop ends the run and waits for it, for Workbench.Stop.
func (sv *searchView) stop() {
	if sv.runner != nil {
		sv.drop()
		sv.runner.Stop()
	}
}

// drop ends the run without waiting for it and drops its snapshots, of a
// position left.
func (sv *searchView) drop() {
	sv.runner.Discard()
	sv.running = false
}

// flush shows the runner's newest snapshot, on the Fyne goroutine.
func (sv *searchView) flush() {
	s, ok := sv.runner.Take()
	if !ok {
		return
	}
	sv.result = &searchResult{Snapshot: s, node: sv.node, key: sv.key, size: sv.size, toPlay: sv.toPlay}
	if s.Final {
		sv.running = false
	}
	if s.Err != nil {
		sv.wb.setStatus("search: %v", s.Err)
	}
	sv.update()
}

// current is the snapshot of the position shown, or nil.
func (sv *searchView) current() *searchResult {
	if r := sv.result; r != nil && sv.showing(r.node, r.key) && r.Err == nil {
		return r
	}
	return nil
}

// showing reports whether the board shows node's position as it was when
// its key was taken.
func (sv *searchView) showing(node *game.Node, key game.Key) bool {
	c := sv.wb.doc.cursor
	return node == c.Node() && key == c.Position().Key()
}

// update shows the state of the search: the buttons, the progress and
// summary lines, the table and the boards' layer.
func (sv *searchView) update() {
	enable(sv.startB, !sv.running)
	enable(sv.stopB, sv.running)
	r := sv.current()
	sv.shown = sv.shown[:0]
	if r != nil {
		sv.shown = append(sv.shown, r.Candidates[:min(len(r.Candidates), searchShown)]...)
	}
	var progress, summary string
	switch {
	case sv.result != nil && sv.result.Err != nil && sv.showing(sv.result.node, sv.result.key):
		progress = "Search failed: " + sv.result.Err.Error()
	case r == nil && sv.running:
		progress = "Searching…"
	case r == nil:
		progress = "Start searches this position with Monte Carlo tree search."
	default:
		state := "Stopped"
		if sv.running {
			state = "Searching"
		} else if r.Final && r.Playouts >= sv.opts.Playouts && sv.opts.Playouts > 0 {
			state = "Done"
		}
		progress = fmt.Sprintf("%s · %s playouts · %s/s · %s", state, boardimage.Thousands(r.Playouts), boardimage.Thousands(rate(r.Playouts, r.Elapsed)),
			r.Elapsed.Round(100*time.Millisecond))
		summary = fmt.Sprintf("%s to play", colorName(r.toPlay))
		if len(r.Candidates) > 0 {
			best := r.Candidates[0]
			for _, c := range r.Candidates {
				if c.Move == r.Best {
					best = c
				}
			}
			summary += fmt.Sprintf(" · best %s, wins %s", best.Move.GTP(r.size), percentWhole(best.WinRate))
		}
	}
	setText(sv.progress, progress)
	setText(sv.summary, summary)
	pv := sv.pvMove()
	for i, row := range sv.rows {
		if r == nil || i >= len(sv.shown) {
			row.set(nil, false, false)
			continue
		}
		c := sv.shown[i]
		row.set([]string{c.Move.GTP(r.size), boardimage.Thousands(c.Visits), percent(c.WinRate), percent(c.Prior), pvText(c.PV, r.size)},
			c.Move == r.Best, c.Move == pv)
	}
	sv.draw()
}

// pvMove is the candidate under the pointer, whose variation is shown, or
// board.NoPoint.
func (sv *searchView) pvMove() board.Point {
	if i := sv.hoverRowAt; i >= 0 && i < len(sv.shown) {
		return sv.shown[i].Move
	}
	if sv.hoverOnBoard {
		p := board.At(sv.hoverPoint.X, sv.hoverPoint.Y)
		for _, c := range sv.shown {
			if c.Move == p {
				return p
			}
		}
	}
	return board.NoPoint
}

// draw puts the search layer on the boards: the candidates, or the
// variation of the one hovered.
func (sv *searchView) draw() {
	r := sv.current()
	if r == nil {
		if sv.drawn != nil {
			sv.setLayer(nil)
		}
		return
	}
	l := &goban.Search{Size: r.size, ToPlay: goban.Black}
	if r.toPlay == board.White {
		l.ToPlay = goban.White
	}
	pv := sv.pvMove()
	for _, c := range sv.shown {
		if c.Move == pv {
			for _, p := range c.PV {
				l.PV = append(l.PV, goPoint(p))
			}
		}
		if c.Move != board.Pass {
			l.Moves = append(l.Moves, goban.SearchMove{Point: goPoint(c.Move), Visits: c.Visits, WinRate: c.WinRate, Best: c.Move == r.Best})
		}
	}
	sv.setLayer(l)
}

func (sv *searchView) setLayer(l *goban.Search) {
	sv.drawn = l
	sv.wb.showLayers()
}

// hovered follows the pointer over a board: on a candidate, its variation.
func (sv *searchView) hovered(_ int, p goban.Point, inside bool) {
	before := sv.pvMove()
	sv.hoverPoint, sv.hoverOnBoard = p, inside
	if inside {
		sv.hoverRowAt = -1
	}
	if sv.pvMove() != before {
		sv.update()
	}
}

// hoverRow follows the pointer over the table's row i (-1: off the rows).
func (sv *searchView) hoverRow(i int) {
	before := sv.pvMove()
	sv.hoverRowAt = i
	if i >= 0 {
		sv.hoverOnBoard = false
	}
	if sv.pvMove() != before {
		sv.update()
	}
}

// goPoint is p on the board widget; a pass lies off the board.
func goPoint(p board.Point) goban.Point {
	if p == board.Pass || p == board.NoPoint {
		return goban.Point{X: -1, Y: -1}
	}
	x, y := p.XY()
	return goban.Point{X: x, Y: y}
}

// pvText is the first moves of a variation: "Q16 R14 P17 …".
func pvText(pv []board.Point, size int) string {
	parts := make([]string, 0, searchPVShown+1)
	for _, p := range pv[:min(len(pv), searchPVShown)] {
		parts = append(parts, p.GTP(size))
	}
	if len(pv) > searchPVShown {
		parts = append(parts, "…")
	}
	return strings.Join(parts, " ")
}

// rate is n per second of d.
func rate(n int, d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(float64(n) / d.Seconds())
}

func enable(w fyne.Disableable, on bool) {
	if on && w.Disabled() {
		w.Enable()
	} else if !on && !w.Disabled() {
		w.Disable()
	}
}

// searchRow is a line of the candidates table. It is hoverable, so that
// pointing at a row shows the candidate's variation on the boards.
type searchRow struct {
	widget.BaseWidget
	sv    *searchView
	index int // -1: the header
	bg    *canvas.Rectangle
	cells []*widget.Label
	best  bool
}

// searchColumns are the widths of the table's columns, as shares of its
// width: the variation takes what the numbers leave.
var searchColumns = []float32{0.13, 0.16, 0.14, 0.14, 0.43}

func newSearchRow(sv *searchView, index int) *searchRow {
	r := &searchRow{sv: sv, index: index, bg: canvas.NewRectangle(color.Transparent)}
	for range searchColumns {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		l.TextStyle.Bold = index < 0
		r.cells = append(r.cells, l)
	}
	r.ExtendBaseWidget(r)
	return r
}

// set writes the row's cells (nil: an empty row); best marks the move the
// search would play, hovered the one whose variation the boards show.
func (r *searchRow) set(cells []string, best, hovered bool) {
	for i, l := range r.cells {
		text := ""
		if i < len(cells) {
			text = cells[i]
		}
		if l.TextStyle.Bold != (best || r.index < 0) {
			l.TextStyle.Bold = best || r.index < 0
			l.Refresh()
		}
		setText(l, text)
	}
	r.best = best
	var c color.Color = color.Transparent
	switch {
	case hovered:
		c = color.NRGBA{R: 128, G: 128, B: 128, A: 60}
	case best:
		b := goban.BestColor
		c = color.NRGBA{R: b.R, G: b.G, B: b.B, A: 48}
	}
	if r.bg.FillColor != c {
		r.bg.FillColor = c
		r.bg.Refresh()
	}
}

// CreateRenderer implements fyne.Widget.
func (r *searchRow) CreateRenderer() fyne.WidgetRenderer {
	objs := make([]fyne.CanvasObject, len(r.cells))
	for i, l := range r.cells {
		objs[i] = l
	}
	return widget.NewSimpleRenderer(container.NewStack(r.bg, container.New(columnsLayout(searchColumns), objs...)))
}

// MouseIn implements desktop.Hoverable.
func (r *searchRow) MouseIn(*desktop.MouseEvent) {
	if r.index >= 0 {
		r.sv.hoverRow(r.index)
	}
}

// MouseMoved implements desktop.Hoverable.
func (r *searchRow) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (r *searchRow) MouseOut() {
	if r.index >= 0 {
		r.sv.hoverRow(-1)
	}
}

// columnsLayout lays objects out side by side, each taking its share of the
// width, so that the table's columns line up from row to row.
type columnsLayout []float32

// Layout implements fyne.Layout.
func (c columnsLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := size.Width * c[i]
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

// MinSize implements fyne.Layout.
func (c columnsLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s.Width += m.Width
		s.Height = max(s.Height, m.Height)
	}
	return s
}
