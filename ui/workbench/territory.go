package workbench

import (
	"fmt"
	"math"
	"slices"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/territory"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// The Territory tab turns on a board layer with the expected final owner
// of every point (Stern ch. 5), and shows the expected area score and the
// win probability (§5.1.1) and, for the stone under the pointer, the
// probability that its chain lives (§5.1.3). "Show a sample" draws one
// Swendsen-Wang state with its bonds instead (Fig. 5.6). The estimates are
// analysis/live's engine tasks, run with the predictors' and cancelled,
// cached and delivered the same way; this file draws them.

// tabTerritory is the saved name of the Territory tab.
const tabTerritory = "territory"

// territoryDepth puts the territory under the heat map.
const territoryDepth = -1

// Preference keys of the territory section.
const (
	prefTerritory       = "territory"
	prefTerritoryModel  = "territory_model"
	prefTerritoryMethod = "territory_method"
	prefTerritoryStyle  = "territory_style"
)

// Styles offered by the panel.
var (
	territoryStyleNames = []string{"Squares", "Shading"}
	territoryStyles     = []goban.TerritoryStyle{goban.TerritorySquares, goban.TerritoryShading}
)

// territorySettings are the territory section's choices; they persist in
// the preferences like the predictor panel's.
type territorySettings struct {
	on     bool // the overlay is shown and estimates run
	model  string
	method string // ignored by mc
	style  goban.TerritoryStyle
}

// territoryModels lists the models that can run here: those with a model
// (boltzmann12 and boltzmann-lib need an embedded file) and mc.
func territoryModels() []string {
	var ok []string
	for _, k := range territory.EstimatorKinds {
		if _, err := territory.NewEstimator(k, territory.MethodSW); err == nil {
			ok = append(ok, k.String())
		}
	}
	return ok
}

// loadTerritorySettings reads the saved settings, replacing any that no
// longer make sense by the defaults.
func loadTerritorySettings(p fyne.Preferences, models []string) territorySettings {
	s := territorySettings{
		on:     p.Bool(prefTerritory),
		model:  p.StringWithFallback(prefTerritoryModel, live.DefaultTerritoryModel),
		method: p.StringWithFallback(prefTerritoryMethod, live.DefaultTerritoryMethod),
		style:  goban.TerritorySquares,
	}
	if !slices.Contains(models, s.model) {
		s.model = live.DefaultTerritoryModel
	}
	if !slices.Contains(territory.Names(territory.Methods), s.method) {
		s.method = live.DefaultTerritoryMethod
	}
	if i := p.Int(prefTerritoryStyle); i >= 0 && i < len(territoryStyles) {
		s.style = territoryStyles[i]
	}
	return s
}

func (s *territorySettings) save(p fyne.Preferences) {
	p.SetBool(prefTerritory, s.on)
	p.SetString(prefTerritoryModel, s.model)
	p.SetString(prefTerritoryMethod, s.method)
	p.SetInt(prefTerritoryStyle, slices.Index(territoryStyles, s.style))
}

// territoryView is the Territory tab and what it draws on the boards.
type territoryView struct {
	tabBase
	s    territorySettings
	live live.Territory

	shown    *live.Ownership // the last estimate delivered; kept across navigation
	node     *game.Node      // the node shown was computed for
	err      error           // the last estimate failed
	score    *live.ScoreResult
	scoreFor *game.Node

	// The sample asked for, for sampleFor, and the one delivered.
	seed      uint64
	sampleFor *game.Node
	sample    *live.Sample

	hoverPoint  goban.Point
	hoverInside bool

	drawn    goban.Layer // on the boards now
	layerKey layerKey

	box     fyne.CanvasObject // the content of the Territory tab
	on      *widget.Check
	model   *widget.Select
	method  *widget.Select
	style   *widget.RadioGroup
	sampleB *widget.Button
	meanB   *widget.Button
	summary *widget.Label // expected score
	win     *widget.Label // win probability
	safety  *widget.Label // the point under the pointer

}

// layerKey is what the layer on the boards was made from.
type layerKey struct {
	shown  *live.Ownership
	sample *live.Sample
	node   *game.Node
	style  goban.TerritoryStyle
	on     bool
}

func newTerritoryTab(wb *Workbench) tab {
	tv := &territoryView{tabBase: tabBase{wb: wb, name: tabTerritory, title: "Territory"}}
	models := territoryModels()
	tv.s = loadTerritorySettings(wb.opts.Preferences, models)
	changed := func(reanalyze bool) {
		tv.s.save(wb.opts.Preferences)
		tv.enable()
		if reanalyze {
			wb.analyze()
		}
		tv.render()
		if c := wb.win.Canvas(); c != nil {
			c.Unfocus() // keep the arrow keys for navigation
		}
	}
	tv.on = widget.NewCheck("Show on the board", nil)
	tv.on.SetChecked(tv.s.on)
	tv.on.OnChanged = func(on bool) { tv.s.on = on; changed(true) }
	tv.model = widget.NewSelect(models, nil)
	tv.model.SetSelected(tv.s.model)
	tv.model.OnChanged = func(v string) { tv.s.model = v; changed(true) }
	tv.method = widget.NewSelect(territory.Names(territory.Methods), nil)
	tv.method.SetSelected(tv.s.method)
	tv.method.OnChanged = func(v string) { tv.s.method = v; changed(true) }
	tv.style = widget.NewRadioGroup(territoryStyleNames, nil)
	tv.style.Horizontal = true
	tv.style.Required = true
	tv.style.SetSelected(territoryStyleNames[slices.Index(territoryStyles, tv.s.style)])
	tv.style.OnChanged = func(v string) {
		tv.s.style = territoryStyles[slices.Index(territoryStyleNames, v)]
		changed(false)
	}
	tv.sampleB = widget.NewButton("Show a sample", func() { tv.showSample(); changed(true) })
	tv.meanB = widget.NewButton("Mean", func() { tv.sampleFor, tv.sample = nil, nil; changed(false) })
	// One line each, truncated rather than wrapped, so that the texts,
	// which change on every move and hover, never move the controls.
	line := func(bold bool) *widget.Label {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		l.TextStyle.Bold = bold
		return l
	}
	tv.summary, tv.win, tv.safety = line(true), line(true), line(false)
	// A tab of its own: the column above the tabs has no height to spare,
	// and the overlay stays on the board whichever tab is shown.
	form := container.New(layout.NewFormLayout(),
		widget.NewLabel("Territory"), tv.on,
		widget.NewLabel("Model"), container.NewGridWithColumns(2, tv.model, tv.method),
		widget.NewLabel("Style"), tv.style,
		widget.NewLabel("Sample"), container.NewHBox(tv.sampleB, tv.meanB),
	)
	tv.box = container.NewVScroll(container.NewVBox(form, widget.NewSeparator(), tv.summary, tv.win, tv.safety))
	tv.enable()
	return tv
}

func (tv *territoryView) content() fyne.CanvasObject { return tv.box }

func (tv *territoryView) layer() (goban.Layer, int) { return tv.drawn, territoryDepth }

// enable greys out the controls that do nothing with the current choices.
func (tv *territoryView) enable() {
	set := func(w fyne.Disableable, on bool) {
		if on && w.Disabled() {
			w.Enable()
		} else if !on && !w.Disabled() {
			w.Disable()
		}
	}
	sampling := tv.sampleShown()
	set(tv.model, tv.s.on)
	set(tv.method, tv.s.on && tv.s.model != territory.KindMC.String())
	set(tv.style, tv.s.on)
	// A sample needs a joint distribution with bonds: the Boltzmann models.
	set(tv.sampleB, tv.s.on && tv.s.model != territory.KindMC.String())
	set(tv.meanB, sampling)
	text := "Show a sample"
	if sampling {
		text = "Another sample"
	}
	if tv.sampleB.Text != text {
		tv.sampleB.SetText(text)
	}
}

// showSample asks for a new sample of the current position.
func (tv *territoryView) showSample() {
	tv.seed++
	tv.sampleFor = tv.wb.doc.cursor.Node()
}

// sampleShown reports whether the current position's sample is asked for.
func (tv *territoryView) sampleShown() bool {
	return tv.s.on && tv.sampleFor != nil && tv.sampleFor == tv.wb.doc.cursor.Node()
}

// tasks are the engine tasks of the territory section for the current
// position: the estimate and a sample when one is asked for, which the
// boards draw, and the score, which the tab writes. The analysis starts
// them with the predictors', so navigation cancels them all at once.
func (tv *territoryView) tasks(bool) (board, text []engine.Task) {
	if !tv.s.on {
		return nil, nil
	}
	node := tv.wb.doc.cursor.Node()
	model, method := tv.s.model, tv.s.method
	est := tv.live.EstimateTask(model, method, func(o *live.Ownership, err error) {
		tv.shown, tv.node, tv.err = o, node, err
		if err != nil {
			tv.wb.setStatus("territory: %v", err)
		}
		tv.render()
	})
	score := tv.live.ScoreTask(model, func(r *live.ScoreResult, err error) {
		if err == nil {
			tv.score, tv.scoreFor = r, node
			tv.render()
		}
	})
	board = []engine.Task{est}
	if tv.sampleShown() && model != territory.KindMC.String() {
		seed := tv.seed
		board = append(board, tv.live.SampleTask(model, method, seed, func(s *live.Sample, err error) {
			if err != nil {
				tv.wb.setStatus("territory sample: %v", err)
				return
			}
			if tv.sampleFor == node && seed == tv.seed {
				tv.sample = s
				tv.render()
			}
		}))
	}
	return board, []engine.Task{score}
}

// render puts the territory layer on the boards and writes the score and
// the hover line. The previous position's estimate stays until the new
// one arrives, as the heat map does, but marks no dead stones meanwhile.
func (tv *territoryView) render() {
	c := tv.wb.doc.cursor
	node := c.Node()
	if tv.sampleFor != nil && (tv.sampleFor != node || tv.s.model == territory.KindMC.String()) {
		tv.sampleFor, tv.sample = nil, nil // a sample belongs to its position and its model
	}
	tv.enable()
	key := layerKey{shown: tv.shown, node: node, style: tv.s.style, on: tv.s.on}
	if tv.sampleShown() && tv.sample != nil && tv.sample.Model == tv.s.model {
		key.sample = tv.sample
	}
	if key != tv.layerKey {
		tv.layerKey = key
		tv.drawn = tv.makeLayer(key)
		tv.wb.showLayers()
	}
	tv.showSummary()
	tv.showSafety()
}

// makeLayer builds the layer for key, with the stones now on the board.
func (tv *territoryView) makeLayer(key layerKey) goban.Layer {
	if !key.on {
		return nil
	}
	pos := tv.wb.doc.cursor.Position()
	stones := goban.FromBoard(&pos.Board, board.NoPoint).Stones
	if key.sample != nil {
		s := key.sample
		return &goban.TerritorySample{Size: s.Size, Owner: s.Owner, Right: s.Right, Down: s.Down, Stones: stones}
	}
	if key.shown == nil || key.shown.Size != pos.Board.Size() {
		return nil
	}
	return &goban.Territory{
		Size: key.shown.Size, Owner: key.shown.Mean, Stones: stones, Style: key.style,
		MarkDead: tv.node == key.node,
	}
}

// showSummary writes the expected score and the win probability.
func (tv *territoryView) showSummary() {
	node := tv.wb.doc.cursor.Node()
	var text, win string
	switch o := tv.shown; {
	case !tv.s.on:
		text = "Tick the box to estimate who owns each point."
	case tv.err != nil && tv.node == node:
		text = "Territory: " + tv.err.Error()
	case o == nil:
		text = "Estimating territory…"
	default:
		text = fmt.Sprintf("Expected score %s (area, komi %s)", scoreText(o.Score()), komiText(o.Komi))
		if r := tv.score; r != nil && r.Model == o.Model && tv.scoreFor == tv.node {
			win = fmt.Sprintf("%s · score spread ±%.0f over %d samples", winText(r.Estimate.PBlackWins), r.Estimate.StdDev, r.Estimate.Samples)
		}
	}
	setText(tv.summary, text)
	setText(tv.win, win)
}

// scoreText is a score as Go players write it: "B+12.5", "W+3.0", "even".
func scoreText(s float64) string {
	switch {
	case math.Abs(s) < 0.05:
		return "even"
	case s > 0:
		return fmt.Sprintf("B+%.1f", s)
	}
	return fmt.Sprintf("W+%.1f", -s)
}

func komiText(k float64) string { return fmt.Sprint(k) }

// winText names the side more likely to win and its probability.
func winText(pBlack float64) string {
	if pBlack >= 0.5 {
		return "Black wins " + percentWhole(pBlack)
	}
	return "White wins " + percentWhole(1-pBlack)
}

// percentWhole is a probability in whole percent, keeping "<1%" and ">99%"
// apart from certainty.
func percentWhole(p float64) string {
	switch v := 100 * p; {
	case v > 99 && v < 100:
		return ">99%"
	case v < 1 && v > 0:
		return "<1%"
	default:
		return fmt.Sprintf("%.0f%%", v)
	}
}

// hovered follows the pointer over board view for the safety line.
func (tv *territoryView) hovered(_ int, p goban.Point, inside bool) {
	tv.hoverPoint, tv.hoverInside = p, inside
	tv.showSafety()
}

// showSafety writes what the estimate says about the point under the
// pointer: for a stone, the probability that its chain lives (§5.1.3).
func (tv *territoryView) showSafety() {
	text := ""
	o := tv.shown
	c := tv.wb.doc.cursor
	pos := c.Position()
	switch {
	case !tv.s.on:
	case !tv.hoverInside && tv.sampleShown() && tv.sample != nil:
		text = fmt.Sprintf("Sample %d: bonded points were drawn as one (Stern Fig. 5.6)", tv.sample.Seed)
	case !tv.hoverInside:
		text = "Point at a stone for the chance that its chain lives."
	case o == nil || tv.node != c.Node() || o.Size != pos.Board.Size():
		text = "Estimating…"
	default:
		p := tv.hoverPoint
		i := p.Y*o.Size + p.X
		pt := board.At(p.X, p.Y)
		name := pt.GTP(o.Size)
		if col := pos.Board.At(pt); col == board.Black || col == board.White {
			text = fmt.Sprintf("%s chain at %s, %d stone%s: lives %s", colorName(col), name, o.Stones[i],
				plural(int(o.Stones[i])), percentWhole(o.Lives[i]))
		} else {
			text = fmt.Sprintf("%s: %s, E[s] = %+.2f", name, ownerText(o.Mean[i]), o.Mean[i])
		}
	}
	setText(tv.safety, text)
}

// ownerText says who is expected to own a point with E[s] = v.
func ownerText(v float64) string {
	p := (1 + v) / 2 // p(Black)
	switch {
	case p >= 0.5:
		return "Black's " + percentWhole(p)
	default:
		return "White's " + percentWhole(1-p)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
