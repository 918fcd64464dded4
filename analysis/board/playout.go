package board

import "math/rand/v2"

// IsEye reports whether the empty point p is an eye of colour c for playout purposes: every orthogonal
// neighbour is c or the edge, and the opponent holds at most one diagonal (none on the edge). Filling such
// a point is never useful, so random playouts skip it and end.
func (b *Board) IsEye(p Point, c Color) bool {
	for _, d := range neighbours {
		if n := b.color[p+d]; n != c && n != Edge {
			return false
		}
	}
	opp, edge := 0, 0
	for _, d := range diagonals {
		switch b.color[p+d] {
		case Edge:
			edge = 1
		case c.Opponent():
			opp++
		}
	}
	return opp+edge < 2
}

// RandomMove returns a legal move for c that does not fill c's own eye, chosen uniformly among all such
// moves, or Pass when there is none. It draws from the empty points and moves each rejected one to the
// end of the list, out of the draw, so no allocation is needed and every acceptable point stays equally
// likely.
func (b *Board) RandomMove(rng *rand.PCG, c Color) Point {
	for n := b.numEmpty; n > 0; n-- {
		i := int16((rng.Uint64() >> 32) * uint64(n) >> 32)
		p := b.empty[i]
		if !b.IsEye(p, c) && b.Legal(p, c) {
			return p
		}
		last := b.empty[n-1]
		b.empty[i], b.empty[n-1] = last, p
		b.emptyAt[last], b.emptyAt[p] = i, int16(n-1)
	}
	return Pass
}

// Playout plays random moves (RandomMove) from this position, c first, until both players pass in a row
// or maxMoves moves are made, and returns the number of moves played (passes included). Only simple ko
// is checked, so maxMoves bounds the rare superko cycle.
func (b *Board) Playout(rng *rand.PCG, c Color, maxMoves int) int {
	passes := 0
	moves := 0
	for moves < maxMoves && passes < 2 {
		p := b.RandomMove(rng, c)
		if p == Pass {
			passes++
		} else {
			passes = 0
		}
		b.PlayLegal(p, c)
		c = c.Opponent()
		moves++
	}
	return moves
}

// Around packs the 3x3 neighbourhood of the on-board point p for the playout policy's shape lookup: the
// colours of its eight neighbours, two bits each (Empty 0, Black 1, White 2, Edge 3), row by row from
// the top left, and bit 16+j set where the j-th orthogonal neighbour (above, left, right, below) is a
// chain in atari. It is pattern.Code3 for Black to move, read without a bounds check per point.
func (b *Board) Around(p Point) uint32 {
	c := (*[2*Stride + 3]Color)(b.color[p-Stride-1:])
	// Colours go through uint8 (they are 0..3), and chain heads below through uint16 (they are points),
	// so that each load folds its offset into one instruction; a sign-extending load does not.
	v := uint32(uint8(c[0])) | uint32(uint8(c[1]))<<2 | uint32(uint8(c[2]))<<4 |
		uint32(uint8(c[Stride]))<<6 | uint32(uint8(c[Stride+2]))<<8 |
		uint32(uint8(c[2*Stride]))<<10 | uint32(uint8(c[2*Stride+1]))<<12 | uint32(uint8(c[2*Stride+2]))<<14
	// Empty and off-board cells have the head noChain, whose liberty count is 0. Written out: over an
	// array of the four offsets the compiler keeps a loop, with a bounds check and a branch each.
	h := (*[2*Stride + 3]Point)(b.head[p-Stride-1:])
	if b.chains[uint16(h[1])].nlibs == 1 {
		v |= 1 << 16
	}
	if b.chains[uint16(h[Stride])].nlibs == 1 {
		v |= 1 << 17
	}
	if b.chains[uint16(h[Stride+2])].nlibs == 1 {
		v |= 1 << 18
	}
	if b.chains[uint16(h[2*Stride+1])].nlibs == 1 {
		v |= 1 << 19
	}
	return v
}
