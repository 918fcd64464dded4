package workbench

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/reading"
	"aji/internal/boardimage"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// The Reading tab asks analysis/reading (Stern ch. 4) about one chain: R
// with the pointer on a stone, or a click on a stone while the tab is
// shown, reads whether the chain can be captured if its opponent moves
// first (Attack) and saved if its owner does (Defend). Both reads are
// engine tasks, like the predictors': they run on the pool, never on the
// Fyne goroutine, are cached per position, and are cancelled when the user
// moves on or asks again. The answers are written in words in the tab and
// the status bar, and the main line is drawn as numbered stones the way
// the Search tab draws a variation (goban.Search), until the position
// changes or Esc. "Weak stones" reads every chain with at most four
// liberties with a small budget, one task a chain so that the marks fill
// in as the reads finish, and marks the chains that live or die by who
// moves first and those that die even moving first.

// tabReading is the saved name of the Reading tab.
const tabReading = "reading"

// readingDepth puts the marks and the line above the search's candidates.
const readingDepth = 3

// Preference keys of the Reading tab.
const (
	prefReadNodes  = "reading_nodes"
	prefWeakStones = "weak_stones"
)

const (
	// weakNodes is the budget of each weak-stones read: a few milliseconds
	// for most chains, so that a whole board fills in within a second or
	// two on two cores.
	weakNodes = 5000
	// weakLiberties: chains with more liberties are not read. Above the
	// solver's own bound (reading.DefaultMaxLiberties) a chain counts as
	// escaped, so reading it would say nothing.
	weakLiberties = reading.DefaultMaxLiberties
)

// readBudgets are the budgets offered for asked reads; the default is the
// solver's (about a second of one core at most).
var readBudgets = []int{10_000, reading.DefaultMaxNodes, 250_000}

// Colours of the marks: Okabe-Ito's orange and vermillion, as the guess
// mode's marks (goban.Hint), and the azure of goban.BestColor for the chain
// read. Shapes tell them apart too: a triangle, a cross, a square.
var (
	unsettledColor  = color.NRGBA{R: 230, G: 159, B: 0, A: 255}
	capturableColor = color.NRGBA{R: 230, G: 159, B: 0, A: 120} // the same triangle, faint: the defence was not read to the end
	deadColor       = color.NRGBA{R: 213, G: 60, B: 0, A: 255}
	readChainColor  = goban.BestColor
)

// solveFunc answers one capture problem with a budget of nodes; the tab's
// solve is poolSolve, which tests replace.
type solveFunc func(ctx context.Context, b *board.Board, target board.Point, goal reading.Goal, nodes int) (reading.Result, error)

// solverPools keep warm solvers by budget: a Solver is not safe for
// concurrent use, and a warm one allocates little.
var solverPools sync.Map // int → *sync.Pool of *reading.Solver

// poolSolve solves with a solver of the pool for its budget.
func poolSolve(ctx context.Context, b *board.Board, target board.Point, goal reading.Goal, nodes int) (reading.Result, error) {
	v, ok := solverPools.Load(nodes)
	if !ok {
		v, _ = solverPools.LoadOrStore(nodes, &sync.Pool{New: func() any { return reading.NewSolver(reading.Options{MaxNodes: nodes}) }})
	}
	pool := v.(*sync.Pool)
	s := pool.Get().(*reading.Solver)
	defer pool.Put(s)
	return s.Solve(ctx, b, target, goal)
}

// fate is what the two reads of a chain say together.
type fate int8

const (
	fateUnknown    fate = iota // not read, or the attack ran out of budget
	fateSafe                   // cannot be captured even if the opponent moves first
	fateUnsettled              // captured if the opponent moves first, saved if the owner does
	fateCapturable             // captured if the opponent moves first; the defence ran out of budget
	fateDead                   // cannot be saved even if the owner moves first
)

