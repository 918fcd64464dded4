package workbench

import (
	"bytes"
	"context"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/guess"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// guessHarness is a harness with the Guess tab shown and its history in a
// temporary file.
func guessHarness(t *testing.T) (*harness, *guessTab, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "aji", "guess.json")
	old := guessHistoryPath
	guessHistoryPath = func() (string, error) { return path, nil }
	t.Cleanup(func() { guessHistoryPath = old })
	h := newHarness(t, variations)
	h.selectTab(tabGuess)
	return h, tabOf[*guessTab](h.wb), path
}

// tapBoard taps the main board widget on point p, as a mouse click does.
func (h *harness) tapBoard(p goban.Point) {
	h.t.Helper()
	b := h.wb.views[0].board
	size := b.Size()
	for y := float32(0); y < size.Height; y += 2 {
		for x := float32(0); x < size.Width; x += 2 {
			if q, ok := b.PointAt(fyne.NewPos(x, y)); ok && q == p {
				test.TapAt(b, fyne.NewPos(x, y))
				return
			}
		}
	}
	h.t.Fatalf("no pixel of the board is on %v", p)
}

func recordText(t *testing.T, g *game.Game) string {
	t.Helper()
	var b bytes.Buffer
	if err := g.Save(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// allPredicted pumps the UI queue until every finished move of the tab's
// sessions has its predictors' guesses.
func allPredicted(h *harness, gt *guessTab) {
	h.t.Helper()
	h.pump("the predictors' guesses", func() bool {
		for _, r := range gt.runs {
			for _, res := range r.s.Results() {
				if r.s.Predictions(res.Move.Index) == nil {
					return false
				}
			}
		}
		return true
	})
}

// rankByEval is the rank `aji eval` gives the record's move at node n
// with the named predictor: its own predictor, position and
// predict.Distribution.Rank, none of the app's code.
func rankByEval(t *testing.T, g *game.Game, name string, n *game.Node) int {
	t.Helper()
	p, err := predict.New(name, predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.PositionAt(n.Parent)
	if err != nil {
		t.Fatal(err)
	}
	pos.ToPlay = n.Move.Color
	var d predict.Distribution
	p.Predict(pos, &d)
	return d.Rank(pos, n.Move.Point)
}

// TestGuessScriptedRun plays a scripted run of guesses through the UI: a
// click right at the first try, a stone clicked (no guess), a wrong click
// then the right one after its hint, Enter to reveal, H for the
// predictors' guesses, the keyboard's cursor and Space, Esc. The tallies,
// the predictors' counts beside eval's ranks, the history file and the
// untouched record are checked.
func TestGuessScriptedRun(t *testing.T) {
	h, gt, path := guessHarness(t)
	c := h.wb.doc.cursor
	g := c.Game()
	before := recordText(t, g)
	v := h.wb.views[0]
	h.pump("the first heat map", func() bool { return v.shown != nil && v.node == c.Node() })

	test.Tap(gt.startB)
	if gt.run == nil || !h.wb.nextHidden() {
		t.Fatal("Start did not start guessing")
	}
	if got := h.wb.panel.next.Text; !strings.Contains(got, "hidden") || strings.Contains(got, "E5") {
		t.Errorf("the panel's next-move line %q gives the move away", got)
	}
	if h.wb.status.next.Text != "" {
		t.Errorf("the status bar shows %q while guessing", h.wb.status.next.Text)
	}
	if l, _ := gt.layer(); l == nil {
		t.Error("no hint layer on the boards")
	}

	// Move 1, E5: a click on the board, right at the first try.
	h.tapBoard(h.at("E5"))
	if h.move() != 1 || !strings.Contains(gt.last.Text, "E5: right at the first try") {
		t.Fatalf("after clicking E5: move %d, %q", h.move(), gt.last.Text)
	}
	// Move 2, White C7: a click on a stone is no guess; J1 is wrong and
	// leaves the upper left quarter clear; C7 is right after one hint.
	h.wb.tapped(h.at("E5"))
	if h.move() != 1 || !strings.Contains(gt.status.Text, "not empty") {
		t.Fatalf("a click on a stone: move %d, %q", h.move(), gt.status.Text)
	}
	h.wb.tapped(h.at("J1"))
	if h.move() != 1 || gt.drawn == nil || gt.drawn.Clear != image.Rect(0, 0, 5, 5) || len(gt.drawn.Wrong) != 1 {
		t.Fatalf("after J1: move %d, layer %+v", h.move(), gt.drawn)
	}
	h.wb.tapped(h.at("C7"))
	if h.move() != 2 || !strings.Contains(gt.last.Text, "right after 1 wrong guess (1 hint)") {
		t.Fatalf("after C7: move %d, %q", h.move(), gt.last.Text)
	}
	// Move 3, G3: Enter reveals it.
	h.key(fyne.KeyReturn, 0)
	if h.move() != 3 || !strings.Contains(gt.last.Text, "G3: revealed") {
		t.Fatalf("after Enter: move %d, %q", h.move(), gt.last.Text)
	}
	// Move 4, White G7: H shows the predictors' guesses, ringed.
	h.key(fyne.KeyH, 0)
	h.pump("the predictors' guesses for move 4", func() bool { return !strings.Contains(gt.preds.Text, "computing") })
	if !strings.Contains(gt.preds.Text, "mm ") || len(gt.drawn.Marked) == 0 {
		t.Errorf("the predictors' guesses: %q, %d ringed", gt.preds.Text, len(gt.drawn.Marked))
	}
	// The arrows move the cursor (from the middle, E5) and not the game;
	// Space guesses G7.
	for _, k := range []fyne.KeyName{fyne.KeyRight, fyne.KeyRight, fyne.KeyRight, fyne.KeyUp, fyne.KeyUp} {
		h.key(k, 0)
	}
	if h.move() != 3 || !gt.drawn.HasCursor || gt.drawn.Cursor != h.at("G7") {
		t.Fatalf("the arrows while guessing: move %d, cursor %v", h.move(), gt.drawn.Cursor)
	}
	h.key(fyne.KeySpace, 0)
	if h.move() != 4 || !strings.Contains(gt.last.Text, "G7: right at the first try") {
		t.Fatalf("after Space on G7: move %d, %q", h.move(), gt.last.Text)
	}
	// Esc stops; the next move shows again and the arrows navigate.
	h.key(fyne.KeyEscape, 0)
	if gt.run != nil || h.wb.nextHidden() || strings.Contains(h.wb.panel.next.Text, "hidden") {
		t.Fatal("Esc did not stop guessing")
	}
	h.key(fyne.KeyRight, 0)
	if h.move() != 5 {
		t.Errorf("→ after stopping: move %d", h.move())
	}

	allPredicted(h, gt)
	tally := gt.runs[0].s.Tally()
	want := guess.Tally{Moves: 4, FirstTry: 2, Right: 3, Revealed: 1, Wrong: 1, Hints: 1, Peeked: 1}
	got := tally
	got.Predictors = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tally %+v, want %+v", got, want)
	}
	if !strings.Contains(gt.gameL.Text, "you 2/4 at the first try") || !strings.Contains(gt.sittingL.Text, "you 2/4") {
		t.Errorf("score lines %q, %q", gt.gameL.Text, gt.sittingL.Text)
	}
	names := predict.Names()
	if len(tally.Predictors) != len(names) {
		t.Fatalf("predictors scored: %+v, want every one of %v", tally.Predictors, names)
	}
	for _, name := range names {
		top1 := 0
		for _, r := range gt.runs[0].s.Results() {
			if rankByEval(t, g, name, r.Move.Node) == 1 {
				top1++
			}
		}
		if p, _ := tally.Predictor(name); p.Moves != 4 || p.Top1 != top1 {
			t.Errorf("%s: the tab counts %d of %d first, eval's ranks %d of 4", name, p.Top1, p.Moves, top1)
		}
		if !strings.Contains(gt.gameL.Text, name+" ") {
			t.Errorf("the score line %q leaves out %s", gt.gameL.Text, name)
		}
	}

	// Saved after every move: the file holds the game's tally.
	gt.saver.Wait()
	hist, note, err := guess.Load(path)
	if err != nil || note != "" || len(hist.Entries) != 1 {
		t.Fatalf("history %+v, %q, %v", hist, note, err)
	}
	if e := hist.Entries[0]; e.Game != "test.sgf" || e.Colors != "both" || e.Tally.Moves != 4 || e.Tally.FirstTry != 2 || len(e.Tally.Predictors) != len(names) {
		t.Errorf("history entry %+v", e)
	}
	if !strings.Contains(gt.pastL.Text, "1 game: you 2/4") {
		t.Errorf("past sittings %q", gt.pastL.Text)
	}

	if c.Modified() || recordText(t, g) != before {
		t.Error("guessing changed the record")
	}
}

// TestGuessPredictorsAgreeWithEval reveals every move of the game with
// Enter and checks each predictor's top-1 count in the tab against
// eval.Run, `aji eval` itself, on the same record.
func TestGuessPredictorsAgreeWithEval(t *testing.T) {
	h, gt, _ := guessHarness(t)
	file := filepath.Join(t.TempDir(), "g.sgf")
	if err := os.WriteFile(file, []byte(variations), 0o644); err != nil {
		t.Fatal(err)
	}
	names := predict.Names()
	want, err := eval.Run(context.Background(), names, file, eval.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	h.key(fyne.KeyG, 0) // starts, the tab being shown
	for range 20 {
		if gt.run == nil {
			break
		}
		h.key(fyne.KeyReturn, 0)
	}
	if gt.run != nil || h.move() != 14 || !strings.Contains(gt.status.Text, "End of the line") {
		t.Fatalf("after revealing every move: move %d, %q", h.move(), gt.status.Text)
	}
	allPredicted(h, gt)
	tally := gt.runs[0].s.Tally()
	for i, name := range names {
		p, _ := tally.Predictor(name)
		top1 := int(want[i].Top1*float64(want[i].Positions) + 0.5)
		if p.Moves != want[i].Positions || p.Top1 != top1 {
			t.Errorf("%s: the tab counts %d of %d first, aji eval %d of %d", name, p.Top1, p.Moves, top1, want[i].Positions)
		}
	}
	if tally.Moves != 14 || tally.Revealed != 14 {
		t.Errorf("tally %+v", tally)
	}
}

// TestGuessOneColourAndLeaving guesses Black's moves only: White's replies
// are played, not asked. Leaving the position (the mouse wheel) ends the
// mode, as does opening another game.
func TestGuessOneColourAndLeaving(t *testing.T) {
	h, gt, _ := guessHarness(t)
	gt.colorsR.SetSelected("Black")
	if h.wb.opts.Preferences.String(prefGuessColors) != "black" {
		t.Error("the colour choice is not saved")
	}
	h.key(fyne.KeyRight, 0) // move 1; White to play
	test.Tap(gt.startB)
	if h.move() != 2 || gt.run == nil {
		t.Fatalf("Black's first hidden move: at move %d", h.move())
	}
	h.wb.tapped(h.at("G3"))
	if m, ok := gt.run.s.Current(); h.move() != 4 || !ok || m.Color != board.Black || m.Number != 5 {
		t.Fatalf("after G3: move %d, hidden %+v", h.move(), m)
	}
	h.wb.scrolled(1)
	if gt.run != nil || !strings.Contains(gt.status.Text, "left the hidden move") || h.move() != 5 {
		t.Fatalf("the wheel: move %d, %q", h.move(), gt.status.Text)
	}
	test.Tap(gt.startB)
	if gt.run == nil {
		t.Fatal("no restart")
	}
	if err := h.wb.Show("other.sgf", "", []byte("(;SZ[9];B[ee];W[cc])"), 0); err != nil {
		t.Fatal(err)
	}
	if gt.run != nil || h.wb.nextHidden() {
		t.Error("opening another game kept guessing")
	}
	if !strings.Contains(gt.gameL.Text, "no move yet") || !strings.Contains(gt.sittingL.Text, "you 1/1") {
		t.Errorf("score lines for the new game: %q, %q", gt.gameL.Text, gt.sittingL.Text)
	}
	// Not guessing, a click plays as before.
	h.wb.tapped(h.at("E5"))
	if h.move() != 1 {
		t.Errorf("a click after guessing: move %d", h.move())
	}
}

// TestGuessHidesMovesBelow: while guessing, the Moves tab ends at the
// current move and the Review tab hides its lists of notable moves; both
// come back when the guess ends.
func TestGuessHidesMovesBelow(t *testing.T) {
	h, gt, _ := guessHarness(t)
	ml := tabOf[*moveList](h.wb)
	rt := tabOf[*reviewTab](h.wb)
	full := len(ml.line)
	if full < 3 {
		t.Fatalf("the Moves tab lists %d nodes before guessing", full)
	}
	test.Tap(gt.startB)
	if len(ml.line) != 1 || ml.line[0] != h.wb.doc.cursor.Node() {
		t.Errorf("while guessing the Moves tab lists %d nodes, the game has %d", len(ml.line), full)
	}
	if rt.lists.Visible() {
		t.Error("the Review tab's lists show while guessing")
	}
	h.key(fyne.KeyEscape, 0)
	if gt.run != nil || len(ml.line) != full || !rt.lists.Visible() {
		t.Errorf("after Esc: guessing %v, %d of %d nodes listed, lists shown %v", gt.run != nil, len(ml.line), full, rt.lists.Visible())
	}
}

// TestGuessDamagedHistory: a damaged history file is kept aside and the
// tab says so.
func TestGuessDamagedHistory(t *testing.T) {
	h, gt, path := guessHarness(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	test.Tap(gt.startB)
	if !strings.Contains(gt.pastL.Text, path+".bad") {
		t.Errorf("the tab does not say where the damaged file went: %q", gt.pastL.Text)
	}
	if data, err := os.ReadFile(path + ".bad"); err != nil || string(data) != "{not json" {
		t.Errorf("the damaged file was not kept: %q, %v", data, err)
	}
	h.key(fyne.KeyReturn, 0)
	gt.saver.Wait()
	if hist, _, err := guess.Load(path); err != nil || len(hist.Entries) != 1 {
		t.Errorf("the new history: %+v, %v", hist, err)
	}
}

// TestGuessScreenshot saves the workbench in guess mode at move 100 of a
// professional game, after two wrong guesses and with the predictors'
// guesses shown, to the PNG named by AJI_SHOT_GUESS (an absolute path):
// AJI_SHOT_GUESS=$PWD/docs/guess.png go test -run GuessScreenshot ./ui/workbench.
func TestGuessScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_GUESS")
	if out == "" {
		t.Skip("set AJI_SHOT_GUESS=file.png to save a screenshot of the Guess tab")
	}
	old := guessHistoryPath
	guessHistoryPath = func() (string, error) { return filepath.Join(t.TempDir(), "guess.json"), nil }
	t.Cleanup(func() { guessHistoryPath = old })
	h := proGame(t, 99)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.w.Resize(fyne.NewSize(1300, 900))
	h.wb.settings.heat, h.wb.settings.topK = true, 5
	h.selectTab(tabGuess)
	gt := tabOf[*guessTab](h.wb)
	test.Tap(gt.startB)
	m, _ := gt.run.s.Current()
	// Two wrong guesses, as far from the move as the board allows.
	x, y := m.Point.XY()
	h.wb.tapped(goban.Point{X: 18 * (1 - x/10), Y: 18 * (1 - y/10)})
	for _, p := range board.PointsOf(19) {
		if gt.run.s.Region().Contains(p) && p != m.Point && gt.run.s.Position().Board.At(p) == board.Empty {
			h.wb.tapped(goPoint(p))
			break
		}
	}
	h.key(fyne.KeyH, 0)
	h.pump("the predictors' guesses", func() bool { return !strings.Contains(gt.preds.Text, "computing") })
	h.pump("the analyses", func() bool { return len(h.ui) == 0 })
	h.saveWindow(out)
}
