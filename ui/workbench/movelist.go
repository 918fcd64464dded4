package workbench

import (
	"fmt"
	"slices"
	"strconv"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tabMoves is the saved name of the Moves tab.
const tabMoves = "moves"

// moveList is the Moves tab, the game-tree panel: the current variation
// from the start to its end, one row per node, with a marker where the
// record branches. A tap jumps to the node; ↑/↓ switch between the
// branches.
type moveList struct {
	tabBase
	list   *widget.List
	game   *game.Game // the game of line
	line   []*game.Node
	nums   []int // move number at each node of line
	size   int
	onPick func(*game.Node)
}

func newMovesTab(wb *Workbench) tab {
	m := &moveList{tabBase: tabBase{wb: wb, name: tabMoves, title: "Moves"}, onPick: wb.jump, size: 19}
	m.list = widget.NewList(
		func() int { return len(m.line) },
		func() fyne.CanvasObject { return newMoveRow(m.onPick) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(m.line) {
				o.(*moveRow).set(m.nums[id], m.line[id], m.size)
			}
		})
	return m
}

func (m *moveList) content() fyne.CanvasObject { return m.list }

func (m *moveList) navigated() { m.show(m.wb.doc.cursor) }

// render lists the variation again when the next move has become secret
// (a guess begins, the presenter hides it) or has been revealed.
func (m *moveList) render() { m.show(m.wb.doc.cursor) }

// show lists the cursor's variation and selects its current node, first
// forgetting the rows of another game. While the next move is secret the
// list ends at the current node: the rows below would give it away.
func (m *moveList) show(c *game.Cursor) {
	if g := c.Game(); g != m.game {
		m.game, m.line, m.nums = g, nil, nil
		m.list.UnselectAll()
		m.list.Refresh()
	}
	line := c.Line()
	if i := slices.Index(line, c.Node()); i >= 0 && m.wb.nextHidden() {
		line = line[:i+1]
	}
	m.size = c.Game().Size()
	if !slices.Equal(line, m.line) {
		m.line = line
		m.nums = m.nums[:0]
		k := 0
		for _, n := range line {
			if n.Move != nil {
				k++
			}
			m.nums = append(m.nums, k)
		}
		m.list.Refresh()
	}
	// Selecting only highlights the row: taps reach the rows themselves.
	if i := slices.Index(m.line, c.Node()); i >= 0 {
		m.list.Select(i)
	}
}

// moveRow is one row of the move list: number, stone, point, and markers
// for a branch and a comment. It takes the taps itself, so the list never
// gets the keyboard focus, which would swallow the arrow keys.
type moveRow struct {
	widget.BaseWidget
	node    *game.Node
	onTap   func(*game.Node)
	num     *widget.Label
	black   fyne.CanvasObject
	white   fyne.CanvasObject
	point   *widget.Label
	branch  *widget.Label
	comment *widget.Icon
}

func newMoveRow(onTap func(*game.Node)) *moveRow {
	r := &moveRow{
		onTap: onTap,
		// The theme font's digits are tabular, so right-aligned numbers line
		// up without loading a monospace font at start-up.
		num:   widget.NewLabelWithStyle("000", fyne.TextAlignTrailing, fyne.TextStyle{}),
		black: stoneIcon(goban.Black), white: stoneIcon(goban.White),
		point: widget.NewLabel("pass"), branch: widget.NewLabel(""),
		comment: widget.NewIcon(theme.DocumentIcon()),
	}
	r.branch.Importance = widget.HighImportance
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer implements fyne.Widget.
func (r *moveRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewHBox(r.num, container.NewStack(r.black, r.white), r.point, r.branch, r.comment))
}

// Tapped implements fyne.Tappable: it jumps to the row's node.
func (r *moveRow) Tapped(*fyne.PointEvent) {
	if r.node != nil {
		r.onTap(r.node)
	}
}

// set shows node n, reached after num moves.
func (r *moveRow) set(num int, n *game.Node, size int) {
	r.node = n
	if n.Move != nil {
		setText(r.num, strconv.Itoa(num))
	} else {
		setText(r.num, "")
	}
	r.black.Hide()
	r.white.Hide()
	switch {
	case n.Move == nil && n.Parent == nil:
		setText(r.point, "Start")
	case n.Move == nil:
		setText(r.point, "(setup)")
	default:
		if n.Move.Color == board.White {
			r.white.Show()
		} else {
			r.black.Show()
		}
		setText(r.point, n.Move.Point.GTP(size))
	}
	// "2/3": this move is the second of three the record has here.
	branch := ""
	if p := n.Parent; p != nil && len(p.Children) > 1 {
		branch = fmt.Sprintf("%d/%d", slices.Index(p.Children, n)+1, len(p.Children))
	}
	setText(r.branch, branch)
	if n.Comment != "" {
		r.comment.Show()
	} else {
		r.comment.Hide()
	}
}