// fateOf classifies a chain by its attack and defence. A proved failure
// of the attack wins over the defence: a chain neither side can capture
// nor save moving first (a seki, say) lives.
func fateOf(attack, defend reading.Result) fate {
	switch {
	case attack.Proved && attack.Code == reading.Fail:
		return fateSafe
	case defend.Proved && defend.Code == reading.Fail:
		return fateDead
	case attack.Code != reading.Fail && defend.Code != reading.Fail:
		return fateUnsettled
	case attack.Code != reading.Fail:
		return fateCapturable
	}
	return fateUnknown
}

// chainOf is the chain at p: its stones in board order (the first names
// the chain in cache keys, whichever stone was asked about) and its
// liberties. p must hold a stone.
func chainOf(b *board.Board, p board.Point) (stones []board.Point, libs int) {
	for s := p; ; {
		stones = append(stones, s)
		if s = b.NextStone(s); s == p {
			break
		}
	}
	slices.Sort(stones)
	return stones, len(b.LibertyPoints(p, nil))
}

// readAsk is a read the user asked for.
type readAsk struct {
	node   *game.Node
	key    game.Key // the position's when asked: a setup edit changes it, not the node
	size   int
	point  board.Point // the stone asked about, which the sentences name
	owner  board.Color
	stones []board.Point // the chain's, in board order
	libs   int
	nodes  int // the budget of each read
}

// weakResult is both reads of a weak chain.
type weakResult struct{ attack, defend reading.Result }

// weakReads are the weak-stones reads of one position.
type weakReads struct {
	node   *game.Node
	key    game.Key
	chains [][]board.Point            // the stones of each chain read, in board order
	done   map[board.Point]weakResult // by the chain's first stone
}

// readTab is the Reading tab, on the Fyne goroutine.
type readTab struct {
	tabBase
	solve solveFunc

	nodes  int  // the budget of asked reads
	weakOn bool // the weak-stones overlay is shown and read

	ask      *readAsk
	res      [2]*reading.Result // Attack, Defend, as they arrive
	lineGoal reading.Goal       // the line drawn
	userLine bool               // the user chose lineGoal for this read
	weak     *weakReads

	version int     // counts changes of what the layer draws
	drawnAt drawnAt // what the layer was drawn for
	marks   *goban.Peer
	line    *goban.Search
	drawn   goban.Layer

	box      *container.Scroll
	inner    *fyne.Container
	answers  *fyne.Container // the labels of the read
	laidOut  string          // the texts when the box was last laid out
	weakC    *widget.Check
	weakL    *widget.Label
	budget   *widget.Select
	chainL   *widget.Label
	attackL  *widget.Label
	defendL  *widget.Label
	verdictL *widget.Label
	lineR    *widget.RadioGroup
	lineL    *widget.Label
	silent   bool // a change of the controls made by the program
}

// drawnAt is what the layer on the boards was made for: a position, the
// tab's state, and whether the Guess tab hid it.
type drawnAt struct {
	node    *game.Node
	key     game.Key
	version int
	off     bool
}

// Sentences of the line choice.
const (
	lineCapture = "Capture"
	lineSave    = "Save"
)

