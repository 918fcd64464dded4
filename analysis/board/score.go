package board

// AreaScore counts the area (Chinese) score of a final position: each player's live stones plus the empty
// points reached only by that player's live stones. Stones in dead are removed first and their points
// count as empty. dead may be nil.
func (b *Board) AreaScore(dead *PointSet) (black, white int) {
	var visited PointSet
	var stack [MaxPoints]Point
	colorAt := func(p Point) Color {
		c := b.color[p]
		if dead != nil && (c == Black || c == White) && dead.Has(p) {
			return Empty
		}
		return c
	}
	for _, p := range b.Points() {
		switch colorAt(p) {
		case Black:
			black++
			continue
		case White:
			white++
			continue
		}
		if visited.Has(p) {
			continue
		}
		// Flood the empty region from p, noting which colours border it.
		var borders [4]bool
		size := 0
		top := 0
		stack[top] = p
		top++
		visited.Add(p)
		for top > 0 {
			top--
			q := stack[top]
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
		switch {
		case borders[Black] && !borders[White]:
			black += size
		case borders[White] && !borders[Black]:
			white += size
		}
	}
	return black, white
}
