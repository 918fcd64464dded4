package board

// AreaScore counts the area (Chinese) score of a final position: each player's live stones plus the empty
// points reached only by that player's live stones. Stones in dead are removed first and their points
// count as empty. dead may be nil.
func (b *Board) AreaScore(dead *PointSet) (black, white int) {
	b.eachAreaOwner(dead, func(_ Point, owner Color) {
		switch owner {
		case Black:
			black++
		case White:
			white++
		}
	})
	return black, white
}

// AreaOwners writes the area owner of every point of a final position into out, row by row from the top
// left (SGF order: index y*Size()+x, the order of labels files and `aji replay`): +1 for Black, -1 for
// White, 0 for a point that neither colour alone reaches (dame, seki liberties, an empty board). A point
// is owned by the colour of its live stone, or, if empty once the stones in dead are removed, by the
// colour whose live stones alone border its empty region — the same count as AreaScore. dead may be nil.
// out must hold at least Size()*Size() values.
func (b *Board) AreaOwners(dead *PointSet, out []int8) {
	out = out[:b.size*b.size] // one bounds check, and a clear panic when out is short
	b.eachAreaOwner(dead, func(p Point, owner Color) {
		x, y := p.XY()
		var v int8
		switch owner {
		case Black:
			v = 1
		case White:
			v = -1
		}
		out[y*b.size+x] = v
	})
}

// eachAreaOwner calls fn once for every point of the board with its area owner (Black, White or Empty
// for nobody): the one home of "who owns each point" that AreaScore and AreaOwners share.
func (b *Board) eachAreaOwner(dead *PointSet, fn func(p Point, owner Color)) {
	var visited PointSet
	var stack, region [MaxPoints]Point
	colorAt := func(p Point) Color {
		c := b.color[p]
		if dead != nil && (c == Black || c == White) && dead.Has(p) {
			return Empty
		}
		return c
	}
	for _, p := range b.Points() {
		if c := colorAt(p); c != Empty {
			fn(p, c)
			continue
		}
		if visited.Has(p) {
			continue
		}
		// Flood the empty region from p, noting which colours border it; its points are handed to fn
		// once the owner is known.
		var borders [4]bool
		size, top := 0, 0
		stack[top] = p
		top++
		visited.Add(p)
		for top > 0 {
			top--
			q := stack[top]
			region[size] = q
			size++
			for _, d := range neighbours {
				n := q + d
				c := colorAt(n)
				if c == Empty && !visited.Has(n) {
					visited.Add(n)
					stack[top] = n
					top++
				} else {
					borders[c] = true
				}
			}
		}
		owner := Empty
		switch {
		case borders[Black] && !borders[White]:
			owner = Black
		case borders[White] && !borders[Black]:
			owner = White
		}
		for _, q := range region[:size] {
			fn(q, owner)
		}
	}
}
