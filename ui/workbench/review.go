package workbench

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"aji/analysis/game"
	"aji/analysis/review"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tabReview is the saved name of the Review tab.
const tabReview = "review"

// reviewListed is how many surprising moves and swings the panel lists.
const reviewListed = 5

// reviewTab is the whole-game review (analysis/review): Start scores every
// move of the line shown with the boards' predictors and the territory
// estimate, the graph filling in as moves arrive; clicking or dragging on it
// jumps to a move, and the most surprising moves and the largest swings are
// listed to jump to. The review goes on while the user steps through the
// game; opening another game ends it.
type reviewTab struct {
	tabBase
	reviewer  *review.Reviewer
	territory string // the territory model behind the scores (review.DefaultTerritory)
	cancel    context.CancelFunc
	run       int // counts the runs, so a stopped run's late deliveries are dropped

	game   *game.Game   // the game reviewed
	nodes  []*game.Node // the line's move nodes, by move index
	moves  []review.Move
	have   []bool
	result *review.Result // the last finished review, to write into the game

	startB *widget.Button
	writeB *widget.Button
	status *widget.Label
	graph  *reviewGraph
	lists  *fyne.Container
	box    fyne.CanvasObject
}

func newReviewTab(wb *Workbench) tab {
	rt := &reviewTab{tabBase: tabBase{wb: wb, name: tabReview, title: "Review"}, reviewer: review.New(0),
		territory: review.DefaultTerritory}
	rt.startB = widget.NewButton("Review the game", rt.start)
	rt.writeB = widget.NewButton("Write into the game…", rt.write)
	rt.writeB.Disable()
	rt.status = widget.NewLabel("Scores every move: how expected it was, and how the score moved.")
	rt.status.Wrapping = fyne.TextWrapWord
	rt.graph = newReviewGraph(rt.jump)
	rt.lists = container.NewVBox()
	legend := widget.NewLabel("Dots: the rank each predictor gave the move played (top: its first choice; bottom: 300th or worse). " +
		"Line: Black's expected score, the mean over two moves (up: Black ahead). Click or drag on the graph to go to a move.")
	legend.Wrapping = fyne.TextWrapWord
	legend.TextStyle.Italic = true
	top := container.NewVBox(rt.startB, rt.writeB, rt.status)
	rt.box = container.NewBorder(top, nil, nil, nil,
		container.NewVScroll(container.NewVBox(rt.graph, legend, rt.lists)))
	return rt
}

func (rt *reviewTab) content() fyne.CanvasObject { return rt.box }

