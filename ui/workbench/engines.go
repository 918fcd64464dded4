package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"strconv"
	"strings"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/peer"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// tabEngines is the saved name of the Engines tab.
const tabEngines = "engines"

// prefEngines holds the engine list, as JSON.
const prefEngines = "engines"

// enginesDepth puts an engine's answer above the labels, below an input plane.
const enginesDepth = 2

// engineEntry is one engine of the list, as saved.
type engineEntry struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}

// enginesTab consults external GTP engines (analysis/peer) about the position shown: the list of
// engines, saved in the preferences; the selected engine's state and a Restart; its move
// (Genmove) ringed on the boards; and its GoGui analyze commands, whose answer is drawn on the
// boards (goban.Peer) and its text shown here; and, for an engine with lz-analyze or
// kata-analyze, a live analysis of the position shown, drawn as the Search tab draws Aji's own
// search. Every engine call runs on a goroutine; a navigation cancels the calls about the position
// and drops their late answers, and restarts a live analysis on the new position.
type enginesTab struct {
	tabBase
	list    []engineEntry
	engines []*peer.Engine // by list index
	sel     int            // the selected engine, -1: none

	life   context.Context // ends at stop
	end    context.CancelFunc
	cancel context.CancelFunc // cancels the calls about the position shown
	run    int                // counts the requests about positions, so stale answers are dropped
	busy   int                // goroutines whose answer has not been delivered, for tests
	closes sync.WaitGroup     // engines being closed

	node    *game.Node // the node the answer shown is for
	pending *game.Node // the node of the request in flight
	cmds    []peer.AnalyzeCommand
	drawn   *goban.Peer
	streams []peer.StreamKind // the selected engine's, best first
	live    *liveRun          // the live analysis running, nil when off
	liveL   *liveLayer        // what it draws, in place of drawn

	names    *widget.List
	name     *widget.Entry
	command  *widget.Entry
	addB     *widget.Button
	removeB  *widget.Button
	state    *widget.Label
	restartB *widget.Button
	genmoveB *widget.Button
	analyze  *widget.Select
	runB     *widget.Button
	liveC    *widget.Check
	text     *widget.Label
	box      fyne.CanvasObject
}

func newEnginesTab(wb *Workbench) tab {
	et := &enginesTab{tabBase: tabBase{wb: wb, name: tabEngines, title: "Engines"}, sel: -1}
	et.life, et.end = context.WithCancel(context.Background())
	if s := wb.opts.Preferences.String(prefEngines); s != "" {
		if err := json.Unmarshal([]byte(s), &et.list); err != nil {
			et.list = nil
		}
	}
	for _, e := range et.list {
		et.engines = append(et.engines, peer.New(e.Command))
	}
	et.names = widget.NewList(func() int { return len(et.list) },
		func() fyne.CanvasObject { return widget.NewLabel("engine") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(et.list) {
				o.(*widget.Label).SetText(et.list[i].Name + " — " + et.list[i].Command)
			}
		})
	et.names.OnSelected = et.choose
	et.names.OnUnselected = func(widget.ListItemID) { et.choose(-1) }
	et.name = widget.NewEntry()
	et.name.SetPlaceHolder("Name, e.g. GNU Go")
	et.command = widget.NewEntry()
	et.command.SetPlaceHolder("Command line, e.g. gnugo --mode gtp")
	et.addB = widget.NewButton("Add", func() { et.add(et.name.Text, et.command.Text) })
	et.removeB = widget.NewButton("Remove", et.remove)
	et.state = widget.NewLabel("")
	et.state.Wrapping = fyne.TextWrapWord
	et.restartB = widget.NewButton("Restart", et.restart)
	et.genmoveB = widget.NewButton("Genmove", et.genmove)
	et.analyze = widget.NewSelect(nil, func(string) { et.runAnalyze() })
	et.analyze.PlaceHolder = "(analyze commands)"
	et.runB = widget.NewButton("Run", et.runAnalyze)
	et.liveC = widget.NewCheck("Live analysis", func(on bool) {
		if on {
			et.startLive()
		} else {
			et.stopLive()
		}
	})
	et.text = widget.NewLabel("")
	et.text.Wrapping = fyne.TextWrapWord
	add := container.NewBorder(nil, nil, nil, et.addB, container.NewGridWithColumns(2, et.name, et.command))
	controls := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(et.restartB, et.removeB), et.state),
		container.NewBorder(nil, nil, et.genmoveB, et.runB, et.analyze),
		et.liveC,
		et.text)
	top := container.NewVBox(add, widget.NewSeparator())
	et.box = container.NewBorder(top, nil, nil, nil,
		container.NewVSplit(et.names, container.NewVScroll(controls)))
	et.update()
	return et
}

