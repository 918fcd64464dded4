package planning

// RootValues are the exact minimax outcomes of the root's moves: wins[a] reports whether MAX, having
// played a, can force a win. Each is settled by a depth-first search that stops at a node's first
// winning move for the side to move (boolean alpha-beta), so it visits a small part of the B^D leaves
// (at most 7^7 or 2^20 for the figures' shapes).
func (t *Tree) RootValues() []bool {
	wins := make([]bool, t.B)
	for a := range t.B {
		c := t.Child(t.root, a)
		wins[a] = t.solve(c, 1, t.MoveValue(c, 0))
	}
	return wins
}

// Optimal reports which root moves are minimax-optimal: the winning ones, or all of them when none wins.
func Optimal(wins []bool) []bool {
	opt := make([]bool, len(wins))
	any := false
	for _, w := range wins {
		any = any || w
	}
	for a, w := range wins {
		opt[a] = w || !any
	}
	return opt
}

// solve is whether MAX wins at node h of depth depth with P-Game sum sum.
func (t *Tree) solve(h uint64, depth int, sum float64) bool {
	if depth == t.D {
		return t.LeafWin(h, sum)
	}
	maxToMove := depth%2 == 0
	for a := range t.B {
		c := t.Child(h, a)
		w := t.solve(c, depth+1, sum+t.MoveValue(c, depth))
		if w == maxToMove {
			return w
		}
	}
	return !maxToMove
}
