package feature

import (
	"math/rand/v2"
	"slices"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/tactics"
)

// Per-chain facts an extraction learns about the position, stored at the chain's head.
const (
	newAtari       = 1 << iota // the mover's chain that the opponent's last move put in atari
	nextToNewAtari             // an opponent chain in atari that touches a newAtari chain
	ladderKnown                // the ladder status below has been read
	laddered                   // an opponent chain in atari that is caught even if its owner moves first
)

// Extractor computes feature sets. The zero value is ready to use. It holds a few boards of scratch
// and a ladder reader that it reuses, so keep one per goroutine (it is not safe for concurrent use) and
// extracting allocates nothing.
type Extractor struct {
	ladder tactics.LadderReader

	// The position being extracted and what begin derived from it.
	pos     *game.Position
	me, opp board.Color
	last    board.Point // the opponent's last stone, or NoPoint if the last move is not one on the board
	ko      bool

	libs   [board.NumCells]uint8          // per chain head: liberties capped at 3; 0 = not counted yet
	libPts [board.NumCells][2]board.Point // per chain head with at most two liberties: them
	flags  [board.NumCells]uint8          // per chain head: the bits above

	after   board.Board // the position after the move afterAt, played on demand
	afterAt board.Point

	playout board.Board
	owned   [board.NumCells]uint8 // playouts in which each point ended as the mover's
	rng     rand.PCG
}

// Extract fills set with the features of every legal move of pos (the empty points the player to move
// may play, and pass), all but the Monte Carlo owner: see AddOwner.
func (e *Extractor) Extract(pos *game.Position, set *Set) {
	e.begin(pos)
	set.reset()
	b := &pos.Board
	for _, p := range b.Points() {
		if b.At(p) == board.Empty && b.Legal(p, e.me) {
			e.move(p, set.add(p))
		}
	}
	lv := set.add(board.Pass)
	lv[Pass] = PassAfterMove
	if pos.Last == board.Pass {
		lv[Pass] = PassAfterPass
	}
	e.pos = nil // do not keep the caller's position alive
}

// begin resets the per-position scratch and finds the mover's chains that the last move put in atari.
func (e *Extractor) begin(pos *game.Position) {
	e.pos = pos
	e.me, e.opp = pos.ToPlay, pos.ToPlay.Opponent()
	clear(e.libs[:])
	clear(e.flags[:])
	e.afterAt = board.NoPoint
	b := &pos.Board
	k, _ := b.Ko()
	e.ko = k != board.NoPoint
	e.last = board.NoPoint
	if !b.OnBoard(pos.Last) || b.At(pos.Last) != e.opp {
		return // no last move, a pass, or a record where one colour moved twice
	}
	e.last = pos.Last
	// A chain of the mover next to the last stone and in atari had that point as a liberty before, so
	// it had two: the last move is what put it in atari.
	for _, q := range e.last.Neighbours() {
		if b.At(q) != e.me || !b.InAtari(q) || e.flags[b.ChainHead(q)]&newAtari != 0 {
			continue
		}
		e.flags[b.ChainHead(q)] |= newAtari
		for s := q; ; {
			for _, n := range s.Neighbours() {
				if b.At(n) == e.opp && b.InAtari(n) {
					e.flags[b.ChainHead(n)] |= nextToNewAtari
				}
			}
			if s = b.NextStone(s); s == q {
				break
			}
		}
	}
}

// move fills the features of the legal move p.
func (e *Extractor) move(p board.Point, lv *Levels) {
	b := &e.pos.Board
	size := b.Size()
	x, y := p.XY()
	if line := min(x, y, size-1-x, size-1-y) + 1; line <= int(BorderDistance.MaxLevel()) {
		lv[BorderDistance] = uint8(line)
	}
	if b.OnBoard(e.pos.Last) {
		lv[PrevDistance] = distanceLevel(p, e.pos.Last)
	}
	if b.OnBoard(e.pos.Prev) {
		lv[PrevPrevDistance] = distanceLevel(p, e.pos.Prev)
	}

	// The chains around p, each once: the mover's, and the opponent's in atari (captured by p) or with
	// two liberties (put in atari by p).
	var own, caps, ataris [4]board.Point
	var nOwn, nCaps, nAtaris int
	empty, nEmpty := board.NoPoint, 0
	for _, q := range p.Neighbours() {
		switch b.At(q) {
		case board.Empty:
			empty = q
			nEmpty++
		case e.me:
			nOwn = addUnique(&own, nOwn, b.ChainHead(q))
		case e.opp:
			switch h := b.ChainHead(q); e.chain(h) {
			case 1:
				nCaps = addUnique(&caps, nCaps, h)
			case 2:
				nAtaris = addUnique(&ataris, nAtaris, h)
			}
		}
	}
	if nCaps > 0 {
		lv[Capture] = e.captureLevel(p, caps[:nCaps])
	}
	for _, h := range own[:nOwn] {
		if e.flags[h]&newAtari != 0 {
			lv[Extension] = e.extensionLevel(p)
			break
		}
	}
	if e.selfAtari(p, nEmpty, empty, own[:nOwn], nCaps > 0) {
		lv[SelfAtari] = SelfAtariLevel
	}
	if nAtaris > 0 {
		lv[Atari] = e.atariLevel(p, ataris[:nAtaris])
	}
}

// captureLevel is the Capture level of p, which captures the chains (heads) caps.
func (e *Extractor) captureLevel(p board.Point, caps []board.Point) uint8 {
	b := &e.pos.Board
	level := uint8(CaptureLadder)
	for _, h := range caps {
		var l uint8
		switch {
		case e.flags[h]&nextToNewAtari != 0:
			return CaptureNewAtari
		case e.last != board.NoPoint && b.ChainHead(e.last) == h:
			l = CaptureRecapture
		case e.last != board.NoPoint && p.Adjacent(e.last):
			l = CapturePreventConnection
		case level <= CaptureNotLadder:
			continue // a lower level is already found: skip the reading
		case e.capturedAnyway(h):
			l = CaptureLadder
		default:
			l = CaptureNotLadder
		}
		level = min(level, l)
	}
	return level
}

