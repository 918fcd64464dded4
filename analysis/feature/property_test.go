package feature

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/tactics"
)

// randomPosition plays up to maxMoves random moves (board.RandomMove, which never fills an eye) on an
// empty board and returns the position with the real Last and Prev.
func randomPosition(rng *rand.PCG, size, maxMoves int) *game.Position {
	pos := &game.Position{ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint}
	pos.Board.Reset(size)
	n := int(rng.Uint64() % uint64(maxMoves+1))
	for range n {
		p := pos.Board.RandomMove(rng, pos.ToPlay)
		pos.Board.PlayLegal(p, pos.ToPlay)
		pos.Prev, pos.Last = pos.Last, p
		pos.ToPlay = pos.ToPlay.Opponent()
		pos.MoveNumber++
	}
	return pos
}

// refReader is the ladder reader of reference, kept to save reallocating its stack.
var refReader tactics.LadderReader

// reference computes the features of the legal move p from their definitions, the slow way: it plays
// the move and compares chains before and after, and reads every ladder in full.
func reference(pos *game.Position, p board.Point) Levels {
	var lv Levels
	r := &refReader
	b := &pos.Board
	me, opp := pos.ToPlay, pos.ToPlay.Opponent()
	if p == board.Pass {
		lv[Pass] = PassAfterMove
		if pos.Last == board.Pass {
			lv[Pass] = PassAfterPass
		}
		return lv
	}
	size := b.Size()
	x, y := p.XY()
	if d := min(x, y, size-1-x, size-1-y) + 1; d <= 4 {
		lv[BorderDistance] = uint8(d)
	}
	if b.OnBoard(pos.Last) {
		lv[PrevDistance] = uint8(min(max(Distance(p, pos.Last), 2), 17))
	}
	if b.OnBoard(pos.Prev) {
		lv[PrevPrevDistance] = uint8(min(max(Distance(p, pos.Prev), 2), 17))
	}
	after := *b
	after.PlayLegal(p, me)

	last := board.NoPoint
	if b.OnBoard(pos.Last) && b.At(pos.Last) == opp {
		last = pos.Last
	}
	// newAtari: a stone of the mover in atari whose chain touches the last stone.
	newAtari := func(s board.Point) bool {
		if last == board.NoPoint || b.At(s) != me || !b.InAtari(s) {
			return false
		}
		for _, t := range b.Points() {
			if b.At(t) == me && b.ChainHead(t) == b.ChainHead(s) && t.Adjacent(last) {
				return true
			}
		}
		return false
	}
	sameChain := func(s, t board.Point) bool {
		return b.At(s) == b.At(t) && b.At(s) != board.Empty && b.ChainHead(s) == b.ChainHead(t)
	}

	var capture uint8
	for _, q := range b.Points() {
		if b.At(q) != opp || after.At(q) != board.Empty {
			continue
		}
		// q is a captured stone.
		l := uint8(CaptureNotLadder)
		touches := false
		for _, s := range b.Points() {
			if sameChain(s, q) {
				for _, n := range s.Neighbours() {
					touches = touches || newAtari(n)
				}
			}
		}
		switch {
		case touches:
			l = CaptureNewAtari
		case last != board.NoPoint && sameChain(last, q):
			l = CaptureRecapture
		case last != board.NoPoint && p.Adjacent(last):
			l = CapturePreventConnection
		case r.Captured(b, q, me):
			l = CaptureLadder
		}
		if capture == 0 || l < capture {
			capture = l
		}
	}
	lv[Capture] = capture

	for _, n := range p.Neighbours() {
		if newAtari(n) {
			switch after.Liberties(p, 3) {
			case 1:
				lv[Extension] = ExtensionLadder
			case 2:
				lv[Extension] = ExtensionNotLadder
				if r.Captured(&after, p, opp) {
					lv[Extension] = ExtensionLadder
				}
			default:
				lv[Extension] = ExtensionNotLadder
			}
		}
	}

	if k, _ := after.Ko(); after.Liberties(p, 2) == 1 && k == board.NoPoint {
		lv[SelfAtari] = SelfAtariLevel
	}

	ko, _ := b.Ko()
	for _, n := range p.Neighbours() {
		if b.At(n) != opp || b.Liberties(n, 3) != 2 || after.Liberties(n, 3) != 1 {
			continue
		}
		l := uint8(AtariOther)
		switch {
		case r.Captured(&after, n, me):
			l = AtariLadder
		case ko != board.NoPoint:
			l = AtariKo
		}
		if lv[Atari] == 0 || l < lv[Atari] {
			lv[Atari] = l
		}
	}
	return lv
}

