package workbench

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
	"aji/internal/boardimage"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The Search tab's win-rate strip: Black's win rate by the search at each
// node of the line shown where one has run (the last run's best move), and
// "Search every move", which fills it with a short search of every
// position from the current one to the end of the line.

// searchEveryPlayouts is the playouts of each search of "Search every
// move": about a second a position on a laptop's cores at 19x19 with the
// pattern playouts, and enough for the best move's win rate to settle
// within a few percent — a trend over the game, not a verdict on a move.
// With the tree kept from each position to the next, the move the game
// went on with often has hundreds of visits already.
const searchEveryPlayouts = 2000

// stripHeight is the strip's height: a glance, not a graph to read.
const stripHeight = 56

// searchEvery is a running "Search every move": one search, on a goroutine
// of its own, of each position of nodes in turn, its tree kept from one to
// the next (mcts.Search.Play).
type searchEvery struct {
	cancel    context.CancelFunc
	done      chan struct{} // closed when its goroutine has returned
	nodes     []*game.Node
	positions []game.Position // of nodes, computed when it started
	searched  int             // nodes searched so far
	started   time.Time
}

// progress says how far it is, with an estimate of the time left from the
// mean time a position has taken so far.
func (e *searchEvery) progress() string {
	n := len(e.nodes)
	text := fmt.Sprintf("Searching every move · %d of %d", e.searched, n)
	if e.searched > 0 {
		per := time.Since(e.started) / time.Duration(e.searched)
		left := per * time.Duration(n-e.searched)
		text += fmt.Sprintf(" · %s a move · about %s left", per.Round(100*time.Millisecond), left.Round(time.Second))
	}
	return text
}

// searchEveryMove searches each position of the line shown, from the
// current one to the end, with the chosen prior and rule and
// everyPlayouts playouts each; the position shown stays where it is.
func (sv *searchView) searchEveryMove() {
	if sv.running || sv.every != nil {
		return
	}
	c := sv.wb.doc.cursor
	line := c.Line()
	var nodes []*game.Node
	var positions []game.Position
	for _, n := range line[max(0, slices.Index(line, c.Node())):] {
		pos, err := c.Game().PositionAt(n)
		if err != nil {
			sv.wb.setStatus("search every move: %v", err) // a damaged record: search up to the damage
			break
		}
		nodes, positions = append(nodes, n), append(positions, *pos)
	}
	sv.everyNote = ""
	sv.runEvery(nodes, positions)
	sv.update()
	sv.unfocus()
}

// runEvery starts the searches of positions, those of nodes, delivering
// each result to the strip on the UI goroutine.
func (sv *searchView) runEvery(nodes []*game.Node, positions []game.Position) {
	if len(nodes) == 0 {
		sv.everyNote = "Nothing left to search on this line."
		return
	}
	o := sv.opts
	o.Playouts, o.Time, o.Ownership, o.Progress = sv.everyPlayouts, 0, false, nil
	ctx, cancel := context.WithCancel(context.Background())
	e := &searchEvery{cancel: cancel, done: make(chan struct{}), nodes: nodes, positions: positions, started: time.Now()}
	sv.every = e
	onUI := sv.wb.opts.OnUI
	go func() {
		defer close(e.done)
		defer cancel()
		s, err := mcts.New(o)
		if err != nil {
			onUI(func() { sv.everyEnded(e, err) })
			return
		}
		for i := range positions {
			pos := &positions[i]
			if i > 0 && pos.Last != board.NoPoint {
				s.Play(pos.Last) // the next position of the line: Run goes on from the move's subtree
			}
			res := s.Run(ctx, pos)
			if ctx.Err() != nil {
				break // a run cut short is no result
			}
			onUI(func() { sv.everyResult(e, i, res) })
		}
		err = ctx.Err() // now, before the deferred cancel
		onUI(func() { sv.everyEnded(e, err) })
	}()
}

// everyResult shows the search of e's node i on the strip.
func (sv *searchView) everyResult(e *searchEvery, i int, res mcts.Result) {
	if sv.every != e {
		return
	}
	pos := &e.positions[i]
	sv.remember(e.nodes[i], pos.Key(), pos.ToPlay, res)
	e.searched = i + 1
	sv.update()
}

