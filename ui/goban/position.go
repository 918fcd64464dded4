package goban

import (
	"aji/internal/boardimage"
	"errors"
	"fmt"
)

// MinSize and MaxSize bound the board sizes the widget can draw; they match
// the rules engine (aji/analysis/board supports 2x2 to 25x25).
const (
	MinSize = 2
	MaxSize = 25
)

// ErrPosition reports a Position the widget cannot draw.
var ErrPosition = errors.New("invalid board position")

// Stone is what occupies an intersection, and Point an intersection: X is
// the column from the left and Y the row from the top (SGF order), both
// counted from 0. They are the image renderer's, so that what the board
// shows goes into an exported image as it is.
type (
	Stone = boardimage.Stone
	Point = boardimage.Point
)

// The stones a point can hold.
const (
	Empty = boardimage.Empty
	Black = boardimage.Black
	White = boardimage.White
)

// Position is a snapshot of what the board shows. The widget copies it, so
// the caller may reuse its Stones slice afterwards.
type Position struct {
	Size    int     // lines in each direction, MinSize..MaxSize
	Stones  []Stone // Size*Size entries, index Y*Size+X
	Last    Point   // the last move, drawn with a mark when HasLast is set
	HasLast bool    // false before the first move and after a pass
}

// NewPosition returns an empty board of the given size.
func NewPosition(size int) Position {
	if size < 0 {
		size = 0
	}
	return Position{Size: size, Stones: make([]Stone, size*size)}
}

// At returns the stone on p, or Empty when p is off the board.
func (p Position) At(pt Point) Stone {
	if !p.onBoard(pt) {
		return Empty
	}
	return p.Stones[pt.Y*p.Size+pt.X]
}

// Set puts s on pt; points off the board are ignored so that callers
// converting from another representation need no bounds checks of their own.
func (p Position) Set(pt Point, s Stone) {
	if p.onBoard(pt) {
		p.Stones[pt.Y*p.Size+pt.X] = s
	}
}

func (p Position) onBoard(pt Point) bool {
	return pt.X >= 0 && pt.Y >= 0 && pt.X < p.Size && pt.Y < p.Size && len(p.Stones) == p.Size*p.Size
}

// Validate reports whether the widget can draw p.
func (p Position) Validate() error {
	if p.Size < MinSize || p.Size > MaxSize {
		return fmt.Errorf("%w: size %d outside %d..%d", ErrPosition, p.Size, MinSize, MaxSize)
	}
	if len(p.Stones) != p.Size*p.Size {
		return fmt.Errorf("%w: %d stones for a %dx%d board", ErrPosition, len(p.Stones), p.Size, p.Size)
	}
	for i, s := range p.Stones {
		if s > White {
			return fmt.Errorf("%w: unknown stone %d at index %d", ErrPosition, s, i)
		}
	}
	if p.HasLast && !p.onBoard(p.Last) {
		return fmt.Errorf("%w: last move %v off the board", ErrPosition, p.Last)
	}
	return nil
}

// clone returns a deep copy, so the widget never shares the caller's slice.
func (p Position) clone() Position {
	p.Stones = append([]Stone(nil), p.Stones...)
	return p
}

// columnLetters are the GTP column names: I is skipped because it reads like J
// and 1; 25 letters cover the largest board.
const columnLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// ColumnLabel returns the coordinate letter of column x (0 = left).
func ColumnLabel(x int) string {
	if x < 0 || x >= len(columnLetters) {
		return "?"
	}
	return columnLetters[x : x+1]
}

// RowLabel returns the coordinate number of row y (0 = top) on a board of the
// given size; rows are numbered from 1 at the bottom, as in GTP.
func RowLabel(y, size int) string {
	return fmt.Sprint(size - y)
}

// StarPoints returns the hoshi of a board of the given size: the 4-4 points
// (3-3 on boards smaller than 13), the centre of odd boards, and the side
// midpoints of odd boards from 15 up (boardimage.StarPoints, which exported
// images use too).
func StarPoints(size int) []Point {
	var pts []Point
	for _, p := range boardimage.StarPoints(size) {
		pts = append(pts, Point(p))
	}
	return pts
}
