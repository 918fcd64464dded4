package workbench

import (
	"fmt"
	"image/color"
	"math"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tabWhyNot is the saved name of the Why not? tab.
const tabWhyNot = "whynot"

// whyNotDepth puts the tab's marks and difference layer above the labels,
// under the inspector's layers.
const whyNotDepth = 1

// differenceClamp is where the difference layer's colours saturate: a
// factor of e³ ≈ 20 between the two predictors' probabilities.
const differenceClamp = 3

// The marks of the two moves compared: A in the colour of "A is preferred"
// on the difference layer and the bars, B in B's.
var (
	markA = color.NRGBA{R: 0x36, G: 0x4B, B: 0x9A, A: 255}
	markB = color.NRGBA{R: 0xA5, G: 0x00, B: 0x26, A: 255}
)

// whyNot is the tab that says why the main board's predictor prefers one
// move to another: by default the record's next move (A) against the
// predictor's top move (B; its second when the record's move is the top),
// or any two points the user picks — a click sets A, Shift+click B, while
// the tab is shown — or pass against the top move. It shows both
// probabilities and ranks, both shapes, and the factor-by-factor difference
// of their log-strengths (predict.Compare), largest first, which sums to
// log(p_A/p_B). Its difference layer draws
// log(p_A/p_B) of two predictors on every legal point (live.LogRatio).
type whyNot struct {
	tabBase
	explained    *live.Explanations // the main board's predictor's, as the inspector's
	explainedFor *game.Node
	a, b         board.Point // chosen by the user on this node; NoPoint: the default
	chosenOn     *game.Node

	lines        [3]*canvas.Text
	diagrams     [2]*shapeDiagram
	captions     [2]*canvas.Text
	shapes       *fyne.Container
	table        *termTable
	box          fyne.CanvasObject
	shownA       board.Point // what the table shows now, for the marks
	shownB       board.Point
	marks        goban.Layer
	differenceOn bool
	diffCheck    *widget.Check
	diffWith     *widget.Select
	legend       *goban.Legend
	predA, predB *live.Prediction // the difference layer's inputs, for the node shown
	predFor      *game.Node
	diff         goban.Layer
}

func newWhyNotTab(wb *Workbench) tab {
	w := &whyNot{tabBase: tabBase{wb: wb, name: tabWhyNot, title: "Why not?"}, a: board.NoPoint, b: board.NoPoint,
		shownA: board.NoPoint, shownB: board.NoPoint, table: newTermTable()}
	text := container.New(layout.NewCustomPaddedVBoxLayout(2))
	for i := range w.lines {
		w.lines[i] = canvas.NewText("", theme.Color(theme.ColorNameForeground))
		text.Add(w.lines[i])
	}
	w.lines[0].TextStyle.Bold = true
	var shapes []fyne.CanvasObject
	for i := range w.diagrams {
		w.diagrams[i] = newShapeDiagram()
		w.captions[i] = canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder))
		w.captions[i].TextSize = theme.CaptionTextSize()
		w.captions[i].Alignment = fyne.TextAlignCenter
		shapes = append(shapes, container.NewVBox(container.NewCenter(w.diagrams[i]), w.captions[i]))
	}
	w.shapes = container.NewHBox(append([]fyne.CanvasObject{layout.NewSpacer()}, append(shapes, layout.NewSpacer())...)...)
	reset := widget.NewButton("Record vs top", func() {
		w.a, w.b = board.NoPoint, board.NoPoint
		w.refresh()
		wb.win.Canvas().Unfocus()
	})
	passVsTop := widget.NewButton("Pass vs top", func() {
		w.a, w.b, w.chosenOn = board.Pass, board.NoPoint, w.wb.doc.cursor.Node()
		w.refresh()
		wb.win.Canvas().Unfocus()
	})
	hint := canvas.NewText("Click: A · Shift+click: B", theme.Color(theme.ColorNamePlaceHolder))
	hint.TextSize = theme.CaptionTextSize()
	w.diffCheck = widget.NewCheck("Difference layer", w.setDifference)
	w.diffWith = widget.NewSelect(predict.Names(), func(string) { w.differenceChanged() })
	w.legend = goban.NewDifferenceLegend(differenceClamp)
	legendNote := canvas.NewText("log(p_A/p_B) in nats, A the main board's predictor: blue where A likes a move more", theme.Color(theme.ColorNamePlaceHolder))
	legendNote.TextSize = theme.CaptionTextSize()
	// The layer's controls first: the table below grows with the factors.
	body := container.NewVBox(
		container.NewBorder(nil, nil, w.diffCheck, nil, container.NewBorder(nil, nil, widget.NewLabel("B ="), nil, w.diffWith)),
		w.legend, legendNote,
		widget.NewSeparator(),
		container.NewBorder(nil, nil, container.NewHBox(reset, passVsTop), nil, container.NewCenter(hint)),
		text, w.shapes, w.table,
	)
	w.box = container.NewVScroll(container.NewPadded(body))
	w.message("Why not?", "")
	return w
}