func (et *enginesTab) content() fyne.CanvasObject { return et.box }

func (et *enginesTab) layer() (goban.Layer, int) {
	switch {
	case et.liveL != nil:
		return et.liveL, enginesDepth
	case et.drawn != nil:
		return et.drawn, enginesDepth
	}
	return nil, 0
}

// save writes the engine list to the preferences.
func (et *enginesTab) save() {
	b, err := json.Marshal(et.list)
	if err == nil {
		et.wb.opts.Preferences.SetString(prefEngines, string(b))
	}
}

// add appends an engine to the list and selects it.
func (et *enginesTab) add(name, command string) {
	name, command = strings.TrimSpace(name), strings.TrimSpace(command)
	if command == "" {
		et.text.SetText("Give the engine's command line, e.g. gnugo --mode gtp.")
		return
	}
	if name == "" {
		name = strings.Fields(command)[0]
	}
	et.list = append(et.list, engineEntry{Name: name, Command: command})
	et.engines = append(et.engines, peer.New(command))
	et.save()
	et.name.SetText("")
	et.command.SetText("")
	et.names.Refresh()
	et.names.Select(len(et.list) - 1)
}

// remove takes the selected engine off the list and closes it.
func (et *enginesTab) remove() {
	i := et.sel
	if i < 0 || i >= len(et.list) {
		return
	}
	e := et.engines[i]
	et.list = append(et.list[:i:i], et.list[i+1:]...)
	et.engines = append(et.engines[:i:i], et.engines[i+1:]...)
	et.save()
	et.names.UnselectAll()
	et.choose(-1)
	et.names.Refresh()
	et.closeEngine(e)
}

// closeEngine closes e off the Fyne goroutine: Close waits for a command in flight.
func (et *enginesTab) closeEngine(e *peer.Engine) {
	et.closes.Add(1)
	go func() {
		defer et.closes.Done()
		e.Close()
	}()
}

// engine is the selected engine, or nil.
func (et *enginesTab) engine() *peer.Engine {
	if et.sel < 0 || et.sel >= len(et.engines) {
		return nil
	}
	return et.engines[et.sel]
}

// choose follows the selection of engine i (-1: none): its state, and its analyze commands,
// fetched (which starts it).
func (et *enginesTab) choose(i int) {
	if i == et.sel {
		return
	}
	et.liveC.SetChecked(false)
	et.sel = i
	et.cancelPosition()
	et.cmds, et.streams = nil, nil
	et.analyze.ClearSelected()
	et.analyze.SetOptions(nil)
	et.clearDrawn()
	et.text.SetText("")
	et.update()
	if e := et.engine(); e != nil {
		et.fetchCommands(e)
	}
}

// fetchCommands asks e's analyze commands, for its Select, and its analysis streams.
func (et *enginesTab) fetchCommands(e *peer.Engine) {
	et.state.SetText("Starting…")
	et.spawn(et.life, func(ctx context.Context) func() {
		cmds, err := e.AnalyzeCommands(ctx)
		var streams []peer.StreamKind
		if err == nil {
			streams, err = e.Streams(ctx)
		}
		return func() {
			if e != et.engine() {
				return
			}
			if err == nil {
				et.cmds = nil
				var labels []string
				for _, c := range cmds {
					if c.Drawable() {
						et.cmds = append(et.cmds, c)
						labels = append(labels, c.Label)
					}
				}
				et.analyze.SetOptions(labels)
				et.streams = streams
			}
			et.update()
		}
	})
}

// spawn runs call on a goroutine and what it returns on the Fyne goroutine.
func (et *enginesTab) spawn(ctx context.Context, call func(context.Context) func()) {
	et.busy++
	onUI := et.wb.opts.OnUI
	go func() {
		deliver := call(ctx)
		onUI(func() {
			et.busy--
			deliver()
		})
	}()
}

