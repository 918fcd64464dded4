package reading

import (
	"context"
	"math"
	"slices"

	"aji/analysis/board"
	"aji/analysis/tactics"
)

// value is a node's logical value in the AND/OR tree (Stern §4.2.3): TRUE means the target string
// is captured with best play.
type value int8

const (
	unknown   value = iota
	proved          // TRUE
	disproved       // FALSE
)

// node is one position of the search tree, reached by move from its parent. Children are contiguous
// in the arena: first .. first+n−1. OR nodes have the attacker to move, AND nodes the defender.
type node struct {
	move   board.Point
	parent int32
	first  int32 // first child; −1 until developed
	n      int32 // children
	value  value
	// Proof-number search: the proof and disproof numbers.
	pn, dn uint32
	// Probability propagation: the log-odds of the upward message m_{f_n → n} (eqs 4.4–4.5), or of
	// the surrogate prior while a leaf.
	lo float64
}

// infinity is a proof or disproof number that cannot be reached.
const infinity = math.MaxUint32 / 4

// checkEvery is how often, in developed nodes, a search looks at its context.
const checkEvery = 1024

// outcome is what one search of the tree found.
type outcome struct {
	value     value
	success   bool          // the mover reached its goal
	line      []board.Point // the main line (when solved)
	bound     int           // the liberty bound value holds at (0: none settled)
	exhausted bool          // the budget or the context ran out before the largest bound was settled
}

// search holds one best-first search: the problem, the tree, the board stack along the path being
// developed, and the transposition table of solved positions.
type search struct {
	target             board.Point
	attacker, defender board.Color
	first              board.Color // to move at the root
	privileged         board.Color // the side that may ignore ko bans (Empty: neither)
	libBound           int         // Stern's L: more liberties than this counts as escaped
	method             Method
	prior              Prior

	nodes    []node
	boards   []board.Board // boards[d]: the position at depth d of the current path
	path     []int32       // path[d]: the node whose position boards[d] holds
	pathKeys []uint64      // their position keys
	keys     []uint64      // the keys from the root to the leaf being developed (repetition rule)
	tt       map[uint64]ttEntry
	ladder   tactics.LadderReader
	libs     []board.Point
	kids     []child
	moves    []board.Point
	seen     board.PointSet
	kb       board.Board // scratch for children
}

// ttEntry is a solved position: proved at liberty bound bound or above, or disproved at bound or
// below (a larger bound only turns FALSE leaves into UNKNOWN ones).
type ttEntry struct {
	value value
	bound int8
}

// positionKey identifies a position for the transposition table and the repetition rule: the
// stones, the side to move and the ko ban.
func positionKey(b *board.Board, toPlay board.Color) uint64 {
	k := b.Hash() ^ board.Mix64(uint64(toPlay))
	if ko, c := b.Ko(); ko != board.NoPoint {
		k ^= board.Mix64(uint64(ko)<<8 | uint64(c) | 1<<40)
	}
	return k
}

// run searches with each liberty bound in turn, 1 to opt.MaxLiberties, until the target is captured
// under one (a proof holds for every larger bound) or the largest is done. budget counts down the
// developed nodes left.
func (s *search) run(ctx context.Context, b *board.Board, target board.Point, mover, privileged board.Color, opt Options, budget *int) outcome {
	owner := b.At(target)
	s.target, s.attacker, s.defender = target, owner.Opponent(), owner
	s.first, s.privileged, s.method, s.prior = mover, privileged, opt.Method, opt.Prior
	if s.tt == nil {
		s.tt = map[uint64]ttEntry{}
	}
	clear(s.tt)
	var out outcome
	for bound := 1; bound <= opt.MaxLiberties; bound++ {
		s.libBound = bound
		o := s.solve(ctx, b, budget)
		if o.value == unknown {
			out.exhausted = true // out keeps the last bound settled, if any
			break
		}
		out, out.bound = o, bound
		if o.value == proved {
			break
		}
	}
	out.success = out.value == proved && mover == s.attacker || out.value == disproved && mover == s.defender
	return out
}

