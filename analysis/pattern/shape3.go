package pattern

import (
	"slices"
	"sync"

	"aji/analysis/board"
)

// Code3 is the 3x3 pattern around an empty point, the light-weight shape feature of Monte Carlo playout
// policies (Coulom 2007 §4.1: "3x3 shapes"). Bits 2i and 2i+1 hold the State of neighbour i, relative to
// the player to move, in the order
//
//	0 1 2
//	3 . 4
//	5 6 7
//
// (row by row from the top left). Bits 16..19 mark an orthogonal neighbour (1 above, 3 left, 4 right,
// 6 below, in that order) holding a stone whose chain is in atari: the atari bits common in Monte
// Carlo programs, since a 3x3 shape means something else when a stone in it can be captured. Mask them
// off (code & ColourMask) for a plain 16-bit shape. A Code3 is not symmetry-reduced: Class3 does that.
type Code3 uint32

const (
	// ColourMask keeps the 16 colour bits of a Code3.
	ColourMask Code3 = 1<<16 - 1
	// NumCodes3 bounds a Code3: every code is below it.
	NumCodes3 = 1 << 20
)

// ring3 lists the neighbours of a point in Code3 order.
var ring3 = [8]offset{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// orth3 are the positions in ring3 of the orthogonal neighbours, in atari-bit order.
var orth3 = [4]int{1, 3, 4, 6}

// Code3At returns the 3x3 pattern around the on-board point p for the player toPlay.
func Code3At(b *board.Board, p board.Point, toPlay board.Color) Code3 {
	c := Code3(b.Around(p)) // the board's colours are the states for Black to move
	if toPlay == board.White {
		return c.Swap()
	}
	return c
}

// State returns the state of neighbour i (0..7, in Code3 order).
func (c Code3) State(i int) State { return State(c >> (2 * i) & 3) }

// Atari reports whether orthogonal neighbour j (0 above, 1 left, 2 right, 3 below) is a stone in atari.
func (c Code3) Atari(j int) bool { return c>>(16+j)&1 != 0 }

// Swap exchanges own and opponent stones: the code of the same stones for the other player to move.
func (c Code3) Swap() Code3 {
	// In each 2-bit field, 01 <-> 10 exactly when the two bits differ.
	diff := (c ^ c>>1) & 0x5555
	return c ^ (diff | diff<<1)
}

// ring3Perm[t][i] is the position that neighbour i moves to under symmetry t; orth3Perm likewise for the
// atari bits.
var ring3Perm, orth3Perm [numSyms][8]int

func init() {
	for t := range numSyms {
		for i, o := range ring3 {
			dx, dy := transform(t, int(o.dx), int(o.dy))
			ring3Perm[t][i] = slices.Index(ring3[:], offset{int8(dx), int8(dy)})
		}
		for j, i := range orth3 {
			orth3Perm[t][j] = slices.Index(orth3[:], ring3Perm[t][i])
		}
	}
}

// Transform returns the code of the pattern mapped by symmetry t (0..7) of the square.
func (c Code3) Transform(t int) Code3 {
	var out Code3
	for i := range 8 {
		out |= Code3(c.State(i)) << (2 * ring3Perm[t][i])
	}
	for j := range 4 {
		if c.Atari(j) {
			out |= 1 << (16 + orth3Perm[t][j])
		}
	}
	return out
}

// Canonical returns the least code among the 8 symmetric images of c: equal for a pattern and its
// rotations and reflections.
func (c Code3) Canonical() Code3 {
	m := c
	for t := 1; t < numSyms; t++ {
		m = min(m, c.Transform(t))
	}
	return m
}

// edgeMasks3 are the sets of neighbours (as 2-bit-field masks) that are off the board for a point in the
// middle, on one of the four sides, or in one of the four corners.
var edgeMasks3 = func() (m [9]Code3) {
	field := func(pos ...int) (f Code3) {
		for _, i := range pos {
			f |= 3 << (2 * i)
		}
		return f
	}
	top, left, right, bottom := field(0, 1, 2), field(0, 3, 5), field(2, 4, 7), field(5, 6, 7)
	return [9]Code3{0, top, left, right, bottom, top | left, top | right, bottom | left, bottom | right}
}()

// Valid reports whether c can occur on a board: its off-board neighbours form a side or a corner, and
// only stones carry atari bits.
func (c Code3) Valid() bool {
	if c >= NumCodes3 {
		return false
	}
	var off Code3 // the fields that are Off
	for i := range 8 {
		if c.State(i) == Off {
			off |= 3 << (2 * i)
		}
	}
	if !slices.Contains(edgeMasks3[:], off) {
		return false
	}
	for j, i := range orth3 {
		if s := c.State(i); c.Atari(j) && s != Own && s != Opp {
			return false
		}
	}
	return true
}

// classes3 numbers the symmetry classes of valid codes.
type classes3 struct {
	class []uint16 // by code; NoClass3 for an invalid code
	codes []Code3  // canonical code by class
}

var tables3 = sync.OnceValue(func() *classes3 {
	t := &classes3{class: make([]uint16, NumCodes3)}
	for c := range Code3(NumCodes3) {
		t.class[c] = NoClass3
	}
	// Every valid code: colour codes with a valid edge structure, then each subset of atari bits on
	// their orthogonal stones. Classes are numbered in increasing canonical code.
	var valid []Code3
	for col := range Code3(1 << 16) {
		if !col.Valid() {
			continue
		}
		var stones []int
		for j, i := range orth3 {
			if s := col.State(i); s == Own || s == Opp {
				stones = append(stones, j)
			}
		}
		for sub := range 1 << len(stones) {
			c := col
			for k, j := range stones {
				if sub>>k&1 != 0 {
					c |= 1 << (16 + j)
				}
			}
			valid = append(valid, c)
		}
	}
	canon := make([]Code3, len(valid))
	for k, c := range valid {
		canon[k] = c.Canonical()
	}
	t.codes = slices.Compact(slices.Sorted(slices.Values(canon)))
	for k, c := range valid {
		id, _ := slices.BinarySearch(t.codes, canon[k])
		t.class[c] = uint16(id)
	}
	return t
})

// NoClass3 is the class of an invalid code.
const NoClass3 = 0xFFFF

// Class3 returns the symmetry class of c, a dense number from 0 to NumClasses3()-1 shared by the 8
// images of a pattern, or NoClass3 for an invalid code. Colour relativity is already in the code
// (Code3At takes the player to move), so a pattern and its colour swap for the other player share a
// class. The first call builds the tables (about 2 MB, a few milliseconds).
func Class3(c Code3) uint16 {
	if c >= NumCodes3 {
		return NoClass3
	}
	return tables3().class[c]
}

// NumClasses3 returns the number of symmetry classes of valid 3x3 codes.
func NumClasses3() int { return len(tables3().codes) }

// Class3Code returns the canonical code of class id (for drawing a 3x3 pattern).
func Class3Code(id uint16) Code3 { return tables3().codes[id] }