func (w *whyNot) content() fyne.CanvasObject { return w.box }

// tasks explain the position with the main board's predictor while the tab
// is shown, and predict it with the difference layer's two predictors
// while the layer is on, shown or not.
func (w *whyNot) tasks(shown bool) (boardTasks, text []engine.Task) {
	node := w.wb.doc.cursor.Node()
	name, _ := w.wb.predictorOf(0)
	if w.differenceOn && name != "" && w.diffWith.Selected != "" {
		for i, n := range []string{name, w.diffWith.Selected} {
			boardTasks = append(boardTasks, w.wb.an.PredictTask(n, func(pr *live.Prediction, err error) {
				if err != nil {
					w.wb.setStatus("difference layer: %v", err)
					return
				}
				if w.predFor != node {
					w.predA, w.predB, w.predFor = nil, nil, node
				}
				if i == 0 {
					w.predA = pr
				} else {
					w.predB = pr
				}
				w.drawDifference()
			}))
		}
	}
	if !shown || name == "" {
		return boardTasks, nil
	}
	text = append(text, w.wb.an.ExplainTask(name, func(ex *live.Explanations, err error) {
		if err != nil {
			return // the prediction task reports the failure
		}
		w.explained, w.explainedFor = ex, node
		w.refresh()
	}))
	return boardTasks, text
}

// layer is the marks of A and B, while the tab is shown, over the
// difference layer.
// Neither while the Guess tab hides the next move: they would hint at it.
func (w *whyNot) layer() (goban.Layer, int) {
	marks, diff := w.marks, w.diff
	if !w.shown() {
		marks = nil
	}
	if w.wb.tabHidesNext() {
		marks, diff = nil, nil
	}
	switch {
	case diff == nil && marks == nil:
		return nil, 0
	case diff == nil:
		return marks, whyNotDepth
	case marks == nil:
		return diff, whyNotDepth
	}
	return layers{diff, marks}, whyNotDepth
}

// navigated forgets the points chosen on another node.
func (w *whyNot) navigated() {
	if w.chosenOn != w.wb.doc.cursor.Node() {
		w.a, w.b = board.NoPoint, board.NoPoint
	}
	w.drawDifference()
}

// render follows a change of the main board's predictor.
func (w *whyNot) render() {
	w.refresh()
	w.drawDifference()
}

func (w *whyNot) selected() {
	if w.diffWith.Selected == "" {
		w.diffWith.SetSelected(w.defaultB())
	}
	w.wb.analyze()
	w.refresh()
}

// setMarks marks a and b on the boards (NoPoint: no mark).
func (w *whyNot) setMarks(a, b board.Point) {
	if a == w.shownA && b == w.shownB {
		return
	}
	w.shownA, w.shownB = a, b
	w.marks = nil
	var ls []goban.Label
	var fills []goban.Fill
	for i, p := range []board.Point{a, b} {
		if p == board.NoPoint || p == board.Pass {
			continue
		}
		x, y := p.XY()
		gp := goban.Point{X: x, Y: y}
		text, c := "A", markA
		if i == 1 {
			text, c = "B", markB
		}
		fills = append(fills, goban.Fill{Point: gp, Color: c})
		ls = append(ls, goban.Label{Point: gp, Text: text, Color: color.White})
	}
	if len(ls) > 0 {
		w.marks = &goban.Peer{Size: w.wb.doc.cursor.Game().Size(), Fills: fills, Labels: ls}
	}
	w.wb.showLayers()
}

// takeClick implements clickTaker: with the tab shown, a click on a legal
// point sets A, Shift+click B; a click elsewhere does nothing (no move is
// played while the tab is shown).
func (w *whyNot) takeClick(p goban.Point) bool {
	if !w.shown() || w.wb.nextHidden() {
		return false
	}
	pos := w.wb.doc.cursor.Position()
	n := pos.Board.Size()
	if p.X < 0 || p.Y < 0 || p.X >= n || p.Y >= n {
		return true
	}
	pt := board.At(p.X, p.Y)
	if !pos.Board.Legal(pt, pos.ToPlay) {
		w.wb.setStatus("%s is not a legal move for %s", pt.GTP(n), colorName(pos.ToPlay))
		return true
	}
	a, b := w.pair()
	if w.wb.opts.Modifiers()&fyne.KeyModifierShift != 0 {
		b = pt
	} else {
		a = pt
	}
	w.a, w.b, w.chosenOn = a, b, w.wb.doc.cursor.Node()
	w.refresh()
	return true
}

