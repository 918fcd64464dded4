package workbench

import (
	"context"
	"fmt"
	"image"
	"slices"
	"strings"
	"time"

	"aji/analysis/board"
	"aji/analysis/guess"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// The Guess tab is the "guess the next move" mode (analysis/guess): the
// record's next move is hidden, a click on the board (or the keyboard's
// cursor and Space) is a guess, a wrong guess veils the board outside the
// quarter, then the sixteenth, holding the move, and the predictors' own
// guesses are shown on demand. The move found or revealed is played by
// navigating along the record's line, which is never changed. Every
// predictor is scored on the same moves as the user, as `aji eval` scores
// it; the tallies of the game and of the sitting (this run of the app) are
// shown and saved after every move to the history file.
//
// While a guess is pending the tab takes the board's clicks (clickTaker),
// the keys (keyTaker: the arrows move the cursor instead of navigating) and
// hides the next move everywhere the workbench shows it (nextHider).
// Navigating away by other means (the wheel, the move list) ends the mode.

// tabGuess is the saved name of the Guess tab.
const tabGuess = "guess"

// guessDepth puts the veil above every other layer: what it covers is the
// part of the board the hints rule out.
const guessDepth = 4

// prefGuessColors is the preference key of the colours guessed.
const prefGuessColors = "guess_colors"

// guessPast is how many past sittings the tab lists.
const guessPast = 5

// guessHistoryPath is where the history is kept; tests point it elsewhere.
var guessHistoryPath = guess.DefaultPath

// guessColors are the colour choices, as the radio group offers them.
var (
	guessColorNames = []string{"Black", "White", "Both"}
	guessColorSets  = []guess.Colors{guess.Black, guess.White, guess.Both}
)

// guessRun is one session with what the history needs to name its game.
type guessRun struct {
	s       *guess.Session
	name    string // the record's name (wb.doc.name)
	players string
}

// guessTab is the Guess tab and the sessions of this sitting, all on the
// Fyne goroutine; only the predictions run elsewhere.
type guessTab struct {
	tabBase
	colors guess.Colors
	names  []string // the predictors scored, fixed at each start

	run  *guessRun   // the session being played; nil when not guessing
	runs []*guessRun // every session of this sitting, for the tallies
	ctx  context.Context
	quit context.CancelFunc // ends the predictions, for Workbench.Stop
	peek bool               // the predictors' guesses are shown for the current move

	lastRun  *guessRun  // the session of the move finished last, nil before any
	lastMove guess.Move // that move
	lastText string     // what became of it

	cursor    goban.Point // the keyboard's cursor
	hasCursor bool
	drawn     *goban.Hint

	sitting time.Time
	history *guess.History // nil until the first start
	saver   *guess.Saver   // nil when the history cannot be saved over
	histMsg string         // a note about the history file

	startB, stopB, revealB, predsB *widget.Button
	colorsR                        *widget.RadioGroup
	status, preds, last            *widget.Label
	body                           *fyne.Container // the labels under the buttons
	gameL, sittingL, pastL         *widget.Label
	box                            fyne.CanvasObject
}

func newGuessTab(wb *Workbench) tab {
	gt := &guessTab{tabBase: tabBase{wb: wb, name: tabGuess, title: "Guess"}, sitting: time.Now()}
	gt.ctx, gt.quit = context.WithCancel(context.Background())
	gt.colors = guess.Both
	saved := wb.opts.Preferences.StringWithFallback(prefGuessColors, guess.Both.String())
	for _, c := range guessColorSets {
		if c.String() == saved {
			gt.colors = c
		}
	}
	gt.startB = widget.NewButton("Start guessing (G)", gt.tapped(gt.start))
	gt.startB.Importance = widget.HighImportance
	gt.stopB = widget.NewButton("Stop (Esc)", gt.tapped(func() { gt.end("Stopped.") }))
	gt.revealB = widget.NewButton("Reveal (Enter)", gt.tapped(gt.reveal))
	gt.predsB = widget.NewButton("Show the predictors' guesses (H)", gt.tapped(gt.showPredictors))
	gt.colorsR = widget.NewRadioGroup(guessColorNames, nil)
	gt.colorsR.Horizontal = true
	gt.colorsR.Required = true
	gt.colorsR.SetSelected(guessColorNames[slices.Index(guessColorSets, gt.colors)])
	gt.colorsR.OnChanged = func(v string) {
		gt.colors = guessColorSets[slices.Index(guessColorNames, v)]
		wb.opts.Preferences.SetString(prefGuessColors, gt.colors.String())
		gt.unfocus()
	}
	label := func(bold bool) *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		l.TextStyle.Bold = bold
		return l
	}
	gt.status, gt.preds, gt.last = label(true), label(false), label(false)
	gt.gameL, gt.sittingL, gt.pastL = label(false), label(false), label(false)
	keys := widget.NewLabel("Keys while guessing: the arrows move the square cursor, Space guesses there, " +
		"Enter reveals the move, H shows the predictors' guesses, Esc stops. G starts, with this tab shown.")
	keys.Wrapping = fyne.TextWrapWord
	keys.TextStyle.Italic = true
	top := container.NewVBox(
		container.NewGridWithColumns(2, gt.startB, gt.stopB),
		container.NewBorder(nil, nil, widget.NewLabel("Guess"), nil, gt.colorsR),
		gt.status,
		container.NewGridWithColumns(2, gt.revealB, gt.predsB),
	)
	gt.body = container.NewVBox(gt.preds, gt.last,
		heading("Score"), gt.gameL, gt.sittingL,
		heading("Past sittings"), gt.pastL, keys)
	gt.box = container.NewBorder(top, nil, nil, nil, container.NewVScroll(gt.body))
	gt.status.SetText("Hides the record's next move: find it, with hints after a wrong guess, and compare with the predictors.")
	gt.update()
	return gt
}

