package workbench

import (
	"fmt"
	"log/slog"
	"slices"
	"time"

	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
)

// Options configure a Workbench. The zero value suits the app.
type Options struct {
	// OnUI runs a function on the Fyne goroutine; analysis results reach the
	// views through it. Nil: fyne.Do. Tests pass a queue they drain
	// themselves, because the test driver runs fyne.Do on the caller's
	// goroutine.
	OnUI func(func())
	// Modifiers reports the keyboard modifiers held now. Fyne sends
	// Shift+arrow as a plain arrow key, so the workbench asks. Nil: the
	// desktop driver's.
	Modifiers func() fyne.KeyModifier
	// Quit ends the app once the user has agreed to lose unsaved changes.
	// Nil: the window is closed.
	Quit func()
	// Preferences keep the recent files and the panel settings. Nil: the
	// current app's.
	Preferences fyne.Preferences
}

// Workbench is the app's main view, bound to one window.
type Workbench struct {
	win  fyne.Window
	opts Options

	doc    *document // the game shown; never nil after New
	engine *engine.Engine
	an     *live.Predictors

	views     [2]*view // the main board, and the comparison board
	settings  settings
	panel     *panel
	status    *statusBar
	tabs      []tab            // the tabs below the predictor controls, in tabMakers' order
	boards    *fyne.Container  // the main board, or both boards side by side
	split     *container.Split // boards | panel
	comparing bool             // boards holds both boards
	recent    *fyne.MenuItem   // File ▸ Open Recent
	present   *presenter       // presentation mode (View ▸ Presentation mode)

	nav    navStats
	broken map[string]error // predictors that failed to start, by name

	hover hoverState
	now   func() time.Time // the clock of hoverState; tests set their own

	tools []toolWindow // the open tool windows (toolwindow.go)
}

// view is one board and what it shows: the predictor whose heat it draws
// and the last result delivered for it.
type view struct {
	board   *goban.Board
	caption *captionLabel
	shown   *live.Prediction // nil until the first delivery; kept across navigation
	node    *game.Node       // the node shown was computed for
}

// New builds the workbench into w — its content, main menu, keys, drop
// target and close check — on an empty 19x19 board. Load a game with Show,
// ShowFile or OpenPath.
func New(w fyne.Window, o Options) *Workbench {
	if o.OnUI == nil {
		o.OnUI = fyne.Do
	}
	if o.Modifiers == nil {
		o.Modifiers = func() fyne.KeyModifier {
			if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
				return d.CurrentKeyModifiers()
			}
			return 0
		}
	}
	if o.Quit == nil {
		o.Quit = w.Close
	}
	if o.Preferences == nil {
		o.Preferences = fyne.CurrentApp().Preferences()
	}
	wb := &Workbench{win: w, opts: o, now: time.Now}
	wb.engine = engine.New(engine.Options{OnUI: o.OnUI})
	wb.an = live.NewPredictors()
	wb.settings = loadSettings(o.Preferences)
	wb.present = newPresenter(wb)
	g, _ := game.New(19) // 19 is a valid size
	c, _ := game.NewCursor(g)
	wb.doc = &document{cursor: c, name: "new game"}

	for i := range wb.views {
		v := &view{board: goban.NewBoard(), caption: newCaption()}
		b := v.board
		b.OnTapped = wb.tapped
		b.OnScrolled = wb.scrolled
		b.OnHover = func(p goban.Point, inside bool) {
			wb.hovered(i, p, inside)
			for _, t := range wb.tabs {
				t.hovered(i, p, inside)
			}
		}
		wb.views[i] = v
	}
	for _, newTab := range tabMakers {
		wb.tabs = append(wb.tabs, newTab(wb))
	}
	wb.panel = newPanel(wb)
	wb.status = newStatusBar()
	wb.boards = container.NewStack()
	wb.layoutBoards()

	right := container.NewBorder(container.NewVBox(wb.panel.info, wb.panel.predictor), nil, nil, nil, wb.panel.tabs)
	wb.split = container.NewHSplit(wb.boards, right)
	// The board gets most of the width, or what the user left it last time.
	wb.split.Offset = splitOffset(o.Preferences)
	w.SetContent(container.NewBorder(nil, wb.status.widget(), nil, nil, wb.split))
	w.SetMainMenu(wb.withHelp(wb.mainMenu()))
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { wb.Key(ev.Name, wb.opts.Modifiers()) })
	w.SetOnDropped(wb.dropped)
	w.SetCloseIntercept(wb.RequestClose)
	w.SetOnClosed(wb.Stop)
	wb.changed(false)
	return wb
}