// toPlay is the side to move at depth d.
func (s *search) toPlay(d int) board.Color {
	if d%2 == 0 {
		return s.first
	}
	return s.first.Opponent()
}

// solve develops the tree for the current bound until the root is solved or the budget is spent.
func (s *search) solve(ctx context.Context, b *board.Board, budget *int) outcome {
	s.nodes = s.nodes[:0]
	if len(s.boards) == 0 {
		s.boards = make([]board.Board, 1, 64)
	}
	s.boards[0] = *b
	s.path = append(s.path[:0], 0)
	s.pathKeys = append(s.pathKeys[:0], positionKey(b, s.first))
	// The root is always developed, so that a solved problem has a key move.
	root := node{move: board.NoPoint, parent: -1, first: -1}
	s.nodes = append(s.nodes, root)
	s.initLeaf(0, 0.5)
	for developed := 0; s.nodes[0].value == unknown; developed++ {
		if *budget <= 0 {
			return outcome{value: unknown}
		}
		if developed%checkEvery == 0 && ctx.Err() != nil {
			return outcome{value: unknown}
		}
		leaf, depth := s.descend()
		s.develop(leaf, depth)
		*budget--
		s.update(leaf)
	}
	return outcome{value: s.nodes[0].value, line: s.mainLine()}
}

// descend walks from the root to the most proving leaf (PNS) or along the path of best play (PP),
// replaying the moves onto the board stack; it returns the leaf and its depth.
func (s *search) descend() (int32, int) {
	i, d := int32(0), 0
	for {
		n := &s.nodes[i]
		if n.first < 0 {
			s.keys = s.pathKeys[:d+1]
			return i, d
		}
		or := s.toPlay(d) == s.attacker
		best := n.first
		switch s.method {
		case PNS:
			best = s.pickPNS(n, or)
		case PP:
			best = s.pickPP(n, or)
		}
		// The boards of the last path are kept: consecutive descents share most of their way.
		if len(s.path) <= d+1 || s.path[d+1] != best {
			if len(s.boards) <= d+1 {
				s.boards = append(s.boards, board.Board{})
			}
			s.boards[d+1] = s.boards[d]
			s.play(&s.boards[d+1], s.nodes[best].move, s.toPlay(d))
			s.path = append(s.path[:d+1], best)
			s.pathKeys = append(s.pathKeys[:d+1], positionKey(&s.boards[d+1], s.toPlay(d+1)))
		}
		i, d = best, d+1
	}
}

// play plays a move the generator produced: legal, or a ko retake by the privileged side.
func (s *search) play(b *board.Board, p board.Point, c board.Color) {
	if ko, forbidden := b.Ko(); p == ko && c == forbidden {
		b.ClearKo()
	}
	b.PlayLegal(p, c)
}

// child is a move being added to the tree, with what ordering needs.
type child struct {
	move  board.Point
	value value
	score int // smaller first
	prior float64
}

