package game

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/toikarin/sgf"

	"aji/analysis/board"
)

// LoadFile reads the games of an SGF file.
func LoadFile(path string) ([]*Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	games, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return games, nil
}

// Load reads the games of SGF input of at most MaxInputSize bytes.
func Load(r io.Reader) ([]*Game, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputSize+1))
	if err != nil {
		return nil, fmt.Errorf("read sgf: %w", err)
	}
	return Parse(data)
}

// Parse reads the games of SGF data (every game tree of a collection). It never panics; on error it returns
// no games.
func Parse(data []byte) ([]*Game, error) {
	if len(data) > MaxInputSize {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, MaxInputSize)
	}
	text, err := decode(data)
	if err != nil {
		return nil, err
	}
	s := newScanner(text)
	budget := maxPoints
	var games []*Game
	for s.nextTree() {
		t, err := s.tree()
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", len(games)+1, err)
		}
		g, err := build(t, &budget)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", len(games)+1, err)
		}
		games = append(games, g)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("%w: no game tree found (empty input, or no \"(;\")", ErrSyntax)
	}
	return games, nil
}

// libraryParse runs the sgf library on a skeleton. It recovers from a panic, since the library panics on
// some malformed input (a property after a variation) that the pre-pass is meant to reject first.
func libraryParse(skeleton string) (c *sgf.Collection, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("%w: sgf library: %v", ErrSyntax, r)
		}
	}()
	c, err = sgf.ParseSgf(skeleton)
	if err != nil {
		return nil, fmt.Errorf("%w: sgf library: %v", ErrSyntax, err)
	}
	if len(c.GameTrees) != 1 {
		return nil, fmt.Errorf("%w: sgf library found %d game trees in one", ErrSyntax, len(c.GameTrees))
	}
	return c, nil
}

// builder turns the library's tree of one game into a Game, putting back the values the pre-pass set aside.
type builder struct {
	raw    rawTree
	next   int // index in raw.values of the next value to put back
	info   Info
	budget *int // points that point lists of this input may still expand to
}

// build makes the Game of one pre-scanned game tree.
func build(t rawTree, budget *int) (*Game, error) {
	c, err := libraryParse(t.skeleton)
	if err != nil {
		return nil, err
	}
	b := &builder{raw: t, budget: budget}
	// The library's trees nest one level per variation; walk them with a stack, in document order so that
	// the nodes meet their line numbers and the values come back in the order they were taken out.
	type pending struct {
		tree   *sgf.GameTree
		parent *Node
	}
	var root *Node
	stack := []pending{{c.GameTrees[0], nil}}
	count := 0
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parent := p.parent
		for _, sn := range p.tree.Nodes {
			if count >= len(t.lines) {
				return nil, fmt.Errorf("%w: sgf library returned more nodes than the input has", ErrSyntax)
			}
			line := t.lines[count]
			count++
			if err := b.restore(sn); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			n := &Node{}
			var err error
			if parent == nil {
				root = n
				err = b.root(sn, n)
			} else {
				parent.AddChild(n)
				err = b.node(sn, n, false)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			parent = n
		}
		for i := len(p.tree.GameTrees) - 1; i >= 0; i-- {
			stack = append(stack, pending{p.tree.GameTrees[i], parent})
		}
	}
	if root == nil || count != len(t.lines) || b.next != len(t.values) {
		return nil, fmt.Errorf("%w: sgf library returned %d of %d nodes, %d of %d values", ErrSyntax,
			count, len(t.lines), b.next, len(t.values))
	}
	return &Game{Info: b.info, Root: root}, nil
}

// restore puts the real values back into the properties of a library node, in place.
func (b *builder) restore(sn *sgf.Node) error {
	for _, p := range sn.Properties {
		for i, v := range p.Values {
			if v != "" || b.next == len(b.raw.values) {
				return fmt.Errorf("%w: sgf library returned a value the pre-pass did not empty", ErrSyntax)
			}
			p.Values[i] = b.raw.values[b.next]
			b.next++
		}
	}
	return nil
}

// infoIDs are the root properties that Info holds, with FF, GM and SZ, which the root also consumes.
var infoIDs = map[string]bool{
	"FF": true, "GM": true, "SZ": true,
	"KM": true, "HA": true, "PB": true, "PW": true, "BR": true, "WR": true,
	"RE": true, "RU": true, "DT": true, "EV": true,
}

// root reads the game information of the root node, then the root as any node: the board size must be
// known before the points of the root's own properties are read.
func (b *builder) root(sn *sgf.Node, n *Node) error {
	b.info = Info{Size: 19}
	seen := map[string]bool{}
	for _, p := range sn.Properties {
		if !infoIDs[p.Ident] || seen[p.Ident] {
			continue // a repeated property is invalid SGF; the first one counts
		}
		seen[p.Ident] = true
		if err := b.info.set(p.Ident, p.Values[0]); err != nil {
			return fmt.Errorf("%s[%s]: %w", p.Ident, p.Values[0], err)
		}
	}
	return b.node(sn, n, true)
}