// update shows the selected engine's state and enables what it allows.
func (et *enginesTab) update() {
	e := et.engine()
	for _, w := range []fyne.Disableable{et.removeB, et.restartB, et.genmoveB, et.analyze, et.runB} {
		if e == nil {
			w.Disable()
		} else {
			w.Enable()
		}
	}
	if e == nil || len(et.streams) == 0 {
		et.liveC.Disable()
	} else {
		et.liveC.Enable()
	}
	switch {
	case e == nil && len(et.list) == 0:
		et.state.SetText("Add a GTP engine: a name and its command line.")
	case e == nil:
		et.state.SetText("Select an engine.")
	default:
		st := e.State()
		switch {
		case st.Err != nil:
			et.state.SetText("down: " + st.Err.Error())
		case st.Running:
			et.state.SetText("running: " + st.Name)
		default:
			et.state.SetText("not started")
		}
	}
}

// restart restarts the selected engine and fetches its analyze commands again.
func (et *enginesTab) restart() {
	e := et.engine()
	if e == nil {
		return
	}
	et.liveC.SetChecked(false)
	et.cancelPosition()
	et.state.SetText("Restarting…")
	et.spawn(et.life, func(ctx context.Context) func() {
		err := e.Restart(ctx)
		return func() {
			if e != et.engine() {
				return
			}
			et.update()
			if err == nil {
				et.fetchCommands(e)
			}
		}
	})
}

// position starts a request about the position shown: it cancels the one before, and returns
// the position (a copy), its node and the request's number and context.
func (et *enginesTab) position() (*game.Position, *game.Node, int, context.Context) {
	et.cancelPosition()
	ctx, cancel := context.WithCancel(et.life)
	et.cancel = cancel
	et.run++
	c := et.wb.doc.cursor
	pos := *c.Position()
	et.pending = c.Node()
	return &pos, c.Node(), et.run, ctx
}

// cancelPosition cancels the request about a position in flight; its answer will be dropped.
func (et *enginesTab) cancelPosition() {
	if et.cancel != nil {
		et.cancel()
		et.cancel = nil
	}
	et.pending = nil
	et.run++
}

// genmove asks the selected engine's move for the side to move, and rings it on the boards.
func (et *enginesTab) genmove() {
	e := et.engine()
	if e == nil {
		return
	}
	et.liveC.SetChecked(false) // the engine answers one thing at a time
	pos, node, run, ctx := et.position()
	color := pos.ToPlay
	et.text.SetText(fmt.Sprintf("Asking %s's move for %s…", et.list[et.sel].Name, colorName(color)))
	et.spawn(ctx, func(ctx context.Context) func() {
		p, err := e.Genmove(ctx, pos, color)
		return func() {
			if run != et.run {
				return
			}
			et.cancel, et.pending = nil, nil
			et.update()
			switch {
			case errors.Is(err, gtp.ErrResigned):
				et.show(node, nil, fmt.Sprintf("%s resigns as %s.", et.list[et.sel].Name, colorName(color)))
			case err != nil:
				et.show(node, nil, "Genmove failed: "+err.Error())
			case p == board.Pass:
				et.show(node, nil, fmt.Sprintf("%s passes as %s.", et.list[et.sel].Name, colorName(color)))
			default:
				text := "B"
				if color == board.White {
					text = "W"
				}
				l := &goban.Peer{Size: pos.Board.Size(), Labels: []goban.Label{
					{Point: widgetPoint(p), Mark: goban.MarkRing, Text: text, Color: goban.BestColor}}}
				et.show(node, l, fmt.Sprintf("%s plays %s %s.", et.list[et.sel].Name, colorName(color), p.GTP(pos.Board.Size())))
			}
		}
	})
}

// runAnalyze runs the analyze command chosen for the position shown, and draws its answer.
func (et *enginesTab) runAnalyze() {
	e := et.engine()
	i := et.analyze.SelectedIndex()
	if e == nil || i < 0 || i >= len(et.cmds) {
		return
	}
	c := et.cmds[i]
	et.liveC.SetChecked(false)
	pos, node, run, ctx := et.position()
	et.text.SetText(fmt.Sprintf("Running %s…", c.Label))
	et.spawn(ctx, func(ctx context.Context) func() {
		g, err := e.Run(ctx, pos, c)
		return func() {
			if run != et.run {
				return
			}
			et.cancel, et.pending = nil, nil
			et.update()
			if err != nil {
				et.show(node, nil, c.Label+" failed: "+err.Error())
				return
			}
			et.show(node, gfxLayer(g, pos.Board.Size()), g.Text)
		}
	})
}

// show draws l (nil: nothing) for node and writes text in the tab.
func (et *enginesTab) show(node *game.Node, l *goban.Peer, text string) {
	et.node, et.drawn = node, l
	et.text.SetText(text)
	et.wb.showLayers()
}

