package board

// ChainHead returns the representative point of the chain at p; two stones are in one chain iff their
// heads are equal. p must hold a stone.
func (b *Board) ChainHead(p Point) Point { return b.head[p] }

// ChainSize returns the number of stones in the chain at p.
func (b *Board) ChainSize(p Point) int { return int(b.chains[b.head[p]].size) }

// NextStone returns the stone after s in its chain's circular list; starting at any stone and following
// NextStone until returning to it visits every stone of the chain once.
func (b *Board) NextStone(s Point) Point { return b.next[s] }

// InAtari reports whether the chain at p has exactly one liberty.
func (b *Board) InAtari(p Point) bool { return b.chains[b.head[p]].nlibs == 1 }

// AtariLiberty returns the only liberty of the chain at p, or NoPoint if it has more (or none).
func (b *Board) AtariLiberty(p Point) Point {
	c := &b.chains[b.head[p]]
	if c.nlibs != 1 {
		return NoPoint
	}
	return Point(c.libSum / int32(c.libs))
}

// Liberties returns the number of liberties of the chain at p, or max if it has more: the count is kept
// exactly as moves are played, so this costs nothing.
func (b *Board) Liberties(p Point, max int) int {
	return min(int(b.chains[b.head[p]].nlibs), max)
}

// LibertyPoints appends the liberties of the chain at p to buf and returns it; with a buf of capacity
// MaxPoints nothing is allocated.
func (b *Board) LibertyPoints(p Point, buf []Point) []Point {
	c := &b.chains[b.head[p]]
	switch c.nlibs {
	case 1:
		return append(buf, Point(c.libSum/int32(c.libs)))
	case 2: // the playouts' common case: the walk stops at the first, and the second follows from it
		for s := p; ; {
			for _, d := range neighbours {
				if l := s + d; b.color[l] == Empty {
					return append(buf, l, b.OtherLiberty(p, l))
				}
			}
			if s = b.next[s]; s == p {
				return buf // unreachable while the count is right
			}
		}
	}
	// The walk stops once it has found them all.
	var seen PointSet
	left := c.nlibs
	s := p
	for left > 0 {
		for _, d := range neighbours {
			if l := s + d; b.color[l] == Empty && !seen.Has(l) {
				seen.Add(l)
				buf = append(buf, l)
				left--
			}
		}
		if s = b.next[s]; s == p {
			break
		}
	}
	return buf
}

// OtherLiberty returns the liberty besides l of the chain at p, which has exactly two liberties, l one
// of them. It walks nothing: every stone of the chain next to l makes a pseudo-liberty naming l, and
// the chain's other pseudo-liberties all name the other liberty, so their sum over their count is it.
func (b *Board) OtherLiberty(p, l Point) Point {
	h := b.head[p]
	c := &b.chains[h]
	n := int32(0) // pseudo-liberties naming l
	for _, d := range neighbours {
		if b.head[l+d] == h {
			n++
		}
	}
	return Point((c.libSum - n*int32(l)) / (int32(c.libs) - n))
}

// HashAfter returns the hash the board would have after c plays the legal move p.
func (b *Board) HashAfter(p Point, c Color) uint64 {
	h := b.hash
	if p == Pass {
		return h
	}
	h ^= zobrist[c][p]
	opp := c.Opponent()
	var captured [4]Point
	k := 0
next:
	for _, d := range neighbours {
		n := p + d
		if b.color[n] != opp || !b.InAtari(n) {
			continue
		}
		head := b.head[n]
		for _, done := range captured[:k] {
			if done == head {
				continue next
			}
		}
		captured[k] = head
		k++
		s := head
		for {
			h ^= zobrist[opp][s]
			if s = b.next[s]; s == head {
				break
			}
		}
	}
	return h
}

// RepeatsPosition reports whether c playing the legal move p recreates a position whose hash is in
// history: the positional superko rule. Passes never repeat.
func (b *Board) RepeatsPosition(p Point, c Color, history []uint64) bool {
	if p == Pass {
		return false
	}
	h := b.HashAfter(p, c)
	for _, old := range history {
		if old == h {
			return true
		}
	}
	return false
}