// pair is the two moves compared: the user's choice on this node, or the
// default — the record's next move (a pass too) against the predictor's best
// other point, or without a next move the two best points.
func (w *whyNot) pair() (a, b board.Point) {
	a, b = w.a, w.b
	if w.chosenOn != w.wb.doc.cursor.Node() {
		a, b = board.NoPoint, board.NoPoint
	}
	ex := w.explained
	if ex == nil || ex.Unable {
		return a, b
	}
	if a == board.NoPoint {
		next, ok := nextMove(w.wb.doc.cursor)
		if !ok || ex.Lookup(next) == nil {
			next = ex.Best
		}
		a = next
		if b == a {
			a = ex.BestBut(b)
		}
	}
	if b == board.NoPoint {
		b = ex.BestBut(a)
	}
	return a, b
}

// refresh shows the comparison of the pair with the explanations of the
// position shown.
func (w *whyNot) refresh() {
	if !w.shown() {
		return
	}
	name, _ := w.wb.predictorOf(0)
	ex := w.explained
	switch {
	case w.wb.nextHidden():
		w.message("Hidden while the next move is secret.", "")
		return
	case name == "":
		w.message("No predictor chosen.", "")
		return
	case ex == nil || ex.Predictor != name || w.explainedFor != w.wb.doc.cursor.Node():
		w.message(name+": explaining this position…", "")
		return
	case ex.Unable:
		w.message("No explanation for "+name, "It does not say why it rates moves.")
		return
	}
	a, b := w.pair()
	ea, eb := ex.Lookup(a), ex.Lookup(b)
	if ea == nil || eb == nil {
		w.message("Fewer than two legal moves.", "")
		return
	}
	cmp := predict.Compare(ea, eb)
	n := ex.Size
	side := func(tag string, e *predict.Explanation) string {
		return fmt.Sprintf("%s %s · rank %d of %d · %s", tag, e.Point.GTP(n), e.Rank, ex.Moves, percent(e.Probability))
	}
	w.setLines(side("A", ea), side("B", eb),
		fmt.Sprintf("%s · log(p_A/p_B) = %s, the sum of the rows", name, minus(fmt.Sprintf("%+.2f", cmp.LogRatio()))))
	for i, e := range []*predict.Explanation{ea, eb} {
		tag := [2]string{"A", "B"}[i]
		if len(e.Pattern) > 0 || e.PatternSize == 1 {
			w.diagrams[i].set(e.Pattern, ex.ToPlay)
			w.diagrams[i].Show()
			w.captions[i].Text = fmt.Sprintf("%s: size %d", tag, e.PatternSize)
			if bayesian(e.Factors) {
				w.captions[i].Text = fmt.Sprintf("%s: T%d", tag, e.PatternSize)
			}
		} else {
			w.diagrams[i].Hide()
			w.captions[i].Text = tag + ": no known shape"
			if e.Point == board.Pass {
				w.captions[i].Text = tag + ": pass, no shape"
			}
		}
		w.captions[i].Refresh()
	}
	w.shapes.Show()
	w.table.set(cmp.Terms)
	w.setMarks(a, b)
	w.box.Refresh() // the rows and shapes change the content's height
}

// setLines writes the heading lines: the first strong, the last dimmed.
func (w *whyNot) setLines(lines ...string) {
	for i, t := range w.lines {
		t.Text = ""
		if i < len(lines) {
			t.Text = lines[i]
		}
		t.TextSize = theme.TextSize()
		t.Color = theme.Color(theme.ColorNameForeground)
		if i == 2 {
			t.TextSize = theme.CaptionTextSize() + 1
			t.Color = theme.Color(theme.ColorNamePlaceHolder)
		}
		t.Refresh()
	}
}

// message shows text in place of a comparison.
func (w *whyNot) message(lines ...string) {
	w.setLines(lines...)
	w.shapes.Hide()
	w.table.set(nil)
	w.setMarks(board.NoPoint, board.NoPoint)
	w.box.Refresh()
}

