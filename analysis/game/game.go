package game

import (
	"errors"
	"fmt"

	"aji/analysis/board"
)

// Errors of this package; the errors returned wrap one of them with the details (game, line, property).
var (
	ErrSyntax      = errors.New("sgf syntax error")
	ErrInvalid     = errors.New("invalid sgf property")
	ErrUnsupported = errors.New("unsupported sgf")
	ErrTooLarge    = errors.New("sgf input too large")
	ErrIllegalMove = errors.New("illegal move")
)

// Game is one game record: its game information and its tree of nodes.
type Game struct {
	Info Info
	Root *Node
}

// Info is the game information of the root node. Other root properties (GN, PC, TM, ...) stay in
// Root.Props; FF, GM and CA are read on loading and written by Save.
type Info struct {
	Size      int     // SZ; 19 when absent
	Komi      float64 // KM; 0 when absent
	Handicap  int     // HA; 0 when absent
	Black     string  // PB
	White     string  // PW
	BlackRank string  // BR
	WhiteRank string  // WR
	Result    string  // RE
	Rules     string  // RU
	Date      string  // DT
	Event     string  // EV
}

// Node is one node of a game tree. Children[0], when present, continues the main line.
type Node struct {
	Move    *Move       // B or W; nil when the node has none
	Setup   []Stone     // AB, AW, AE in that order (Color Empty for AE)
	ToPlay  board.Color // PL: who plays after this node; Empty when absent
	Comment string      // C
	Markup  []Mark      // LB, TR, SQ, CR, MA, SL in that order
	// Props are the node's other properties, verbatim and in file order.
	Props []Property

	// Parent and Children link the tree; AddChild keeps them consistent, as Save and PositionAt need.
	Parent   *Node
	Children []*Node
}

// Move is a move of a game: a colour and a point, which may be board.Pass.
type Move struct {
	Color board.Color
	Point board.Point
}

// Stone is a setup stone: AB (Black), AW (White), or AE (Empty, clearing the point).
type Stone struct {
	Point board.Point
	Color board.Color
}

// setupIDs are the setup properties in the order Node.Setup keeps them and Save writes them.
var setupIDs = [...]struct {
	id    string
	color board.Color
}{{"AB", board.Black}, {"AW", board.White}, {"AE", board.Empty}}

// setupColor returns the colour a setup property sets.
func setupColor(id string) (board.Color, bool) {
	for _, s := range setupIDs {
		if s.id == id {
			return s.color, true
		}
	}
	return board.Empty, false
}

// setupRank returns the place of a setup colour in setupIDs.
func setupRank(c board.Color) int {
	for i, s := range setupIDs {
		if s.color == c {
			return i
		}
	}
	return len(setupIDs)
}

// MarkKind is the kind of a markup property.
type MarkKind uint8

// The markup kinds, in the order they are stored and written.
const (
	Label    MarkKind = iota // LB, with Text
	Triangle                 // TR
	Square                   // SQ
	Circle                   // CR
	Cross                    // MA
	Selected                 // SL
)

// markIDs are the SGF properties of the mark kinds.
var markIDs = [...]string{Label: "LB", Triangle: "TR", Square: "SQ", Circle: "CR", Cross: "MA", Selected: "SL"}

// markKind returns the kind of a markup property.
func markKind(id string) (MarkKind, bool) {
	for k, m := range markIDs {
		if m == id {
			return MarkKind(k), true
		}
	}
	return 0, false
}

// Mark is a markup on a point; Text is the label of a Label mark.
type Mark struct {
	Kind  MarkKind
	Point board.Point
	Text  string
}

// Property is an SGF property kept verbatim: its identifier and its unescaped values.
type Property struct {
	ID     string
	Values []string
}

// New returns an empty game on a board of the given size.
func New(size int) (*Game, error) {
	if size < 2 || size > board.MaxSize {
		return nil, fmt.Errorf("%w: board size %d (Aji plays 2 to %d)", ErrUnsupported, size, board.MaxSize)
	}
	return &Game{Info: Info{Size: size}, Root: &Node{}}, nil
}

// Size returns the length of a side of the board.
func (g *Game) Size() int { return g.Info.Size }

// MainLine returns the root and, after it, the first child of each node down to the end of the main line.
func (g *Game) MainLine() []*Node {
	var line []*Node
	for n := g.Root; n != nil; n = n.firstChild() {
		line = append(line, n)
	}
	return line
}

// NumMoves returns the number of moves on the main line, passes included.
func (g *Game) NumMoves() int {
	n := 0
	for node := g.Root; node != nil; node = node.firstChild() {
		if node.Move != nil {
			n++
		}
	}
	return n
}

// NodeAt returns the node reached from the root by taking child path[i] at step i; an empty path is the
// root.
func (g *Game) NodeAt(path []int) (*Node, error) {
	n := g.Root
	for i, c := range path {
		if c < 0 || c >= len(n.Children) {
			return nil, fmt.Errorf("node path step %d: child %d of %d", i, c, len(n.Children))
		}
		n = n.Children[c]
	}
	return n, nil
}

// AddChild appends child to n's children, sets its parent, and returns it.
func (n *Node) AddChild(child *Node) *Node {
	child.Parent = n
	n.Children = append(n.Children, child)
	return child
}

// Property returns the values of the first verbatim property with the given identifier, or nil.
func (n *Node) Property(id string) []string {
	for _, p := range n.Props {
		if p.ID == id {
			return p.Values
		}
	}
	return nil
}

func (n *Node) firstChild() *Node {
	if len(n.Children) == 0 {
		return nil
	}
	return n.Children[0]
}