// capturedAnyway reports whether the opponent chain h, in atari, is caught in a ladder even with its
// owner to move; the answer is kept for the other moves of the position.
func (e *Extractor) capturedAnyway(h board.Point) bool {
	if e.flags[h]&ladderKnown == 0 {
		e.flags[h] |= ladderKnown
		if e.ladder.Captured(&e.pos.Board, h, e.me) {
			e.flags[h] |= laddered
		}
	}
	return e.flags[h]&laddered != 0
}

// extensionLevel is the Extension level of p, the liberty of a chain of the mover just put in atari:
// whether the opponent, to move after p, captures the extended chain by a ladder (or at once, when the
// extension leaves it in atari).
func (e *Extractor) extensionLevel(p board.Point) uint8 {
	after := e.play(p)
	switch after.Liberties(p, 3) {
	case 1:
		return ExtensionLadder
	case 2:
		if e.ladder.Captured(after, p, e.opp) {
			return ExtensionLadder
		}
	}
	return ExtensionNotLadder
}

// selfAtari reports whether the move p leaves its own chain with one liberty. nEmpty and empty are the
// number of empty neighbours of p and one of them, own the heads of the mover's adjacent chains. A
// capture that takes a ko is not a self-atari: the opponent may not retake at once.
func (e *Extractor) selfAtari(p board.Point, nEmpty int, empty board.Point, own []board.Point, captures bool) bool {
	if nEmpty >= 2 {
		return false
	}
	if captures {
		// Captured stones become liberties in ways not worth working out here: play the move.
		after := e.play(p)
		k, _ := after.Ko()
		return after.InAtari(p) && k == board.NoPoint
	}
	// Without captures the new chain's liberties are p's empty neighbours and those of the joined
	// chains, less p itself.
	var libs [2]board.Point
	n := 0
	if nEmpty == 1 {
		libs[0], n = empty, 1
	}
	for _, h := range own {
		nl := e.chain(h)
		if nl >= 3 {
			return false
		}
		for _, l := range e.libPts[h][:nl] {
			if l == p || slices.Contains(libs[:n], l) {
				continue
			}
			if n == 1 {
				return false
			}
			libs[n] = l
			n++
		}
	}
	return n == 1
}

// atariLevel is the Atari level of p, which puts the opponent chains (heads) ataris in atari.
func (e *Extractor) atariLevel(p board.Point, ataris []board.Point) uint8 {
	b := &e.pos.Board
	for _, h := range ataris {
		// The chain's remaining liberty; extending there onto three empty points escapes at once,
		// which settles most ataris without copying the board.
		q := e.libPts[h][0]
		if q == p {
			q = e.libPts[h][1]
		}
		free := 0
		for _, n := range q.Neighbours() {
			if n != p && b.At(n) == board.Empty {
				free++
			}
		}
		if free < 3 && e.ladder.Captured(e.play(p), h, e.me) {
			return AtariLadder
		}
	}
	if e.ko {
		return AtariKo
	}
	return AtariOther
}

// chain returns the liberties of the chain with head h, capped at 3, remembering them (and the
// liberty points, when at most two) for the rest of the position.
func (e *Extractor) chain(h board.Point) uint8 {
	if n := e.libs[h]; n != 0 {
		return n
	}
	b := &e.pos.Board
	if b.InAtari(h) {
		e.libs[h], e.libPts[h][0] = 1, b.AtariLiberty(h)
		return 1
	}
	var pts [3]board.Point
	n := 0
walk:
	for s := h; ; {
		for _, q := range s.Neighbours() {
			if b.At(q) == board.Empty && !slices.Contains(pts[:n], q) {
				pts[n] = q
				if n++; n == len(pts) {
					break walk
				}
			}
		}
		if s = b.NextStone(s); s == h {
			break
		}
	}
	e.libs[h] = uint8(n)
	e.libPts[h] = [2]board.Point{pts[0], pts[1]}
	return uint8(n)
}

// play returns the position after the mover plays p, copying and playing only once per move.
func (e *Extractor) play(p board.Point) *board.Board {
	if e.afterAt != p {
		e.after = e.pos.Board
		e.after.PlayLegal(p, e.me)
		e.afterAt = p
	}
	return &e.after
}

// Distance is the distance of Coulom 2007, Table 1, between two points: d = dx + dy + max(dx, dy).
// Neighbours are at distance 2, diagonal neighbours at 3, and the circles of d <= 10 are the nested
// shape patterns of the same paper.
func Distance(p, q board.Point) int {
	px, py := p.XY()
	qx, qy := q.XY()
	dx, dy := abs(px-qx), abs(py-qy)
	return dx + dy + max(dx, dy)
}

// distanceLevel is the PrevDistance / PrevPrevDistance level of a move at p for an earlier move at q.
// The only distance below 2 is 0, a move on the point where the mover's own previous stone was just
// captured; it joins the nearest level.
func distanceLevel(p, q board.Point) uint8 {
	return uint8(min(max(Distance(p, q), MinDistance), MaxDistance))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// neighbours returns the four orthogonal neighbours of p (some may be off the board).
// addUnique appends h to the first n entries of set unless already there, and returns the new count.
func addUnique(set *[4]board.Point, n int, h board.Point) int {
	if slices.Contains(set[:n], h) {
		return n
	}
	set[n] = h
	return n + 1
}
