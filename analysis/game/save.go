package game

import (
	"fmt"
	"io"
	"strconv"

	"github.com/toikarin/sgf"

	"aji/analysis/board"
)

// maxSaveDepth bounds the nesting of variations that Save writes: the sgf library's writer recurses once
// per level. Loading has no such bound; a record this deep is not made by people.
const maxSaveDepth = 100_000

// The library's writer spends time proportional to a variation's nesting level on every line break it
// writes, even without indentation. Records nested at most lineDepth deep get one node per line; deeper
// ones are written on one line, which keeps saving linear in the size of the tree.
const lineDepth = 64

var (
	linesFormat = sgf.SgfFormat{NewLineBetweenGameTrees: true, NewLineAlsoBetweenNodes: true}
	flatFormat  = sgf.NoNewLinesSgfFormat
)

// Save writes g as SGF FF[4] in UTF-8, through the sgf library (which escapes "]" and "\" as SGF requires).
func (g *Game) Save(w io.Writer) error {
	c, depth, err := g.collection()
	if err != nil {
		return fmt.Errorf("save sgf: %w", err)
	}
	f := linesFormat
	if depth > lineDepth {
		f = flatFormat
	}
	text, err := format(c, f)
	if err != nil {
		return fmt.Errorf("save sgf: %w", err)
	}
	if _, err := io.WriteString(w, text+"\n"); err != nil {
		return fmt.Errorf("save sgf: %w", err)
	}
	return nil
}

// format runs the library's writer, which panics on a collection it finds invalid.
func format(c *sgf.Collection, f sgf.SgfFormat) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sgf library: %v", r)
		}
	}()
	return c.Sgf(f), nil
}

// collection converts g to the library's tree: a run of nodes with one child each is one sequence, and a
// node with several children ends its sequence with one nested game tree per child. It also returns the
// deepest nesting of those trees.
func (g *Game) collection() (*sgf.Collection, int, error) {
	size := g.Info.Size
	if size < 2 || size > board.MaxSize {
		return nil, 0, fmt.Errorf("%w: board size %d", ErrUnsupported, size)
	}
	if g.Root == nil || g.Root.Parent != nil {
		return nil, 0, fmt.Errorf("%w: game has no root node (one without a parent)", ErrInvalid)
	}
	type pending struct {
		tree  *sgf.GameTree
		node  *Node
		depth int
	}
	c := &sgf.Collection{}
	top := &sgf.GameTree{}
	c.AddGameTree(top)
	stack := []pending{{top, g.Root, 0}}
	nodes, depth := 0, 0
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := p.node
		for {
			nodes++
			sn, err := g.sgfNode(n)
			if err != nil {
				return nil, 0, fmt.Errorf("node %d: %w", nodes, err)
			}
			p.tree.AddNode(sn)
			// Parents that match make the nodes a tree: no node is reached twice and there is no cycle.
			for _, child := range n.Children {
				if child.Parent != n {
					return nil, 0, fmt.Errorf("%w: a child of node %d has another parent (use AddChild)", ErrInvalid, nodes)
				}
			}
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		if len(n.Children) == 0 {
			continue
		}
		if p.depth == maxSaveDepth {
			return nil, 0, fmt.Errorf("%w: variations nested more than %d deep", ErrTooLarge, maxSaveDepth)
		}
		depth = max(depth, p.depth+1)
		trees := make([]*sgf.GameTree, len(n.Children))
		for i := range trees {
			trees[i] = &sgf.GameTree{}
			p.tree.AddGameTree(trees[i])
		}
		for i := len(trees) - 1; i >= 0; i-- { // first child on top: nodes are numbered in document order
			stack = append(stack, pending{trees[i], n.Children[i], p.depth + 1})
		}
	}
	return c, depth, nil
}

// managedIDs are the properties that have fields in Node, so a verbatim Property may not use them.
var managedIDs = map[string]bool{
	"B": true, "W": true, "AB": true, "AW": true, "AE": true, "PL": true, "C": true, "CA": true,
	"LB": true, "TR": true, "SQ": true, "CR": true, "MA": true, "SL": true,
}

