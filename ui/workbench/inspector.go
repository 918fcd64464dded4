package workbench

import (
	"fmt"
	"slices"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/feature"
	"aji/analysis/findpattern"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tabInspector is the saved name of the Inspector tab.
const tabInspector = "inspector"

// inspector is the tab that says why the predictor gave a point its
// probability: the point, its rank and probability; the largest matching
// shape as a diagram; and every factor with its γ, Elo and share — for a
// Bayesian model, the chain of nested patterns with their beliefs μ ± σ and
// counts. The explanations are computed only while it is shown. Its "How
// sure" check draws a Bayesian model's uncertainty on the boards (howsure.go).
type inspector struct {
	tabBase
	// The explanations of every point by each board's predictor, and the
	// node they are for; like the heat maps they stay until the next
	// position's arrive.
	explained    [2]*live.Explanations
	explainedFor [2]*game.Node

	lines   [4]*canvas.Text // point and rank; probability; predictor and side; shape
	diagram *shapeDiagram
	// fire searches a game collection for the shape shown ("Where does it
	// fire?"): the shape of template fireTemplate around firePoint in the
	// position of fireNode, as firePredictor's shape factor.
	fire          *widget.Button
	firePredictor string
	fireTemplate  string
	firePoint     board.Point
	fireNode      *game.Node
	table         *factorTable
	head          *fyne.Container // the diagram (when there is a shape) and the lines
	box           fyne.CanvasObject

	// One of the cnn's input planes drawn on the board, for people debugging
	// the network: plane is its index (-1: none), planes the position's.
	planeChoice *widget.Select
	plane       int
	planes      *live.InputPlanes
	drawn       goban.Layer

	sure *howSure
}

// planesDepth puts an input plane above every other layer: it is asked for
// to be looked at.
const planesDepth = 3

// noPlane is the plane choice that draws none.
const noPlane = "none"

func newInspectorTab(wb *Workbench) tab {
	in := &inspector{
		tabBase: tabBase{wb: wb, name: tabInspector, title: "Inspector"},
		diagram: newShapeDiagram(), table: newFactorTable(), plane: -1,
	}
	in.planeChoice = widget.NewSelect(append([]string{noPlane}, feature.PlaneNames[:]...), nil)
	in.planeChoice.SetSelected(noPlane)
	in.planeChoice.OnChanged = in.setPlane
	in.sure = newHowSure(in)
	text := container.New(layout.NewCustomPaddedVBoxLayout(2))
	for i := range in.lines {
		in.lines[i] = canvas.NewText("", nil)
		text.Add(in.lines[i])
	}
	in.lines[0].TextStyle.Bold = true
	in.fire = widget.NewButtonWithIcon("Where does it fire?", theme.SearchIcon(), in.findShape)
	in.fire.Hide()
	// The text sits at the top beside the diagram, not stretched along it.
	in.head = container.NewBorder(nil, nil, in.diagram, nil, container.NewVBox(text, container.NewHBox(in.fire)))
	// The plane choice goes first: the factor table below grows with the
	// point explained.
	planes := container.NewBorder(nil, nil, widget.NewLabel("Network input"), nil, in.planeChoice)
	body := container.NewVBox(planes, in.sure.row, in.head, in.table)
	in.box = container.NewVScroll(container.NewPadded(body))
	in.message("Hover over a point", "to see why the predictor rates it.")
	return in
}

func (in *inspector) content() fyne.CanvasObject { return in.box }

// tasks explain every point with the predictor of each board shown, while
// the tab is shown, and encode the input planes while one is drawn.
func (in *inspector) tasks(shown bool) (board, text []engine.Task) {
	if in.plane >= 0 { // on the boards whether the tab is shown or not
		board = append(board, live.PlanesTask(func(ip *live.InputPlanes, err error) {
			if err == nil {
				in.planes = ip
				in.drawPlane()
			}
		}))
	}
	if in.sure.on {
		board = append(board, in.sure.tasks(shown)...)
	}
	if !shown {
		return board, nil
	}
	if !in.sure.on {
		text = append(text, in.sure.tasks(shown)...)
	}
	node := in.wb.doc.cursor.Node()
	for i := range in.wb.views {
		name, ok := in.wb.predictorOf(i)
		if !ok || name == "" {
			continue
		}
		text = append(text, in.wb.an.ExplainTask(name, func(ex *live.Explanations, err error) {
			if err != nil {
				return // the prediction task reports the failure and switches
			}
			in.explained[i], in.explainedFor[i] = ex, node
			in.refresh()
		}))
	}
	return board, text
}

// setPlane draws the input plane called name on the boards (none: no plane).
func (in *inspector) setPlane(name string) {
	in.plane = slices.Index(feature.PlaneNames[:], name)
	if in.plane >= 0 && in.planes == nil {
		in.wb.analyze() // encode the position shown
	}
	in.drawPlane()
}

// drawPlane puts the chosen plane of the position's planes on the boards.
func (in *inspector) drawPlane() {
	in.drawn = nil
	if in.plane >= 0 && in.planes != nil {
		in.drawn = &goban.Values{Size: in.planes.Size, V: in.planes.V[in.plane]}
	}
	in.wb.showLayers()
}

// layer is the input plane, over the how-sure layer.
func (in *inspector) layer() (goban.Layer, int) {
	switch sure := in.sure.drawn; {
	case sure == nil:
		return in.drawn, planesDepth
	case in.drawn == nil:
		return sure, sureDepth
	}
	return layers{in.sure.drawn, in.drawn}, planesDepth
}

// render follows a change of predictor: the how-sure check is for the main
// board's.
func (in *inspector) render() { in.sure.draw() }

// selected explains the position now: the explanations were not computed
// while the tab was hidden.
func (in *inspector) selected() {
	in.wb.analyze()
	in.refresh()
}

func (in *inspector) hovered(int, goban.Point, bool) { in.refresh() }

// refresh explains, with the predictor of the board hovered last, the
// point under the pointer; when the pointer is off the boards, the last
// point it rested on if that is still a legal move, else the best move.
func (in *inspector) refresh() {
	if !in.shown() {
		return // hidden; the tab is filled when it is selected
	}
	h := &in.wb.hover
	i := h.view
	if !in.wb.settings.compare {
		i = 0
	}
	name, _ := in.wb.predictorOf(i)
	ex := in.explained[i]
	switch {
	case name == "":
		in.message("No predictor chosen.")
		return
	case ex == nil || ex.Predictor != name:
		in.message(name+": explaining this position…", "")
		return
	case ex.Unable:
		in.message("No explanation for "+name, "It does not say why it rates moves.")
		return
	}
	at := func(p goban.Point) board.Point { return board.At(p.X, p.Y) }
	switch {
	case h.inside:
		p := at(h.point)
		in.show(ex, p, ex.Lookup(p), "")
	case h.hasRested && ex.Lookup(at(h.rested)) != nil:
		p := at(h.rested)
		in.show(ex, p, ex.Lookup(p), "last pointed at")
	case ex.Best != board.NoPoint:
		in.show(ex, ex.Best, ex.Lookup(ex.Best), "best move")
	default:
		in.message("No legal move on the board.", "")
	}
}

// withPartners is e's factors, each named with its strongest raising and
// lowering interaction when the model has interactions (fbt):
// "atari · × shape …: +1.30 · × 3x3 shape …: −0.41".
func withPartners(e *predict.Explanation) []predict.Factor {
	if len(e.Interactions) == 0 {
		return e.Factors
	}
	up, down := e.Partners()
	fs := slices.Clone(e.Factors)
	for i := range fs {
		for _, k := range []int{up[i], down[i]} {
			if k >= 0 {
				fs[i].Name += " · " + e.InteractionText(k, i)
			}
		}
	}
	return fs
}

// setLines writes the text beside the diagram: the first line strong, the
// rest smaller, the last dimmed.
func (in *inspector) setLines(lines ...string) {
	for i, t := range in.lines {
		t.Text = ""
		if i < len(lines) {
			t.Text = lines[i]
		}
		t.TextSize = theme.TextSize()
		t.Color = theme.Color(theme.ColorNameForeground)
		if i > 0 {
			t.TextSize = theme.CaptionTextSize() + 1
		}
		if i >= 2 {
			t.Color = theme.Color(theme.ColorNamePlaceHolder)
		}
		t.Refresh()
	}
}

// message shows text instead of an explanation.
func (in *inspector) message(lines ...string) {
	in.setLines(lines...)
	in.diagram.Hide()
	in.fire.Hide()
	in.table.set(nil)
	in.head.Refresh()
}

// show explains point p with e, from the predictor's explanations ex; note
// says why this point is shown when the pointer is not on it.
func (in *inspector) show(ex *live.Explanations, p board.Point, e *predict.Explanation, note string) {
	name := p.GTP(ex.Size)
	side := fmt.Sprintf("%s · %s to play", ex.Predictor, colorName(ex.ToPlay))
	if note != "" {
		side += " · " + note
	}
	if e == nil {
		in.message(name, fmt.Sprintf("Not a legal move for %s.", colorName(ex.ToPlay)), side)
		return
	}
	shape := "No known shape here."
	bayes := bayesian(e.Factors)
	in.fire.Hide()
	if i := slices.Index(in.explained[:], ex); i >= 0 && e.PatternSize > 0 && (bayes || len(e.Pattern) > 0) {
		in.fireTemplate, in.firePoint = fmt.Sprint(e.PatternSize), p
		if bayes {
			in.fireTemplate = "T" + in.fireTemplate
		}
		in.fireNode, in.firePredictor = in.explainedFor[i], ex.Predictor
		in.fire.Show()
	}
	switch {
	case bayes && e.PatternSize > 0:
		// Stern's templates: T1 is the point alone, T14 the whole board.
		shape = fmt.Sprintf("Pattern T%d, %d points.", e.PatternSize, len(e.Pattern))
		if e.PatternSize == 1 {
			shape = "Pattern T1: the point alone."
		}
		in.diagram.set(e.Pattern, ex.ToPlay)
		in.diagram.Show()
	case bayes:
		shape = "No known pattern here."
		in.diagram.Hide()
	case len(e.Pattern) > 0:
		shape = fmt.Sprintf("Shape of size %d, %d points.", e.PatternSize, len(e.Pattern))
		in.diagram.set(e.Pattern, ex.ToPlay)
		in.diagram.Show()
	default:
		in.diagram.Hide()
	}
	in.setLines(fmt.Sprintf("%s · rank %d of %d", name, e.Rank, ex.Moves), "probability "+percent(e.Probability), side, shape)
	in.table.set(withPartners(e))
	in.head.Refresh()
}

// findShape opens the "Where does it fire?" window on the shape shown, read
// from the position it was explained in, as the predictor's shape factor:
// where it is the largest shape the model knows.
func (in *inspector) findShape() {
	if in.fireNode == nil {
		return
	}
	pos, err := in.wb.doc.cursor.Game().PositionAt(in.fireNode)
	if err == nil {
		var q findpattern.Query
		if q, err = findpattern.ShapeAt(pos, in.firePoint, in.fireTemplate); err == nil {
			q.Model = shapesOf(in.firePredictor)
			in.wb.findPattern(q)
			return
		}
	}
	in.wb.setStatus("Where does it fire? %v", err)
}

// shapesOf is the shape dictionary of the predictor called name (nil for
// one without shapes): the models are loaded once and shared, so this costs
// a predictor's scratch space.
func shapesOf(name string) *pattern.Dictionary {
	p, err := predict.New(name, predict.Options{NoOwner: true})
	if s, ok := p.(predict.Shaper); ok && err == nil && s.Shapes() != nil && s.Shapes().Len() > 0 {
		return s.Shapes()
	}
	return nil
}
