package workbench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
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
// Swendsen-Wang state with its bonds instead (Fig. 5.6). Estimates run as
// engine tasks with the predictors' and are cancelled, cached and delivered
// the same way.

// Defaults. Swendsen-Wang is Stern's method for interactive use: its 3000
// sweeps take ~60 ms of CPU on a 19x19 game position here and stay within
// ~0.013 (mean) of exact inference, while loopy BP (~6 ms) is overconfident
// (§5.3.2, Fig. 5.8), Gibbs (~100 ms) mixes poorly and exact inference
// takes over a second. Boltzmann5 is the model that is always there:
// without an embedded model file it falls back to Stern's Table 5.1.
var (
	defaultTerritoryModel  = territory.KindBoltzmann5.String()
	defaultTerritoryMethod = territory.MethodSW.String()
)

// The score task draws scoreSamples Swendsen-Wang states of the model (a
// win probability with a standard error under 0.012), or plays as many
// playouts as mc's estimate does.
const scoreSamples = territory.DefaultScoreSamples

// sampleBurnin is how many Swendsen-Wang sweeps precede the sample shown:
// the estimator's own burn-in, ~2 ms on 19x19.
const sampleBurnin = territory.DefaultBurnin

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
		model:  p.StringWithFallback(prefTerritoryModel, defaultTerritoryModel),
		method: p.StringWithFallback(prefTerritoryMethod, defaultTerritoryMethod),
		style:  goban.TerritorySquares,
	}
	if !slices.Contains(models, s.model) {
		s.model = defaultTerritoryModel
	}
	if !slices.Contains(territory.Names(territory.Methods), s.method) {
		s.method = defaultTerritoryMethod
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

// ownership is one territory estimate of a position, already in the
// board's terms. Shared with the engine's cache: never modified after it
// is made.
type ownership struct {
	model, method string
	size          int
	komi          float64
	mean          []float64 // index y*size+x: E[s], +1 Black
	// lives is, on each stone, the probability that its chain lives
	// (territory.ChainSafety); NaN on empty points.
	lives  []float64
	stones []int16 // on each stone, its chain's number of stones
}

func (o *ownership) bytes() int { return 18*len(o.mean) + 128 }

// score is the expected area score by these marginals, komi included,
// positive when Black leads: u_score = Σ E[s_i] − komi (Stern §5.1.1).
func (o *ownership) score() float64 {
	s := -o.komi
	for _, v := range o.mean {
		s += v
	}
	return s
}

// scoreResult is the score task's result: the win probability and the
// spread of the score over sampled states.
type scoreResult struct {
	model string
	est   territory.ScoreEstimate
}

func (*scoreResult) bytes() int { return 96 }

// ownerSample is one Swendsen-Wang state with its bonds, shown by "show a
// sample". The layer's Stones are left nil: render adds the board's.
type ownerSample struct {
	model string
	seed  uint64
	layer goban.TerritorySample
}

func (s *ownerSample) bytes() int { return 3*len(s.layer.Owner) + 128 }

// estimators keeps territory estimators by model and method; each holds
// scratch for one goroutine at a time, so workers take one from a pool.
type estimators struct {
	mu    sync.Mutex
	pools map[string]*sync.Pool
}

// get takes an estimator from its pool, or makes one; put gives it back.
// For the score task (forScore) the samplers average no more sweeps than
// the samples it asks for.
func (es *estimators) get(model, method string, forScore bool) (e *territory.Estimator, put func(), err error) {
	key := fmt.Sprint(model, "/", method, "/", forScore)
	es.mu.Lock()
	if es.pools == nil {
		es.pools = map[string]*sync.Pool{}
	}
	pool := es.pools[key]
	if pool == nil {
		pool = new(sync.Pool)
		es.pools[key] = pool
	}
	es.mu.Unlock()
	e, _ = pool.Get().(*territory.Estimator)
	if e == nil {
		kind, m, err := territory.ParseEstimator(model, method)
		if err != nil {
			return nil, nil, err
		}
		if e, err = territory.NewEstimator(kind, m); err != nil {
			return nil, nil, err
		}
		if forScore {
			// Score runs max(samples, Sweeps) sweeps; the samples are enough.
			e.Sweeps = 0
		}
	}
	return e, func() { pool.Put(e) }, nil
}

// territoryView is the territory section and what it shows.
type territoryView struct {
	wb   *Workbench
	s    territorySettings
	ests estimators

	shown    *ownership // the last estimate delivered; kept across navigation
	node     *game.Node // the node shown was computed for
	err      error      // the last estimate failed
	score    *scoreResult
	scoreFor *game.Node

	// The sample asked for, for sampleFor, and the one delivered.
	seed      uint64
	sampleFor *game.Node
	sample    *ownerSample

	hoverPoint  goban.Point
	hoverInside bool

	layer    goban.Layer // on the boards now
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

	started func(ctx context.Context, key string) // tests: called as each estimate starts, on its worker
}

// layerKey is what the layer on the boards was made from.
type layerKey struct {
	shown  *ownership
	sample *ownerSample
	node   *game.Node
	style  goban.TerritoryStyle
	on     bool
}

func newTerritoryView(wb *Workbench) *territoryView {
	tv := &territoryView{wb: wb}
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
// position: the estimate, the score, and a sample when one is asked for.
// The analysis starts them with the predictors', so navigation cancels
// them all at once.
func (tv *territoryView) tasks() []engine.Task {
	if !tv.s.on {
		return nil
	}
	node := tv.wb.doc.cursor.Node()
	model, method := tv.s.model, tv.s.method
	if model == territory.KindMC.String() {
		method = ""
	}
	est := engine.NewTask("territory/"+model+"/"+method,
		func(ctx context.Context, pos *game.Position) (*ownership, error) {
			return tv.estimate(ctx, model, method, pos)
		},
		(*ownership).bytes,
		func(o *ownership, err error) {
			tv.shown, tv.node, tv.err = o, node, err
			if err != nil {
				tv.wb.setStatus("territory: %v", err)
			}
			tv.render()
		})
	// The win probability needs joint states: Swendsen-Wang states of the
	// model whatever the method (territory.Estimator.Score), so one score
	// serves every method and survives switching between them.
	scoreMethod := territory.MethodSW.String()
	if model == territory.KindMC.String() {
		scoreMethod = ""
	}
	score := engine.NewTask("territory-score/"+model,
		func(ctx context.Context, pos *game.Position) (*scoreResult, error) {
			return tv.scoreOf(ctx, model, scoreMethod, pos)
		},
		(*scoreResult).bytes,
		func(r *scoreResult, err error) {
			if err == nil {
				tv.score, tv.scoreFor = r, node
				tv.render()
			}
		})
	ts := []engine.Task{est, score}
	if tv.sampleShown() && model != territory.KindMC.String() {
		seed := tv.seed
		ts = append(ts, engine.NewTask(fmt.Sprintf("territory-sample/%s/%d", model, seed),
			func(ctx context.Context, pos *game.Position) (*ownerSample, error) {
				return tv.drawSample(ctx, model, method, seed, pos)
			},
			(*ownerSample).bytes,
			func(s *ownerSample, err error) {
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
	return ts
}

// estimate runs a territory estimate on an engine worker.
func (tv *territoryView) estimate(ctx context.Context, model, method string, pos *game.Position) (*ownership, error) {
	if tv.started != nil {
		tv.started(ctx, "territory/"+model+"/"+method)
	}
	e, put, err := tv.ests.get(model, method, false)
	if err != nil {
		return nil, err
	}
	defer put()
	var m territory.Marginals
	if err := e.Estimate(ctx, pos, &m); err != nil {
		return nil, err
	}
	b := &pos.Board
	n := b.Size()
	o := &ownership{
		model: model, method: method, size: n, komi: pos.Komi,
		mean: make([]float64, n*n), lives: make([]float64, n*n), stones: make([]int16, n*n),
	}
	for _, p := range b.Points() {
		x, y := p.XY()
		i := y*n + x
		o.mean[i] = m.Mean[p]
		o.lives[i] = math.NaN()
		if lives, ok := territory.ChainSafety(b, &m, p); ok {
			o.lives[i] = lives
			o.stones[i] = int16(b.ChainSize(p))
		}
	}
	return o, nil
}

// scoreOf estimates the win probability on an engine worker.
func (tv *territoryView) scoreOf(ctx context.Context, model, method string, pos *game.Position) (*scoreResult, error) {
	if tv.started != nil {
		tv.started(ctx, "territory-score/"+model)
	}
	e, put, err := tv.ests.get(model, method, true)
	if err != nil {
		return nil, err
	}
	defer put()
	samples := scoreSamples
	if model == territory.KindMC.String() {
		samples = territory.DefaultMCPlayouts // as many as its estimate plays: ~25 ms
	}
	est, err := e.Score(ctx, pos, samples)
	if err != nil {
		return nil, err
	}
	return &scoreResult{model: model, est: est}, nil
}

// drawSample draws one Swendsen-Wang state of the model on pos, with the
// bonds of its last move (Stern Fig. 5.6): territory.Estimator.Sample, so
// the state comes from the distribution the estimate shows (for
// boltzmann5+mc, its pool with the same playouts).
func (tv *territoryView) drawSample(ctx context.Context, model, method string, seed uint64, pos *game.Position) (*ownerSample, error) {
	e, put, err := tv.ests.get(model, method, false)
	if err != nil {
		return nil, err
	}
	defer put()
	smp := new(territory.Sample)
	if err := e.Sample(ctx, pos, sampleBurnin, seed, smp); err != nil {
		return nil, err
	}
	n := pos.Board.Size()
	s := &ownerSample{model: model, seed: seed, layer: goban.TerritorySample{
		Size: n, Owner: make([]int8, n*n), Right: make([]bool, n*n), Down: make([]bool, n*n),
	}}
	for _, p := range pos.Board.Points() {
		x, y := p.XY()
		i := y*n + x
		s.layer.Owner[i] = smp.S[p]
		s.layer.Right[i], s.layer.Down[i] = smp.Bond[p][territory.Right], smp.Bond[p][territory.Down]
	}
	return s, ctx.Err()
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
	if tv.sampleShown() && tv.sample != nil && tv.sample.model == tv.s.model {
		key.sample = tv.sample
	}
	if key != tv.layerKey {
		tv.layerKey = key
		tv.layer = tv.makeLayer(key)
		for _, v := range tv.wb.views {
			v.board.SetLayer(goban.SlotTerritory, tv.layer)
		}
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
		l := key.sample.layer // a copy: the cached sample stays untouched
		l.Stones = stones
		return &l
	}
	if key.shown == nil || key.shown.size != pos.Board.Size() {
		return nil
	}
	return &goban.Territory{
		Size: key.shown.size, Owner: key.shown.mean, Stones: stones, Style: key.style,
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
		text = fmt.Sprintf("Expected score %s (area, komi %s)", scoreText(o.score()), komiText(o.komi))
		if r := tv.score; r != nil && r.model == o.model && tv.scoreFor == tv.node {
			win = fmt.Sprintf("%s · score spread ±%.0f over %d samples", winText(r.est.PBlackWins), r.est.StdDev, r.est.Samples)
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
		text = fmt.Sprintf("Sample %d: bonded points were drawn as one (Stern Fig. 5.6)", tv.sample.seed)
	case !tv.hoverInside:
		text = "Point at a stone for the chance that its chain lives."
	case o == nil || tv.node != c.Node() || o.size != pos.Board.Size():
		text = "Estimating…"
	default:
		p := tv.hoverPoint
		i := p.Y*o.size + p.X
		pt := board.At(p.X, p.Y)
		name := pt.GTP(o.size)
		if col := pos.Board.At(pt); col == board.Black || col == board.White {
			text = fmt.Sprintf("%s chain at %s, %d stone%s: lives %s", colorName(col), name, o.stones[i],
				plural(int(o.stones[i])), percentWhole(o.lives[i]))
		} else {
			text = fmt.Sprintf("%s: %s, E[s] = %+.2f", name, ownerText(o.mean[i]), o.mean[i])
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
