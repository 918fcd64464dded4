package guess

import "aji/analysis/board"

// MaxHints is how many times a wrong guess narrows the board: first to the quarter of the board
// holding the move, then to a quarter of that quarter (a sixteenth).
const MaxHints = 2

// minHalved is the narrowest band of lines a hint still halves. Halving three lines would leave two,
// and halving two would leave one line — the hint would come close to giving the move away — so on small
// boards the hints stop early (see HintRegion).
const minHalved = 4

// Region is a rectangle of points: columns X0 <= x < X1 and rows Y0 <= y < Y1, in the board's
// coordinates (x to the right, y down from the top edge, as board.At takes them).
type Region struct{ X0, Y0, X1, Y1 int }

// Whole is the region of the whole board of the given size.
func Whole(size int) Region { return Region{0, 0, size, size} }

// Contains reports whether p lies in r; a pass lies in no region.
func (r Region) Contains(p board.Point) bool {
	if p == board.Pass || p == board.NoPoint {
		return false
	}
	x, y := p.XY()
	return r.X0 <= x && x < r.X1 && r.Y0 <= y && y < r.Y1
}

// Width and Height count the region's columns and rows.
func (r Region) Width() int  { return r.X1 - r.X0 }
func (r Region) Height() int { return r.Y1 - r.Y0 }

// HintRegion is what the hints say of where p lies on a board of the given size after level hints: the
// whole board at level 0; at each further level the region is halved along both axes and the half
// holding p kept, so level 1 is a quarter of the board and level 2 a sixteenth.
//
// A band of an odd number of lines is halved with its middle line in both halves, so that the halves
// are equal and the centre line (tengen's) is never cut off from either side: 19 lines give halves of
// 10 (lines 1–10 and 10–19), then 5, so a 19x19 board narrows to 10x10, then 5x5; 13x13 to 7x7, then
// 4x4; 9x9 to 5x5, then 3x3. A point on a shared middle line goes with the first half (left, top).
// A band narrower than four lines is not halved, so on boards under 7x7 the second hint, and under 4x4
// the first, leave the region as it was: Session then counts no hint.
func HintRegion(size int, p board.Point, level int) Region {
	r := Whole(size)
	if p == board.Pass || p == board.NoPoint {
		return r
	}
	x, y := p.XY()
	for range min(level, MaxHints) {
		r.X0, r.X1 = halve(r.X0, r.X1, x)
		r.Y0, r.Y1 = halve(r.Y0, r.Y1, y)
	}
	return r
}

// halve is the half of lines lo <= v < hi holding v, sharing the middle line when there is one.
func halve(lo, hi, v int) (int, int) {
	n := hi - lo
	if n < minHalved {
		return lo, hi
	}
	if firstEnd := lo + (n+1)/2; v < firstEnd {
		return lo, firstEnd
	}
	return lo + n/2, hi
}