func newReadingTab(wb *Workbench) tab {
	rt := &readTab{tabBase: tabBase{wb: wb, name: tabReading, title: "Reading"}, solve: poolSolve}
	p := wb.opts.Preferences
	rt.nodes = p.IntWithFallback(prefReadNodes, reading.DefaultMaxNodes)
	if !slices.Contains(readBudgets, rt.nodes) {
		rt.nodes = reading.DefaultMaxNodes
	}
	rt.weakOn = p.Bool(prefWeakStones)

	rt.weakC = widget.NewCheck("Weak stones", nil)
	rt.weakC.SetChecked(rt.weakOn)
	rt.weakC.OnChanged = func(on bool) {
		rt.weakOn = on
		p.SetBool(prefWeakStones, on)
		rt.version++
		wb.analyze()
		rt.update()
		rt.unfocus()
	}
	names := make([]string, len(readBudgets))
	for i, n := range readBudgets {
		names[i] = boardimage.Thousands(n) + " nodes"
	}
	rt.budget = widget.NewSelect(names, nil)
	rt.budget.SetSelected(names[slices.Index(readBudgets, rt.nodes)])
	rt.budget.OnChanged = func(v string) {
		rt.nodes = readBudgets[slices.Index(names, v)]
		p.SetInt(prefReadNodes, rt.nodes)
		if a := rt.ask; a != nil && rt.showing(a.node, a.key) {
			rt.read(a.point) // again, with the new budget
		}
		rt.unfocus()
	}
	label := func(bold bool) *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		l.TextStyle.Bold = bold
		return l
	}
	rt.weakL, rt.chainL, rt.attackL, rt.defendL, rt.verdictL, rt.lineL = label(false), label(true), label(false), label(false), label(true), label(false)
	rt.lineR = widget.NewRadioGroup([]string{lineCapture, lineSave}, func(v string) {
		if rt.silent || v == "" {
			return
		}
		rt.lineGoal, rt.userLine = reading.Attack, true
		if v == lineSave {
			rt.lineGoal = reading.Defend
		}
		rt.version++
		rt.update()
		rt.unfocus()
	})
	rt.lineR.Horizontal = true
	rt.lineR.Required = true

	legend := container.NewHBox(
		markIcon(goban.MarkTriangle, unsettledColor), widget.NewLabel("unsettled"),
		markIcon(goban.MarkTriangle, capturableColor), widget.NewLabel("capturable"),
		markIcon(goban.MarkCross, deadColor), widget.NewLabel("dead"))
	help := widget.NewLabel("Point at a stone and press R, or click a stone while this tab is shown, to read its chain both ways. Esc clears.")
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	form := container.New(layout.NewFormLayout(), widget.NewLabel("Budget"), rt.budget, widget.NewLabel("Line"), rt.lineR)
	// The answers first, where the tab opens; they take no room until
	// there is a read.
	rt.answers = container.NewVBox(rt.chainL, rt.attackL, rt.defendL, rt.verdictL, rt.lineL)
	rt.inner = container.NewVBox(help, rt.answers, form, widget.NewSeparator(),
		container.NewBorder(nil, nil, rt.weakC, nil, legend), rt.weakL)
	rt.box = container.NewVScroll(rt.inner)
	rt.update()
	return rt
}

func (rt *readTab) content() fyne.CanvasObject { return rt.box }

func (rt *readTab) layer() (goban.Layer, int) { return rt.drawn, readingDepth }

// unfocus gives the keyboard back to navigation after a control is used.
func (rt *readTab) unfocus() {
	if c := rt.wb.win.Canvas(); c != nil {
		c.Unfocus()
	}
}

// showing reports whether the board shows node's position as it was when
// its key was taken.
func (rt *readTab) showing(node *game.Node, key game.Key) bool {
	c := rt.wb.doc.cursor
	return node == c.Node() && key == c.Position().Key()
}

// takeKey implements keyTaker: R reads the chain under the pointer, Esc
// clears the read. Neither while the Guess tab hides the next move: a
// main line would give it away.
func (rt *readTab) takeKey(key fyne.KeyName, mods fyne.KeyModifier) bool {
	if mods&^fyne.KeyModifierShift != 0 {
		return false
	}
	switch key {
	case fyne.KeyR:
		if rt.wb.tabHidesNext() {
			rt.wb.setStatus("No reading while you guess the next move")
			return true
		}
		h := rt.wb.hover
		if !h.inside {
			rt.wb.setStatus("Point at a stone, then press R to read its chain")
			return true
		}
		rt.readAt(h.point)
		return true
	case fyne.KeyEscape:
		if rt.ask == nil || rt.wb.tabHidesNext() {
			return false
		}
		rt.dismiss()
		return true
	}
	return false
}

// takeClick implements clickTaker: with the tab shown, a click on a stone
// reads its chain; a click on an empty point plays as usual.
func (rt *readTab) takeClick(p goban.Point) bool {
	if !rt.shown() || rt.wb.tabHidesNext() {
		return false
	}
	pos := rt.wb.doc.cursor.Position()
	n := pos.Board.Size()
	if p.X < 0 || p.Y < 0 || p.X >= n || p.Y >= n {
		return false
	}
	if c := pos.Board.At(board.At(p.X, p.Y)); c != board.Black && c != board.White {
		return false
	}
	rt.readAt(p)
	return true
}