// setDifference follows the difference layer's check.
func (w *whyNot) setDifference(on bool) {
	w.differenceOn = on
	if on && w.diffWith.Selected == "" {
		w.diffWith.SetSelected(w.defaultB()) // calls differenceChanged
		return
	}
	w.differenceChanged()
}

// defaultB is the difference layer's B at first: the compare board's
// predictor, or the first other one.
func (w *whyNot) defaultB() string {
	a, _ := w.wb.predictorOf(0)
	if b := w.wb.settings.compareWith; b != "" && b != a {
		return b
	}
	for _, n := range predict.Names() {
		if n != a && n != "uniform" {
			return n
		}
	}
	return a
}

// differenceChanged predicts anew for a new choice of B, or takes the
// layer away.
func (w *whyNot) differenceChanged() {
	w.predA, w.predB, w.predFor = nil, nil, nil
	if w.differenceOn {
		w.wb.analyze()
	}
	w.drawDifference()
}

// drawDifference puts log(p_A/p_B) of the position shown on the boards
// when both predictions are in, keeping the last layer until then.
func (w *whyNot) drawDifference() {
	var l goban.Layer
	name, _ := w.wb.predictorOf(0)
	pa, pb := w.predA, w.predB
	switch {
	case !w.differenceOn:
	case pa == nil || pb == nil || pa.Predictor != name || pb.Predictor != w.diffWith.Selected:
		l = w.diff // the previous position's, until this one's arrive
	case w.predFor == w.wb.doc.cursor.Node():
		v, err := live.LogRatio(pa, pb)
		if err != nil {
			w.wb.setStatus("difference layer: %v", err)
			break
		}
		l = &goban.Difference{Size: pa.Size, V: v, Clamp: differenceClamp}
	default:
		l = w.diff
	}
	if l != w.diff {
		w.diff = l
		w.wb.showLayers()
	}
}

// predictorsChanged offers a predictor loaded from a model file as B.
func (w *whyNot) predictorsChanged() { w.diffWith.SetOptions(predict.Names()) }

// Column sizes of the term table.
const (
	termNum = 52 // a number column: "−12.34"
	termBar = 60 // the difference bar: the largest |A − B| spans half
)

// termTable lists a why-not comparison's terms, one row each: the name
// (a Bayesian factor's μ ± σ at A and B after it), its part of the
// log-strength at A and at B ("·" where it did not fire), A − B, and A − B
// as a bar from a centre line, blue to the right where it favours A and
// orange to the left where it favours B (the inspector's share colours),
// scaled to the largest.
type termTable struct {
	widget.BaseWidget
	terms []predict.Term
}

func newTermTable() *termTable {
	t := &termTable{}
	t.ExtendBaseWidget(t)
	return t
}