func (et *enginesTab) clearDrawn() {
	et.node = nil
	if et.drawn != nil || et.liveL != nil {
		et.drawn, et.liveL = nil, nil
		et.wb.showLayers()
	}
}

// navigated cancels the request about the position left, and takes its answer off the boards;
// a redraw of the same node keeps both.
func (et *enginesTab) navigated() {
	cur := et.wb.doc.cursor.Node()
	if et.cancel != nil && et.pending != cur {
		et.cancelPosition()
		et.text.SetText("")
	}
	if et.node != nil && et.node != cur {
		et.text.SetText("")
		et.clearDrawn()
	}
	if et.live != nil && et.live.node != cur {
		if et.shown() {
			et.startLive()
		} else {
			et.liveC.SetChecked(false)
		}
	}
}

// stop cancels every call and closes the engines.
func (et *enginesTab) stop() {
	et.stopLive()
	et.cancelPosition()
	et.end()
	for _, e := range et.engines {
		et.closeEngine(e)
	}
	et.closes.Wait()
}

// gfxLayer is the layer drawing g on a board of the given size.
func gfxLayer(g *peer.Gfx, size int) *goban.Peer {
	l := &goban.Peer{Size: size}
	if len(g.Influence) > 0 {
		l.Influence = make([]float64, size*size)
		for p, v := range g.Influence {
			if x, y := p.XY(); x >= 0 && y >= 0 && x < size && y < size {
				l.Influence[y*size+x] = v
			}
		}
	}
	for _, c := range g.Colors {
		col, ok := parseColor(c.Color)
		if !ok {
			continue
		}
		for _, p := range c.Points {
			l.Fills = append(l.Fills, goban.Fill{Point: widgetPoint(p), Color: col})
		}
	}
	mark := func(pts []board.Point, m goban.MarkKind) {
		for _, p := range pts {
			l.Labels = append(l.Labels, goban.Label{Point: widgetPoint(p), Mark: m})
		}
	}
	mark(g.Marks, goban.MarkCross)
	mark(g.Squares, goban.MarkSquare)
	mark(g.Triangles, goban.MarkTriangle)
	mark(g.Circles, goban.MarkCircle)
	for _, s := range g.Stones { // ghost stones: a circle in the stone's colour
		c := color.Color(color.Black)
		if s.Color == board.White {
			c = color.White
		}
		l.Labels = append(l.Labels, goban.Label{Point: widgetPoint(s.Point), Mark: goban.MarkCircle, Color: c})
	}
	for i, m := range g.Var {
		c := color.Color(color.Black)
		if m.Color == board.White {
			c = color.White
		}
		l.Labels = append(l.Labels, goban.Label{Point: widgetPoint(m.Point), Mark: goban.MarkCircle, Text: strconv.Itoa(i + 1), Color: c})
	}
	for _, lb := range g.Labels {
		l.Labels = append(l.Labels, goban.Label{Point: widgetPoint(lb.Point), Text: lb.Text})
	}
	return l
}

// gfxColors are the colour names GoGui's COLOR takes besides "#rrggbb".
var gfxColors = map[string]color.NRGBA{
	"black": {0, 0, 0, 255}, "white": {255, 255, 255, 255}, "red": {255, 0, 0, 255},
	"green": {0, 160, 0, 255}, "blue": {0, 0, 255, 255}, "yellow": {255, 255, 0, 255},
	"cyan": {0, 255, 255, 255}, "magenta": {255, 0, 255, 255}, "orange": {255, 165, 0, 255},
	"gray": {128, 128, 128, 255}, "grey": {128, 128, 128, 255},
}