// readAt reads the chain at p of the board, or says there is none.
func (rt *readTab) readAt(p goban.Point) {
	pos := rt.wb.doc.cursor.Position()
	n := pos.Board.Size()
	if p.X < 0 || p.Y < 0 || p.X >= n || p.Y >= n {
		return
	}
	pt := board.At(p.X, p.Y)
	if c := pos.Board.At(pt); c != board.Black && c != board.White {
		rt.wb.setStatus("%s: no stone to read — point at a stone", pt.GTP(n))
		return
	}
	rt.read(pt)
}

// read asks both questions about the chain at pt, which holds a stone,
// with the tab's budget. Analyzing again cancels a read still running
// with the rest of the position's analyses, and restarts those not done.
func (rt *readTab) read(pt board.Point) {
	c := rt.wb.doc.cursor
	pos := c.Position()
	stones, libs := chainOf(&pos.Board, pt)
	rt.ask = &readAsk{node: c.Node(), key: pos.Key(), size: pos.Board.Size(), point: pt, owner: pos.Board.At(pt),
		stones: stones, libs: libs, nodes: rt.nodes}
	rt.res = [2]*reading.Result{}
	rt.lineGoal, rt.userLine = reading.Attack, false
	rt.version++
	rt.wb.setStatus("Reading the %s chain at %s…", strings.ToLower(colorName(rt.ask.owner)), pt.GTP(rt.ask.size))
	rt.wb.analyze()
	rt.update()
}

// dismiss clears the read and its line, cancelling it if it still runs.
func (rt *readTab) dismiss() {
	running := rt.res[0] == nil || rt.res[1] == nil
	rt.clearRead()
	rt.wb.setStatus("")
	if running {
		rt.wb.analyze()
	}
	rt.update()
}

func (rt *readTab) clearRead() {
	rt.ask, rt.res = nil, [2]*reading.Result{}
	rt.version++
}

// navigated drops the read and the weak-stones reads of a position left;
// the engine cancels their tasks as the new position's analysis starts.
func (rt *readTab) navigated() {
	if a := rt.ask; a != nil && !rt.showing(a.node, a.key) {
		rt.clearRead()
	}
	if w := rt.weak; w != nil && !rt.showing(w.node, w.key) {
		rt.weak = nil
		rt.version++
	}
	rt.update()
}

// tasks implements tab: the asked read's two questions, then a task for
// each weak chain not read yet. They feed the boards, so they are board
// tasks.
func (rt *readTab) tasks(bool) (board, text []engine.Task) {
	if a := rt.ask; a != nil && rt.showing(a.node, a.key) {
		for _, g := range []reading.Goal{reading.Attack, reading.Defend} {
			if rt.res[g] == nil {
				board = append(board, rt.readTask(a, g))
			}
		}
	}
	if rt.weakOn {
		board = append(board, rt.weakTasks()...)
	}
	return board, nil
}

// readTask is one question about the asked chain.
func (rt *readTab) readTask(a *readAsk, g reading.Goal) engine.Task {
	solve, target, nodes := rt.solve, a.stones[0], a.nodes
	key := fmt.Sprintf("reading/%s/%d/%d", g, nodes, target)
	return engine.NewTask(key, func(ctx context.Context, pos *game.Position) (reading.Result, error) {
		return solve(ctx, &pos.Board, target, g, nodes)
	}, resultSize, func(r reading.Result, err error) {
		if rt.ask != a {
			return // asked again, or dismissed
		}
		if err != nil {
			rt.wb.setStatus("reading: %v", err)
			return
		}
		rt.res[g] = &r
		rt.version++
		if rt.res[0] != nil && rt.res[1] != nil {
			rt.wb.setStatus("%s", rt.summary())
		}
		rt.update()
	})
}

// resultSize estimates a result's bytes for the engine's cache.
func resultSize(r reading.Result) int { return 96 + 8*len(r.Line) }

