package pattern

import (
	"aji/analysis/board"
)

// update is what one changed point does to the keys of a centre at displacement e from it (e = changed
// point − centre): variant t of ring s0 XORs in the Zobrist difference of the offset that transform t
// maps onto e (Stern 2008 §3.1.3: adding or removing a stone is one XOR per key).
type update struct {
	dx, dy int8
	s0     int8            // index of the smallest size holding e: the ring of e
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
// break-even point of the benchmarks, about 175 changes on 19x19 (an update 1.5 µs, a rebuild 260 µs),
// since on smaller boards a rebuild is cheaper still.
const rebuildAt = 64

// Tracker keeps the pattern keys of every point of a board up to date as stones come and go: for each
// point, both players to move and each of the 8 symmetry variants (Stern 2008 §3.1.3), the key of each
// ring (the offsets of one size not in the size below), so that a changed cell updates one ring per
// centre, and the key of size s is the XOR of rings up to s and a minimum. Sync brings it up to date
// with any board: after a move, a capture, setup stones, or a jump to an unrelated position; it diffs
// colours, so the caller need not say what changed. A stone changes the keys of the 104 points within
// distance MaxSize of it.
//
// The zero value is ready to use. A Tracker is about 900 KB, with a list of the centres around each
// point of its board size (150 KB on 19x19); it is not safe for concurrent use.
type Tracker struct {
	g       grid
	rings   [board.NumCells][2][NumSizes][numSyms]uint64
	changes [board.MaxPoints]change
	// The last Sync, for SternMatcher: whether it rebuilt every key, else the changes it applied,
	// changes[:changed].
	changed int
	rebuilt bool
	// near[nearStart[q]:nearStart[q+1]] are the on-board centres whose templates hold the point q, with
	// the update q's change makes to each, for a board of the last Sync's size.
	near      []nearby
	nearStart [board.NumCells + 1]int32
}

type nearby struct {
	centre board.Point
	j      uint8 // the index in updates
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
		t.findNear()
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
		t.g.rings(p, &t.rings[p])
	}
}

// apply updates the ring keys of every centre whose templates hold q for q changing from old to new.
func (t *Tracker) apply(q board.Point, old, new board.Color) {
	// Per perspective, a change of q toggles the "own stone" term when q's Black-ness changes and the
	// "opponent stone" term when its White-ness changes (for White to move the roles swap). A stone
	// placed or removed changes one of the two; a stone changing colour (setup) changes both.
	if (old == board.Black) != (new == board.Black) {
		t.toggle(q, false)
	}
	if (old == board.White) != (new == board.White) {
		t.toggle(q, true)
	}
}

// findNear lists the centres around each point of a board of the size last reset to.
func (t *Tracker) findNear() {
	n := uint(t.g.size)
	t.near = make([]nearby, 0, int(n*n)*numOffsets)
	for _, q := range board.PointsOf(t.g.size) {
		t.nearStart[q] = int32(len(t.near))
		qx, qy := q.XY()
		for j, u := range updates {
			px, py := qx-int(u.dx), qy-int(u.dy)
			if uint(px) < n && uint(py) < n {
				t.near = append(t.near, nearby{board.At(px, py), uint8(j)})
			}
		}
		t.nearStart[q+1] = int32(len(t.near))
	}
}

// toggle XORs a Black stone at q (a White one if white) in or out of the ring keys of every centre
// whose templates hold q.
func (t *Tracker) toggle(q board.Point, white bool) {
	for _, e := range t.near[t.nearStart[q]:t.nearStart[q+1]] {
		u := &updates[e.j]
		r := &t.rings[e.centre]
		kb, kw := &r[0][u.s0], &r[1][u.s0]
		own, opp := &u.own, &u.opp
		if white {
			own, opp = opp, own
		}
		xorInto(kb, own)
		xorInto(kw, opp)
	}
}

// Keys returns the invariant keys of every template size at the on-board point p for the player toPlay,
// as of the last Sync.
func (t *Tracker) Keys(p board.Point, toPlay board.Color) Keys {
	r := &t.rings[p][perspective(toPlay)]
	var v [numSyms]uint64
	var out Keys
	for s := range out {
		xorInto(&v, &r[s])
		out[s] = minKey(&v)
	}
	return out
}

// Key returns Keys(p, toPlay).Of(size) without the larger sizes' rings and the other sizes' minima: a
// search for one shape reads one key per point (analysis/findpattern).
func (t *Tracker) Key(p board.Point, toPlay board.Color, size int) uint64 {
	var v [numSyms]uint64
	t.variants(&v, p, perspective(toPlay), size-MinSize)
	return minKey(&v)
}

// Largest returns d.Largest(t.Keys(p, toPlay)), computing the keys smallest first and only up to the
// first size d lacks.
func (t *Tracker) Largest(d *Dictionary, p board.Point, toPlay board.Color) (id, size int, ok bool) {
	r := &t.rings[p][perspective(toPlay)]
	var v [numSyms]uint64
	id = -1
	for s := range NumSizes {
		xorInto(&v, &r[s])
		j, found := d.Lookup(minKey(&v))
		if !found {
			break
		}
		id, size, ok = j, MinSize+s, true
	}
	return id, size, ok
}

// variants sets v to the keys of the symmetry variants of size index s at p for perspective persp.
func (t *Tracker) variants(v *[numSyms]uint64, p board.Point, persp, s int) {
	r := &t.rings[p][persp]
	*v = r[0]
	for i := 1; i <= s; i++ {
		xorInto(v, &r[i])
	}
}

// xorInto XORs the variants r into v.
func xorInto(v, r *[numSyms]uint64) {
	v[0] ^= r[0]
	v[1] ^= r[1]
	v[2] ^= r[2]
	v[3] ^= r[3]
	v[4] ^= r[4]
	v[5] ^= r[5]
	v[6] ^= r[6]
	v[7] ^= r[7]
}

// Size returns the board size of the last Sync (0 before the first).
func (t *Tracker) Size() int { return t.g.size }
