package tactics

import (
	"slices"

	"aji/analysis/board"
)

// Default limits of a LadderReader. A ladder that runs diagonally across the largest board is about
// 4·MaxSize plies deep; a working ladder costs about three played positions per attacker move (the
// right atari, the extension, and the wrong atari refuted at once), so the node limit leaves room for
// the longest ladders plus some branching where the defender can capture.
const (
	DefaultMaxDepth = 4 * board.MaxSize
	DefaultMaxNodes = 1000
)

// maxDefences bounds the defender's moves considered at one node: captures of adjacent chains in atari
// plus the extension. Reaching it gives up the read (Unknown) rather than skipping a defence.
const maxDefences = 16

// Result is the outcome of a ladder read.
type Result int8

const (
	// Escaped: the defender escapes every ladder (or the chain is not one a ladder applies to).
	Escaped Result = iota
	// Captured: the attacker captures the chain whatever the defender does, using only ataris.
	Captured
	// Unknown: the read hit its depth or node limit before finding a capture.
	Unknown
)

func (r Result) String() string {
	switch r {
	case Escaped:
		return "escaped"
	case Captured:
		return "captured"
	case Unknown:
		return "unknown"
	}
	return "Result(?)"
}

// LadderReader reads ladders. The zero value is ready to use with the default limits. It keeps a stack
// of boards between calls, grown only when a read goes deeper than any before, so a warm reader
// allocates nothing. A LadderReader is not safe for concurrent use: give each goroutine its own.
type LadderReader struct {
	MaxDepth int // plies read at most; 0 means DefaultMaxDepth
	MaxNodes int // positions played per read at most; 0 means DefaultMaxNodes

	stack    []*board.Board // stack[d] holds the position after ply d+1 of the current line
	nodes    int            // positions played by the current read
	limited  bool           // the current read hit a limit somewhere
	target   board.Point    // a stone of the chain being read; it stays on the board until captured
	attacker board.Color
	defender board.Color
	libs     [board.MaxPoints]board.Point // scratch for liberty lists
}

// Captured reports whether attacker captures the chain at chain by a ladder. It is Read(...) == Captured:
// a read cut short by the limits counts as an escape, the safe answer for move features.
func (r *LadderReader) Captured(b *board.Board, chain board.Point, attacker board.Color) bool {
	return r.Read(b, chain, attacker) == Captured
}

// Read reads the ladder on the chain at chain (a stone of attacker's opponent) and reports the outcome.
// Whose move it is follows from the chain's liberties: with one liberty the defender is to move and
// tries to escape (extend, or capture an adjacent attacking chain in atari); with two the attacker is to
// move and may give atari on either liberty. Chains with three or more liberties escape. b is not
// modified.
func (r *LadderReader) Read(b *board.Board, chain board.Point, attacker board.Color) Result {
	if attacker != board.Black && attacker != board.White || b.At(chain) != attacker.Opponent() {
		return Escaped
	}
	r.target, r.attacker, r.defender = chain, attacker, attacker.Opponent()
	r.nodes, r.limited = 0, false
	var captured bool
	switch b.Liberties(chain, 3) {
	case 1:
		captured = r.defend(b, 0)
	case 2:
		captured = r.attack(b, 0)
	}
	switch {
	case captured:
		return Captured
	case r.limited:
		return Unknown
	}
	return Escaped
}

// Nodes returns the number of positions the last read played, a measure of its cost.
func (r *LadderReader) Nodes() int { return r.nodes }

// child returns the board for ply depth+1 loaded with b, or nil when a limit forbids going there. The
// callers count a nil child as an escape, so a capture is only ever answered from a complete read.
func (r *LadderReader) child(b *board.Board, depth int) *board.Board {
	maxDepth, maxNodes := r.MaxDepth, r.MaxNodes
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	if depth >= maxDepth || r.nodes >= maxNodes {
		r.limited = true
		return nil
	}
	r.nodes++
	for len(r.stack) <= depth {
		r.stack = append(r.stack, new(board.Board))
	}
	nb := r.stack[depth]
	*nb = *b
	return nb
}

// defend reports whether the target, in atari with the defender to move in b, is captured whatever the
// defender does.
func (r *LadderReader) defend(b *board.Board, depth int) bool {
	lib := b.AtariLiberty(r.target)
	// Extending onto a point with three empty neighbours gives three liberties at once: no need to play
	// it. Such a point cannot be a ko, so the extension is legal. This refutes most wrong-way ataris.
	if emptyNeighbours(b, lib) >= 3 {
		return false
	}
	// Defences: capturing an adjacent attacking chain in atari (which always gains a liberty), then
	// extending; an extension that also captures is listed once.
	var moves [maxDefences]board.Point
	n := 0
	add := func(m board.Point) bool {
		if slices.Contains(moves[:n], m) {
			return true
		}
		if n == len(moves) {
			return false
		}
		moves[n] = m
		n++
		return true
	}
	s := r.target
	for {
		for _, q := range s.Neighbours() {
			if b.At(q) == r.attacker && b.InAtari(q) && !add(b.AtariLiberty(q)) {
				r.limited = true // a chain touching more chains in atari than we track: give up
				return false
			}
		}
		if s = b.NextStone(s); s == r.target {
			break
		}
	}
	if !add(lib) {
		r.limited = true
		return false
	}
	for _, m := range moves[:n] {
		if !b.Legal(m, r.defender) {
			continue
		}
		nb := r.child(b, depth)
		if nb == nil {
			return false
		}
		nb.PlayLegal(m, r.defender)
		if !r.attackAfter(nb, depth+1) {
			return false
		}
	}
	return true
}

// attackAfter reports whether the target is captured in b, where the defender has just moved.
func (r *LadderReader) attackAfter(b *board.Board, depth int) bool {
	switch b.Liberties(r.target, 3) {
	case 1:
		// The escape failed; only a ko can stop the capture.
		return b.Legal(b.AtariLiberty(r.target), r.attacker)
	case 2:
		return r.attack(b, depth)
	}
	return false
}

// attack reports whether the attacker, to move in b, captures the target (two liberties) by giving atari
// on one of its liberties.
func (r *LadderReader) attack(b *board.Board, depth int) bool {
	libs := b.LibertyPoints(r.target, r.libs[:0])
	var two [2]board.Point
	copy(two[:], libs) // r.libs is reused by deeper plies
	for _, l := range two {
		if !b.Legal(l, r.attacker) {
			continue
		}
		nb := r.child(b, depth)
		if nb == nil {
			return false
		}
		nb.PlayLegal(l, r.attacker)
		if r.defend(nb, depth+1) {
			return true
		}
	}
	return false
}

// neighbours returns the four orthogonal neighbours of p (some may be off the board).
// emptyNeighbours counts the empty orthogonal neighbours of p.
func emptyNeighbours(b *board.Board, p board.Point) int {
	n := 0
	for _, q := range p.Neighbours() {
		if b.At(q) == board.Empty {
			n++
		}
	}
	return n
}