// weakTasks are the weak-stones tasks of the position shown, which they
// first list the chains of.
func (rt *readTab) weakTasks() []engine.Task {
	c := rt.wb.doc.cursor
	pos := c.Position()
	w := rt.weak
	if w == nil || !rt.showing(w.node, w.key) {
		w = &weakReads{node: c.Node(), key: pos.Key(), chains: weakChains(&pos.Board), done: map[board.Point]weakResult{}}
		rt.weak = w
		rt.version++
	}
	solve := rt.solve
	var tasks []engine.Task
	for _, ch := range w.chains {
		target := ch[0]
		if _, ok := w.done[target]; ok {
			continue
		}
		key := fmt.Sprintf("reading/weak/%d/%d", weakNodes, target)
		tasks = append(tasks, engine.NewTask(key, func(ctx context.Context, pos *game.Position) (weakResult, error) {
			a, err := solve(ctx, &pos.Board, target, reading.Attack, weakNodes)
			if err != nil {
				return weakResult{}, err
			}
			d, err := solve(ctx, &pos.Board, target, reading.Defend, weakNodes)
			return weakResult{a, d}, err
		}, func(r weakResult) int { return resultSize(r.attack) + resultSize(r.defend) },
			func(r weakResult, err error) {
				if rt.weak != w || err != nil {
					return
				}
				w.done[target] = r
				rt.version++
				rt.update()
			}))
	}
	return tasks
}

// weakChains lists the chains of b with at most weakLiberties liberties.
func weakChains(b *board.Board) [][]board.Point {
	var out [][]board.Point
	seen := map[board.Point]bool{}
	for _, p := range b.Points() {
		c := b.At(p)
		if c != board.Black && c != board.White || seen[b.ChainHead(p)] {
			continue
		}
		seen[b.ChainHead(p)] = true
		if b.Liberties(p, weakLiberties+1) > weakLiberties {
			continue
		}
		stones, _ := chainOf(b, p)
		out = append(out, stones)
	}
	return out
}

// render implements tab.
func (rt *readTab) render() { rt.update() }

// update writes the tab's texts and puts the layer on the boards when what
// it draws changed.
func (rt *readTab) update() {
	rt.showWeak()
	rt.showRead()
	// A wrapped label's height follows its text, but its container's
	// layout does not follow by itself.
	if texts := rt.texts(); texts != rt.laidOut {
		rt.laidOut = texts
		rt.inner.Refresh()
		rt.box.Refresh()
	}
	off := rt.wb.tabHidesNext()
	c := rt.wb.doc.cursor
	at := drawnAt{node: c.Node(), key: c.Position().Key(), version: rt.version, off: off}
	if at == rt.drawnAt {
		return
	}
	rt.drawnAt = at
	rt.marks, rt.line = nil, nil
	if !off {
		rt.marks = rt.makeMarks()
		rt.line = rt.makeLine()
	}
	var l goban.Layer
	switch {
	case rt.marks != nil && rt.line != nil:
		l = layers{rt.marks, rt.line}
	case rt.marks != nil:
		l = rt.marks
	case rt.line != nil:
		l = rt.line
	}
	if l != nil || rt.drawn != nil {
		rt.drawn = l
		rt.wb.showLayers()
	}
}

// texts are the tab's changing texts, to tell when they change.
func (rt *readTab) texts() string {
	var sb strings.Builder
	for _, l := range []*widget.Label{rt.weakL, rt.chainL, rt.attackL, rt.defendL, rt.verdictL, rt.lineL} {
		sb.WriteString(l.Text)
		sb.WriteByte(0)
	}
	return sb.String()
}

// current is the asked read if it is of the position shown.
func (rt *readTab) current() *readAsk {
	if a := rt.ask; a != nil && rt.showing(a.node, a.key) {
		return a
	}
	return nil
}

