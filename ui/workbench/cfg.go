package workbench

import (
	"fmt"
	"slices"
	"strconv"

	"aji/analysis/board"
	"aji/analysis/cfg"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The CFG tab draws the common fate graph of the position over the board
// (Graf & Platzner §III-A): chains as nodes, empty points as squares, edges
// as lines, every vertex in the colour of its neighbourhood-hash label after
// 0, 1 or 2 iterations of Algorithm 1, the labels' low bytes on demand. The
// point under the pointer has its walks of length two — the path features
// of a move there — drawn bold and listed with the γ the cfg predictor gave
// each feature. Building the graph takes ~30 µs on 19x19, so it is built on
// the UI goroutine; only the γ, which need the predictor's model, come
// from an engine task (live.Predictors.PathGammas).

// cfgMaxIterations is the most iterations the tab offers; the graph is
// always built with this many, so switching costs no rebuild.
const cfgMaxIterations = 2

// cfgPredictor is the registry name of the predictor whose γ the tab shows
// (a variable for the tests, which register a stand-in).
var cfgPredictor = "cfg"

// tabCFG is the saved name of the CFG tab.
const tabCFG = "cfg"

// cfgDepth puts the graph above the labels, under the search's moves.
const cfgDepth = 1

// Preference keys of the CFG tab.
const (
	prefCFG           = "cfg"
	prefCFGIterations = "cfg_iterations"
	prefCFGLabels     = "cfg_labels"
)

// cfgSettings are the CFG tab's choices, saved in the preferences.
type cfgSettings struct {
	on     bool // the graph is drawn
	iters  int  // labels after this many iterations, 0..cfgMaxIterations
	labels bool // the labels' low bytes are written on the vertices
}

func loadCFGSettings(p fyne.Preferences) cfgSettings {
	s := cfgSettings{
		on:     p.Bool(prefCFG),
		iters:  p.IntWithFallback(prefCFGIterations, cfg.DefaultIterations),
		labels: p.Bool(prefCFGLabels),
	}
	if s.iters < 0 || s.iters > cfgMaxIterations {
		s.iters = cfg.DefaultIterations
	}
	return s
}

func (s *cfgSettings) save(p fyne.Preferences) {
	p.SetBool(prefCFG, s.on)
	p.SetInt(prefCFGIterations, s.iters)
	p.SetBool(prefCFGLabels, s.labels)
}

// cfgView is the CFG tab and the graph it draws.
type cfgView struct {
	tabBase
	s cfgSettings

	g        cfg.Graph  // the graph of graphFor, with labels up to cfgMaxIterations
	graphFor *game.Node // nil: not built
	plain    goban.CFG  // g in the board's terms with the labels shown, without walks
	plainKey cfgPlainKey

	focus    board.Point // the point whose walks are shown; NoPoint for none
	walks    []cfg.Path  // the walks from focus (empty when focus is a stone)
	layerKey cfgLayerKey
	drawn    goban.Layer // on the boards now

	gammas    *live.PathGammas // the last γ delivered
	gammasFor *game.Node
	gammaErr  error

	box     fyne.CanvasObject // the content of the tab
	on      *widget.Check
	iters   *widget.RadioGroup
	labels  *widget.Check
	summary *widget.Label // the graph's size
	point   *widget.Label // the point under the pointer
	note    *widget.Label // where the γ come from
	table   *pathTable
}

// cfgPlainKey is what plain was made from.
type cfgPlainKey struct {
	node   *game.Node
	iters  int
	labels bool
}

// cfgLayerKey is what the layer on the boards was made from.
type cfgLayerKey struct {
	plain cfgPlainKey
	focus board.Point
	on    bool
}

// Choices of iterations, as the radio group shows them.
var cfgIterationNames = []string{"0", "1", "2"}

func newCFGTab(wb *Workbench) tab {
	cv := &cfgView{tabBase: tabBase{wb: wb, name: tabCFG, title: "CFG"}, focus: board.NoPoint}
	cv.s = loadCFGSettings(wb.opts.Preferences)
	changed := func(reanalyze bool) {
		cv.s.save(wb.opts.Preferences)
		cv.enable()
		if reanalyze {
			wb.analyze()
		}
		cv.render()
		if c := wb.win.Canvas(); c != nil {
			c.Unfocus() // keep the arrow keys for navigation
		}
	}
	cv.on = widget.NewCheck("Show on the board", nil)
	cv.on.SetChecked(cv.s.on)
	cv.on.OnChanged = func(on bool) { cv.s.on = on; changed(true) }
	cv.iters = widget.NewRadioGroup(cfgIterationNames, nil)
	cv.iters.Horizontal = true
	cv.iters.Required = true
	cv.iters.SetSelected(strconv.Itoa(cv.s.iters))
	cv.iters.OnChanged = func(v string) {
		if k, err := strconv.Atoi(v); err == nil {
			cv.s.iters = k
			changed(false)
		}
	}
	cv.labels = widget.NewCheck("Labels (low 8 bits)", nil)
	cv.labels.SetChecked(cv.s.labels)
	cv.labels.OnChanged = func(on bool) { cv.s.labels = on; changed(false) }
	line := func(bold bool) *widget.Label {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		l.TextStyle.Bold = bold
		return l
	}
	cv.summary, cv.point, cv.note = line(false), line(true), line(false)
	cv.table = newPathTable()
	// Two rows of controls leave the column's height to the walks.
	form := container.New(layout.NewFormLayout(),
		widget.NewLabel("Graph"), container.NewHBox(cv.on, cv.labels),
		widget.NewLabel("Iterations"), cv.iters,
	)
	// The table's text has no padding of its own: indent it like the labels'.
	pad := theme.InnerPadding()
	table := container.New(layout.NewCustomPaddedLayout(0, pad, pad, pad), cv.table)
	cv.box = container.NewVScroll(container.NewVBox(form, widget.NewSeparator(), cv.summary, cv.point, cv.note, table))
	cv.enable()
	return cv
}

func (cv *cfgView) content() fyne.CanvasObject { return cv.box }

func (cv *cfgView) layer() (goban.Layer, int) { return cv.drawn, cfgDepth }

// enable greys out the controls that do nothing while the graph is off.
func (cv *cfgView) enable() {
	for _, w := range []fyne.Disableable{cv.iters, cv.labels} {
		if cv.s.on && w.Disabled() {
			w.Enable()
		} else if !cv.s.on && !w.Disabled() {
			w.Disable()
		}
	}
}

// hasCFGPredictor reports whether a predictor named cfgPredictor is
// registered.
func hasCFGPredictor() bool { return slices.Contains(predict.Names(), cfgPredictor) }

// tasks are the CFG tab's engine tasks for the current position: the γ of
// its path features, while the graph is shown and a cfg predictor exists.
func (cv *cfgView) tasks(bool) (_, text []engine.Task) {
	if !cv.s.on || !hasCFGPredictor() {
		return nil, nil
	}
	node, name := cv.wb.doc.cursor.Node(), cfgPredictor
	return nil, []engine.Task{cv.wb.an.PathGammasTask(name, func(pg *live.PathGammas, err error) {
		cv.gammas, cv.gammasFor, cv.gammaErr = pg, node, err
		cv.showPoint()
	})}
}

// graph returns the graph of the current position, building it when the
// position changed.
func (cv *cfgView) graph() *cfg.Graph {
	c := cv.wb.doc.cursor
	if node := c.Node(); cv.graphFor != node {
		pos := c.Position()
		cv.g.Build(&pos.Board, pos.ToPlay, cfgMaxIterations)
		cv.graphFor = node
	}
	return &cv.g
}

// render puts the graph on the boards, with the walks of the point in
// focus, and writes the tab's texts.
func (cv *cfgView) render() {
	cv.enable()
	var g *cfg.Graph
	key := cfgLayerKey{on: cv.s.on, focus: board.NoPoint}
	if cv.s.on {
		g = cv.graph()
		key.plain = cfgPlainKey{node: cv.graphFor, iters: cv.s.iters, labels: cv.s.labels}
		key.focus = cv.focusPoint()
	}
	if key == cv.layerKey {
		return // the workbench redraws on every result; nothing here changed
	}
	cv.layerKey = key
	cv.drawn = nil
	cv.focus, cv.walks = key.focus, cv.walks[:0]
	if cv.s.on {
		if key.plain != cv.plainKey {
			cv.plainKey = key.plain
			cv.makePlain(g)
		}
		l := cv.plain // a copy sharing the vertices and edges, which never change
		if key.focus != board.NoPoint {
			l.Walks = cv.highlight(g, key.focus)
		}
		cv.drawn = &l
	}
	cv.wb.showLayers()
	cv.showSummary(g)
	cv.showPoint()
}

// makePlain converts g into the board's terms with the labels of the
// iterations chosen. The slices are new each time: layers already handed
// to the boards keep the old ones.
func (cv *cfgView) makePlain(g *cfg.Graph) {
	pic := live.GraphPicture(g, cv.s.iters)
	cv.plain = goban.CFG{Size: g.Size(), ShowLabels: cv.s.labels, Vertices: pic.Vertices, Edges: pic.Edges}
}

// widgetPoint converts a point of the rules engine to one of the board widget.
func widgetPoint(p board.Point) goban.Point {
	x, y := p.XY()
	return goban.Point{X: x, Y: y}
}

// focusPoint is the point whose walks are shown: the one under the
// pointer; once the pointer has left the boards, the last it rested on (as
// in the inspector, so that crossing the board on the way to the panel does
// not replace it); else none.
func (cv *cfgView) focusPoint() board.Point {
	h := &cv.wb.hover
	size := cv.wb.doc.cursor.Game().Size()
	p, ok := h.point, h.inside
	if !ok && h.hasRested {
		p, ok = h.rested, true
	}
	if !ok || p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size {
		return board.NoPoint
	}
	return board.At(p.X, p.Y)
}

// highlight returns the walks to draw bold for point p: the walks of length
// two from an empty point (cfg.Graph.Paths, kept in cv.walks for the
// table), or for a stone its chain's edges, as walks there and back.
func (cv *cfgView) highlight(g *cfg.Graph, p board.Point) [][3]int32 {
	v := g.VertexOf(p)
	if v == cfg.NoVertex {
		return nil
	}
	var out [][3]int32
	if g.Color(v) == board.Empty {
		cv.walks = g.Paths(p, cv.walks[:0])
		out = make([][3]int32, len(cv.walks))
		for i, w := range cv.walks {
			out[i] = [3]int32{int32(w[0]), int32(w[1]), int32(w[2])}
		}
		return out
	}
	for _, u := range g.Neighbours(v) {
		out = append(out, [3]int32{int32(v), int32(u), int32(v)})
	}
	return out
}

// hovered follows the pointer over board view. The workbench's hover state
// is up to date: hovered runs after the inspector's.
func (cv *cfgView) hovered(int, goban.Point, bool) {
	if cv.s.on {
		cv.render()
	}
}

// showSummary writes the size of the graph.
func (cv *cfgView) showSummary(g *cfg.Graph) {
	text := "Tick the box to draw the common fate graph."
	if g != nil {
		distinct := map[uint32]bool{}
		for v := range cfg.Vertex(g.NumVertices()) {
			distinct[g.Label(v, cv.s.iters)&0xff] = true
		}
		text = fmt.Sprintf("%d vertices, %d edges · %d label bytes after %d iteration%s",
			g.NumVertices(), g.NumEdges(), len(distinct), cv.s.iters, plural(cv.s.iters))
	}
	setText(cv.summary, text)
}

// showPoint writes the line about the point in focus, where the γ come
// from, and the table of its walks.
func (cv *cfgView) showPoint() {
	if !cv.s.on || cv.graphFor != cv.wb.doc.cursor.Node() {
		setText(cv.point, "")
		setText(cv.note, "")
		cv.table.set(nil)
		return
	}
	g := &cv.g
	k := cv.s.iters
	gammas, note := cv.gammaSource()
	setText(cv.note, note)
	p := cv.focus
	v := g.VertexOf(p)
	if v == cfg.NoVertex {
		setText(cv.point, "Point at an empty point for its walks.")
		cv.table.set(nil)
		return
	}
	name := p.GTP(g.Size())
	if c := g.Color(v); c != board.Empty {
		n := len(g.Points(v))
		setText(cv.point, fmt.Sprintf("%s chain at %s: %d stone%s, %d liberties, label %02x",
			colorName(c), name, n, plural(n), g.Liberties(v), g.Label(v, k)&0xff))
		cv.table.set(nil)
		return
	}
	rows := make([]pathRow, len(cv.walks))
	seen := map[uint32]bool{}
	for i, w := range cv.walks {
		f := g.PathLabel(w, k)
		r := &rows[i]
		r.walk = w
		r.feature = cfg.FeatureString(f)
		for j, u := range w {
			r.swatch[j] = goban.LabelColor(g.Label(u, k))
		}
		r.text = cv.vertexName(g, w[0]) + " → " + cv.vertexName(g, w[1]) + " → " + cv.vertexName(g, w[2])
		r.repeat = seen[f]
		seen[f] = true
		r.gamma = "—"
		if gammas != nil {
			if gamma, ok := gammas.Lookup(f); ok {
				r.gamma = fmt.Sprintf("%.2f", gamma)
			}
		}
	}
	setText(cv.point, fmt.Sprintf("%s: %d walks, %d path features", name, len(cv.walks), len(seen)))
	cv.table.set(rows)
}

// gammaSource returns the γ to show for the labels of the iterations
// chosen, nil when there are none, and a line saying why.
func (cv *cfgView) gammaSource() (*live.PathGammas, string) {
	pg := cv.gammas
	switch {
	case !hasCFGPredictor():
		return nil, "γ: no cfg predictor in this build"
	case cv.gammasFor != cv.wb.doc.cursor.Node():
		return nil, "γ: asking the cfg predictor…"
	case cv.gammaErr != nil:
		return nil, "γ: " + cv.gammaErr.Error()
	case pg.Unable:
		return nil, "γ: the cfg predictor has no path weights"
	case pg.Iters != cv.s.iters:
		return nil, fmt.Sprintf("γ: the cfg predictor's labels are after %d iteration%s", pg.Iters, plural(pg.Iters))
	}
	return pg, fmt.Sprintf("γ of the cfg predictor: %d of the position's features", len(pg.Labels))
}

// vertexName names a vertex in a walk: an empty point by itself, a chain
// by ● or ○ and its centre stone, with its size when it has more than one.
func (cv *cfgView) vertexName(g *cfg.Graph, v cfg.Vertex) string {
	name := g.Centre(v).GTP(g.Size())
	switch g.Color(v) {
	case board.Black:
		name = "●" + name
	case board.White:
		name = "○" + name
	default:
		return name
	}
	if n := len(g.Points(v)); n > 1 {
		name += "×" + strconv.Itoa(n)
	}
	return name
}