func (gt *guessTab) content() fyne.CanvasObject { return gt.box }

func (gt *guessTab) layer() (goban.Layer, int) {
	if gt.drawn == nil {
		return nil, guessDepth // a nil *goban.Hint would not be a nil Layer
	}
	return gt.drawn, guessDepth
}

// hidesNext implements nextHider: the record's next move is the question.
func (gt *guessTab) hidesNext() bool { return gt.run != nil }

// tapped wraps a button's action so that the keys go back to the board.
func (gt *guessTab) tapped(f func()) func() {
	return func() {
		f()
		gt.unfocus()
	}
}

func (gt *guessTab) unfocus() {
	if c := gt.wb.win.Canvas(); c != nil {
		c.Unfocus()
	}
}

// start hides the next move of the line shown, from the position shown.
func (gt *guessTab) start() {
	if gt.run != nil {
		return
	}
	gt.loadHistory()
	c := gt.wb.doc.cursor
	s, err := guess.New(c.Game(), c.Line(), c.Node(), gt.colors)
	if err != nil {
		gt.status.SetText(fmt.Sprintf("Cannot guess here: %v", err))
		return
	}
	if s.Done() {
		gt.status.SetText(fmt.Sprintf("No move left to guess on this line (guessing %s).", strings.ToLower(guessColorNames[slices.Index(guessColorSets, gt.colors)])))
		return
	}
	in := c.Game().Info
	gt.run = &guessRun{s: s, name: gt.wb.doc.name, players: player(in.Black, in.BlackRank) + " vs " + player(in.White, in.WhiteRank)}
	gt.runs = append(gt.runs, gt.run)
	gt.names = predict.Names()
	gt.lastRun, gt.lastText = nil, ""
	gt.present()
}

// present shows the hidden move's position and starts its predictions.
func (gt *guessTab) present() {
	s := gt.run.s
	m, _ := s.Current()
	gt.peek, gt.hasCursor = false, false
	gt.predict(gt.run, m)
	gt.wb.jump(m.Parent) // navigated keeps the mode: the node is the hidden move's
	gt.status.SetText(fmt.Sprintf("Move %d: where did %s play? Click the board, or use the keys.", m.Number, colorName(m.Color)))
	gt.redraw()
	gt.update()
}

// predict asks every predictor for its guess at m, on a goroutine; the
// guesses count once they arrive, whenever that is.
func (gt *guessTab) predict(run *guessRun, m guess.Move) {
	pos := *run.s.Position()
	ctx, names, onUI, an := gt.ctx, gt.names, gt.wb.opts.OnUI, gt.wb.an
	go func() {
		gs, err := guess.PredictMove(ctx, an.Predict, names, &pos, m.Point)
		if err != nil {
			return // the app is closing
		}
		onUI(func() {
			run.s.SetPredictions(m.Index, gs)
			gt.record(run)
			if cur, ok := run.s.Current(); gt.run == run && ok && cur.Index == m.Index && gt.peek {
				gt.redraw()
			}
			gt.update()
		})
	}()
}