// makeMarks marks the weak chains read so far and the chain asked about.
func (rt *readTab) makeMarks() *goban.Peer {
	a := rt.current()
	var ls []goban.Label
	asked := map[board.Point]bool{}
	if a != nil {
		for _, s := range a.stones {
			asked[s] = true
			ls = append(ls, goban.Label{Point: goPoint(s), Mark: goban.MarkSquare, Color: readChainColor})
		}
	}
	w := rt.weak
	if rt.weakOn && w != nil && rt.showing(w.node, w.key) {
		for _, ch := range w.chains {
			r, ok := w.done[ch[0]]
			if !ok || asked[ch[0]] {
				continue // the read's own answer is in the tab
			}
			var mark goban.MarkKind
			var col color.Color
			switch fateOf(r.attack, r.defend) {
			case fateUnsettled:
				mark, col = goban.MarkTriangle, unsettledColor
			case fateCapturable:
				mark, col = goban.MarkTriangle, capturableColor
			case fateDead:
				mark, col = goban.MarkCross, deadColor
			default:
				continue
			}
			for _, s := range ch {
				ls = append(ls, goban.Label{Point: goPoint(s), Mark: mark, Color: col})
			}
		}
	}
	if len(ls) == 0 {
		return nil
	}
	return &goban.Peer{Size: rt.wb.doc.cursor.Game().Size(), Labels: ls}
}

// lineShown is the read whose main line is drawn, or nil: the user's
// choice, else the capture when there is one.
func (rt *readTab) lineShown() *reading.Result {
	if rt.current() == nil {
		return nil
	}
	r := rt.res[rt.lineGoal]
	if r == nil || r.Code == reading.Fail || len(r.Line) == 0 {
		return nil
	}
	return r
}

// makeLine draws the main line shown as numbered stones, the first in the
// colour of the side that moves first.
func (rt *readTab) makeLine() *goban.Search {
	r := rt.lineShown()
	if r == nil {
		return nil
	}
	a := rt.ask
	first := a.owner.Opponent()
	if r.Goal == reading.Defend {
		first = a.owner
	}
	l := &goban.Search{Size: a.size, ToPlay: goban.Black}
	if first == board.White {
		l.ToPlay = goban.White
	}
	pos := rt.wb.doc.cursor.Position()
	for _, p := range r.Line[:drawnMoves(&pos.Board, r.Line)] {
		l.PV = append(l.PV, goPoint(p))
	}
	return l
}

// drawnMoves is how many moves of a line the board draws over b: up to
// goban.MaxPV, and not past a move on a point that holds a stone on the
// board or was played before in the line (a stone captured, then the point
// played again): its number would cover that stone.
func drawnMoves(b *board.Board, line []board.Point) int {
	n := min(len(line), goban.MaxPV)
	for i := range n {
		if p := line[i]; p != board.Pass && (b.At(p) != board.Empty || slices.Contains(line[:i], p)) {
			return i
		}
	}
	return n
}

// showWeak writes what the weak-stones marks mean and how far the reads are.
func (rt *readTab) showWeak() {
	var text string
	w := rt.weak
	switch {
	case !rt.weakOn:
		text = fmt.Sprintf("Reads every chain with at most %d liberties (%s nodes each): a triangle if who moves first decides its fate, a cross if it dies even moving first.", weakLiberties, boardimage.Thousands(weakNodes))
	case w == nil || !rt.showing(w.node, w.key):
		text = "Listing the weak chains…"
	case len(w.chains) == 0:
		text = fmt.Sprintf("No chain has %d liberties or fewer.", weakLiberties)
	default:
		var count [fateDead + 1]int
		for _, r := range w.done {
			count[fateOf(r.attack, r.defend)]++
		}
		n := len(w.chains)
		if len(w.done) < n {
			text = fmt.Sprintf("Reading %d chains with ≤ %d liberties: %d done…", n, weakLiberties, len(w.done))
		} else {
			text = fmt.Sprintf("%d chain%s with ≤ %d liberties read (%s nodes each)", n, plural(n), weakLiberties, boardimage.Thousands(weakNodes))
		}
		var parts []string
		add := func(k int, what string) {
			if k > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", k, what))
			}
		}
		add(count[fateUnsettled], "unsettled (orange triangle)")
		add(count[fateCapturable], "capturable, defence unread (faint triangle)")
		add(count[fateDead], "dead (red cross)")
		add(count[fateSafe], "safe")
		add(count[fateUnknown], "undecided (budget ran out)")
		if len(parts) > 0 {
			text += ": " + strings.Join(parts, ", ")
		}
		text += "."
	}
	setText(rt.weakL, text)
}

