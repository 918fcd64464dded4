package workbench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	_ "aji/analysis/predict/all" // every predictor the app offers
	"aji/analysis/territory"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// menuItem finds an item of the window's main menu by its label.
func (h *harness) menuItem(menu, label string) *fyne.MenuItem {
	h.t.Helper()
	for _, m := range h.w.MainMenu().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	h.t.Fatalf("no %s ▸ %s", menu, label)
	return nil
}

// savedText saves the game to a file in a temporary folder and returns the file's text.
func (h *harness) savedText() string {
	h.t.Helper()
	path := filepath.Join(h.t.TempDir(), "game.sgf")
	h.wb.saveTo(path, nil)
	data, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatal(err)
	}
	if h.wb.doc.cursor.Modified() {
		h.t.Error("still modified after saving")
	}
	return string(data)
}

// editMode selects the Edit tab and a board mode.
func (h *harness) editMode(mode string) *editTab {
	h.selectTab(tabEdit)
	et := tabOf[*editTab](h.wb)
	et.mode.SetSelected(mode)
	return et
}

func TestEditNewGameAsksFirstThenMakesAHandicapGame(t *testing.T) {
	h := newHarness(t, variations)
	h.wb.tapped(h.at("C3")) // an unsaved move
	if !h.wb.doc.cursor.Modified() {
		t.Fatal("the move did not mark the game modified")
	}
	h.menuItem("File", "New…").Action()
	// Unsaved changes are asked about first; Cancel keeps the game.
	test.Tap(h.button("Cancel"))
	if h.wb.doc.cursor.Game().NumMoves() != 14 || h.wb.doc.name != "test.sgf" {
		t.Fatal("Cancel replaced the game")
	}
	h.menuItem("File", "New…").Action()
	test.Tap(h.button("Discard"))
	var selects []*widget.Select
	var komi *widget.Entry
	for _, o := range test.LaidOutObjects(h.w.Canvas().Overlays().Top()) {
		switch o := o.(type) {
		case *widget.Select:
			selects = append(selects, o)
		case *widget.Entry:
			komi = o
		}
	}
	if len(selects) != 2 || komi == nil {
		t.Fatalf("the New game dialog has %d selects, komi entry %v", len(selects), komi != nil)
	}
	selects[0].SetSelected("9")
	selects[1].SetSelected("2")
	if komi.Text != "0.5" {
		t.Errorf("komi suggested for a handicap game %q, want 0.5", komi.Text)
	}
	test.Tap(h.button("Create"))
	c := h.wb.doc.cursor
	g := c.Game()
	if g.Size() != 9 || g.Info.Handicap != 2 || g.Info.Komi != 0.5 || g.NumMoves() != 0 || c.Modified() {
		t.Fatalf("new game: %+v, %d moves, modified %v", g.Info, g.NumMoves(), c.Modified())
	}
	pos := c.Position()
	if pos.Board.At(board.At(2, 6)) != board.Black || pos.Board.At(board.At(6, 2)) != board.Black || pos.ToPlay != board.White {
		t.Errorf("handicap stones or turn wrong:\n%s%v to play", pos.Board.String(), pos.ToPlay)
	}
	if got := h.wb.views[0].board.CurrentPosition().Size; got != 9 {
		t.Errorf("the board shows %dx%d", got, got)
	}
	s := h.savedText()
	for _, want := range []string{"SZ[9]", "HA[2]", "KM[0.5]", "AB[cg][gc]"} {
		if !strings.Contains(s, want) {
			t.Errorf("saved game lacks %s: %s", want, s)
		}
	}
	// Without unsaved changes the dialog comes at once.
	h.menuItem("File", "New…").Action()
	h.button("Create")
}