// set reads one game-information property.
func (in *Info) set(id, v string) error {
	num := strings.TrimSpace(v)
	switch id {
	case "GM":
		if num != "" && num != "1" {
			return fmt.Errorf("%w: not a game of Go (GM[1])", ErrUnsupported)
		}
	case "SZ":
		if num == "" {
			return nil
		}
		cols, rows, rect := strings.Cut(num, ":")
		cols, rows = strings.TrimSpace(cols), strings.TrimSpace(rows)
		size, err := strconv.Atoi(cols)
		if err != nil {
			return fmt.Errorf("%w: board size is not a number", ErrInvalid)
		}
		if rect && rows != cols {
			return fmt.Errorf("%w: rectangular board (Aji plays square boards)", ErrUnsupported)
		}
		if size < 2 || size > board.MaxSize {
			return fmt.Errorf("%w: board size %d (Aji plays 2 to %d)", ErrUnsupported, size, board.MaxSize)
		}
		in.Size = size
	case "KM":
		if num == "" {
			return nil
		}
		k, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
			return fmt.Errorf("%w: komi is not a number", ErrInvalid)
		}
		in.Komi = k
	case "HA":
		if num == "" {
			return nil
		}
		h, err := strconv.Atoi(num)
		if err != nil || h < 0 {
			return fmt.Errorf("%w: handicap is not a count of stones", ErrInvalid)
		}
		in.Handicap = h
	case "PB":
		in.Black = v
	case "PW":
		in.White = v
	case "BR":
		in.BlackRank = v
	case "WR":
		in.WhiteRank = v
	case "RE":
		in.Result = v
	case "RU":
		in.Rules = v
	case "DT":
		in.Date = v
	case "EV":
		in.Event = v
	}
	return nil
}

// node reads the properties of a library node into n.
func (b *builder) node(sn *sgf.Node, n *Node, root bool) error {
	for _, p := range sn.Properties {
		id, vals := p.Ident, p.Values
		var err error
		switch id {
		case "B", "W":
			err = b.move(n, id, vals)
		case "PL":
			n.ToPlay, err = parseColor(vals[0])
		case "C":
			if n.Comment != "" {
				n.Comment += "\n" // a repeated C is invalid SGF, but its text is worth keeping
			}
			n.Comment += strings.Join(vals, "\n")
		case "LB":
			err = b.labels(n, vals)
		case "CA":
			// The text is UTF-8 from here on, and Save writes CA[UTF-8].
		default:
			if c, ok := setupColor(id); ok {
				err = b.setup(n, c, vals)
			} else if k, ok := markKind(id); ok {
				err = b.marks(n, k, vals)
			} else if !root || !infoIDs[id] {
				n.Props = append(n.Props, Property{ID: id, Values: vals})
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
	}
	// Store setup and markup in a fixed order, the order Save writes them in, so a saved tree reads back
	// identical.
	slices.SortStableFunc(n.Setup, func(a, c Stone) int { return setupRank(a.Color) - setupRank(c.Color) })
	slices.SortStableFunc(n.Markup, func(a, c Mark) int { return int(a.Kind) - int(c.Kind) })
	return nil
}

func (b *builder) move(n *Node, id string, vals []string) error {
	if n.Move != nil {
		return fmt.Errorf("%w: a second move in one node", ErrInvalid)
	}
	if len(vals) != 1 {
		return fmt.Errorf("%w: a move has one value, not %d", ErrInvalid, len(vals))
	}
	p, err := ParseSGFPoint(vals[0], b.info.Size)
	if err != nil {
		return err
	}
	n.Move = &Move{Color: board.Black, Point: p}
	if id == "W" {
		n.Move.Color = board.White
	}
	return nil
}

func (b *builder) setup(n *Node, c board.Color, vals []string) error {
	pts, err := b.points(vals)
	if err != nil {
		return err
	}
	for _, p := range pts {
		n.Setup = append(n.Setup, Stone{Point: p, Color: c})
	}
	return nil
}

func (b *builder) marks(n *Node, kind MarkKind, vals []string) error {
	pts, err := b.points(vals)
	if err != nil {
		return err
	}
	for _, p := range pts {
		n.Markup = append(n.Markup, Mark{Kind: kind, Point: p})
	}
	return nil
}

// labels reads LB values, "point:text".
func (b *builder) labels(n *Node, vals []string) error {
	for _, v := range vals {
		at, text, ok := strings.Cut(v, ":")
		if !ok {
			return fmt.Errorf("%w: label %q is not point:text", ErrInvalid, v)
		}
		p, err := ParseSGFPoint(at, b.info.Size)
		if err != nil {
			return err
		}
		if p == board.Pass {
			return fmt.Errorf("%w: label %q has no point", ErrInvalid, v)
		}
		n.Markup = append(n.Markup, Mark{Kind: Label, Point: p, Text: text})
	}
	return nil
}

// points expands a point list within the input's budget.
func (b *builder) points(vals []string) ([]board.Point, error) {
	var pts []board.Point
	for _, v := range vals {
		n := len(pts)
		var err error
		if pts, err = appendPoints(pts, v, b.info.Size); err != nil {
			return nil, err
		}
		if *b.budget -= len(pts) - n; *b.budget < 0 {
			return nil, fmt.Errorf("%w: point lists expand to more than %d points", ErrTooLarge, maxPoints)
		}
	}
	return pts, nil
}

// parseColor reads a PL value: B or W (1 or 2 in old files).
func parseColor(v string) (board.Color, error) {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "B", "1":
		return board.Black, nil
	case "W", "2":
		return board.White, nil
	}
	return board.Empty, fmt.Errorf("%w: %q is not a colour (B or W)", ErrInvalid, v)
}