// showRead writes the asked read: the chain, both answers, what they mean
// together, and the line drawn.
func (rt *readTab) showRead() {
	a := rt.current()
	if a == nil {
		for _, l := range []*widget.Label{rt.chainL, rt.attackL, rt.defendL, rt.verdictL, rt.lineL} {
			setText(l, "")
		}
		rt.answers.Hide()
		enable(rt.lineR, false)
		return
	}
	rt.answers.Show()
	libs := "liberties"
	if a.libs == 1 {
		libs = "liberty"
	}
	setText(rt.chainL, fmt.Sprintf("%s chain at %s: %d stone%s, %d %s", colorName(a.owner), a.point.GTP(a.size),
		len(a.stones), plural(len(a.stones)), a.libs, libs))
	name := a.point.GTP(a.size)
	sentence := func(g reading.Goal) string {
		if r := rt.res[g]; r != nil {
			return readSentence(*r, a.owner, name, a.nodes, a.size)
		}
		return fmt.Sprintf("%s to play: reading…", colorName(moverOf(g, a.owner)))
	}
	setText(rt.attackL, sentence(reading.Attack))
	setText(rt.defendL, sentence(reading.Defend))
	verdict := ""
	if rt.res[0] != nil && rt.res[1] != nil {
		verdict = verdictText(*rt.res[0], *rt.res[1], a.owner)
		if !rt.userLine {
			// The capture, which shows what is at stake; the defence only
			// when the attack ran out of budget. A safe chain has no line:
			// its "saving" move saves nothing.
			rt.lineGoal = reading.Attack
			if !rt.res[0].Proved && rt.res[1].Code != reading.Fail {
				rt.lineGoal = reading.Defend
			}
		}
	}
	setText(rt.verdictL, verdict)
	rt.silent = true
	want := lineCapture
	if rt.lineGoal == reading.Defend {
		want = lineSave
	}
	if rt.lineR.Selected != want {
		rt.lineR.SetSelected(want)
	}
	rt.silent = false
	enable(rt.lineR, true)
	setText(rt.lineL, rt.lineText(a))
}

// lineText lists the moves of the line shown.
func (rt *readTab) lineText(a *readAsk) string {
	r := rt.res[rt.lineGoal]
	if r == nil {
		return ""
	}
	what := "Capture"
	if r.Goal == reading.Defend {
		what = "Save"
	}
	if r.Code == reading.Fail || len(r.Line) == 0 {
		return fmt.Sprintf("%s: no line to show.", what)
	}
	moves := make([]string, len(r.Line))
	for i, p := range r.Line {
		moves[i] = fmt.Sprintf("%d %s", i+1, p.GTP(a.size))
	}
	text := fmt.Sprintf("%s line, %s first: %s", what, colorName(moverOf(r.Goal, a.owner)), strings.Join(moves, ", "))
	pos := rt.wb.doc.cursor.Position()
	if n := drawnMoves(&pos.Board, r.Line); n < len(r.Line) {
		text += fmt.Sprintf(" (the board shows 1–%d)", n)
	}
	return text
}

// summary is the read in one line for the status bar.
func (rt *readTab) summary() string {
	a := rt.ask
	at, df := *rt.res[0], *rt.res[1]
	name := a.point.GTP(a.size)
	short := func(r reading.Result) string {
		s := readSentence(r, a.owner, name, a.nodes, a.size)
		if i := strings.LastIndex(s, " ("); i > 0 {
			s = s[:i]
		}
		return s
	}
	v := verdictText(at, df, a.owner)
	if i := strings.Index(v, ":"); i > 0 {
		v = v[:i]
	}
	return fmt.Sprintf("%s — %s; %s", v, short(at), short(df))
}