func (t *termTable) set(terms []predict.Term) {
	t.terms = terms
	t.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (t *termTable) CreateRenderer() fyne.WidgetRenderer {
	r := &termRenderer{t: t}
	r.Refresh()
	return r
}

type termRow struct {
	text       string
	name       []*canvas.Text
	nums       [3]*canvas.Text // at A, at B, A − B
	diff       float64
	track, bar *canvas.Rectangle
	zero       *canvas.Rectangle
}

type termRenderer struct {
	t       *termTable
	head    [5]*canvas.Text
	rows    []termRow
	reach   float64 // the largest |A − B|
	width   float32
	objects []fyne.CanvasObject
}

// termName is a term's name, with a Bayesian factor's beliefs at A and B.
func termName(tm predict.Term) string {
	fa, fb := tm.FA, tm.FB
	if (fa == nil || !fa.Bayesian()) && (fb == nil || !fb.Bayesian()) {
		return tm.Name
	}
	var fs []predict.Factor
	for _, f := range []*predict.Factor{fa, fb} {
		if f != nil {
			fs = append(fs, *f)
		}
	}
	small := smallBeliefs(fs)
	at := func(f *predict.Factor) string {
		if f == nil {
			return "·"
		}
		return belief(f.Weight, f.SD, small)
	}
	return fmt.Sprintf("%s · μ ± σ %s / %s", tm.Name, at(fa), at(fb))
}

func (r *termRenderer) lineHeights() (line, head float32) {
	return fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height,
		fyne.MeasureText("Mg", theme.CaptionTextSize(), fyne.TextStyle{}).Height
}

func termNameWidth(width float32) float32 { return max(60, width-3*termNum-termBar-4*factorGap) }

func (r *termRenderer) MinSize() fyne.Size {
	line, head := r.lineHeights()
	width := r.t.Size().Width
	if width <= 0 {
		width = defaultWidth
	}
	h := head
	for _, row := range r.rows {
		h += factorLead + line*float32(len(wrap(row.text, termNameWidth(width), theme.TextSize())))
	}
	return fyne.NewSize(3*termNum+termBar+4*factorGap+60, h)
}

func (r *termRenderer) Layout(size fyne.Size) {
	line, head := r.lineHeights()
	if size.Width != r.width {
		r.width = size.Width
		r.wrapNames()
		canvas.Refresh(r.t)
	}
	nameW := termNameWidth(size.Width)
	x := []float32{0, nameW + factorGap}
	for range 3 {
		x = append(x, x[len(x)-1]+termNum+factorGap)
	}
	place := func(t *canvas.Text, x, w, y, h float32) {
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, h))
	}
	place(r.head[0], 0, nameW, 0, head)
	for i := 1; i <= 3; i++ {
		place(r.head[i], x[i], termNum, 0, head)
	}
	place(r.head[4], x[4], termBar, 0, head)
	y := head + factorLead
	half := float32(termBar) / 2
	for _, row := range r.rows {
		for i, t := range row.name {
			place(t, 0, nameW, y+float32(i)*line, line)
		}
		for i, t := range row.nums {
			place(t, x[i+1], termNum, y, line)
		}
		barH := float32(math.Round(float64(line) * 0.5))
		by := y + (line-barH)/2
		bx := x[4]
		row.track.Move(fyne.NewPos(bx, by))
		row.track.Resize(fyne.NewSize(termBar, barH))
		w := float32(0)
		if r.reach > 0 {
			w = float32(math.Min(1, math.Abs(row.diff)/r.reach)) * half
		}
		left := bx + half
		if row.diff < 0 {
			left -= w
		}
		row.bar.Move(fyne.NewPos(left, by))
		row.bar.Resize(fyne.NewSize(w, barH))
		row.zero.Move(fyne.NewPos(bx+half-0.5, by-2))
		row.zero.Resize(fyne.NewSize(1, barH+4))
		y += factorLead + line*float32(len(row.name))
	}
}

func (r *termRenderer) wrapNames() {
	r.objects = r.objects[:0]
	for _, h := range r.head {
		r.objects = append(r.objects, h)
	}
	fg := theme.Color(theme.ColorNameForeground)
	for i := range r.rows {
		row := &r.rows[i]
		row.name = row.name[:0]
		for _, l := range wrap(row.text, termNameWidth(r.width), theme.TextSize()) {
			t := canvas.NewText(l, fg)
			t.TextSize = theme.TextSize()
			row.name = append(row.name, t)
			r.objects = append(r.objects, t)
		}
		r.objects = append(r.objects, row.nums[0], row.nums[1], row.nums[2], row.track, row.bar, row.zero)
	}
}

func (r *termRenderer) Refresh() {
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	for i, s := range [5]string{"factor", "at A", "at B", "A − B", "favours"} {
		t := canvas.NewText(s, dim)
		t.TextSize = theme.CaptionTextSize()
		t.Alignment = fyne.TextAlignTrailing
		if i == 0 {
			t.Alignment = fyne.TextAlignLeading
		}
		if i == 4 {
			t.Alignment = fyne.TextAlignCenter
		}
		r.head[i] = t
	}
	r.rows, r.reach = r.rows[:0], 0
	for _, tm := range r.t.terms {
		r.reach = max(r.reach, math.Abs(tm.Diff()))
	}
	num := func(v float64, at bool) *canvas.Text {
		s := "·"
		if at {
			s = minus(fmt.Sprintf("%+.2f", v))
		}
		t := canvas.NewText(s, fg)
		t.TextSize = theme.TextSize()
		t.Alignment = fyne.TextAlignTrailing
		return t
	}
	for _, tm := range r.t.terms {
		d := tm.Diff()
		var c color.Color = shareUp
		if d < 0 {
			c = shareDown
		}
		atA := tm.FA != nil || tm.Interaction && tm.A != 0
		atB := tm.FB != nil || tm.Interaction && tm.B != 0
		row := termRow{text: termName(tm), diff: d,
			nums:  [3]*canvas.Text{num(tm.A, atA), num(tm.B, atB), num(d, true)},
			track: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground)),
			bar:   canvas.NewRectangle(c), zero: canvas.NewRectangle(dim)}
		r.rows = append(r.rows, row)
	}
	r.wrapNames()
	r.Layout(r.t.Size())
	canvas.Refresh(r.t)
}

func (r *termRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *termRenderer) Destroy()                     {}

var _ clickTaker = (*whyNot)(nil)
