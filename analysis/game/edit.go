package game

import (
	"errors"
	"fmt"
	"slices"

	"aji/analysis/board"
)

// ErrEdit is wrapped by the errors of the editing operations: an edit the tree or the rules refuse.
var ErrEdit = errors.New("edit refused")

// NewGame returns a game on a board of the given size with komi KM and, for handicap 2 to 9, the
// handicap stones at their standard points (HandicapPoints) as AB of the root with HA set, so that White
// plays first. Handicap 0 is an even game; 1 is refused (an even game without komi is how it is played).
func NewGame(size, handicap int, komi float64) (*Game, error) {
	g, err := New(size)
	if err != nil {
		return nil, err
	}
	g.Info.Komi = komi
	if handicap == 0 {
		return g, nil
	}
	pts := HandicapPoints(size, handicap)
	if pts == nil {
		return nil, fmt.Errorf("%w: no handicap of %d stones on %dx%d (0, or 2 to %d)", ErrEdit, handicap, size, size, maxHandicap(size))
	}
	g.Info.Handicap = handicap
	for _, p := range pts {
		g.Root.Setup = append(g.Root.Setup, Stone{Point: p, Color: board.Black})
	}
	return g, nil
}

// maxHandicap is the largest fixed handicap of a board size: 9 on odd boards from 9x9 up, 4 on even
// ones and 7x7, none below.
func maxHandicap(size int) int {
	switch {
	case size < 7:
		return 0
	case size%2 == 0 || size == 7:
		return 4
	}
	return 9
}

// HandicapPoints returns the fixed handicap points of n stones (2 to 9) on a size x size board, in the
// order of the GTP specification §4.1.1 (D4, Q16, D16, Q4, then the sides and the centre on 19x19; the
// fourth line from 13x13 up, the third below), or nil when the board has no such handicap.
func HandicapPoints(size, n int) []board.Point {
	if n < 2 || n > maxHandicap(size) {
		return nil
	}
	d := 2
	if size >= 13 {
		d = 3
	}
	lo, hi, mid := d, size-1-d, size/2
	// x, y with y = 0 at the top: D4 is (lo, hi), Q16 (hi, lo).
	order := [][2]int{{lo, hi}, {hi, lo}, {lo, lo}, {hi, hi}}
	switch {
	case n <= 4:
		order = order[:n]
	case n == 5:
		order = append(order, [2]int{mid, mid})
	default:
		order = append(order, [2]int{lo, mid}, [2]int{hi, mid})
		if n >= 8 {
			order = append(order, [2]int{mid, hi}, [2]int{mid, lo})
		}
		if n%2 == 1 {
			order = append(order, [2]int{mid, mid})
		}
	}
	pts := make([]board.Point, len(order))
	for i, xy := range order {
		pts[i] = board.At(xy[0], xy[1])
	}
	return pts
}

// SetStone makes the colour at p Black, White or Empty by a setup property (AB, AW, AE), as an editor's
// "add stone" and "erase" do. The edit goes on the current node when it has no move and no children (a
// setup node at the end of its line, the root of a new game); otherwise it goes on a new child of the
// current node, a new variation holding only setup, which becomes current. So a setup edit never changes
// the position of a node below the one it goes on, and cannot make a later move of the record illegal.
//
// On the node edited, the property at p is replaced: adding Black where this node's AW stood writes AB,
// and erasing a stone this node added just drops its AB or AW; erasing a stone of an earlier position
// writes AE. A stone that leaves a chain without liberties is refused, as is a point off the board. An
// edit that changes nothing (Black where Black stands) does nothing.
func (c *Cursor) SetStone(p board.Point, color board.Color) error {
	if color != board.Black && color != board.White && color != board.Empty {
		return fmt.Errorf("%w: setup colour %v", ErrEdit, color)
	}
	if !c.pos.Board.OnBoard(p) {
		return fmt.Errorf("%w: setup point %d is off the board", ErrEdit, p)
	}
	if c.pos.Board.At(p) == color {
		return nil
	}
	n := c.node
	if n.Move != nil || len(n.Children) > 0 {
		child := n.AddChild(&Node{Setup: []Stone{{Point: p, Color: color}}})
		if err := c.checkSetup(child, p); err != nil {
			n.Children = n.Children[:len(n.Children)-1]
			return err
		}
		c.modified = true
		return nil
	}
	var prior *Position
	if n.Parent != nil {
		var err error
		if prior, err = c.g.PositionAt(n.Parent); err != nil {
			return err
		}
	} else {
		prior = new(Position)
		if err := c.g.start(prior); err != nil {
			return err
		}
	}
	old := n.Setup
	setup := slices.DeleteFunc(slices.Clone(old), func(s Stone) bool { return s.Point == p })
	if prior.Board.At(p) != color {
		setup = append(setup, Stone{Point: p, Color: color})
		slices.SortStableFunc(setup, func(a, b Stone) int { return setupRank(a.Color) - setupRank(b.Color) })
	}
	n.Setup = setup
	if err := c.checkSetup(n, p); err != nil {
		n.Setup = old
		return err
	}
	c.modified = true
	return nil
}

// checkSetup makes n, just edited at p, current, and refuses a position where a stone at or beside p has
// no liberty; the caller undoes the edit on an error.
func (c *Cursor) checkSetup(n *Node, p board.Point) error {
	pos, err := c.g.PositionAt(n)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrEdit, err)
	}
	size := c.g.Size()
	nb := p.Neighbours()
	for _, q := range append(nb[:], p) {
		if pos.Board.OnBoard(q) && pos.Board.At(q) != board.Empty && pos.Board.Liberties(q, 1) == 0 {
			return fmt.Errorf("%w: a stone at %s would leave the chain at %s without liberties", ErrEdit, p.GTP(size), q.GTP(size))
		}
	}
	return c.goTo(n)
}

// SetToPlay sets who plays after the current node (PL): Black or White, or Empty to drop the property
// and let the moves decide. Later moves keep their own colours, so it never makes one illegal.
func (c *Cursor) SetToPlay(color board.Color) error {
	if color != board.Black && color != board.White && color != board.Empty {
		return fmt.Errorf("%w: player to move %v", ErrEdit, color)
	}
	n := c.node
	if n.ToPlay == color {
		return nil
	}
	old := n.ToPlay
	n.ToPlay = color
	if err := c.goTo(n); err != nil {
		n.ToPlay = old
		return err
	}
	c.modified = true
	return nil
}

// SetComment replaces the comment (C) of the current node; an empty text removes it.
func (c *Cursor) SetComment(text string) {
	if c.node.Comment == text {
		return
	}
	c.node.Comment = text
	c.modified = true
}

// DeleteVariation removes the current node and everything below it from the tree, and moves to its
// parent. The root cannot be deleted.
func (c *Cursor) DeleteVariation() error {
	n := c.node
	parent := n.Parent
	if parent == nil {
		return fmt.Errorf("%w: the root node cannot be deleted", ErrEdit)
	}
	i := slices.Index(parent.Children, n)
	if i < 0 {
		return fmt.Errorf("%w: node is not among its parent's children", ErrEdit)
	}
	if err := c.goTo(parent); err != nil {
		return err
	}
	parent.Children = slices.Delete(parent.Children, i, i+1)
	n.Parent = nil
	switch j := c.chosen[parent]; {
	case j > i:
		c.chosen[parent] = j - 1
	case j == i:
		delete(c.chosen, parent)
	}
	for stack := []*Node{n}; len(stack) > 0; {
		m := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], m.Children...)
		delete(c.chosen, m)
	}
	c.modified = true
	return nil
}
