package workbench

import (
	"fmt"
	"strconv"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// tabEdit is the saved name of the Edit tab.
const tabEdit = "edit"

// The Edit tab's board modes: Play is the normal click-to-play; the others
// make a click on the board a setup edit (AB, AW, AE).
const (
	modePlay     = "Play"
	modeAddBlack = "Add black"
	modeAddWhite = "Add white"
	modeErase    = "Erase"
)

// editModes are the colours the setup modes put on the board.
var editModes = map[string]board.Color{modeAddBlack: board.Black, modeAddWhite: board.White, modeErase: board.Empty}

// editTab sets positions up and edits the record: a board mode (play, add
// black or white stones, erase), whose turn it is (PL), the node's comment,
// and deleting the current variation. Each edit goes through the cursor's
// editing operations (analysis/game/edit.go), which refuse what would break
// the record; the board and the analyses follow at once.
type editTab struct {
	tabBase
	mode     *widget.RadioGroup
	turn     *widget.RadioGroup
	comment  *widget.Entry
	del      *widget.Button
	updating bool // set while navigated fills the widgets, so their callbacks do not edit
	box      fyne.CanvasObject
}

func newEditTab(wb *Workbench) tab {
	et := &editTab{tabBase: tabBase{wb: wb, name: tabEdit, title: "Edit"}}
	et.mode = widget.NewRadioGroup([]string{modePlay, modeAddBlack, modeAddWhite, modeErase}, func(string) { et.showHover() })
	et.mode.Horizontal = true
	et.mode.Required = true
	et.mode.SetSelected(modePlay)
	et.turn = widget.NewRadioGroup([]string{"Black", "White"}, et.setTurn)
	et.turn.Horizontal = true
	et.turn.Required = true
	et.comment = widget.NewMultiLineEntry()
	et.comment.Wrapping = fyne.TextWrapWord
	et.comment.SetPlaceHolder("Comment on this move")
	et.comment.OnChanged = et.setComment
	et.del = widget.NewButton("Delete this variation…", et.confirmDelete)
	et.del.Importance = widget.DangerImportance
	top := container.NewVBox(
		widget.NewLabel("Board clicks"), et.mode,
		widget.NewLabel("To play"), et.turn,
		widget.NewLabel("Comment"))
	et.box = container.NewBorder(top, et.del, nil, nil, et.comment)
	return et
}

func (et *editTab) content() fyne.CanvasObject { return et.box }

// navigated shows the current node's player to move and comment.
func (et *editTab) navigated() {
	c := et.wb.doc.cursor
	et.updating = true
	defer func() { et.updating = false }()
	et.turn.SetSelected(colorName(c.Position().ToPlay))
	if et.comment.Text != c.Node().Comment {
		et.comment.SetText(c.Node().Comment)
	}
	if c.Node().Parent == nil {
		et.del.Disable()
	} else {
		et.del.Enable()
	}
	et.showHover()
}

// settingUp reports whether board clicks edit the setup now: a setup mode is
// chosen and the tab is shown.
func (et *editTab) settingUp() (board.Color, bool) {
	color, ok := editModes[et.mode.Selected]
	return color, ok && et.shown()
}

// showHover shows under the pointer the stone a click would put down: the
// mode's, or in Play the side to move's.
func (et *editTab) showHover() {
	color, ok := et.settingUp()
	if !ok {
		color = et.wb.doc.cursor.Position().ToPlay
	}
	s := goban.Empty
	switch color {
	case board.Black:
		s = goban.Black
	case board.White:
		s = goban.White
	}
	for _, v := range et.wb.views {
		v.board.SetHoverStone(s)
	}
}

// selected restores the hover stone of the mode when the tab comes back.
func (et *editTab) selected() { et.showHover() }

// takeClick implements clickTaker: in a setup mode, with the tab shown, a
// click on the board adds or erases a setup stone instead of playing.
func (et *editTab) takeClick(p goban.Point) bool {
	color, ok := et.settingUp()
	if !ok {
		return false
	}
	c := et.wb.doc.cursor
	size := c.Game().Size()
	if p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size {
		return true
	}
	pt := board.At(p.X, p.Y)
	if err := c.SetStone(pt, color); err != nil {
		et.wb.setStatus("%s", err)
		return true
	}
	et.wb.changed(true)
	return true
}

// setTurn writes the player to move (PL) chosen in the tab.
func (et *editTab) setTurn(name string) {
	if et.updating || name == "" {
		return
	}
	color := board.Black
	if name == "White" {
		color = board.White
	}
	c := et.wb.doc.cursor
	if c.Position().ToPlay == color {
		return
	}
	if err := c.SetToPlay(color); err != nil {
		et.wb.setStatus("%s", err)
		return
	}
	et.wb.changed(false)
}

// setComment writes the comment as it is typed; only the title and the
// Comment tab follow, the position is the same.
func (et *editTab) setComment(text string) {
	if et.updating {
		return
	}
	c := et.wb.doc.cursor
	c.SetComment(text)
	et.wb.updateTitle()
	if ct, ok := et.wb.tabNamed(tabComment).(*commentTab); ok {
		ct.navigated()
	}
}

// confirmDelete asks before deleting the current node and all below it.
func (et *editTab) confirmDelete() {
	c := et.wb.doc.cursor
	n := c.Node()
	if n.Parent == nil {
		return
	}
	what := "this node"
	if n.Move != nil {
		what = fmt.Sprintf("move %d (%s)", c.Position().MoveNumber, moveName(n.Move, c.Game().Size()))
	}
	dialog.ShowConfirm("Delete this variation",
		fmt.Sprintf("Delete %s and every move after it in this variation?", what),
		func(ok bool) {
			if ok && c == et.wb.doc.cursor && c.Node() == n {
				et.deleteVariation()
			}
		}, et.wb.win)
}

// deleteVariation deletes the current node's subtree and goes to its parent.
func (et *editTab) deleteVariation() {
	if err := et.wb.doc.cursor.DeleteVariation(); err != nil {
		et.wb.setStatus("%s", err)
		return
	}
	et.wb.changed(true)
}

func moveName(m *game.Move, size int) string {
	if m.Point == board.Pass {
		return colorName(m.Color) + " pass"
	}
	return colorName(m.Color) + " " + m.Point.GTP(size)
}

// Choices of the File ▸ New… dialog.
var (
	newSizes     = []string{"19", "13", "9"}
	newHandicaps = []string{"0", "2", "3", "4", "5", "6", "7", "8", "9"}
)

// newGameDialog is File ▸ New…: after asking about unsaved changes, the
// board size, handicap and komi of a new game.
func (wb *Workbench) newGameDialog() {
	wb.confirmDiscard(func() {
		size := widget.NewSelect(newSizes, nil)
		size.SetSelected(strconv.Itoa(wb.doc.cursor.Game().Size()))
		if size.Selected == "" {
			size.SetSelected("19")
		}
		komi := widget.NewEntry()
		komi.SetText("6.5")
		handicap := widget.NewSelect(newHandicaps, func(s string) {
			if s == "0" {
				komi.SetText("6.5")
			} else {
				komi.SetText("0.5")
			}
		})
		handicap.SetSelected("0")
		items := []*widget.FormItem{
			{Text: "Board", Widget: size},
			{Text: "Handicap", Widget: handicap},
			{Text: "Komi", Widget: komi},
		}
		d := dialog.NewForm("New game", "Create", "Cancel", items, func(ok bool) {
			if !ok {
				return
			}
			s, _ := strconv.Atoi(size.Selected)
			h, _ := strconv.Atoi(handicap.Selected)
			k, err := strconv.ParseFloat(strings.TrimSpace(komi.Text), 64)
			if err != nil {
				dialog.ShowError(fmt.Errorf("komi %q is not a number", komi.Text), wb.win)
				return
			}
			if err := wb.NewGame(s, h, k); err != nil {
				dialog.ShowError(err, wb.win)
			}
		}, wb.win)
		d.Show()
	})
}

// NewGame replaces the game, without asking, with an empty one of the given
// board size, handicap (0, or 2 to 9 stones on the standard points) and komi.
func (wb *Workbench) NewGame(size, handicap int, komi float64) error {
	g, err := game.NewGame(size, handicap, komi)
	if err != nil {
		return err
	}
	c, err := game.NewCursor(g)
	if err != nil {
		return err
	}
	wb.doc = &document{cursor: c, name: "new game", games: 1}
	wb.panel.showInfo(g.Info)
	wb.changed(true)
	desc := fmt.Sprintf("new %dx%d game, komi %g", size, size, komi)
	if handicap > 0 {
		desc += fmt.Sprintf(", %d handicap stones", handicap)
	}
	wb.setStatus("%s", desc)
	return nil
}