// develop generates the leaf's children, evaluates the goal in each and adds them in order.
func (s *search) develop(leaf int32, d int) {
	b := &s.boards[d]
	c := s.toPlay(d)
	or := c == s.attacker
	s.moves = s.generate(b, c, s.moves[:0])
	if !or {
		// The defender may always play elsewhere: a generator that finds no useful move does not
		// mean the string is lost (two eyes, a seki), only that no local move helps.
		s.moves = append(s.moves, board.Pass)
	}
	s.kids = s.kids[:0]
	for _, m := range s.moves {
		s.kb = *b
		s.play(&s.kb, m, c)
		if m != board.Pass && s.pointless(b, &s.kb, m, c) {
			continue
		}
		key := positionKey(&s.kb, c.Opponent())
		if slices.Contains(s.keys, key) {
			continue // the repetition rule: no position recurs on a line
		}
		k := child{move: m, value: s.lookup(key)}
		if k.value == unknown {
			k.value = s.goal(&s.kb, c.Opponent())
		}
		libs := 0
		if s.kb.At(s.target) == s.defender {
			libs = s.kb.Liberties(s.target, 8)
		}
		k.score = libs
		switch {
		case m == board.Pass:
			k.score = 1 << 20 // last
		case !or:
			k.score = -libs
		}
		if k.value == unknown && s.method == PP {
			k.prior = 0.5
			if s.prior != nil {
				k.prior = s.prior.Prior(b, m, c, s.target, s.attacker)
			}
		}
		s.kids = append(s.kids, k)
	}
	slices.SortStableFunc(s.kids, func(a, b child) int { return a.score - b.score })
	first := int32(len(s.nodes))
	for _, k := range s.kids {
		s.nodes = append(s.nodes, node{move: k.move, parent: leaf, first: -1, value: k.value})
		s.initLeaf(int32(len(s.nodes)-1), k.prior)
	}
	n := &s.nodes[leaf]
	n.first, n.n = first, int32(len(s.kids))
	if n.n == 0 {
		// No move: an OR node cannot capture, an AND node cannot save (Stern §4.2.3).
		n.value = disproved
		if !or {
			n.value = proved
		}
	}
}

// lookup returns the transposition table's value of a position under the current bound.
func (s *search) lookup(key uint64) value {
	e, ok := s.tt[key]
	switch {
	case !ok:
		return unknown
	case e.value == proved && int(e.bound) <= s.libBound, e.value == disproved && int(e.bound) >= s.libBound:
		return e.value
	}
	return unknown
}

// goal is Stern's goal function (§4.5) in position b with toPlay to move: captured, or captured in
// a ladder, is TRUE; more liberties than the bound is FALSE; a string in atari with the attacker to
// move is captured next move.
func (s *search) goal(b *board.Board, toPlay board.Color) value {
	if b.At(s.target) != s.defender {
		if s.retakes(b) {
			return unknown
		}
		return proved
	}
	libs := b.Liberties(s.target, s.libBound+1)
	switch {
	case libs > s.libBound:
		return disproved
	case libs == 1 && toPlay == s.attacker:
		// Captured next move, unless the capture is a ko the defender may retake.
		lib := b.AtariLiberty(s.target)
		koRisk := s.privileged == s.defender && b.ChainSize(s.target) == 1
		if (b.Legal(lib, s.attacker) || s.privileged == s.attacker) && !koRisk {
			return proved
		}
	case libs == 1 && toPlay == s.defender, libs == 2 && toPlay == s.attacker:
		// The ladder reader knows nothing of ko threats: not where the privileged side may retake.
		if ko, c := b.Ko(); ko != board.NoPoint && c == s.privileged {
			break
		}
		if s.ladder.Captured(b, s.target, s.attacker) {
			return proved
		}
	}
	return unknown
}

// retakes reports whether the defender, to move after the target was captured, can at once play
// on the target's point and capture the stones that took it: a snapback (two stones or more, or one
// that is no ko), or a ko the defender may retake because it has threats to spare. Then the
// capture is not the end of the fight.
func (s *search) retakes(b *board.Board) bool {
	if b.At(s.target) != board.Empty {
		return false
	}
	n := 0
	for _, q := range s.target.Neighbours() {
		if b.At(q) == s.attacker && b.AtariLiberty(q) == s.target {
			n += b.ChainSize(q) // a string touching the point twice is counted twice: n ≥ 2 either way
		}
	}
	ko, banned := b.Ko()
	switch {
	case n == 0:
		return false
	case ko == s.target && banned == s.defender:
		return s.privileged == s.defender
	}
	return true
}

// initLeaf sets a new node's numbers from its value (and, for probability propagation, its prior).
func (s *search) initLeaf(i int32, prior float64) {
	n := &s.nodes[i]
	switch n.value {
	case proved:
		n.pn, n.dn, n.lo = 0, infinity, math.Inf(1)
	case disproved:
		n.pn, n.dn, n.lo = infinity, 0, math.Inf(-1)
	default:
		n.pn, n.dn, n.lo = 1, 1, logOdds(prior)
	}
}

