package workbench

import (
	"context"
	"fmt"
	"image/color"
	"math"
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
// and its children, so starting again there goes on where it stopped. The
// runner is made with the user's choices (prior, rule, limit, ownership):
// a change of choice replaces it, and its tree. With Ownership ticked the
// search's own estimate is drawn as the Territory tab draws its own. The
// win-rate strip and "Search every move" are in searchstrip.go.

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

// Preference keys of the search's choices.
const (
	prefSearchPrior     = "search_prior"
	prefSearchSelection = "search_selection"
	prefSearchLimit     = "search_limit"
	prefSearchOwnership = "search_ownership"
)

// searchNoPrior is the prior choice of none: every move alike, as the
// uniform predictor would make them.
const searchNoPrior = "none"

// searchLimit is a limit of one search, as the Limit picker offers it.
type searchLimit struct {
	name     string
	playouts int // negative: no count
	time     time.Duration
}

// searchLimits are the limits offered, the last the default: until
// stopped, which is still bounded by searchPlayouts against a search
// forgotten in the background.
var searchLimits = []searchLimit{
	{"1,000 playouts", 1_000, 0},
	{"10,000 playouts", 10_000, 0},
	{"100,000 playouts", 100_000, 0},
	{"1 s a move", -1, time.Second},
	{"5 s a move", -1, 5 * time.Second},
	{"30 s a move", -1, 30 * time.Second},
	{"Until stopped", searchPlayouts, 0},
}

func searchLimitNames() []string {
	names := make([]string, len(searchLimits))
	for i, l := range searchLimits {
		names[i] = l.name
	}
	return names
}

// searchChoices are the user's choices of the search, saved in the
// preferences.
type searchChoices struct {
	prior     string // a predictor's name, or searchNoPrior
	selection mcts.Selection
	limit     searchLimit
	ownership bool // the search measures who owns each point, and the boards show it
}

// loadSearchChoices reads the saved choices, replacing any that is no
// longer offered (a predictor loaded from a file last time, a rule gone)
// by the default.
func loadSearchChoices(p fyne.Preferences) searchChoices {
	c := searchChoices{prior: p.StringWithFallback(prefSearchPrior, mcts.DefaultPriorName), selection: mcts.RAVE,
		limit: searchLimits[len(searchLimits)-1], ownership: p.Bool(prefSearchOwnership)}
	if !slices.Contains(searchPriors(), c.prior) {
		c.prior = mcts.DefaultPriorName
	}
	name := p.StringWithFallback(prefSearchSelection, c.selection.String())
	for _, s := range mcts.Selections() {
		if s.String() == name {
			c.selection = s
		}
	}
	name = p.String(prefSearchLimit)
	for _, l := range searchLimits {
		if l.name == name {
			c.limit = l
		}
	}
	return c
}

func (c *searchChoices) save(p fyne.Preferences) {
	p.SetString(prefSearchPrior, c.prior)
	p.SetString(prefSearchSelection, c.selection.String())
	p.SetString(prefSearchLimit, c.limit.name)
	p.SetBool(prefSearchOwnership, c.ownership)
}

// apply sets the options the choices make: the rest of o (threads, the
// playout policy, a test's seed) stays.
func (c *searchChoices) apply(o *mcts.Options) {
	o.Selection = c.selection
	o.Playouts, o.Time = c.limit.playouts, c.limit.time
	o.Ownership = c.ownership
	o.Prior, o.NewPrior = nil, nil
	if c.prior != searchNoPrior {
		name := c.prior
		o.NewPrior = func() (predict.Predictor, error) { return mcts.NewPrior(name) }
	}
}

// searchOptions are the search's options in the app: `aji gtp`'s defaults
// (the pattern playout policy; no progressive widening), on every core,
// with the user's choices of prior (as RAVE's progressive bias or PUCT's
// P, without its Monte Carlo owner feature), rule and limit.
func searchOptions(c searchChoices) mcts.Options {
	o := mcts.Options{
		Threads:  runtime.NumCPU(),
		Policy:   mcts.PolicyPattern,
		Widening: false,

		ProgressInterval: searchRefresh,
	}
	c.apply(&o)
	return o
}

// searchPriors are the priors offered: none, which is the uniform
// predictor, then every other predictor registered.
func searchPriors() []string {
	return append([]string{searchNoPrior}, slices.DeleteFunc(predict.Names(), func(n string) bool { return n == "uniform" })...)
}

// searchSelections are the names of the selection rules offered.
func searchSelections() []string {
	var names []string
	for _, s := range mcts.Selections() {
		names = append(names, s.String())
	}
	return names
}

// searchResult is one snapshot of a run, with what the UI needs to show it.
type searchResult struct {
	mcts.Snapshot
	node   *game.Node
	key    game.Key // the node's position when searched: a setup edit changes it, not the node
	size   int
	toPlay board.Color
}

// searchView is the Search tab and the runners it drives, all on the Fyne
// goroutine.
type searchView struct {
	tabBase
	choices searchChoices
	opts    mcts.Options // of the runner, made at the first start after a change of choice; tests shrink them
	runner  *mcts.Runner
	retired []<-chan struct{} // the Done of runners replaced while a run of theirs may still go on

	running bool
	node    *game.Node    // the position of the current (or last) run
	key     game.Key      // and that position's key, which a setup edit of node changes
	size    int           // its board's
	toPlay  board.Color   // its side to move
	result  *searchResult // the last snapshot of node's run
	shown   []mcts.Candidate
	drawn   *goban.Search    // on the boards now; nil for none
	owners  *goban.Territory // the search's ownership estimate on the boards; nil for none

	// Where the pointer is: over a board's point, or over a row of the
	// table. The variation shown follows whatever candidate lies there now,
	// as snapshots reorder the candidates under a resting pointer.
	hoverPoint   goban.Point
	hoverOnBoard bool
	hoverRowAt   int // -1: off the rows

	// The win-rate strip: each node's last search, of the game valuesOf.
	values   map[*game.Node]searchValue
	valuesOf *game.Game
	line     []*game.Node // the strip's nodes: the line shown when it was last drawn
	every    *searchEvery // the running "Search every move", or nil
	// everyPlayouts is the playouts of each search of "Search every move".
	everyPlayouts int
	everyNote     string // how the last "Search every move" ended, until the next start or move

	box       fyne.CanvasObject
	prior     *widget.Select // the predictor the search takes its prior from
	selection *widget.Select
	limit     *widget.Select
	ownership *widget.Check
	startB    *widget.Button
	stopB     *widget.Button
	everyB    *widget.Button
	progress  *widget.Label // playouts, rate, time
	summary   *widget.Label // side to move, best move
	strip     *searchStrip
	stripNote *widget.Label // the strip's value at the current move
	head      *searchRow
	rows      []*searchRow
}

// searchValue is what the strip keeps of a node's last search.
type searchValue struct {
	key      game.Key // the node's position when searched: a setup edit changes it
	black    float64  // the best move's win rate, for Black
	playouts int
}

func newSearchTab(wb *Workbench) tab {
	sv := &searchView{tabBase: tabBase{wb: wb, name: tabSearch, title: "Search"}, hoverRowAt: -1,
		values: map[*game.Node]searchValue{}, everyPlayouts: searchEveryPlayouts}
	sv.choices = loadSearchChoices(wb.opts.Preferences)
	sv.opts = searchOptions(sv.choices)
	sv.prior = widget.NewSelect(searchPriors(), nil)
	sv.prior.SetSelected(sv.choices.prior)
	sv.prior.OnChanged = func(v string) { sv.choices.prior = v; sv.remake() }
	sv.selection = widget.NewSelect(searchSelections(), nil)
	sv.selection.SetSelected(sv.choices.selection.String())
	sv.selection.OnChanged = func(v string) {
		for _, s := range mcts.Selections() {
			if s.String() == v {
				sv.choices.selection = s
			}
		}
		sv.remake()
	}
	sv.limit = widget.NewSelect(searchLimitNames(), nil)
	sv.limit.SetSelected(sv.choices.limit.name)
	sv.limit.OnChanged = func(v string) { sv.choices.limit = searchLimits[slices.Index(searchLimitNames(), v)]; sv.remake() }
	sv.ownership = widget.NewCheck("Ownership", nil)
	sv.ownership.SetChecked(sv.choices.ownership)
	sv.ownership.OnChanged = func(on bool) { sv.choices.ownership = on; sv.remake() }
	sv.startB = widget.NewButton("Start", sv.start)
	sv.startB.Importance = widget.HighImportance
	sv.stopB = widget.NewButton("Stop", sv.cancel)
	sv.everyB = widget.NewButton("Search every move", sv.searchEveryMove)
	line := func(bold bool) *widget.Label {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		l.TextStyle.Bold = bold
		return l
	}
	sv.progress, sv.summary, sv.stripNote = line(false), line(true), line(false)
	sv.strip = newSearchStrip(sv.pick)
	sv.head = newSearchRow(sv, -1)
	sv.head.set([]string{"Move", "Visits", "Win", "Prior", "Variation"}, false, false)
	list := []fyne.CanvasObject{sv.head}
	for i := range searchShown {
		r := newSearchRow(sv, i)
		sv.rows = append(sv.rows, r)
		list = append(list, r)
	}
	labeled := func(label string, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewBorder(nil, nil, widget.NewLabel(label), nil, o)
	}
	top := container.NewVBox(
		container.NewBorder(nil, nil, container.NewHBox(sv.startB, sv.stopB, sv.everyB), nil, sv.progress),
		container.NewGridWithColumns(2, labeled("Prior", sv.prior), labeled("Rule", sv.selection)),
		container.NewGridWithColumns(2, labeled("Limit", sv.limit), sv.ownership),
		sv.strip, sv.stripNote,
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

// underLayer is the search's ownership estimate, drawn as the Territory
// tab draws its own, at its depth.
func (sv *searchView) underLayer() (goban.Layer, int) {
	if sv.owners == nil {
		return nil, territoryDepth
	}
	return sv.owners, territoryDepth
}

// start searches the current position.
func (sv *searchView) start() {
	if sv.running || sv.every != nil {
		return
	}
	c := sv.wb.doc.cursor
	node, pos := c.Node(), c.Position()
	if sv.result != nil && !sv.showing(sv.result.node, sv.result.key) {
		sv.result = nil
	}
	if sv.runner == nil {
		var r *mcts.Runner
		r = mcts.NewRunner(sv.opts, func() { sv.wb.opts.OnUI(func() { sv.flush(r) }) })
		sv.runner = r
	}
	sv.node, sv.key, sv.size, sv.toPlay, sv.running = node, pos.Key(), pos.Board.Size(), pos.ToPlay, true
	sv.everyNote = ""
	sv.runner.Start(context.Background(), pos)
	sv.update()
	sv.unfocus()
}

// unfocus keeps the arrow keys for navigation after a click on a control.
func (sv *searchView) unfocus() {
	if cv := sv.wb.win.Canvas(); cv != nil {
		cv.Unfocus()
	}
}

// remake follows a change of choice: it is saved, the runner, made with
// the old options, goes (and its tree, whose statistics the old prior and
// rule gathered), and a running search starts again on the same position
// with the new options, as does a running "Search every move" from the
// move it had reached.
func (sv *searchView) remake() {
	sv.choices.save(sv.wb.opts.Preferences)
	sv.choices.apply(&sv.opts)
	restart := sv.running
	if sv.runner != nil {
		sv.runner.Discard()
		sv.retire(sv.runner.Done())
		sv.runner, sv.running = nil, false
	}
	if e := sv.every; e != nil {
		sv.dropEvery()
		sv.runEvery(e.nodes[e.searched:], e.positions[e.searched:])
	}
	if restart {
		sv.start()
	}
	sv.update()
	sv.unfocus()
}

// retire keeps done, a replaced runner's or "Search every move"'s, for
// stop to wait on, and forgets those already closed.
func (sv *searchView) retire(done <-chan struct{}) {
	sv.retired = slices.DeleteFunc(sv.retired, func(d <-chan struct{}) bool {
		select {
		case <-d:
			return true
		default:
			return false
		}
	})
	sv.retired = append(sv.retired, done)
}

// predictorsChanged offers a predictor loaded from a model file as a prior.
func (sv *searchView) predictorsChanged() { sv.prior.SetOptions(searchPriors()) }

// cancel ends the current run without waiting for it; its final snapshot
// comes as the others do, and stays on show. It ends a "Search every
// move" too.
func (sv *searchView) cancel() {
	if sv.running {
		sv.runner.Cancel()
		sv.running = false
	}
	if sv.every != nil {
		sv.every.cancel()
	}
	sv.update()
	sv.unfocus()
}

// navigated stops the run when the position shown is no longer the one
// searched (navigation, a move played, another file). Its snapshots are
// dropped from then on; the last one shown comes back if the user returns.
// Another game ends "Search every move" and clears the strip.
func (sv *searchView) navigated() {
	if sv.running && !sv.showing(sv.node, sv.key) {
		sv.drop()
	}
	c := sv.wb.doc.cursor
	if g := c.Game(); g != sv.valuesOf {
		if sv.every != nil {
			sv.dropEvery()
		}
		sv.valuesOf, sv.values = g, map[*game.Node]searchValue{}
	}
	if v, ok := sv.values[c.Node()]; ok && v.key != c.Position().Key() {
		delete(sv.values, c.Node()) // a setup edit changed the position searched
	}
	sv.everyNote = ""
	sv.update()
}

// deselected ends "Search every move" when the user leaves the tab.
func (sv *searchView) deselected() {
	if sv.every != nil {
		sv.every.cancel()
	}
}

// stop ends the runs and waits for them, for Workbench.Stop.
func (sv *searchView) stop() {
	if sv.runner != nil {
		sv.drop()
		sv.runner.Stop()
	}
	if sv.every != nil {
		sv.dropEvery()
	}
	for _, d := range sv.retired {
		<-d
	}
	sv.retired = nil
}

// drop ends the run without waiting for it and drops its snapshots, of a
// position left.
func (sv *searchView) drop() {
	sv.runner.Discard()
	sv.running = false
}

// flush shows runner r's newest snapshot, on the Fyne goroutine; r may
// have been replaced since it asked.
func (sv *searchView) flush(r *mcts.Runner) {
	if r != sv.runner {
		return
	}
	s, ok := r.Take()
	if !ok {
		return
	}
	sv.result = &searchResult{Snapshot: s, node: sv.node, key: sv.key, size: sv.size, toPlay: sv.toPlay}
	if s.Final {
		sv.running = false
	}
	if s.Err != nil {
		sv.wb.setStatus("search: %v", s.Err)
	} else {
		sv.remember(sv.node, sv.key, sv.toPlay, s.Result)
	}
	sv.update()
}

// remember keeps res, a search of node's position with key and toPlay to
// move, as the node's value on the strip: the best move's win rate for
// Black.
func (sv *searchView) remember(node *game.Node, key game.Key, toPlay board.Color, res mcts.Result) {
	if len(res.Candidates) == 0 || node == nil {
		return
	}
	best := res.Candidates[0]
	for _, c := range res.Candidates {
		if c.Move == res.Best {
			best = c
		}
	}
	w := best.WinRate
	if toPlay == board.White {
		w = 1 - w
	}
	sv.values[node] = searchValue{key: key, black: w, playouts: res.Playouts}
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
// summary lines, the strip, the table and the boards' layers.
func (sv *searchView) update() {
	enable(sv.startB, !sv.running && sv.every == nil)
	enable(sv.everyB, !sv.running && sv.every == nil)
	enable(sv.stopB, sv.running || sv.every != nil)
	r := sv.current()
	sv.shown = sv.shown[:0]
	if r != nil {
		sv.shown = append(sv.shown, r.Candidates[:min(len(r.Candidates), searchShown)]...)
	}
	var progress, summary string
	switch {
	case sv.every != nil:
		progress = sv.every.progress()
	case sv.everyNote != "" && r == nil:
		progress = sv.everyNote
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
		} else if r.Final && (r.Playouts >= sv.opts.Playouts && sv.opts.Playouts > 0 || sv.opts.Time > 0 && r.Elapsed >= sv.opts.Time) {
			state = "Done"
		}
		progress = fmt.Sprintf("%s · %s playouts · %s/s · %s", state, boardimage.Thousands(r.Playouts), boardimage.Thousands(rate(r.Playouts, r.Elapsed)),
			r.Elapsed.Round(100*time.Millisecond))
	}
	if r != nil {
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
	sv.showStrip()
	sv.draw()
}

// showStrip draws the line shown on the strip, each node with its last
// search's value, the current one marked.
func (sv *searchView) showStrip() {
	c := sv.wb.doc.cursor
	sv.line = c.Line()
	vals := make([]float64, len(sv.line))
	searched := 0
	for i, n := range sv.line {
		vals[i] = math.NaN()
		if v, ok := sv.values[n]; ok {
			vals[i] = v.black
			searched++
		}
	}
	sv.strip.set(vals, slices.Index(sv.line, c.Node()))
	note := "Black's win rate by the search, at each move searched: click to go there."
	if v, ok := sv.values[c.Node()]; ok {
		note = fmt.Sprintf("Move %d: Black wins %s after %s playouts · %d of %d moves searched", c.Position().MoveNumber,
			percentWhole(v.black), boardimage.Thousands(v.playouts), searched, len(sv.line))
	} else if searched > 0 {
		note = fmt.Sprintf("Move %d not searched · %d of %d moves searched", c.Position().MoveNumber, searched, len(sv.line))
	}
	setText(sv.stripNote, note)
}

// pick goes to the node of the strip's point i.
func (sv *searchView) pick(i int) {
	if i >= 0 && i < len(sv.line) {
		sv.wb.jump(sv.line[i])
	}
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

// draw puts the search's layers on the boards: the candidates, or the
// variation of the one hovered, and, when asked for, its ownership
// estimate.
func (sv *searchView) draw() {
	r := sv.current()
	owners := sv.ownersLayer(r)
	if r == nil {
		if sv.drawn != nil || sv.owners != owners {
			sv.setLayers(nil, owners)
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
	sv.setLayers(l, owners)
}

// ownersLayer is the ownership layer of r: the one on the boards when it
// shows the same estimate, a new one for a new estimate, nil when there
// is none or the overlay is off. Its style is the Territory tab's.
func (sv *searchView) ownersLayer(r *searchResult) *goban.Territory {
	if r == nil || !sv.choices.ownership || len(r.Ownership) != r.size*r.size {
		return nil
	}
	if o := sv.owners; o != nil && len(o.Owner) > 0 && &o.Owner[0] == &r.Ownership[0] {
		return o
	}
	pos := sv.wb.doc.cursor.Position()
	style := goban.TerritorySquares
	if tv, ok := sv.wb.tabNamed(tabTerritory).(*territoryView); ok {
		style = tv.s.style
	}
	return &goban.Territory{Size: r.size, Owner: r.Ownership, Stones: goban.FromBoard(&pos.Board, board.NoPoint).Stones,
		Style: style, MarkDead: true}
}

func (sv *searchView) setLayers(l *goban.Search, owners *goban.Territory) {
	sv.drawn, sv.owners = l, owners
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
