package game

import (
	"errors"
	"fmt"

	"aji/analysis/board"
)

// Position is everything a predictor needs about one moment of a game. The ko point and the captures are
// the board's (Board.Ko, Board.Captures).
type Position struct {
	Board      board.Board
	ToPlay     board.Color
	MoveNumber int         // moves (passes included) played on the path so far
	Last, Prev board.Point // last move and the one before it; board.NoPoint when none, board.Pass for a pass
	Komi       float64
	// Moves are the moves played on the path to this position, passes included, when it was read from a
	// record (WalkMainLine, PositionAfter, PositionAt, a Cursor); a position made otherwise (a search's)
	// may carry fewer than MoveNumber, or none. Predictors that read the game's history (the cnn's age
	// and capture planes) use them. Read only: the array may be shared with positions further along the
	// same line.
	Moves []Move
	// Info is the record's game information (the players' ranks), nil when the position has no record.
	Info *Info
}

// WalkMainLine calls fn with the position before each main-line move and that move, in order. It reuses one
// Position (no allocation per move); fn must copy what it keeps. pos.ToPlay is next.Color: the record
// says who moved, and SGF allows two moves of one colour in a row. Setup stones (AB, AW, AE) are placed
// before the move of their node. An illegal move stops the walk with an error wrapping ErrIllegalMove;
// an error from fn stops it and is returned as it is.
func (g *Game) WalkMainLine(fn func(pos *Position, next Move) error) error {
	p := new(Position)
	if err := g.start(p); err != nil {
		return err
	}
	for n := g.Root; n != nil; n = n.firstChild() {
		if err := p.apply(n, fn); err != nil {
			return err
		}
	}
	return nil
}

// errStop ends a walk early.
var errStop = errors.New("stop")

// PositionAfter returns the position after n main-line moves, as WalkMainLine gives it before move n+1,
// or the final position of the main line when n < 0 or the line has no move n+1.
func (g *Game) PositionAfter(n int) (*Position, error) {
	p := new(Position)
	if err := g.start(p); err != nil {
		return nil, err
	}
	stop := func(pos *Position, _ Move) error {
		if pos.MoveNumber == n {
			return errStop
		}
		return nil
	}
	for node := g.Root; node != nil; node = node.firstChild() {
		if err := p.apply(node, stop); errors.Is(err, errStop) {
			return p, nil
		} else if err != nil {
			return nil, err
		}
	}
	return p, nil
}

// PositionAt returns the position at node n of g's tree, after its move. Its ToPlay follows SGF: the
// opponent of the last move, unless a PL property says otherwise.
func (g *Game) PositionAt(n *Node) (*Position, error) {
	var path []*Node
	for m := n; m != nil; m = m.Parent {
		path = append(path, m)
	}
	if len(path) == 0 || path[len(path)-1] != g.Root {
		return nil, errors.New("position: node is not in this game")
	}
	p := new(Position)
	if err := g.start(p); err != nil {
		return nil, err
	}
	for i := len(path) - 1; i >= 0; i-- {
		if err := p.apply(path[i], nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// start sets p to the empty board before the root: Black to play, or White when handicap stones are set
// up at the root (HA 2 or more).
func (g *Game) start(p *Position) error {
	if g.Root == nil {
		return fmt.Errorf("%w: game has no root node", ErrInvalid)
	}
	if err := p.Board.Reset(g.Info.Size); err != nil {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	p.ToPlay = board.Black
	if g.Info.Handicap >= 2 {
		for _, s := range g.Root.Setup {
			if s.Color == board.Black {
				p.ToPlay = board.White
				break
			}
		}
	}
	p.MoveNumber = 0
	p.Last, p.Prev = board.NoPoint, board.NoPoint
	p.Komi = g.Info.Komi
	p.Info = &g.Info
	p.Moves = make([]Move, 0, g.NumMoves())
	return nil
}

// apply plays node n on p: its setup stones, then its move (calling before, when not nil, with the position
// just before it), then its PL, which says who plays after the node.
func (p *Position) apply(n *Node, before func(*Position, Move) error) error {
	for _, s := range n.Setup {
		if p.Board.At(s.Point) == s.Color {
			continue // Set rebuilds the whole board, so skip what it would not change
		}
		if err := p.Board.Set(s.Point, s.Color); err != nil {
			return fmt.Errorf("%w: setup stone: %w", ErrInvalid, err)
		}
	}
	if m := n.Move; m != nil {
		p.ToPlay = m.Color
		if before != nil {
			if err := before(p, *m); err != nil {
				return err
			}
		}
		if err := p.Board.Play(m.Point, m.Color); err != nil {
			return fmt.Errorf("move %d: %w: %w", p.MoveNumber+1, ErrIllegalMove, err)
		}
		p.MoveNumber++
		p.Prev, p.Last = p.Last, m.Point
		p.Moves = append(p.Moves, *m)
		p.ToPlay = m.Color.Opponent()
	}
	if n.ToPlay != board.Empty {
		p.ToPlay = n.ToPlay
	}
	return nil
}
