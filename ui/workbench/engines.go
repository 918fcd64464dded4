package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"sync"

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
// boards (goban.Peer) and its text shown here. Every engine call runs on a goroutine; a
// navigation cancels the calls about the position and drops their late answers.
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
	et.text = widget.NewLabel("")
	et.text.Wrapping = fyne.TextWrapWord
	add := container.NewBorder(nil, nil, nil, et.addB, container.NewGridWithColumns(2, et.name, et.command))
	controls := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(et.restartB, et.removeB), et.state),
		container.NewBorder(nil, nil, et.genmoveB, et.runB, et.analyze),
		et.text)
	top := container.NewVBox(add, widget.NewSeparator())
	et.box = container.NewBorder(top, nil, nil, nil,
		container.NewVSplit(et.names, container.NewVScroll(controls)))
	et.update()
	return et
}

func (et *enginesTab) content() fyne.CanvasObject { return et.box }

func (et *enginesTab) layer() (goban.Layer, int) {
	if et.drawn == nil {
		return nil, 0
	}
	return et.drawn, enginesDepth
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
	et.sel = i
	et.cancelPosition()
	et.cmds = nil
	et.analyze.ClearSelected()
	et.analyze.SetOptions(nil)
	et.clearDrawn()
	et.text.SetText("")
	et.update()
	if e := et.engine(); e != nil {
		et.fetchCommands(e)
	}
}

// fetchCommands asks e's analyze commands, for its Select.
func (et *enginesTab) fetchCommands(e *peer.Engine) {
	et.state.SetText("Starting…")
	et.spawn(et.life, func(ctx context.Context) func() {
		cmds, err := e.AnalyzeCommands(ctx)
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
	if et.drawn != nil {
		et.drawn = nil
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
}

// stop cancels every call and closes the engines.
func (et *enginesTab) stop() {
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
