package game

import (
	"fmt"
	"strings"

	"aji/analysis/board"
)

// ParseSGFPoint reads an SGF point ("pd": column p, row d from the top) on a board of the given size.
// An empty value is a pass, and so is "tt" on boards up to 19x19 (the FF[3] pass).
func ParseSGFPoint(s string, size int) (board.Point, error) {
	if s == "" || (s == "tt" && size <= 19) {
		return board.Pass, nil
	}
	if len(s) != 2 {
		return board.NoPoint, fmt.Errorf("%w: point %q is not two letters", ErrInvalid, s)
	}
	x, y := int(s[0])-'a', int(s[1])-'a'
	if x < 0 || y < 0 || x >= size || y >= size {
		return board.NoPoint, fmt.Errorf("%w: point %q is outside the %dx%d board", ErrInvalid, s, size, size)
	}
	return board.At(x, y), nil
}

// SGFPoint writes p as an SGF point; board.Pass is the empty string (the FF[4] pass).
func SGFPoint(p board.Point) string {
	if p == board.Pass {
		return ""
	}
	x, y := p.XY()
	return string([]byte{byte('a' + x), byte('a' + y)})
}

// onBoard reports whether p is an intersection of a board of the given size.
func onBoard(p board.Point, size int) bool {
	x, y := p.XY()
	return p > board.Pass && x >= 0 && y >= 0 && x < size && y < size
}

// appendPoints appends the points of a value of a point list, where "aa:cc" is the rectangle between two
// corners (SGF's compressed point list). A pass is not a point here.
func appendPoints(out []board.Point, v string, size int) ([]board.Point, error) {
	first, last, compressed := strings.Cut(v, ":")
	a, err := ParseSGFPoint(first, size)
	if err != nil {
		return nil, err
	}
	b := a
	if compressed {
		if b, err = ParseSGFPoint(last, size); err != nil {
			return nil, err
		}
	}
	if a == board.Pass || b == board.Pass {
		return nil, fmt.Errorf("%w: %q is not a point", ErrInvalid, v)
	}
	x0, y0 := a.XY()
	x1, y1 := b.XY()
	for y := min(y0, y1); y <= max(y0, y1); y++ {
		for x := min(x0, x1); x <= max(x0, x1); x++ {
			out = append(out, board.At(x, y))
		}
	}
	return out, nil
}