func TestEditSetupStonesByClicks(t *testing.T) {
	h := newHarness(t, variations)
	c := h.wb.doc.cursor
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	atC7 := c.Node()
	et := h.editMode(modeAddBlack)
	h.wb.tapped(h.at("C3"))
	h.editMode(modeAddWhite)
	h.wb.tapped(h.at("G7"))
	// W C7 has children, so the setup went on a new child of it, a third variation after G3 and C3.
	setupNode := c.Node()
	if setupNode.Parent != atC7 || len(atC7.Children) != 3 || atC7.Children[2] != setupNode {
		t.Fatal("setup after a move with children did not become a new variation")
	}
	b := c.Position().Board
	if b.At(board.At(2, 6)) != board.Black || b.At(board.At(6, 2)) != board.White || c.Position().MoveNumber != 2 {
		t.Fatalf("after adding stones at move 2:\n%s", b.String())
	}
	h.editMode(modeErase)
	h.wb.tapped(h.at("E5")) // Black's first move: AE
	h.wb.tapped(h.at("C3")) // added on this node: its AB goes
	if got := c.Position().Board; got.At(board.At(4, 4)) != board.Empty || got.At(board.At(2, 6)) != board.Empty {
		t.Fatalf("after erasing:\n%s", got.String())
	}
	if got := h.wb.views[0].board.CurrentPosition().At(goban.Point{X: 4, Y: 4}); got != goban.Empty {
		t.Errorf("the board still shows %v at E5", got)
	}
	// A stone that leaves a chain without liberties is refused and said so.
	h.editMode(modeAddBlack)
	h.wb.tapped(h.at("G8"))
	h.wb.tapped(h.at("F7"))
	h.wb.tapped(h.at("H7"))
	setup := len(c.Node().Setup)
	h.wb.tapped(h.at("G6")) // the last liberty of White's G7
	if c.Position().Board.At(board.At(6, 3)) != board.Empty || len(c.Node().Setup) != setup || c.Node() != setupNode {
		t.Error("a black stone taking White's last liberty by setup was accepted")
	}
	if msg := h.wb.status.msg.Text; !strings.Contains(msg, "without liberties") {
		t.Errorf("status %q", msg)
	}
	s := h.savedText()
	for _, want := range []string{"AB[", "[gb]", "[fc]", "[hc]", "AW[gc]", "AE[ee]"} {
		if !strings.Contains(s, want) {
			t.Errorf("saved game lacks %s: %s", want, s)
		}
	}
	// In Play mode, or with another tab shown, a click plays.
	et.mode.SetSelected(modePlay)
	h.wb.tapped(h.at("J1"))
	if n := c.Node(); n.Move == nil || n.Move.Point != board.At(8, 8) {
		t.Fatal("Play mode did not play")
	}
	et.mode.SetSelected(modeAddBlack)
	h.selectTab(tabComment)
	h.wb.tapped(h.at("A1"))
	if n := c.Node(); n.Move == nil || n.Move.Point != board.At(0, 8) {
		t.Fatal("with the Edit tab hidden a click did not play")
	}
}

func TestEditWhoseTurnAndComment(t *testing.T) {
	h := newHarness(t, variations)
	c := h.wb.doc.cursor
	et := h.editMode(modePlay)
	if et.turn.Selected != "Black" {
		t.Fatalf("turn shown %q at the root", et.turn.Selected)
	}
	et.turn.SetSelected("White")
	if c.Position().ToPlay != board.White || c.Game().Root.ToPlay != board.White || !c.Modified() {
		t.Fatalf("PL: %v to play", c.Position().ToPlay)
	}
	if !strings.HasSuffix(h.w.Title(), "*") {
		t.Errorf("title %q does not show the change", h.w.Title())
	}
	et.comment.SetText("White to play first here")
	if c.Node().Comment != "White to play first here" {
		t.Errorf("comment %q", c.Node().Comment)
	}
	if got := tabOf[*commentTab](h.wb).text.Text; got != "White to play first here" {
		t.Errorf("the Comment tab shows %q", got)
	}
	s := h.savedText()
	if !strings.Contains(s, "PL[W]") || !strings.Contains(s, "C[White to play first here]") {
		t.Errorf("saved game: %s", s)
	}
	// A click now plays White; the entry follows navigation.
	h.wb.tapped(h.at("J9"))
	if m := c.Node().Move; m == nil || m.Color != board.White {
		t.Fatal("the click after PL[W] did not play White")
	}
	if et.comment.Text != "" || et.turn.Selected != "Black" {
		t.Errorf("after White's move: comment %q, turn %q", et.comment.Text, et.turn.Selected)
	}
	h.key(fyne.KeyHome, 0)
	if et.comment.Text != "White to play first here" || et.turn.Selected != "White" {
		t.Errorf("back at the root: comment %q, turn %q", et.comment.Text, et.turn.Selected)
	}
}

