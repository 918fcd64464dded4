package pattern

import (
	"fmt"
	"slices"

	"aji/analysis/board"
)

// The template sizes. A size is a radius in Coulom's distance: template T_s holds every offset δ ≠ 0
// with Distance(δ) ≤ s (Coulom 2007 §3.2, "nested circles of radius 3 to 10"; Stern 2008 §3.1.1 uses a
// nested sequence of symmetric, roughly circular templates). The sequence is
//
//	size  3:   8 points (the 3x3 neighbourhood)     size  8:  48 points
//	size  4:  12 points                             size  9:  60 points
//	size  5:  20 points                             size 10:  72 points
//	size  6:  28 points                             size 11:  88 points
//	size  7:  36 points                             size 12: 104 points
//
// Size 2 (the four orthogonal neighbours) is left out: every size-2 pattern is refined by the 3x3 one.
// (Stern's templates, SternKeys, have it as T2, and T13 beyond size 12; see stern.go.)
// Sizes 11 and 12 go beyond Coulom's 10 because they cost little (a Tracker update touches the one ring
// holding the stone at each of 104 centres instead of 72, about a microsecond a move; a from-scratch
// key reads 104 points instead of 72) and tell apart more openings and joseki, where Stern's large
// templates match most (his Fig. 3.5).
const (
	MinSize  = 3
	MaxSize  = 12
	NumSizes = MaxSize - MinSize + 1
)

// TemplateVersion names the template set and its Zobrist keys. A dictionary records it, and one built
// with another version is refused, since its keys would silently mean other patterns.
const TemplateVersion = 1

// reach is the largest |dx| or |dy| of a template offset: Distance(dx, 0) = 2|dx| ≤ MaxSize.
const reach = MaxSize / 2

// Distance is Coulom's distance between two points: |dx| + |dy| + max(|dx|, |dy|) (Coulom 2007, Table 1).
func Distance(dx, dy int) int {
	dx, dy = abs(dx), abs(dy)
	return dx + dy + max(dx, dy)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// offset is a template point relative to the centre; y grows downwards as on the board.
type offset struct{ dx, dy int8 }

// offsets lists the points of the largest template, sorted by distance, so the points of size s are
// offsets[:sizeEnd[s-MinSize]]. Its index is the Zobrist table index of an offset.
var offsets []offset

// sizeEnd[i] is the number of offsets in size MinSize+i.
var sizeEnd [NumSizes]int

// numOffsets is len(offsets), as a constant for array types; init checks it.
const numOffsets = 104

// offsetIndex maps (dx+reach, dy+reach) to an index in offsets, or -1.
var offsetIndex [2*reach + 1][2*reach + 1]int8

// Symmetries of the square: bit 0 mirrors x, bit 1 mirrors y, bit 2 transposes (applied first).
const numSyms = 8

func transform(t int, dx, dy int) (int, int) {
	if t&4 != 0 {
		dx, dy = dy, dx
	}
	if t&1 != 0 {
		dx = -dx
	}
	if t&2 != 0 {
		dy = -dy
	}
	return dx, dy
}

// inverse returns the symmetry undoing t.
func inverse(t int) int {
	for u := range numSyms {
		x, y := transform(t, 1, 2)
		if x, y = transform(u, x, y); x == 1 && y == 2 {
			return u
		}
	}
	panic("pattern: symmetry group is not closed")
}

func init() {
	for dy := -reach; dy <= reach; dy++ {
		for dx := -reach; dx <= reach; dx++ {
			if d := Distance(dx, dy); d > 0 && d <= MaxSize {
				offsets = append(offsets, offset{int8(dx), int8(dy)})
			}
		}
	}
	// Stable order within a distance (row-major) so the Zobrist tables never change silently.
	slices.SortStableFunc(offsets, func(a, b offset) int {
		return Distance(int(a.dx), int(a.dy)) - Distance(int(b.dx), int(b.dy))
	})
	if len(offsets) != numOffsets {
		panic(fmt.Sprintf("pattern: %d template offsets, want %d", len(offsets), numOffsets))
	}
	for i := range offsetIndex {
		for j := range offsetIndex[i] {
			offsetIndex[i][j] = -1
		}
	}
	for i, o := range offsets {
		offsetIndex[int(o.dx)+reach][int(o.dy)+reach] = int8(i)
		d := Distance(int(o.dx), int(o.dy))
		for s := max(d, MinSize); s <= MaxSize; s++ {
			sizeEnd[s-MinSize] = i + 1
		}
	}
	initZobrist()
	initGrid()
	initUpdates()
	initStern()
}

// TemplateLen returns the number of points of the template of the given size (the centre excluded).
func TemplateLen(size int) int {
	if size < MinSize || size > MaxSize {
		return 0
	}
	return sizeEnd[size-MinSize]
}

// State is the content of a template point relative to the player to move, so a position and its colour
// swap with the other player to move give one pattern (Stern 2008 §3.1.1). For Black to move the values
// equal board.Empty, board.Black, board.White and board.Edge.
type State uint8

const (
	Empty State = iota
	Own         // a stone of the player to move
	Opp         // an opponent stone
	Off         // off the board
)

func (s State) String() string {
	switch s {
	case Empty:
		return "empty"
	case Own:
		return "own"
	case Opp:
		return "opp"
	case Off:
		return "off"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// relative maps a board colour to a State for each player to move: relative[persp][colour], with
// perspective 0 for Black to move and 1 for White.
var relative = [2][4]State{
	{Empty, Own, Opp, Off},
	{Empty, Opp, Own, Off},
}

// perspective returns the index into relative for the player to move (White: 1, anything else: 0).
func perspective(toPlay board.Color) int {
	if toPlay == board.White {
		return 1
	}
	return 0
}

// Zobrist keys, Stern 2008 §3.1.3: one random 64-bit number per (state, offset). zrel[persp][i][colour]
// is the number of the state that colour has for the player to move, laid out so that the four colours
// of one offset share a cache line.
var (
	zobrist [4][numOffsets]uint64 // by State
	zrel    [2][numOffsets][4]uint64
)

func initZobrist() {
	state := uint64(0x416A695061747431) // "AjiPatt1": changing it changes TemplateVersion
	for s := range zobrist {
		for i := range zobrist[s] {
			state += 0x9E3779B97F4A7C15
			zobrist[s][i] = board.Mix64(state)
		}
	}
	for persp := range zrel {
		for i := range numOffsets {
			for c := range 4 {
				zrel[persp][i][c] = zobrist[relative[persp][c]][i]
			}
		}
	}
}