// everyEnded follows the end of e's goroutine: done, stopped or failed.
func (sv *searchView) everyEnded(e *searchEvery, err error) {
	if sv.every != e {
		return
	}
	sv.every = nil
	sv.retire(e.done) // it returns right after this
	switch {
	case errors.Is(err, context.Canceled):
		sv.everyNote = fmt.Sprintf("Search every move stopped after %d of %d moves.", e.searched, len(e.nodes))
	case err != nil:
		sv.everyNote = "Search every move failed: " + err.Error()
		sv.wb.setStatus("search every move: %v", err)
	default:
		sv.everyNote = fmt.Sprintf("Searched %d moves, %s playouts each.", e.searched, boardimage.Thousands(sv.everyPlayouts))
	}
	sv.update()
}

// dropEvery ends "Search every move" and forgets it; stop waits for its
// goroutine.
func (sv *searchView) dropEvery() {
	sv.every.cancel()
	sv.retire(sv.every.done)
	sv.every = nil
}

// searchStrip draws Black's win rate at each node of a line, 0 at the
// bottom and 1 at the top, the even line across the middle and the
// current node as a bar; a tap or a drag picks a node.
type searchStrip struct {
	widget.BaseWidget
	raster  *canvas.Raster
	values  []float64 // Black's win rate at each node of the line; NaN: not searched
	current int       // index of the node shown, -1 when off the line
	pick    func(i int)
}

func newSearchStrip(pick func(int)) *searchStrip {
	s := &searchStrip{pick: pick, current: -1}
	s.raster = canvas.NewRaster(s.draw)
	s.ExtendBaseWidget(s)
	return s
}

// CreateRenderer implements fyne.Widget.
func (s *searchStrip) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(s.raster) }

// MinSize implements fyne.Widget.
func (s *searchStrip) MinSize() fyne.Size { return fyne.NewSize(200, stripHeight) }

// set shows values with node current marked, redrawing only on a change.
func (s *searchStrip) set(values []float64, current int) {
	same := current == s.current && len(values) == len(s.values)
	for i := 0; same && i < len(values); i++ {
		same = values[i] == s.values[i] || math.IsNaN(values[i]) && math.IsNaN(s.values[i])
	}
	if same {
		return
	}
	s.values, s.current = values, current
	s.raster.Refresh()
}

// Tapped implements fyne.Tappable.
func (s *searchStrip) Tapped(e *fyne.PointEvent) {
	if i := graphIndexAt(e.Position.X, s.Size().Width, len(s.values)); i >= 0 {
		s.pick(i)
	}
}

// Dragged implements fyne.Draggable: dragging scrubs through the game.
func (s *searchStrip) Dragged(e *fyne.DragEvent) { s.Tapped(&e.PointEvent) }

// DragEnd implements fyne.Draggable.
func (s *searchStrip) DragEnd() {}

// draw paints the strip into a w×h image, in the review graph's style.
func (s *searchStrip) draw(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := toRGBA(theme.Color(theme.ColorNameInputBackground))
	fg := toRGBA(theme.Color(theme.ColorNameForeground))
	fill(img, img.Rect, bg)
	n := len(s.values)
	scale := float64(w) / float64(max(1, s.Size().Width))
	pad := int(graphPad * scale)
	pw, ph := w-2*pad, h-2*pad
	if n == 0 || pw <= 0 || ph <= 0 {
		return img
	}
	x := func(i int) int { return graphX(i, n, pad, pw) }
	y := func(v float64) int { return pad + int((1-v)*float64(ph)+0.5) }
	fill(img, image.Rect(pad, y(0.5), pad+pw, y(0.5)+1), mixColors(bg, fg, 0.25))
	if s.current >= 0 && s.current < n {
		cx := x(s.current)
		fill(img, image.Rect(cx-1, pad, cx+1, pad+ph), mixColors(bg, toRGBA(theme.Color(theme.ColorNamePrimary)), 0.7))
	}
	// A line through consecutive values, a dot on each: a lone searched
	// move still shows.
	c := reviewColors[0]
	line := mixColors(bg, c, 0.6)
	prev := -1
	for i, v := range s.values {
		if math.IsNaN(v) {
			prev = -1
			continue
		}
		if prev >= 0 {
			segment(img, x(prev), y(s.values[prev]), x(i), y(v), line)
		}
		prev = i
	}
	r := max(1, int(1.5*scale))
	for i, v := range s.values {
		if !math.IsNaN(v) {
			fill(img, image.Rect(x(i)-r, y(v)-r, x(i)+r+1, y(v)+r+1), c)
		}
	}
	return img
}