// update recomputes the numbers (or messages) of the developed leaf and its ancestors, recording
// solved positions in the transposition table.
func (s *search) update(i int32) {
	for d := len(s.keys) - 1; i >= 0; d-- {
		n := &s.nodes[i]
		or := s.toPlay(d) == s.attacker
		if n.value == unknown {
			n.value = s.backUp(n, or)
		}
		if n.value != unknown {
			s.tt[s.keys[d]] = ttEntry{value: n.value, bound: int8(s.libBound)}
		}
		switch s.method {
		case PNS:
			s.backUpPNS(n, or)
		case PP:
			s.backUpPP(n, or)
		}
		i = n.parent
	}
}

// backUp is the AND/OR rule (Stern §4.2.3) over a developed node's children.
func (s *search) backUp(n *node, or bool) value {
	if n.first < 0 {
		return n.value
	}
	all := true
	for _, c := range s.nodes[n.first : n.first+n.n] {
		switch {
		case or && c.value == proved:
			return proved
		case !or && c.value == disproved:
			return disproved
		case c.value == unknown:
			all = false
		}
	}
	switch {
	case !all:
		return unknown
	case or:
		return disproved
	}
	return proved
}

// mainLine follows the solved tree from the root: at a node the side that wins picks a winning
// child (the first in move order); the losing side the reply that holds out longest (the largest
// subtree, a proxy for the longest resistance).
func (s *search) mainLine() []board.Point {
	var line []board.Point
	i := int32(0)
	for d := 0; ; d++ {
		n := &s.nodes[i]
		if n.first < 0 || n.n == 0 {
			return line
		}
		or := s.toPlay(d) == s.attacker
		winnerToMove := or == (n.value == proved)
		best, bestSize := int32(-1), -1
		for c := n.first; c < n.first+n.n; c++ {
			if winnerToMove {
				if s.nodes[c].value == n.value {
					best = c
					break
				}
				continue
			}
			if sz := s.subtree(c); sz > bestSize {
				best, bestSize = c, sz
			}
		}
		if best < 0 {
			return line
		}
		line = append(line, s.nodes[best].move)
		i = best
	}
}

// subtree counts the developed nodes under i.
func (s *search) subtree(i int32) int {
	n := &s.nodes[i]
	total := 1
	for c := n.first; n.first >= 0 && c < n.first+n.n; c++ {
		total += s.subtree(c)
	}
	return total
}

// observe walks the tree depth first, replaying the moves, and reports every node but the root.
func (s *search) observe(fn func(Observation)) {
	if len(s.nodes) == 0 {
		return
	}
	var walk func(i int32, d int)
	walk = func(i int32, d int) {
		n := &s.nodes[i]
		if n.first < 0 {
			return
		}
		if len(s.boards) <= d+1 {
			s.boards = append(s.boards, board.Board{})
		}
		for c := n.first; c < n.first+n.n; c++ {
			k := &s.nodes[c]
			p := 0.5
			switch {
			case k.value == proved:
				p = 1
			case k.value == disproved:
				p = 0
			case s.method == PP:
				p = 1 / (1 + math.Exp(-k.lo))
			}
			fn(Observation{Parent: &s.boards[d], Move: k.move, ToPlay: s.toPlay(d), Target: s.target, Attacker: s.attacker,
				Depth: d + 1, Developed: k.first >= 0, Solved: k.value != unknown, True: k.value == proved, P: p})
			if k.first >= 0 {
				s.boards[d+1] = s.boards[d]
				s.play(&s.boards[d+1], k.move, s.toPlay(d))
				walk(c, d+1)
			}
		}
	}
	walk(0, 0)
	s.path = s.path[:0] // the boards now hold the walk's last line
}