// moverOf is the side that moves first in a read of a chain of owner's.
func moverOf(g reading.Goal, owner board.Color) board.Color {
	if g == reading.Defend {
		return owner
	}
	return owner.Opponent()
}

// readSentence says a read's answer for the side that moves first, the
// chain named by the stone at name: "White to play captures B4 with G1
// (proved, 1,234 nodes, 12 ms)", "Black to play saves it with H5 in a ko
// Black takes first (…)", "Black to play: B4 cannot be captured (…)".
// nodes is the read's budget.
func readSentence(r reading.Result, owner board.Color, name string, nodes, size int) string {
	mover := moverOf(r.Goal, owner)
	m, o := colorName(mover), colorName(mover.Opponent())
	if !r.Proved && r.Code == reading.Fail {
		return fmt.Sprintf("%s to play: no answer — the budget of %s nodes ran out (%s)", m, boardimage.Thousands(nodes), readTime(r.Time))
	}
	stats := fmt.Sprintf("(proved, %s node%s, %s)", boardimage.Thousands(r.Nodes), plural(r.Nodes), readTime(r.Time))
	if r.Code == reading.Fail {
		if r.Goal == reading.Defend {
			return fmt.Sprintf("%s to play: it cannot be saved %s", m, stats)
		}
		return fmt.Sprintf("%s to play: %s cannot be captured %s", m, name, stats)
	}
	what := "captures " + name
	if r.Goal == reading.Defend {
		what = "saves it"
	}
	s := fmt.Sprintf("%s to play %s with %s", m, what, r.Move.GTP(size))
	switch r.Code {
	case reading.KoFirst:
		s += fmt.Sprintf(" in a ko %s takes first", m)
	case reading.KoLater:
		s += fmt.Sprintf(" only if %s wins a ko %s takes first", m, o)
	}
	if !r.Proved {
		// Settled only up to a liberty bound: the string escaped that far (see reading.Result).
		return fmt.Sprintf("%s, at least to %d liberties (the budget of %s nodes ran out, %s)", s, r.Bound+1, boardimage.Thousands(nodes), readTime(r.Time))
	}
	return s + " " + stats
}

// verdictText says what the two reads mean together.
func verdictText(attack, defend reading.Result, owner board.Color) string {
	ko := attack.Code >= reading.KoFirst || defend.Code >= reading.KoFirst
	switch fateOf(attack, defend) {
	case fateSafe:
		return fmt.Sprintf("Safe: it cannot be captured even if %s moves first.", colorName(owner.Opponent()))
	case fateDead:
		return fmt.Sprintf("Dead: it cannot be saved even if %s moves first.", colorName(owner))
	case fateUnsettled:
		if ko {
			return "Unsettled: whoever moves first decides, through a ko."
		}
		return "Unsettled: whoever moves first decides."
	case fateCapturable:
		return fmt.Sprintf("Capturable: %s moving first captures it; the defence was not read to the end.", colorName(owner.Opponent()))
	}
	return "Undecided: the read ran out of its budget."
}

// readTime is a read's time for reading: "84 µs", "12 ms", "1.2 s".
func readTime(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// markIcon is a mark of the board drawn for the legend, 14 units square.
func markIcon(m goban.MarkKind, c color.NRGBA) fyne.CanvasObject {
	const s = 14
	line := func(x1, y1, x2, y2 float32) fyne.CanvasObject {
		l := canvas.NewLine(c)
		l.StrokeWidth = 2
		l.Position1, l.Position2 = fyne.NewPos(x1, y1), fyne.NewPos(x2, y2)
		return l
	}
	var objs []fyne.CanvasObject
	switch m {
	case goban.MarkTriangle:
		objs = []fyne.CanvasObject{line(s/2, 1, s-1, s-2), line(s-1, s-2, 1, s-2), line(1, s-2, s/2, 1)}
	case goban.MarkCross:
		objs = []fyne.CanvasObject{line(2, 2, s-2, s-2), line(s-2, 2, 2, s-2)}
	}
	return container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(s), container.NewWithoutLayout(objs...)))
}