// Board returns the main board, for the app's start-up timing.
func (wb *Workbench) Board() *goban.Board { return wb.views[0].board }

// Stop cancels running analyses and the tabs' own work (the search), and
// waits for the workers. It saves what the next run restores: the move shown
// in the file, the window's size and the split.
func (wb *Workbench) Stop() {
	wb.saveLayout()
	wb.rememberMove()
	for _, t := range wb.tabs {
		t.stop()
	}
	for _, t := range slices.Clone(wb.tools) {
		t.window().Close()
	}
	wb.engine.Stop()
}

// RestoreSize gives the window the size it had when the workbench last
// stopped, or def on a first start.
func (wb *Workbench) RestoreSize(def fyne.Size) {
	wb.win.Resize(windowSize(wb.opts.Preferences, def))
}

// saveLayout saves the window's size and the split, unless presenting: a
// full-screen size is no size to open with.
func (wb *Workbench) saveLayout() {
	if wb.present.on || wb.win.FullScreen() {
		return
	}
	p := wb.opts.Preferences
	if size := wb.win.Canvas().Size(); size.Width > 0 && size.Height > 0 {
		p.SetFloat(prefWindowWidth, float64(size.Width))
		p.SetFloat(prefWindowHeight, float64(size.Height))
	}
	p.SetFloat(prefSplit, wb.split.Offset)
}

// rememberMove records the move shown in the current file, where ShowFile
// opens it next time.
func (wb *Workbench) rememberMove() {
	if wb.doc.path != "" {
		saveLastViewed(wb.opts.Preferences, wb.doc.path, wb.doc.cursor.Position().MoveNumber)
	}
}

// layoutBoards shows the main board alone, or both boards side by side with
// their predictors named above them.
func (wb *Workbench) layoutBoards() {
	wb.views[0].caption.set(wb.settings.predictor)
	wb.views[1].caption.set(wb.settings.compareWith)
	if len(wb.boards.Objects) > 0 && wb.comparing == wb.settings.compare {
		return // keep the split where the user dragged it
	}
	wb.comparing = wb.settings.compare
	if !wb.comparing {
		wb.boards.Objects = []fyne.CanvasObject{wb.views[0].board}
	} else {
		pane := func(v *view) fyne.CanvasObject { return container.NewBorder(v.caption, nil, nil, nil, v.board) }
		wb.boards.Objects = []fyne.CanvasObject{container.NewHSplit(pane(wb.views[0]), pane(wb.views[1]))}
	}
	wb.boards.Refresh()
}

// setStatus shows a short message in the status bar, e.g. why a click did
// not play.
func (wb *Workbench) setStatus(format string, args ...any) {
	wb.status.message(fmt.Sprintf(format, args...))
}

// navStats measures navigation to heat delivered, for the log.
type navStats struct {
	seq      uint64    // position changes so far
	at       time.Time // when the current position was shown
	measured bool      // the current position's heat arrived and was counted
	window   []time.Duration
	skipped  int // positions left before their heat arrived, in this window
}

// statsEvery is how many navigations each info-level latency line sums up.
const statsEvery = 50

// navigated starts timing a new position and logs the figures of the
// previous statsEvery positions.
func (s *navStats) navigated() {
	if s.seq > 0 && !s.measured {
		s.skipped++
	}
	s.seq++
	s.at, s.measured = time.Now(), false
	if s.seq%statsEvery != 0 {
		return
	}
	var sum, worst time.Duration
	for _, d := range s.window {
		sum += d
		worst = max(worst, d)
	}
	if n := len(s.window); n > 0 {
		slog.Info("navigation to heat map", "positions", statsEvery, "delivered", n, "skipped", s.skipped,
			"mean", (sum / time.Duration(n)).Round(time.Microsecond), "max", worst.Round(time.Microsecond))
	}
	s.window, s.skipped = s.window[:0], 0
}

// delivered records the latency of the current position's heat map.
func (s *navStats) delivered(predictor string, move int) {
	if s.measured {
		return
	}
	s.measured = true
	d := time.Since(s.at)
	s.window = append(s.window, d)
	slog.Debug("heat delivered", "predictor", predictor, "move", move, "since_navigation", d.Round(time.Microsecond))
}
