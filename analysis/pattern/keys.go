package pattern

import (
	"aji/analysis/board"
)

// Keys holds the invariant key of the pattern of every template size around one point: Keys[i] is the
// key of size MinSize+i.
type Keys [NumSizes]uint64

// Of returns the key of the given size (MinSize..MaxSize).
func (k Keys) Of(size int) uint64 { return k[size-MinSize] }

// The grid is a copy of the board's colours with a border reach cells wide, so every template point of
// every on-board centre is an array cell: no edge or wrap-around tests in the inner loops (the board's
// own padding is one cell, and its rows wrap into each other).
const (
	gridStride = board.MaxSize + 2*reach
	gridCells  = gridStride * gridStride
)

var (
	// gridIndex maps an on-board point to its grid cell.
	gridIndex [board.NumCells]int16
	// gridOff[i][t] is the grid displacement of offset i under symmetry t.
	gridOff [numOffsets][numSyms]int16
)

func initGrid() {
	for y := range board.MaxSize {
		for x := range board.MaxSize {
			gridIndex[board.At(x, y)] = int16((y+reach)*gridStride + x + reach)
		}
	}
	for i, o := range offsets {
		for t := range numSyms {
			dx, dy := transform(t, int(o.dx), int(o.dy))
			gridOff[i][t] = int16(dy*gridStride + dx)
		}
	}
}

// grid mirrors the colours of a board of one size.
type grid struct {
	size int
	c    [gridCells]board.Color
}

// reset makes g an empty board of the given size.
func (g *grid) reset(size int) {
	g.size = size
	for i := range g.c {
		g.c[i] = board.Edge
	}
	for _, p := range board.PointsOf(size) {
		g.c[gridIndex[p]] = board.Empty
	}
}

// load copies the colours of b.
func (g *grid) load(b *board.Board) {
	if b.Size() != g.size {
		g.reset(b.Size())
	}
	for _, p := range b.Points() {
		g.c[gridIndex[p]] = b.At(p)
	}
}

// rings computes, from scratch, the key of every ring of p (the offsets of size s not in size s−1) for
// each symmetry variant and both players to move: k[persp][s][t] = XOR over the offsets i of ring s of
// zobrist[state of p + transform_t(offset_i)][i] (Stern 2008 §3.1.3); a size's key is the XOR of its
// rings and those below.
func (g *grid) rings(p board.Point, k *[2][NumSizes][numSyms]uint64) {
	base := int(gridIndex[p])
	i := 0
	for s := range NumSizes {
		var b, w [numSyms]uint64
		for ; i < sizeEnd[s]; i++ {
			o := &gridOff[i]
			zb, zw := &zrel[0][i], &zrel[1][i]
			for t := range numSyms {
				c := g.c[base+int(o[t])] & 3
				b[t] ^= zb[c]
				w[t] ^= zw[c]
			}
		}
		k[0][s], k[1][s] = b, w
	}
}

// keys computes the invariant keys at p for one player to move, from scratch.
func (g *grid) keys(p board.Point, persp int) Keys {
	base := int(gridIndex[p])
	z := &zrel[persp]
	var v [numSyms]uint64
	var out Keys
	i := 0
	for s := range NumSizes {
		g.xorVariants(&v, base, gridOff[i:sizeEnd[s]], z[i:sizeEnd[s]])
		i = sizeEnd[s]
		out[s] = minKey(&v)
	}
	return out
}

// xorVariants XORs into the eight symmetry variants v of a key the Zobrist numbers z[i] of the states
// at the grid displacements off[i] from base: the loop that is the whole cost of a from-scratch key,
// unrolled over the symmetries with the variants in locals.
func (g *grid) xorVariants(v *[numSyms]uint64, base int, off [][numSyms]int16, z [][4]uint64) {
	k0, k1, k2, k3, k4, k5, k6, k7 := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
	for i := range off {
		o, zi := &off[i], &z[i]
		k0 ^= zi[g.c[base+int(o[0])]&3]
		k1 ^= zi[g.c[base+int(o[1])]&3]
		k2 ^= zi[g.c[base+int(o[2])]&3]
		k3 ^= zi[g.c[base+int(o[3])]&3]
		k4 ^= zi[g.c[base+int(o[4])]&3]
		k5 ^= zi[g.c[base+int(o[5])]&3]
		k6 ^= zi[g.c[base+int(o[6])]&3]
		k7 ^= zi[g.c[base+int(o[7])]&3]
	}
	*v = [numSyms]uint64{k0, k1, k2, k3, k4, k5, k6, k7}
}

// minKey is the invariant key of a pattern: the least key of its symmetry variants (Stern 2008 §3.1.3,
// k = min over the variants).
func minKey(v *[numSyms]uint64) uint64 {
	return min(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
}

// Scanner computes pattern keys from scratch: after Sync, Keys reads the template around one point. It
// is the fast path when few points are asked per position (harvesting looks at the move played only);
// Tracker is faster when every point is asked. The zero value is ready to use; a Scanner is about 1.4 KB
// and is not safe for concurrent use.
type Scanner struct {
	g grid
}

// Sync copies the stones of b.
func (s *Scanner) Sync(b *board.Board) { s.g.load(b) }

// Keys returns the invariant keys of every template size at the on-board point p for the player toPlay.
func (s *Scanner) Keys(p board.Point, toPlay board.Color) Keys {
	return s.g.keys(p, perspective(toPlay))
}

// KeysAt returns the invariant keys of every template size at the on-board point p of b for the player
// toPlay, from scratch. For many points of one position use a Tracker or a Scanner.
func KeysAt(b *board.Board, p board.Point, toPlay board.Color) Keys {
	var s Scanner
	s.Sync(b)
	return s.Keys(p, toPlay)
}

// Cell is one template point of a pattern drawn for an explanation: its offset from the centre (x to the
// right, y downwards, as on the board) and its state for the player to move.
type Cell struct {
	DX, DY int
	State  State
}

// Cells returns the template points of the given size around p, as the board shows them (not rotated to
// the canonical orientation), nearest first. The centre, where the move is, is not a template point.
func Cells(b *board.Board, toPlay board.Color, p board.Point, size int) []Cell {
	n := TemplateLen(size)
	if n == 0 || !b.OnBoard(p) {
		return nil
	}
	rel := &relative[perspective(toPlay)]
	x, y := p.XY()
	cells := make([]Cell, n)
	for i, o := range offsets[:n] {
		qx, qy := x+int(o.dx), y+int(o.dy)
		st := Off
		if qx >= 0 && qy >= 0 && qx < b.Size() && qy < b.Size() {
			st = rel[b.At(board.At(qx, qy))&3]
		}
		cells[i] = Cell{int(o.dx), int(o.dy), st}
	}
	return cells
}