// TestRandomPositions checks on random positions that exactly the legal moves get features, and that
// each move's features are those of the slow reference.
func TestRandomPositions(t *testing.T) {
	rng := rand.NewPCG(7, 11)
	var e Extractor
	var set Set
	n := 2000
	if testing.Short() {
		n = 200
	}
	var seen [NumIndices]int
	for i := range n {
		size := []int{5, 9, 13, 19}[i%4]
		pos := randomPosition(rng, size, 2*size*size)
		e.Extract(pos, &set)
		want := 0
		for _, p := range append([]board.Point{board.Pass}, pos.Board.Points()...) {
			legal := pos.Board.Legal(p, pos.ToPlay)
			if legal {
				want++
			}
			if set.Legal(p) != legal {
				t.Fatalf("position %d: Legal(%s) = %v, want %v\n%s", i, p.GTP(size), set.Legal(p), legal, pos.Board.String())
			}
			var ref Levels
			if legal {
				ref = reference(pos, p)
			}
			if set.At[p] != ref {
				t.Fatalf("position %d, %v to play, last %s, prev %s: levels of %s = %v, want %v\n%s", i, pos.ToPlay,
					pos.Last.GTP(size), pos.Prev.GTP(size), p.GTP(size), set.At[p], ref, pos.Board.String())
			}
		}
		for _, p := range set.Moves() {
			for _, j := range set.At[p].AppendIndices(nil) {
				seen[j]++
			}
		}
		if len(set.Moves()) != want {
			t.Fatalf("position %d: %d moves, want %d", i, len(set.Moves()), want)
		}
	}
	// The random games must have exercised every level, or the comparison above proves little.
	for j, k := range seen {
		if f, _ := FromIndex(j); k == 0 && f != MCOwner && !testing.Short() {
			t.Errorf("no random position has %q", IndexName(j))
		}
	}
}

// TestRealPositions compares with the reference on positions from professional games, which hold
// the ladders, kos and recaptures that random games rarely make.
func TestRealPositions(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the validation archive")
	}
	var e Extractor
	var set Set
	for i, pos := range realPositions(t) {
		e.Extract(pos, &set)
		for _, p := range append([]board.Point{board.Pass}, pos.Board.Points()...) {
			var ref Levels
			if pos.Board.Legal(p, pos.ToPlay) {
				ref = reference(pos, p)
			}
			if set.At[p] != ref {
				t.Fatalf("position %d, %v to play, last %s: levels of %s = %v, want %v\n%s", i, pos.ToPlay,
					pos.Last.GTP(19), p.GTP(19), set.At[p], ref, pos.Board.String())
			}
		}
	}
}

func TestExtractDoesNotAllocate(t *testing.T) {
	rng := rand.NewPCG(1, 2)
	pos := randomPosition(rng, 19, 200)
	var e Extractor
	var set Set
	e.Extract(pos, &set)
	e.AddOwner(pos, &set)
	if n := testing.AllocsPerRun(5, func() { e.Extract(pos, &set); e.AddOwner(pos, &set) }); n != 0 {
		t.Errorf("Extract + AddOwner allocate %v times per position", n)
	}
}