func TestEditDeleteVariation(t *testing.T) {
	h := newHarness(t, variations)
	c := h.wb.doc.cursor
	et := h.editMode(modePlay)
	if !et.del.Disabled() {
		t.Error("delete enabled at the root")
	}
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyDown, 0) // the side line, B C3 with a comment
	parent := c.Node().Parent
	test.Tap(et.del)
	test.Tap(h.button("No"))
	if len(parent.Children) != 2 {
		t.Fatal("No deleted the variation")
	}
	test.Tap(et.del)
	test.Tap(h.button("Yes"))
	if c.Node() != parent || len(parent.Children) != 1 || h.move() != 2 || !c.Modified() {
		t.Fatalf("after deleting: move %d, %d children", h.move(), len(parent.Children))
	}
	if got := tabOf[*moveList](h.wb).line; len(got) != 15 {
		t.Errorf("move list has %d rows, want the main line's 15", len(got))
	}
	if s := h.savedText(); strings.Contains(s, "a side line") || !strings.Contains(s, "W[id]") {
		t.Errorf("saved game: %s", s)
	}
}

// TestEditSmallBoardsAnalyse runs every registered predictor and the
// territory estimate on a 9x9 and a 13x13 game made by File ▸ New (with
// handicap stones and a few moves): all were trained on 19x19 games and run
// on other sizes as they are.
func TestEditSmallBoardsAnalyse(t *testing.T) {
	for _, size := range []int{9, 13} {
		g, err := game.NewGame(size, 2, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		c, err := game.NewCursor(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"C5", "E5", "F4"} {
			p, _ := board.ParseGTP(m, size)
			if err := c.Play(p); err != nil {
				t.Fatal(err)
			}
		}
		pos := c.Position()
		t.Logf("%dx%d: predictors %v", size, size, predict.Names())
		for _, name := range predict.Names() {
			pr, err := predict.New(name, predict.Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var d predict.Distribution
			pr.Predict(pos, &d)
			top := d.Top(1, nil)
			if len(top) != 1 || !pos.Board.Legal(top[0].Point, pos.ToPlay) && top[0].Point != board.Pass {
				t.Errorf("%dx%d %s: top %v", size, size, name, top)
			}
			sum := 0.0
			for _, p := range append(pos.Board.Points(), board.Pass) {
				sum += d.P[p]
			}
			if math.Abs(sum-1) > 1e-6 {
				t.Errorf("%dx%d %s: probabilities sum to %g", size, size, name, sum)
			}
		}
		for _, kind := range []territory.Kind{territory.KindBoltzmann5, territory.KindBoltzmann5MC} {
			e, err := territory.NewEstimator(kind, territory.MethodLBP)
			if err != nil {
				t.Fatal(err)
			}
			var m territory.Marginals
			if err := e.Estimate(context.Background(), pos, &m); err != nil {
				t.Fatalf("%dx%d territory %v: %v", size, size, kind, err)
			}
			if p := game.HandicapPoints(size, 2)[1]; m.Size != size || !(m.Mean[p] > 0) { // a handicap stone
				t.Errorf("%dx%d territory %v: size %d, E[s] at %s %g", size, size, kind, m.Size, p.GTP(size), m.Mean[p])
			}
		}
	}
}