// start reviews the line shown, with the predictors of the boards shown.
func (rt *reviewTab) start() {
	rt.stop()
	c := rt.wb.doc.cursor
	var preds []string
	for i := range rt.wb.views {
		if name, shown := rt.wb.predictorOf(i); shown && name != "" && !slices.Contains(preds, name) {
			preds = append(preds, name)
		}
	}
	line := c.Line()
	rt.game, rt.nodes = c.Game(), nil
	for _, n := range line {
		if n.Move != nil {
			rt.nodes = append(rt.nodes, n)
		}
	}
	rt.moves, rt.have, rt.result = make([]review.Move, len(rt.nodes)), make([]bool, len(rt.nodes)), nil
	rt.writeB.Disable()
	rt.graph.reset(len(rt.nodes), preds)
	rt.lists.RemoveAll()
	rt.navigated()
	if len(rt.nodes) == 0 {
		rt.status.SetText("The line shown has no moves to review.")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	rt.cancel = cancel
	rt.run++
	run, g, onUI := rt.run, rt.game, rt.wb.opts.OnUI
	opt := review.Options{Predictors: preds, Territory: rt.territory}
	rt.startB.SetText("Stop")
	rt.startB.OnTapped = rt.stop
	rt.status.SetText(fmt.Sprintf("Reviewing %d moves with %v…", len(rt.nodes), preds))
	go func() {
		res, err := rt.reviewer.Review(ctx, g, line, opt, func(m review.Move) {
			onUI(func() {
				if run == rt.run {
					rt.add(m)
				}
			})
		})
		onUI(func() {
			if run == rt.run {
				rt.finished(res, err)
			}
		})
	}()
}

// add shows one reviewed move.
func (rt *reviewTab) add(m review.Move) {
	if m.Index < 0 || m.Index >= len(rt.moves) {
		return
	}
	rt.moves[m.Index], rt.have[m.Index] = m, true
	rt.graph.set(m)
	done := 0
	for _, h := range rt.have {
		if h {
			done++
		}
	}
	rt.status.SetText(fmt.Sprintf("Reviewed %d of %d moves…", done, len(rt.moves)))
}

// finished lists the notable moves of a finished (or stopped) review.
func (rt *reviewTab) finished(res *review.Result, err error) {
	rt.cancel = nil
	rt.startB.SetText("Review the game")
	rt.startB.OnTapped = rt.start
	switch {
	case errors.Is(err, context.Canceled):
		done := 0
		for _, h := range rt.have {
			if h {
				done++
			}
		}
		rt.status.SetText(fmt.Sprintf("Review stopped after %d of %d moves; what it scored stays on the graph.", done, len(rt.nodes)))
		return
	case err != nil:
		rt.status.SetText(fmt.Sprintf("Review failed: %v", err))
		return
	}
	rt.status.SetText(fmt.Sprintf("Reviewed %d moves.", len(res.Moves)))
	rt.result = res
	rt.writeB.Enable()
	rt.list(res)
}

// write puts the review into the game — a line in each move's comment, the
// top candidates as labels, surprising moves and swings marked
// (review.Annotate, which keeps the user's comments and markup) — and asks
// where to save it, so the original file is replaced only if the user says
// so.
func (rt *reviewTab) write() {
	c := rt.wb.doc.cursor
	if rt.result == nil || rt.game != c.Game() {
		return
	}
	review.Annotate(rt.result, review.AnnotateOptions{})
	c.Edited()
	rt.wb.changed(false)
	rt.wb.SaveAs(nil)
}

// list fills the lists of the most surprising moves (the lowest probability
// by the first predictor) and the largest swings of the win probability
// beyond a usual move's (review.Result.Judge).
func (rt *reviewTab) list(res *review.Result) {
	rt.lists.RemoveAll()
	size := res.Size
	var surprising, swings []int
	for i, m := range res.Moves {
		if len(m.Predictions) > 0 && m.Predictions[0].Legal {
			surprising = append(surprising, i)
		}
		if j := res.Judge(i, review.AnnotateOptions{}); !math.IsNaN(j.Relative) {
			swings = append(swings, i)
		}
	}
	slices.SortStableFunc(surprising, func(a, b int) int {
		return cmpFloat(res.Moves[a].Predictions[0].Probability, res.Moves[b].Predictions[0].Probability)
	})
	slices.SortStableFunc(swings, func(a, b int) int {
		return cmpFloat(-math.Abs(res.Judge(a, review.AnnotateOptions{}).Relative), -math.Abs(res.Judge(b, review.AnnotateOptions{}).Relative))
	})
	button := func(i int, text string) *widget.Button {
		m := res.Moves[i]
		b := widget.NewButton(fmt.Sprintf("Move %d, %s %s: %s", m.Number, colorName(m.Color), m.Point.GTP(size), text), func() { rt.jumpNode(m.Node) })
		b.Alignment = widget.ButtonAlignLeading
		return b
	}
	if len(surprising) > 0 {
		rt.lists.Add(widget.NewLabelWithStyle(fmt.Sprintf("Most surprising to %s", res.Options.Predictors[0]), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, i := range surprising[:min(reviewListed, len(surprising))] {
			p := res.Moves[i].Predictions[0]
			rt.lists.Add(button(i, fmt.Sprintf("rank %d, %.2g%%", p.Rank, 100*p.Probability)))
		}
	}
	if len(swings) > 0 {
		rt.lists.Add(widget.NewLabelWithStyle("Largest swings (the mover's win probability, beyond a usual move's)", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, i := range swings[:min(reviewListed, len(swings))] {
			rt.lists.Add(button(i, fmt.Sprintf("%+.0f%%", 100*res.Judge(i, review.AnnotateOptions{}).Relative)))
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// jump goes to move index i of the line reviewed.
func (rt *reviewTab) jump(i int) {
	if i >= 0 && i < len(rt.nodes) {
		rt.jumpNode(rt.nodes[i])
	}
}

func (rt *reviewTab) jumpNode(n *game.Node) {
	if rt.game == rt.wb.doc.cursor.Game() {
		rt.wb.jump(n)
	}
}

// navigated marks the current move on the graph, and forgets the review of
// a game no longer shown.
func (rt *reviewTab) navigated() {
	c := rt.wb.doc.cursor
	if rt.game != nil && c.Game() != rt.game {
		rt.stop()
		rt.game, rt.nodes, rt.moves, rt.have, rt.result = nil, nil, nil, nil, nil
		rt.writeB.Disable()
		rt.graph.reset(0, nil)
		rt.lists.RemoveAll()
		rt.status.SetText("Scores every move: how expected it was, and how the score moved.")
	}
	rt.graph.mark(slices.Index(rt.nodes, c.Node()))
}

// render hides the lists of notable moves while the next move is secret:
// they name the points of moves still to come. The graph stays; it shows
// how each move was judged, not where it was played.
func (rt *reviewTab) render() {
	if rt.wb.nextHidden() {
		rt.lists.Hide()
	} else {
		rt.lists.Show()
	}
}

// stop ends a running review; what it scored stays.
func (rt *reviewTab) stop() {
	if rt.cancel != nil {
		rt.cancel()
		rt.cancel = nil
	}
}

// Colours of the review graph: the Okabe-Ito palette, safe for colour-blind
// readers, one per predictor; the score line in the foreground's grey.
var reviewColors = []color.RGBA{
	{0, 114, 178, 255},   // blue
	{230, 159, 0, 255},   // orange
	{0, 158, 115, 255},   // bluish green
	{213, 94, 0, 255},    // vermillion
	{204, 121, 167, 255}, // reddish purple
}

// Geometry of the review graph, in pixels of its raster.
const (
	graphHeight = 180
	graphPad    = 6
	graphWorst  = 300 // ranks from this on are drawn at the bottom
)

// reviewGraph draws, per move, the rank of the move played by each predictor
// (log scale, first choice at the top) as dots and Black's expected score
// over it as a line, the current move as a vertical bar; a tap or a drag
// picks a move.
type reviewGraph struct {
	widget.BaseWidget
	raster  *canvas.Raster
	n       int         // moves on the line
	ranks   [][]int     // [predictor][move]: 0 unknown
	score   []float64   // Black's expected score after each move, NaN unknown
	current int         // index of the current move, -1 when off the line
	pick    func(i int) // called with the move index picked
}

func newReviewGraph(pick func(int)) *reviewGraph {
	g := &reviewGraph{pick: pick, current: -1}
	g.raster = canvas.NewRaster(g.draw)
	g.ExtendBaseWidget(g)
	return g
}

func (g *reviewGraph) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(g.raster) }

func (g *reviewGraph) MinSize() fyne.Size { return fyne.NewSize(200, graphHeight) }

func (g *reviewGraph) reset(n int, preds []string) {
	g.n, g.ranks, g.score, g.current = n, make([][]int, len(preds)), make([]float64, n), -1
	for i := range g.ranks {
		g.ranks[i] = make([]int, n)
	}
	for i := range g.score {
		g.score[i] = math.NaN()
	}
	g.raster.Refresh()
}

func (g *reviewGraph) set(m review.Move) {
	for k, p := range m.Predictions {
		if k < len(g.ranks) && p.Legal {
			g.ranks[k][m.Index] = p.Rank
		}
	}
	if s := m.After.Score; s != nil {
		g.score[m.Index] = s.Mean
	}
	g.raster.Refresh()
}

func (g *reviewGraph) mark(i int) {
	if i != g.current {
		g.current = i
		g.raster.Refresh()
	}
}

// moveAt is the move index under x, in the graph's own coordinates.
func (g *reviewGraph) moveAt(x float32) int { return graphIndexAt(x, g.Size().Width, g.n) }

// graphIndexAt is which of n moves spread evenly across a graph of width w,
// graphPad inside its sides, lies under x; -1 for none. The review graph
// and the Search tab's strip place their moves so.
func graphIndexAt(x, w float32, n int) int {
	w -= 2 * graphPad
	if n == 0 || w <= 0 {
		return -1
	}
	return min(n-1, max(0, int((x-graphPad)/w*float32(n))))
}

// graphX is the pixel column of move i of n on a graph whose plot is pw
// pixels wide from pad on.
func graphX(i, n, pad, pw int) int { return pad + int((float64(i)+0.5)/float64(n)*float64(pw)) }

// Tapped implements fyne.Tappable.
func (g *reviewGraph) Tapped(e *fyne.PointEvent) {
	if i := g.moveAt(e.Position.X); i >= 0 {
		g.pick(i)
	}
}

// Dragged implements fyne.Draggable: dragging scrubs through the game.
func (g *reviewGraph) Dragged(e *fyne.DragEvent) { g.Tapped(&e.PointEvent) }

// DragEnd implements fyne.Draggable.
func (g *reviewGraph) DragEnd() {}

// draw paints the graph into a w×h image.
func (g *reviewGraph) draw(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := toRGBA(theme.Color(theme.ColorNameInputBackground))
	fg := toRGBA(theme.Color(theme.ColorNameForeground))
	fill(img, img.Rect, bg)
	if g.n == 0 {
		return img
	}
	scale := float64(w) / float64(max(1, g.Size().Width)) // raster pixels per widget unit
	pad := int(graphPad * scale)
	pw, ph := w-2*pad, h-2*pad
	if pw <= 0 || ph <= 0 {
		return img
	}
	x := func(i int) int { return graphX(i, g.n, pad, pw) }
	// The zero of the score, and the current move.
	mid := pad + ph/2
	fill(img, image.Rect(pad, mid, pad+pw, mid+1), mixColors(bg, fg, 0.25))
	if g.current >= 0 {
		cx := x(g.current)
		fill(img, image.Rect(cx-1, pad, cx+1, pad+ph), mixColors(bg, toRGBA(theme.Color(theme.ColorNamePrimary)), 0.7))
	}
	// Black's expected score, scaled to the largest lead seen (at least 10 points).
	top := 10.0
	for _, s := range g.score {
		if !math.IsNaN(s) {
			top = max(top, math.Abs(s))
		}
	}
	// Each point is the mean of the positions after the move and after the
	// one before: a static estimate credits every move to its player, and
	// the raw values zigzag by that much from move to move.
	prevX, prevY := -1, 0
	line := mixColors(bg, fg, 0.6)
	for i, s := range g.score {
		if i > 0 {
			s = (s + g.score[i-1]) / 2
		}
		if math.IsNaN(s) {
			prevX = -1
			continue
		}
		cy := mid - int(s/top*float64(ph)/2)
		if prevX >= 0 {
			segment(img, prevX, prevY, x(i), cy, line)
		}
		prevX, prevY = x(i), cy
	}
	// Ranks: log scale, 1 at the top, graphWorst and beyond at the bottom.
	r := max(1, int(1.5*scale))
	for k, ranks := range g.ranks {
		c := reviewColors[k%len(reviewColors)]
		for i, rank := range ranks {
			if rank <= 0 {
				continue
			}
			f := math.Min(1, math.Log(float64(rank))/math.Log(graphWorst))
			cy := pad + int(f*float64(ph))
			fill(img, image.Rect(x(i)-r, cy-r, x(i)+r+1, cy+r+1), c)
		}
	}
	return img
}

// toRGBA is c made opaque.
func toRGBA(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
}

// mixColors mixes t of b into a.
func mixColors(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

// segment draws a line one pixel wide from (x0, y0) to (x1, y1).
func segment(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for s := 0; s <= steps; s++ {
		x := x0 + (x1-x0)*s/steps
		y := y0 + (y1-y0)*s/steps
		if (image.Point{x, y}).In(img.Rect) {
			img.SetRGBA(x, y, c)
		}
	}
}
