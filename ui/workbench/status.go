package workbench

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// statusBar is the line under everything: where we are in the game, who is
// to play, the captures, the next move's rank, and the last message.
type statusBar struct {
	move     *widget.Label
	toPlay   *widget.Label
	black    fyne.CanvasObject // stone icons, one shown for the side to move
	white    fyne.CanvasObject
	captures *widget.Label
	next     *widget.Label
	msg      *widget.Label
	box      fyne.CanvasObject
}

func newStatusBar() *statusBar {
	s := &statusBar{
		move: widget.NewLabel(""), toPlay: widget.NewLabel(""), captures: widget.NewLabel(""),
		next: widget.NewLabel(""), msg: widget.NewLabel(""),
		black: stoneIcon(goban.Black), white: stoneIcon(goban.White),
	}
	s.msg.Truncation = fyne.TextTruncateEllipsis
	s.msg.Importance = widget.WarningImportance
	s.next.TextStyle.Bold = true
	sep := func() fyne.CanvasObject { return widget.NewSeparator() }
	left := container.NewHBox(s.move, sep(), container.NewStack(s.black, s.white), s.toPlay, sep(), s.captures, sep(), s.next)
	s.box = container.NewVBox(widget.NewSeparator(), container.NewBorder(nil, nil, left, nil, s.msg))
	return s
}

func (s *statusBar) widget() fyne.CanvasObject { return s.box }

// show writes the cursor's move number, side to move and captures.
func (s *statusBar) show(c *game.Cursor) {
	pos := c.Position()
	count, index := c.Variations()
	move := fmt.Sprintf("Move %d", pos.MoveNumber)
	if last := lastMove(c.Line()); last > 0 {
		move = fmt.Sprintf("Move %d / %d", pos.MoveNumber, last)
	}
	if count > 1 {
		move += fmt.Sprintf("  (variation %d of %d)", index+1, count)
	}
	setText(s.move, move)
	if pos.ToPlay == board.Black {
		s.black.Show()
		s.white.Hide()
	} else {
		s.white.Show()
		s.black.Hide()
	}
	setText(s.toPlay, colorName(pos.ToPlay)+" to play")
	setText(s.captures, fmt.Sprintf("Captures  B %d  W %d", pos.Board.Captures(board.Black), pos.Board.Captures(board.White)))
}

// showNext writes the main predictor's rank for the record's next move.
func (s *statusBar) showNext(text string) { setText(s.next, text) }

// message shows a short message, replacing the previous one.
func (s *statusBar) message(m string) { setText(s.msg, m) }

// setText avoids a refresh when nothing changed; the status bar is updated on
// every navigation.
func setText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

// lastMove is the move number at the end of a line.
func lastMove(line []*game.Node) int {
	n := 0
	for _, node := range line {
		if node.Move != nil {
			n++
		}
	}
	return n
}