// sgfNode converts one node, the root with the game information first.
func (g *Game) sgfNode(n *Node) (*sgf.Node, error) {
	size := g.Info.Size
	sn := &sgf.Node{}
	root := n == g.Root
	if root {
		in := g.Info
		sn.NewProperty("FF", "4")
		sn.NewProperty("CA", "UTF-8")
		sn.NewProperty("GM", "1")
		sn.NewProperty("SZ", strconv.Itoa(size))
		addText(sn, "RU", in.Rules)
		sn.NewProperty("KM", strconv.FormatFloat(in.Komi, 'f', -1, 64))
		if in.Handicap != 0 {
			sn.NewProperty("HA", strconv.Itoa(in.Handicap))
		}
		addText(sn, "PB", in.Black)
		addText(sn, "BR", in.BlackRank)
		addText(sn, "PW", in.White)
		addText(sn, "WR", in.WhiteRank)
		addText(sn, "DT", in.Date)
		addText(sn, "EV", in.Event)
		addText(sn, "RE", in.Result)
	}
	if m := n.Move; m != nil {
		id := colorID(m.Color)
		if id == "" {
			return nil, fmt.Errorf("%w: move of colour %v", ErrInvalid, m.Color)
		}
		if m.Point != board.Pass && !onBoard(m.Point, size) {
			return nil, fmt.Errorf("%w: move at %d is off the board", ErrInvalid, m.Point)
		}
		sn.NewProperty(id, SGFPoint(m.Point))
	}
	if n.ToPlay != board.Empty {
		id := colorID(n.ToPlay)
		if id == "" {
			return nil, fmt.Errorf("%w: PL of colour %v", ErrInvalid, n.ToPlay)
		}
		sn.NewProperty("PL", id)
	}
	for _, st := range n.Setup {
		if setupRank(st.Color) == len(setupIDs) || !onBoard(st.Point, size) {
			return nil, fmt.Errorf("%w: setup stone %v at %d", ErrInvalid, st.Color, st.Point)
		}
	}
	for _, s := range setupIDs {
		var pts []string
		for _, st := range n.Setup {
			if st.Color == s.color {
				pts = append(pts, SGFPoint(st.Point))
			}
		}
		if len(pts) > 0 {
			sn.NewProperty(s.id, pts...)
		}
	}
	addText(sn, "C", n.Comment)
	for kind, id := range markIDs {
		var vals []string
		for _, m := range n.Markup {
			if m.Kind != MarkKind(kind) {
				continue
			}
			if !onBoard(m.Point, size) {
				return nil, fmt.Errorf("%w: %s point %d is off the board", ErrInvalid, id, m.Point)
			}
			v := SGFPoint(m.Point)
			if m.Kind == Label {
				// FF[4] would escape a ':' in the text, but the library escapes only "]" and "\"; readers
				// split a label at its first ':', which is always the one after the point.
				v += ":" + m.Text
			}
			vals = append(vals, v)
		}
		if len(vals) > 0 {
			sn.NewProperty(id, vals...)
		}
	}
	for _, p := range n.Props {
		if err := checkProperty(p, root); err != nil {
			return nil, err
		}
		sn.NewProperty(p.ID, p.Values...)
	}
	return sn, nil
}

// checkProperty rejects a verbatim property that would not read back as itself.
func checkProperty(p Property, root bool) error {
	if p.ID == "" || len(p.ID) > maxIdentLen {
		return fmt.Errorf("%w: property identifier %q", ErrInvalid, p.ID)
	}
	for i := 0; i < len(p.ID); i++ {
		if p.ID[i] < 'A' || p.ID[i] > 'Z' {
			return fmt.Errorf("%w: property identifier %q is not upper-case letters", ErrInvalid, p.ID)
		}
	}
	if managedIDs[p.ID] || root && infoIDs[p.ID] {
		return fmt.Errorf("%w: property %s belongs in its field, not in Props", ErrInvalid, p.ID)
	}
	if len(p.Values) == 0 {
		return fmt.Errorf("%w: property %s has no value", ErrInvalid, p.ID)
	}
	return nil
}

// addText adds a property when its text is not empty.
func addText(sn *sgf.Node, id, text string) {
	if text != "" {
		sn.NewProperty(id, text)
	}
}

// colorID returns "B" or "W", the SGF letter of a player, or "" for another colour.
func colorID(c board.Color) string {
	switch c {
	case board.Black:
		return "B"
	case board.White:
		return "W"
	}
	return ""
}
