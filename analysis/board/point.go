package board

import (
	"errors"
	"fmt"
	"strings"
)

const (
	// MaxSize is the largest board side supported.
	MaxSize = 25
	// Stride is the distance between vertically adjacent points, the same for every board size so that a
	// Point names the same intersection on every board.
	Stride = MaxSize + 1
	// NumCells is the length of the padded array: a border row above and below, one border column
	// shared between the right end of a row and the left end of the next, and one more cell so that the
	// diagonal neighbour below-right of the last point (read by IsEye) is inside the array.
	NumCells = (MaxSize+2)*Stride + 1
	// MaxPoints is the number of intersections on the largest board.
	MaxPoints = MaxSize * MaxSize
)

// Point is an index into the padded board array.
type Point int16

const (
	// Pass is the pass move. It is a border cell, so it is never a stone and can index per-point arrays
	// (a probability distribution stores the pass probability at index Pass).
	Pass Point = 0
	// NoPoint means "no move" (for example no previous move, or no ko).
	NoPoint Point = -1
)

// At returns the point in column x (0 is the left edge) and row y (0 is the top edge, SGF order).
func At(x, y int) Point { return Point((y+1)*Stride + x + 1) }

// XY returns the column and row of p, with row 0 at the top.
func (p Point) XY() (x, y int) { return int(p)%Stride - 1, int(p)/Stride - 1 }

// neighbours are the offsets of the four orthogonal neighbours.
var neighbours = [4]Point{-Stride, -1, 1, Stride}

// diagonals are the offsets of the four diagonal neighbours.
var diagonals = [4]Point{-Stride - 1, -Stride + 1, Stride - 1, Stride + 1}

// gtpColumns are the column letters of GTP and most Go software: A to Z without I.
const gtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// GTP returns p in GTP notation on a board of the given size: "D4" (rows counted from the bottom) or "pass".
func (p Point) GTP(size int) string {
	switch {
	case p == Pass:
		return "pass"
	case p == NoPoint:
		return "none"
	}
	x, y := p.XY()
	if x < 0 || y < 0 || x >= size || y >= size {
		return fmt.Sprintf("Point(%d)", int(p))
	}
	return fmt.Sprintf("%c%d", gtpColumns[x], size-y)
}

// ErrCoordinate reports text that is not a point on the board.
var ErrCoordinate = errors.New("bad coordinate")

// ParseGTP reads a GTP vertex ("D4", "d4", "pass") on a board of the given size.
func ParseGTP(s string, size int) (Point, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "PASS" {
		return Pass, nil
	}
	if len(t) < 2 {
		return NoPoint, fmt.Errorf("%w: %q", ErrCoordinate, s)
	}
	x := strings.IndexByte(gtpColumns, t[0])
	row := 0
	for _, r := range t[1:] {
		if r < '0' || r > '9' || row > MaxSize {
			return NoPoint, fmt.Errorf("%w: %q", ErrCoordinate, s)
		}
		row = row*10 + int(r-'0')
	}
	if x < 0 || x >= size || row < 1 || row > size {
		return NoPoint, fmt.Errorf("%w: %q on %dx%d", ErrCoordinate, s, size, size)
	}
	return At(x, size-row), nil
}

// Color is the content of a point.
type Color int8

const (
	Empty Color = iota
	Black
	White
	Edge // off the board
)

// Opponent returns the other player's colour (Black <-> White); other colours are returned unchanged.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return c
}

// Name is the colour as a word: "black", "white", "empty" or "edge".
func (c Color) Name() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Edge:
		return "edge"
	}
	return "empty"
}

func (c Color) String() string {
	switch c {
	case Empty:
		return "empty"
	case Black:
		return "B"
	case White:
		return "W"
	case Edge:
		return "edge"
	}
	return fmt.Sprintf("Color(%d)", int(c))
}

// Neighbours returns the four orthogonal neighbours of p (some may be off the board: their colour is Edge).
func (p Point) Neighbours() [4]Point {
	return [4]Point{p - Stride, p - 1, p + 1, p + Stride}
}

// Adjacent reports whether p and q are orthogonal neighbours.
func (p Point) Adjacent(q Point) bool {
	d := p - q
	return d == 1 || d == -1 || d == Stride || d == -Stride
}
