package pattern

import (
	"aji/analysis/board"
)

// update is what one changed point does to the keys of a centre at displacement e from it (e = changed
// point − centre): variant t of every size from s0 on XORs in the Zobrist difference of the offset that
// transform t maps onto e (Stern 2008 §3.1.3: adding or removing a stone is one XOR per key).
type update struct {
	dx, dy int8
	s0     int8            // index of the smallest size holding e
	own    [numSyms]uint64 // zobrist[Own] ^ zobrist[Empty] of the offset, by variant
	opp    [numSyms]uint64 // zobrist[Opp] ^ zobrist[Empty]
}

var updates [numOffsets]update

func initUpdates() {
	for j, e := range offsets {
		u := &updates[j]
		u.dx, u.dy = e.dx, e.dy
		u.s0 = int8(max(Distance(int(e.dx), int(e.dy)), MinSize) - MinSize)
		for t := range numSyms {
			// The centre's variant t reads the cell at transform_t(offset i); that cell is the changed
			// one when offset i = transform_t⁻¹(e).
			dx, dy := transform(inverse(t), int(e.dx), int(e.dy))
			i := offsetIndex[dx+reach][dy+reach]
			u.own[t] = zobrist[Own][i] ^ zobrist[Empty][i]
			u.opp[t] = zobrist[Opp][i] ^ zobrist[Empty][i]
		}
	}
}

// rebuildAt is the number of changed points beyond which Sync recomputes every key from scratch rather
// than updating them one change at a time (a new game, a jump across the game tree). It is below the
// break-even point of the benchmarks, about 90 changes on 19x19 (an update 3.4 µs, a rebuild 310 µs),
// since on smaller boards a rebuild is cheaper still.
const rebuildAt = 64

// Tracker keeps the pattern keys of every point of a board up to date as stones come and go: for each
// point, both players to move, every size and each of the 8 symmetry variants (Stern 2008 §3.1.3), so
// that Keys is a lookup and a minimum. Sync brings it up to date with any board: after a move, a capture,
// setup stones, or a jump to an unrelated position; it diffs colours, so the caller need not say what
// changed. A stone changes the keys of the 104 points within distance MaxSize of it.
//
// The zero value is ready to use. A Tracker is about 900 KB; it is not safe for concurrent use.
type Tracker struct {
	g       grid
	keys    [board.NumCells][2][NumSizes][numSyms]uint64
	changes [board.MaxPoints]change
	// The last Sync, for SternMatcher: whether it rebuilt every key, else the changes it applied,
	// changes[:changed].
	changed int
	rebuilt bool
}

type change struct {
	p        board.Point
	old, new board.Color
}

// Sync brings the keys up to date with the stones of b. A move with no capture costs one update of
// about a hundred points' keys; many changes at once (more than rebuildAt) rebuild all keys.
func (t *Tracker) Sync(b *board.Board) {
	full := b.Size() != t.g.size
	if full {
		t.g.reset(b.Size())
	}
	n := 0
	for _, p := range b.Points() {
		gi := gridIndex[p]
		if c := b.At(p); c != t.g.c[gi] {
			t.changes[n] = change{p, t.g.c[gi], c}
			n++
			t.g.c[gi] = c
		}
	}
	t.changed, t.rebuilt = n, full || n > rebuildAt
	if t.rebuilt {
		t.rebuild()
		return
	}
	for _, ch := range t.changes[:n] {
		t.apply(ch.p, ch.old, ch.new)
	}
}

// Rebuild recomputes every key from scratch from the board last synced; Sync calls it when that is
// cheaper than updating. It is exported for benchmarks and tests.
func (t *Tracker) Rebuild() { t.rebuild() }

func (t *Tracker) rebuild() {
	for _, p := range board.PointsOf(t.g.size) {
		t.g.variants(p, &t.keys[p])
	}
}

// apply updates the keys of every centre whose templates hold q for q changing from old to new.
func (t *Tracker) apply(q board.Point, old, new board.Color) {
	// Per perspective, a change of q toggles the "own stone" term when q's Black-ness changes and the
	// "opponent stone" term when its White-ness changes (for White to move the roles swap).
	var black, white uint64
	if (old == board.Black) != (new == board.Black) {
		black = ^uint64(0)
	}
	if (old == board.White) != (new == board.White) {
		white = ^uint64(0)
	}
	qx, qy := q.XY()
	n := uint(t.g.size)
	for j := range updates {
		u := &updates[j]
		px, py := qx-int(u.dx), qy-int(u.dy)
		if uint(px) >= n || uint(py) >= n {
			continue
		}
		var vb, vw [numSyms]uint64
		for s := range numSyms {
			vb[s] = u.own[s]&black ^ u.opp[s]&white
			vw[s] = u.opp[s]&black ^ u.own[s]&white
		}
		k := &t.keys[board.At(px, py)]
		for s := int(u.s0); s < NumSizes; s++ {
			kb, kw := &k[0][s], &k[1][s]
			kb[0] ^= vb[0]
			kb[1] ^= vb[1]
			kb[2] ^= vb[2]
			kb[3] ^= vb[3]
			kb[4] ^= vb[4]
			kb[5] ^= vb[5]
			kb[6] ^= vb[6]
			kb[7] ^= vb[7]
			kw[0] ^= vw[0]
			kw[1] ^= vw[1]
			kw[2] ^= vw[2]
			kw[3] ^= vw[3]
			kw[4] ^= vw[4]
			kw[5] ^= vw[5]
			kw[6] ^= vw[6]
			kw[7] ^= vw[7]
		}
	}
}

// Keys returns the invariant keys of every template size at the on-board point p for the player toPlay,
// as of the last Sync.
func (t *Tracker) Keys(p board.Point, toPlay board.Color) Keys {
	k := &t.keys[p][perspective(toPlay)]
	var out Keys
	for s := range out {
		out[s] = minKey(&k[s])
	}
	return out
}

// Key returns Keys(p, toPlay).Of(size) without the other sizes' minima: a search for one shape reads
// one key per point (analysis/findpattern).
func (t *Tracker) Key(p board.Point, toPlay board.Color, size int) uint64 {
	return minKey(&t.keys[p][perspective(toPlay)][size-MinSize])
}

// Size returns the board size of the last Sync (0 before the first).
func (t *Tracker) Size() int { return t.g.size }
