package game

import (
	"fmt"
	"math"
	"slices"

	"aji/analysis/board"
	"aji/internal/atomicfile"
)

// Cursor is a place in a game tree as a viewer steps through it: the current node, the position there,
// and, at every branching node, the child last visited, so that going back and forward again returns
// along the same variation (as Sabaki and KaTrain do). It knows nothing of the UI.
type Cursor struct {
	g        *Game
	node     *Node
	pos      *Position
	chosen   map[*Node]int // child index last taken at each node
	modified bool
}

// NewCursor returns a cursor at the root of g.
func NewCursor(g *Game) (*Cursor, error) {
	c := &Cursor{g: g, chosen: map[*Node]int{}}
	return c, c.goTo(g.Root)
}

// Game returns the game the cursor walks.
func (c *Cursor) Game() *Game { return c.g }

// Node returns the current node.
func (c *Cursor) Node() *Node { return c.node }

// Position returns the position at the current node. It is shared: copy it to keep it.
func (c *Cursor) Position() *Position { return c.pos }

// Modified reports whether moves were added since the game was loaded or last saved.
func (c *Cursor) Modified() bool { return c.modified }

// goTo makes n current, computing its position; on an illegal record the cursor stays where it was.
func (c *Cursor) goTo(n *Node) error {
	pos, err := c.g.PositionAt(n)
	if err != nil {
		return err
	}
	c.node, c.pos = n, pos
	for m := n; m.Parent != nil; m = m.Parent {
		c.chosen[m.Parent] = slices.Index(m.Parent.Children, m)
	}
	return nil
}

// next returns the child to follow from n: the one last taken there, else the first.
func (c *Cursor) next(n *Node) *Node {
	if len(n.Children) == 0 {
		return nil
	}
	i := c.chosen[n]
	if i < 0 || i >= len(n.Children) {
		i = 0
	}
	return n.Children[i]
}

// Next returns the node Forward(1) would move to — the record's next move along the current variation —
// or nil at the end of it.
func (c *Cursor) Next() *Node { return c.next(c.node) }

// Line returns the current variation: the nodes from the root through the current node to the end of the
// variation, following the child last taken at every branching node (what Forward and End follow).
func (c *Cursor) Line() []*Node {
	var line []*Node
	for n := c.node; n != nil; n = n.Parent {
		line = append(line, n)
	}
	slices.Reverse(line)
	for n := c.next(c.node); n != nil; n = c.next(n) {
		line = append(line, n)
	}
	return line
}

// Forward moves up to k nodes along the current variation and reports whether it moved. An illegal move
// in the record stops it on the node before that move, with an error wrapping ErrIllegalMove, so a
// damaged record can still be read up to the damage.
func (c *Cursor) Forward(k int) (bool, error) {
	var path []*Node
	for n := c.next(c.node); n != nil && k > 0; n, k = c.next(n), k-1 {
		path = append(path, n)
	}
	return c.advance(path)
}

// advance plays path, a line of descendants of the current node, on a copy of the current position —
// each step costs one move, not a replay from the root — and stops before the first node that fails.
func (c *Cursor) advance(path []*Node) (bool, error) {
	if len(path) == 0 {
		return false, nil
	}
	p := *c.pos
	var (
		reached *Node
		err     error
	)
	for _, n := range path {
		q := p
		if err = q.apply(n, nil); err != nil {
			break
		}
		p, reached = q, n
	}
	if reached == nil {
		return false, err
	}
	c.node, c.pos = reached, &p
	for m := reached; m != path[0].Parent; m = m.Parent {
		c.chosen[m.Parent] = slices.Index(m.Parent.Children, m)
	}
	return true, err
}

// Back moves up to k nodes towards the root and reports whether it moved.
func (c *Cursor) Back(k int) (bool, error) {
	n := c.node
	for ; k > 0 && n.Parent != nil; k-- {
		n = n.Parent
	}
	if n == c.node {
		return false, nil
	}
	return true, c.goTo(n)
}

// Home moves to the root.
func (c *Cursor) Home() error { return c.goTo(c.g.Root) }

// End moves to the end of the current variation, or as far as Forward gets before an illegal move.
func (c *Cursor) End() error {
	_, err := c.Forward(math.MaxInt)
	return err
}

// SwitchVariation moves to the sibling delta places away from the current node (−1: the previous
// variation, +1: the next), if there is one, and reports whether it moved.
func (c *Cursor) SwitchVariation(delta int) (bool, error) {
	p := c.node.Parent
	if p == nil {
		return false, nil
	}
	i := slices.Index(p.Children, c.node) + delta
	if i < 0 || i >= len(p.Children) {
		return false, nil
	}
	return true, c.goTo(p.Children[i])
}

// Variations returns how many siblings the current node has (itself included) and its index among them.
func (c *Cursor) Variations() (count, index int) {
	if c.node.Parent == nil {
		return 1, 0
	}
	return len(c.node.Parent.Children), slices.Index(c.node.Parent.Children, c.node)
}

// GoTo makes n current; n must belong to the cursor's game.
func (c *Cursor) GoTo(n *Node) error { return c.goTo(n) }

// Play plays a move of the side to move at p from the current node: it follows the existing child with
// that move if there is one, or adds a new variation. An illegal move is an error and changes nothing.
func (c *Cursor) Play(p board.Point) error {
	color := c.pos.ToPlay
	if !c.pos.Board.Legal(p, color) {
		b := c.pos.Board
		if err := b.Play(p, color); err != nil {
			return fmt.Errorf("play: %w", err)
		}
		return fmt.Errorf("play %s: illegal", p.GTP(c.g.Size()))
	}
	for _, child := range c.node.Children {
		if m := child.Move; m != nil && m.Color == color && m.Point == p {
			return c.goTo(child)
		}
	}
	child := c.node.AddChild(&Node{Move: &Move{Color: color, Point: p}})
	if err := c.goTo(child); err != nil {
		// A new legal move cannot make the path illegal; undo to be safe rather than keep a bad node.
		c.node.Children = c.node.Children[:len(c.node.Children)-1]
		return err
	}
	c.modified = true
	return nil
}

// Edited records that the game was changed other than by Play (a review written into its comments), so
// that Modified reports it until the next save.
func (c *Cursor) Edited() { c.modified = true }

// SaveFile writes the game to path atomically, so a crash or a full disk never leaves a truncated
// record under the user's file name.
func (c *Cursor) SaveFile(path string) error {
	if err := atomicfile.Write(path, c.g.Save); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	c.modified = false
	return nil
}
