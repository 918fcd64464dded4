package workbench

import (
	"errors"
	"fmt"
	"math"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
)

// bigStep is how many moves Shift+←/→ skip.
const bigStep = 10

// Key handles a navigation key: ←/→ one move, with Shift ten, Home/End the
// ends of the variation, ↑/↓ the previous or next variation. It reports
// whether the key was one of these, or one a tab took first (keyTaker).
func (wb *Workbench) Key(key fyne.KeyName, mods fyne.KeyModifier) bool {
	if wb.present.takeKey(key, mods) {
		return true
	}
	for _, t := range wb.tabs {
		if kt, ok := t.(keyTaker); ok && kt.takeKey(key, mods) {
			return true
		}
	}
	c := wb.doc.cursor
	step := 1
	if mods&fyne.KeyModifierShift != 0 {
		step = bigStep
	}
	switch key {
	case fyne.KeyRight:
		wb.move(c.Forward(step))
	case fyne.KeyLeft:
		wb.move(c.Back(step))
	case fyne.KeyPageDown:
		wb.move(c.Forward(bigStep))
	case fyne.KeyPageUp:
		wb.move(c.Back(bigStep))
	case fyne.KeyHome:
		wb.move(c.Back(math.MaxInt))
	case fyne.KeyEnd:
		wb.move(c.Forward(math.MaxInt))
	case fyne.KeyUp:
		wb.move(c.SwitchVariation(-1))
	case fyne.KeyDown:
		wb.move(c.SwitchVariation(+1))
	default:
		return false
	}
	return true
}

// scrolled is the mouse wheel over a board: one move per notch.
func (wb *Workbench) scrolled(steps int) {
	if steps > 0 {
		wb.move(wb.doc.cursor.Forward(steps))
	} else if steps < 0 {
		wb.move(wb.doc.cursor.Back(-steps))
	}
}

// move shows the outcome of a cursor step: the new position if it moved,
// the error (an illegal move in the record) in the status bar.
func (wb *Workbench) move(moved bool, err error) {
	if moved {
		wb.changed(true)
	}
	if err != nil {
		wb.setStatus("%v", err)
	}
}

// jump goes to a node picked in the move list.
func (wb *Workbench) jump(n *game.Node) {
	if n == wb.doc.cursor.Node() {
		return
	}
	if err := wb.doc.cursor.GoTo(n); err != nil {
		wb.setStatus("%v", err)
		return
	}
	wb.changed(true)
	// Tapping the list gives it the keyboard focus; hand the arrow keys back
	// to navigation.
	if c := wb.win.Canvas(); c != nil {
		c.Unfocus()
	}
}

// tapped plays the side to move on an empty intersection; a move the record
// does not have becomes a new variation — unless a tab takes the click
// first (clickTaker).
func (wb *Workbench) tapped(p goban.Point) {
	if wb.present.takeClick() {
		return
	}
	for _, t := range wb.tabs {
		if ct, ok := t.(clickTaker); ok && ct.takeClick(p) {
			return
		}
	}
	c := wb.doc.cursor
	size := c.Game().Size()
	if p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size {
		return
	}
	pt := board.At(p.X, p.Y)
	pos := c.Position()
	if pos.Board.At(pt) != board.Empty {
		return // a click on a stone is not a move; stay quiet as Sabaki does
	}
	before := c.Modified()
	if err := c.Play(pt); err != nil {
		wb.setStatus("%s cannot play %s: %s", colorName(pos.ToPlay), pt.GTP(size), illegalReason(err))
		return
	}
	wb.changed(true)
	if c.Modified() && !before {
		wb.updateTitle()
	}
}

// Optional hooks a tab may implement besides the tab interface, for a mode
// that takes over the board (the Guess tab while the user guesses): the
// workbench asks every tab that has one before doing its own work.
type (
	// clickTaker may take a click on the board before it plays a move;
	// takeClick reports whether it did.
	clickTaker interface{ takeClick(p goban.Point) bool }
	// keyTaker may take a key before navigation; takeKey reports whether
	// it did.
	keyTaker interface {
		takeKey(key fyne.KeyName, mods fyne.KeyModifier) bool
	}
	// nextHider may keep the record's next move secret: while hidesNext,
	// render shows no heat map, labels or ring on the boards and no rank of
	// the next move in the panel or the status bar.
	nextHider interface{ hidesNext() bool }
)

// nextHidden reports whether the record's next move is kept secret — no
// ring and no rank — by a tab, or by the presenter until it is revealed.
func (wb *Workbench) nextHidden() bool {
	return wb.tabHidesNext() || wb.present.hidesNext()
}

// tabHidesNext reports whether a tab keeps the record's next move secret;
// the heat maps and labels, which hint at it, are then hidden too.
func (wb *Workbench) tabHidesNext() bool {
	for _, t := range wb.tabs {
		if h, ok := t.(nextHider); ok && h.hidesNext() {
			return true
		}
	}
	return false
}

// illegalReason turns a rules error into a few words for the status bar.
func illegalReason(err error) string {
	switch {
	case errors.Is(err, board.ErrKo):
		return "ko"
	case errors.Is(err, board.ErrSuicide):
		return "suicide"
	case errors.Is(err, board.ErrOccupied):
		return "occupied"
	}
	return err.Error()
}

func colorName(c board.Color) string {
	if c == board.White {
		return "White"
	}
	return "Black"
}

// changed shows the cursor's position everywhere and starts its analysis.
// navigated is false for a redraw of the same position.
func (wb *Workbench) changed(navigated bool) {
	c := wb.doc.cursor
	pos := c.Position()
	gp := goban.FromBoard(&pos.Board, pos.Last)
	hover := goban.Black
	if pos.ToPlay == board.White {
		hover = goban.White
	}
	for _, v := range wb.views {
		// The position comes from the rules engine, so the widget accepts it.
		_ = v.board.SetPosition(gp)
		v.board.SetHoverStone(hover)
	}
	if navigated {
		wb.nav.navigated()
		wb.status.message("")
	}
	wb.status.show(c)
	wb.updateTitle()
	for _, t := range wb.tabs {
		t.navigated()
	}
	wb.analyze()
	// The labels of the previous result stay until the new one arrives
	// (KaTrain's way: no flashing); the record's next move is known now.
	wb.render()
}

// updateTitle names the players and the file, with a * while unsaved.
func (wb *Workbench) updateTitle() {
	in := wb.doc.cursor.Game().Info
	title := "Aji — " + wb.doc.name
	if in.Black != "" || in.White != "" {
		title = fmt.Sprintf("Aji — %s vs %s — %s", player(in.Black, in.BlackRank), player(in.White, in.WhiteRank), wb.doc.name)
	}
	if wb.doc.cursor.Modified() {
		title += " *"
	}
	if wb.win.Title() != title {
		wb.win.SetTitle(title)
	}
}

func player(name, rank string) string {
	if name == "" {
		name = "?"
	}
	if rank != "" {
		name += " " + rank
	}
	return name
}

// nextMove is the record's move after the current node for the side to move,
// or false when there is none (end of the line, a pass, a setup node, or a
// move out of turn — there is then nothing to rank).
func nextMove(c *game.Cursor) (board.Point, bool) {
	n := c.Next()
	if n == nil || n.Move == nil || n.Move.Color != c.Position().ToPlay {
		return board.NoPoint, false
	}
	return n.Move.Point, true
}
