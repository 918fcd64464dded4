package surrogate

import (
	"strings"

	"aji/analysis/board"
)

// NumTemplates is the number of nested pattern templates T0 ⊂ T1 ⊂ … ⊂ T7 (Stern Figure 4.7).
const NumTemplates = 8

// KeyVersion is the version of the pattern keys (templates, vertex states, Zobrist table): a model
// file records it, and one made with other keys is refused.
const KeyVersion = 1

// templateDrawing is Stern's Figure 4.7: each cell around the move (the 0) carries the smallest
// template that contains it; '.' is outside T7.
const templateDrawing = `
. . 7 5 7 . .
. 6 4 3 4 6 .
7 4 2 1 2 4 7
5 3 1 0 1 3 5
7 4 2 1 2 4 7
. 6 4 3 4 6 .
. . 7 5 7 . .`

// The states of a pattern vertex (Stern §4.4.1): relative to the attacker, so the patterns are not
// invariant to colour reversal; a goal stone is a stone of the target string.
const (
	stateEmpty = iota
	stateAttacker
	stateDefender
	stateGoal
	stateEdge
	numStates
)

const numSyms = 8

// numCells is the number of cells of T7.
const numCells = 37

var (
	// cellDX, cellDY are the offsets of the cells from the move, ordered by template.
	cellDX, cellDY [numCells]int8
	// templateEnd[t] is one past the last cell of template t in that order.
	templateEnd [NumTemplates]int
	// symCell[s][i] is the cell that symmetry s takes cell i to (every template is closed under the
	// eight symmetries of the square, so the image is a cell of the same template).
	symCell [numSyms][numCells]uint8
	// zobrist[i][state] is the random key of a state at cell i.
	zobrist [numCells][numStates]uint64
	// templateSalt tells the keys of different templates apart in one table.
	templateSalt [NumTemplates]uint64
	// passKeys are the keys of a pass.
	passKeys Keys
)

func init() {
	type cell struct{ dx, dy, t int }
	var cells []cell
	rows := strings.Split(strings.TrimSpace(templateDrawing), "\n")
	for y, row := range rows {
		for x, f := range strings.Fields(row) {
			if f != "." {
				cells = append(cells, cell{x - 3, y - 3, int(f[0] - '0')})
			}
		}
	}
	if len(cells) != numCells {
		panic("surrogate: template drawing has the wrong number of cells")
	}
	i := 0
	for t := range NumTemplates {
		for _, c := range cells {
			if c.t == t {
				cellDX[i], cellDY[i] = int8(c.dx), int8(c.dy)
				i++
			}
		}
		templateEnd[t] = i
	}
	index := func(dx, dy int) int {
		for j := range numCells {
			if int(cellDX[j]) == dx && int(cellDY[j]) == dy {
				return j
			}
		}
		panic("surrogate: a template is not closed under the symmetries")
	}
	for s := range numSyms {
		for i := range numCells {
			dx, dy := transform(s, int(cellDX[i]), int(cellDY[i]))
			symCell[s][i] = uint8(index(dx, dy))
		}
	}
	state := uint64(0x53757272546D706C) // "SurrTmpl"
	next := func() uint64 {
		state += 0x9E3779B97F4A7C15
		return board.Mix64(state)
	}
	for i := range zobrist {
		for s := range zobrist[i] {
			zobrist[i][s] = next()
		}
	}
	for t := range templateSalt {
		templateSalt[t] = next()
	}
	for t := range passKeys {
		passKeys[t] = next()
	}
}

// transform applies symmetry s (0–7) of the square to the offset (dx, dy): bit 0 mirrors x, bit 1
// mirrors y, bit 2 swaps the axes.
func transform(s, dx, dy int) (int, int) {
	if s&1 != 0 {
		dx = -dx
	}
	if s&2 != 0 {
		dy = -dy
	}
	if s&4 != 0 {
		dx, dy = dy, dx
	}
	return dx, dy
}

// Keys holds one pattern key per template, T0 first: the patterns that match for one move, in
// Stern's notation π(n) for the node the move generates.
type Keys [NumTemplates]uint64

// KeysOf computes the keys of the patterns around move in parent, the position before the move
// (the move's point is empty there), for the fight over the string at target with attacker the
// side trying to capture it. Each key is the minimum over the eight symmetries of the square of the
// Zobrist hash of the template's vertex states, so it is invariant under rotation and reflection;
// it does not allocate.
//
// A pass (the defender's tenuki) has no neighbourhood: its keys are its own, one per template, so
// the tables learn how often playing elsewhere holds.
func KeysOf(parent *board.Board, move, target board.Point, attacker board.Color) Keys {
	if move == board.Pass {
		return passKeys
	}
	defender := attacker.Opponent()
	goal := board.NoPoint
	if parent.At(target) == defender {
		goal = parent.ChainHead(target)
	}
	size := parent.Size()
	mx, my := move.XY()
	var st [numCells]uint8
	for i := range numCells {
		x, y := mx+int(cellDX[i]), my+int(cellDY[i])
		if uint(x) >= uint(size) || uint(y) >= uint(size) {
			st[i] = stateEdge
			continue
		}
		p := board.At(x, y)
		switch c := parent.At(p); {
		case c == attacker:
			st[i] = stateAttacker
		case c == defender && parent.ChainHead(p) == goal:
			st[i] = stateGoal
		case c == defender:
			st[i] = stateDefender
		case c == board.Empty:
			st[i] = stateEmpty
		default:
			st[i] = stateEdge
		}
	}
	// h[s] is the hash of the cells so far seen through symmetry s: cell i of the pattern holds the
	// state found at cell symCell[s][i] of the board.
	var h [numSyms]uint64
	var k Keys
	i := 0
	for t := range NumTemplates {
		for ; i < templateEnd[t]; i++ {
			z := &zobrist[i]
			for s := range numSyms {
				h[s] ^= z[st[symCell[s][i]]]
			}
		}
		m := h[0]
		for _, v := range h[1:] {
			m = min(m, v)
		}
		k[t] = m ^ templateSalt[t]
	}
	return k
}