// parseColor reads a GoGui colour: "#rrggbb" or a name of gfxColors.
func parseColor(s string) (color.Color, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if c, ok := gfxColors[s]; ok {
		return c, true
	}
	if len(s) != 7 || s[0] != '#' {
		return nil, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return nil, false
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, true
}

// liveInterval is how often a live analysis asks for the engine's candidates, and liveRedraw the
// least time between two redraws of them: at most five a second, so that a fast engine cannot flood
// the event loop.
const (
	liveInterval = 200 * time.Millisecond
	liveRedraw   = 200 * time.Millisecond
)

// liveRun is one live analysis: the stream of the selected engine about one position. The stream's
// goroutine leaves the newest line in latest and asks the Fyne goroutine, once, to draw it; lines
// that come before it does replace the one waiting.
type liveRun struct {
	node   *game.Node
	pos    game.Position
	kind   peer.StreamKind
	cancel context.CancelFunc

	mu     sync.Mutex
	latest *peer.Stream
	posted bool      // a redraw is on its way
	last   time.Time // of the last redraw
}

// post keeps s as the newest line and has draw called, on any goroutine, unless a call is on its way
// already; draw comes at least liveRedraw after the last take.
func (lr *liveRun) post(s *peer.Stream, draw func()) {
	lr.mu.Lock()
	lr.latest = s
	queue := !lr.posted
	lr.posted = true
	wait := liveRedraw - time.Since(lr.last)
	lr.mu.Unlock()
	switch {
	case !queue:
	case wait <= 0:
		draw()
	default:
		time.AfterFunc(wait, draw)
	}
}

// take returns the newest line not yet drawn (nil: none), and lets the next one post a redraw.
func (lr *liveRun) take() *peer.Stream {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	s := lr.latest
	lr.latest, lr.posted, lr.last = nil, false, time.Now()
	return s
}

// startLive starts a live analysis of the position shown with the selected engine's best stream
// command, in place of the one running.
func (et *enginesTab) startLive() {
	et.stopLive()
	e := et.engine()
	if e == nil || len(et.streams) == 0 {
		return
	}
	c := et.wb.doc.cursor
	ctx, cancel := context.WithCancel(et.life)
	lr := &liveRun{node: c.Node(), pos: *c.Position(), kind: et.streams[0], cancel: cancel}
	et.live = lr
	if et.node != lr.node {
		et.clearDrawn()
	}
	et.text.SetText(fmt.Sprintf("Live analysis (%v)…", lr.kind))
	onUI := et.wb.opts.OnUI
	draw := func() { onUI(func() { et.drawLive(lr) }) }
	et.spawn(ctx, func(ctx context.Context) func() {
		err := e.Analyze(ctx, &lr.pos, lr.kind, liveInterval, func(s *peer.Stream) { lr.post(s, draw) })
		return func() {
			if et.live != lr {
				return // stopped, or replaced by the analysis of another position
			}
			// The engine ended the stream, or failed.
			et.liveC.SetChecked(false)
			et.update()
			if err != nil {
				et.text.SetText("Live analysis failed: " + err.Error())
			}
		}
	})
}

// stopLive ends the live analysis, if any, and takes what it drew off the boards.
func (et *enginesTab) stopLive() {
	lr := et.live
	if lr == nil {
		return
	}
	lr.cancel()
	et.live = nil
	if et.liveL != nil {
		et.liveL, et.node = nil, nil
		et.wb.showLayers()
	}
	et.text.SetText("")
}

// drawLive draws the newest line of lr's stream; a hidden tab stops it instead, so that the engine
// does not search for nobody.
func (et *enginesTab) drawLive(lr *liveRun) {
	s := lr.take()
	if et.live != lr || s == nil {
		return
	}
	if !et.shown() {
		et.liveC.SetChecked(false)
		return
	}
	size := lr.pos.Board.Size()
	l := &liveLayer{search: goban.Search{Size: size, Moves: make([]goban.SearchMove, 0, len(s.Candidates))}}
	var text string
	for i, c := range s.Candidates {
		if c.Move != board.Pass {
			l.search.Moves = append(l.search.Moves, goban.SearchMove{Point: goPoint(c.Move), Visits: c.Visits, WinRate: c.WinRate, Best: i == 0})
		}
		if i == 0 {
			text = fmt.Sprintf("%s (%v) for %s: %s %.1f%%, %d visits; PV %s", et.list[et.sel].Name, lr.kind,
				colorName(s.ToPlay), c.Move.GTP(size), 100*c.WinRate, c.Visits, pvText(c.PV, size))
		}
	}
	if len(s.Ownership) == size*size {
		l.own = &goban.Territory{Size: size, Owner: s.Ownership, Stones: goban.FromBoard(&lr.pos.Board, board.NoPoint).Stones, MarkDead: true}
	}
	et.node, et.drawn, et.liveL = lr.node, nil, l
	et.text.SetText(text)
	et.wb.showLayers()
}

// liveLayer draws a live analysis: the engine's ownership as the Territory tab draws Aji's, and the
// candidates over it as the Search tab draws Aji's search. The goban has no layer that stacks two,
// and a tab has one layer, so this pairs them.
type liveLayer struct {
	own    *goban.Territory // nil: no ownership
	search goban.Search
}

// Paint implements goban.Layer.
func (l *liveLayer) Paint(img *image.RGBA, g goban.Grid) {
	if l.own != nil {
		l.own.Paint(img, g)
	}
	l.search.Paint(img, g)
}