// takeClick implements clickTaker: while guessing, a click is a guess.
func (gt *guessTab) takeClick(p goban.Point) bool {
	if gt.run == nil {
		return false
	}
	size := gt.run.s.Size()
	if p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size {
		gt.guess(board.At(p.X, p.Y))
	}
	return true
}

// takeKey implements keyTaker: G starts guessing with the tab shown; while
// guessing the arrows move the cursor, Space guesses, Enter reveals, H
// shows the predictors' guesses, Esc stops, and the other navigation keys
// do nothing rather than leave the hidden move.
func (gt *guessTab) takeKey(key fyne.KeyName, _ fyne.KeyModifier) bool {
	if gt.run == nil {
		if key == fyne.KeyG && gt.shown() {
			gt.start()
			return true
		}
		return false
	}
	switch key {
	case fyne.KeyLeft:
		gt.moveCursor(-1, 0)
	case fyne.KeyRight:
		gt.moveCursor(1, 0)
	case fyne.KeyUp:
		gt.moveCursor(0, -1)
	case fyne.KeyDown:
		gt.moveCursor(0, 1)
	case fyne.KeySpace:
		if gt.hasCursor {
			gt.guess(board.At(gt.cursor.X, gt.cursor.Y))
		} else {
			gt.moveCursor(0, 0)
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		gt.reveal()
	case fyne.KeyH:
		gt.showPredictors()
	case fyne.KeyEscape:
		gt.end("Stopped.")
	case fyne.KeyHome, fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown:
	default:
		return false
	}
	return true
}

// moveCursor moves the keyboard's cursor, which first appears in the
// middle of the region the hints leave.
func (gt *guessTab) moveCursor(dx, dy int) {
	size := gt.run.s.Size()
	if !gt.hasCursor {
		r := gt.run.s.Region()
		gt.cursor, gt.hasCursor = goban.Point{X: (r.X0 + r.X1 - 1) / 2, Y: (r.Y0 + r.Y1 - 1) / 2}, true
	} else {
		gt.cursor.X = min(size-1, max(0, gt.cursor.X+dx))
		gt.cursor.Y = min(size-1, max(0, gt.cursor.Y+dy))
	}
	gt.redraw()
}

// guess takes the user's guess at p.
func (gt *guessTab) guess(p board.Point) {
	s := gt.run.s
	m, _ := s.Current()
	size := s.Size()
	o := s.Guess(p)
	switch o.Verdict {
	case guess.Ignored:
		if slices.Contains(s.Wrong(), p) {
			gt.status.SetText(fmt.Sprintf("%s was guessed already.", p.GTP(size)))
		} else {
			gt.status.SetText(fmt.Sprintf("%s is not empty: guess an empty point.", p.GTP(size)))
		}
	case guess.Wrong:
		text := fmt.Sprintf("Not %s.", p.GTP(size))
		switch {
		case o.Narrowed && o.Hints == 1:
			text += fmt.Sprintf(" Move %d is in the quarter left clear.", m.Number)
		case o.Narrowed:
			text += fmt.Sprintf(" Move %d is in the smaller region left clear.", m.Number)
		default:
			text += " No hint is left: Enter reveals the move."
		}
		gt.status.SetText(text)
		if gt.hasCursor && !o.Region.Contains(board.At(gt.cursor.X, gt.cursor.Y)) {
			gt.hasCursor = false // it comes back in the region's middle
		}
		gt.redraw()
	case guess.Right:
		gt.finished(o.Result)
	}
}

// reveal gives up on the hidden move and plays it.
func (gt *guessTab) reveal() {
	if gt.run == nil {
		return
	}
	if r := gt.run.s.Reveal(); r != nil {
		gt.finished(r)
	}
}

// showPredictors shows each predictor's guess at the hidden move.
func (gt *guessTab) showPredictors() {
	if gt.run == nil {
		return
	}
	gt.run.s.Peek()
	gt.peek = true
	gt.redraw()
	gt.update()
}

// finished plays the move found or revealed, saves the tallies and hides
// the next move, or ends at the end of the line.
func (gt *guessTab) finished(r *guess.Result) {
	run := gt.run
	gt.record(run)
	gt.describe(run, r)
	if _, ok := run.s.Current(); ok {
		gt.present()
		return
	}
	why := "End of the line."
	if st := run.s.Stopped(); st != "" {
		why = "The record stops here: " + st + "."
	}
	gt.end(why)
	gt.wb.jump(r.Move.Node)
}

// describe keeps what became of move r, for the line under the status.
func (gt *guessTab) describe(run *guessRun, r *guess.Result) {
	size := run.s.Size()
	what := fmt.Sprintf("Move %d was %s %s", r.Move.Number, colorName(r.Move.Color), r.Move.Point.GTP(size))
	switch {
	case r.FirstTry():
		what += ": right at the first try."
	case r.Right:
		what += fmt.Sprintf(": right after %s (%s).", nounCount(r.Wrong, "wrong guess", "wrong guesses"), nounCount(r.Hints, "hint", "hints"))
	default:
		what += ": revealed."
	}
	gt.lastRun, gt.lastMove, gt.lastText = run, r.Move, what
}

// nounCount is n with its noun: "1 hint", "2 hints".
func nounCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// end leaves the mode with a message; the tallies stay.
func (gt *guessTab) end(why string) {
	if gt.run == nil {
		return
	}
	gt.run, gt.peek, gt.hasCursor = nil, false, false
	gt.status.SetText(why)
	gt.redraw()
	gt.update()
}

// navigated ends the mode when the board shows another position than the
// hidden move's (the wheel, the move list, another game).
func (gt *guessTab) navigated() {
	if gt.run != nil {
		c := gt.wb.doc.cursor
		if m, ok := gt.run.s.Current(); !ok || c.Game() != gt.run.s.Game() || c.Node() != m.Parent {
			gt.end("Guessing stopped: the board left the hidden move's position.")
		}
	}
	gt.update()
}

// stop ends the predictions and writes the history, for Workbench.Stop.
func (gt *guessTab) stop() {
	gt.quit()
	if gt.saver != nil {
		gt.saver.Wait()
	}
}

// redraw puts the hints on the boards and hides or shows the next move.
func (gt *guessTab) redraw() {
	gt.drawn = nil
	if gt.run != nil {
		s := gt.run.s
		r := s.Region()
		h := &goban.Hint{Size: s.Size(), Clear: image.Rect(r.X0, r.Y0, r.X1, r.Y1), Cursor: gt.cursor, HasCursor: gt.hasCursor}
		for _, p := range s.Wrong() {
			h.Wrong = append(h.Wrong, goPoint(p))
		}
		if m, ok := s.Current(); ok && gt.peek {
			for _, g := range s.Predictions(m.Index) {
				if g.Err == "" && g.Point != board.NoPoint && g.Point != board.Pass {
					h.Marked = append(h.Marked, goPoint(g.Point))
				}
			}
		}
		gt.drawn = h
	}
	gt.wb.showLayers()
	gt.wb.render()
}

// update refreshes the buttons, the predictors' guesses and the tallies.
func (gt *guessTab) update() {
	active := gt.run != nil
	enable(gt.startB, !active)
	enable(gt.stopB, active)
	enable(gt.revealB, active)
	enable(gt.predsB, active && !gt.peek)

	preds := ""
	if active && gt.peek {
		m, _ := gt.run.s.Current()
		preds = "The predictors' guesses (ringed on the board): computing…"
		if gs := gt.run.s.Predictions(m.Index); gs != nil {
			preds = "The predictors' guesses (ringed on the board): " + guessesText(gs, gt.run.s.Size(), board.NoPoint)
		}
	}
	setText(gt.preds, preds)
	last := gt.lastText
	if gt.lastRun != nil {
		if gs := gt.lastRun.s.Predictions(gt.lastMove.Index); gs != nil {
			last += "\nThe predictors: " + guessesText(gs, gt.lastRun.s.Size(), gt.lastMove.Point)
		}
	}
	setText(gt.last, last)

	var game, sitting guess.Tally
	g := gt.wb.doc.cursor.Game()
	for _, r := range gt.runs {
		t := r.s.Tally()
		sitting.Add(t)
		if r.s.Game() == g {
			game.Add(t)
		}
	}
	setText(gt.gameL, "This game: "+tallyText(game))
	setText(gt.sittingL, "This sitting: "+tallyText(sitting))
	past := gt.histMsg
	if gt.history != nil {
		for i, st := range gt.history.Sittings() {
			if i == guessPast {
				break
			}
			if past != "" {
				past += "\n"
			}
			past += fmt.Sprintf("%s, %s: %s", st.Start.Local().Format("2 Jan 2006 15:04"), nounCount(st.Games, "game", "games"), tallyText(st.Tally))
		}
	}
	if past == "" {
		past = "None yet: the scores are saved after every move."
	}
	setText(gt.pastL, past)
	// A wrapped label that grows by a line does not move the ones below it until the box lays
	// them out again.
	gt.body.Refresh()
}

// guessesText lists the predictors' guesses; with the move played known,
// each says whether it was right.
func guessesText(gs []guess.PredictorGuess, size int, played board.Point) string {
	var parts []string
	for _, g := range gs {
		var s string
		switch {
		case g.Err != "":
			s = "failed (" + g.Err + ")"
		case played != board.NoPoint && g.Right():
			s = "right"
		case g.Point == board.NoPoint:
			s = "no single favourite"
		default:
			s = g.Point.GTP(size)
		}
		if played != board.NoPoint && g.Err == "" {
			s += fmt.Sprintf(" (rank %d)", g.Rank)
		}
		parts = append(parts, g.Name+" "+s)
	}
	return strings.Join(parts, " · ")
}

// tallyText is a tally in a line: the user's first tries, then each
// predictor's top-1 on the same moves.
func tallyText(t guess.Tally) string {
	if t.Moves == 0 {
		return "no move yet."
	}
	you := fmt.Sprintf("you %d/%d at the first try (%d found, %d revealed; %s used", t.FirstTry, t.Moves, t.Right, t.Revealed, nounCount(t.Hints, "hint", "hints"))
	if t.Peeked > 0 {
		you += fmt.Sprintf("; the predictors' guesses seen on %d", t.Peeked)
	}
	parts := []string{you + ")"}
	for _, p := range t.Predictors {
		parts = append(parts, fmt.Sprintf("%s %d/%d", p.Name, p.Top1, p.Moves))
	}
	return strings.Join(parts, " · ")
}

// loadHistory reads the history file at the first start. Reading a few
// kilobytes is quick; the writes, which sync the disk, go through a Saver.
// A file that cannot be read or that a newer Aji wrote is left alone and
// not saved over; a damaged one is kept aside by guess.Load.
func (gt *guessTab) loadHistory() {
	if gt.history != nil {
		return
	}
	gt.history = &guess.History{}
	path, err := guessHistoryPath()
	var h *guess.History
	var note string
	if err == nil {
		h, note, err = guess.Load(path)
	}
	if err != nil {
		gt.histMsg = fmt.Sprintf("The scores are not saved: %v", err)
		return
	}
	gt.history, gt.histMsg = h, note
	onUI := gt.wb.opts.OnUI
	gt.saver = guess.NewSaver(path, func(err error) {
		onUI(func() {
			gt.histMsg = fmt.Sprintf("Saving the scores failed: %v", err)
			gt.update()
		})
	})
}

// record saves the tally of run's game and colours in this sitting.
func (gt *guessTab) record(run *guessRun) {
	if gt.saver == nil {
		return
	}
	var t guess.Tally
	for _, r := range gt.runs {
		if r.name == run.name && r.s.Colors() == run.s.Colors() { // the history entry's key
			t.Add(r.s.Tally())
		}
	}
	if t.Moves == 0 {
		return // nothing finished yet: no entry
	}
	gt.history.Put(guess.Entry{Sitting: gt.sitting, Game: run.name, Players: run.players,
		Colors: run.s.Colors().String(), Updated: time.Now(), Tally: t})
	gt.saver.Save(gt.history)
}

// Ensure the tab keeps the workbench's optional hooks.
var (
	_ clickTaker = (*guessTab)(nil)
	_ keyTaker   = (*guessTab)(nil)
	_ nextHider  = (*guessTab)(nil)
)
