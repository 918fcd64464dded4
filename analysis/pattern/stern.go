package pattern

import (
	"aji/analysis/board"
)

// Stern's nested templates (Stern 2008 §3.1.1, Fig. 3.2) as Aji defines them. Template T_i is numbered
// i = 1..NumStern; SternKeys[i-1] is its key:
//
//	T1        the move's point alone: its key holds only the local features and T1's constant
//	T2        Coulom distance ≤ 2: the four orthogonal neighbours
//	T3..T12   Coulom distance ≤ i: the templates of sizes MinSize..MaxSize (their Keys, as a Tracker or
//	          KeysAt computes them)
//	T13       Coulom distance ≤ 13: the 104 points of T12 and the 16 at distance 13, (±6,±1), (±5,±3)
//	          and their transposes
//	T14       the whole board centred on the move (Stern's 39×39 square holds every stone of a 19x19
//	          board for every move): the stones relative to the player to move, the move's point and
//	          the board size, up to the 8 symmetries of the board and colour reversal
//
// Every key is a Zobrist key made invariant by a minimum over the 8 symmetries (Stern 2008 §3.1.3),
// XORed with a random constant of its template (so that the keys of two templates never coincide
// systematically: T2's neighbours and T3's are the same Zobrist numbers) and with the key of the
// move's local features, k_f (SternFeatures). Colour reversal comes from the states being relative to
// the player to move, as for the Coulom templates.
//
// T13 adds to T12's 8 symmetry variants, which the Tracker keeps, the variants of the 16 extra points,
// with Zobrist numbers of their own; T14 keeps, for each of the 8 symmetries s of the board, a Zobrist
// hash H_s of the board mapped by s (one per perspective), and its key at p is min_s(H_s ⊕ Z_move[s(p)])
// ⊕ Z_size[board size]: two (position, move) pairs get one key exactly when a symmetry of the board
// maps one onto the other (up to hash collisions). T14 keys of different board sizes never meet, so
// its patterns are per board size.
//
// The random numbers of the Stern templates (the template constants, the feature numbers, T13's extra
// points, T14's board numbers) continue the sequence of the Coulom templates' Zobrist numbers, so the
// Coulom keys are unchanged; SternVersion names them.
const (
	// NumStern is the number of Stern templates, T1..T14.
	NumStern = 14
	// SternVersion names the Stern key function (templates, random numbers and local features); a
	// Stern dictionary records it and is refused by a program computing another.
	SternVersion = 1
)

// SternKeys holds the keys of Stern's templates around one point: index i is the key of template
// T_{i+1}; 0 means not computed.
type SternKeys [NumStern]uint64

// Of returns the key of template T_template (1..NumStern).
func (k SternKeys) Of(template int) uint64 { return k[template-1] }

// The local features of Stern 2008 §3.1.2, 8 bits of a byte (SternFeatures):
//
//	bits 0-1  SternNewLibs  liberties of the mover's chain after the move, 1, 2, 3, >3 as 0..3
//	bits 2-3  SternOppLibs  liberties after the move of the closest opponent chain, 1, 2, 3, >3 as 0..3:
//	                        the least among the opponent chains adjacent to the move that it does not
//	                        capture; >3 when there is none
//	bit  4    SternKo       a simple ko is active on the board (Board.Ko is set)
//	bit  5    SternEscapes  the move brings a chain of the mover out of atari: a chain in atari before
//	                        the move has at least 2 liberties after it (by connecting to it or extending
//	                        it, or by capturing an opponent chain next to it)
//	bits 6-7  SternEdge     distance to the nearest edge, 0-based: ≤2 (lines 1-3), 3, 4, ≥5 as 0..3
const (
	SternNewLibs uint8 = 3 << 0
	SternOppLibs uint8 = 3 << 2
	SternKo      uint8 = 1 << 4
	SternEscapes uint8 = 1 << 5
	SternEdge    uint8 = 3 << 6
)

// SternFeatures returns the local features of c playing at p (Stern 2008 §3.1.2; the bits are described
// at SternNewLibs). It reads the chains of b and allocates nothing. p should be an empty point where c
// may play: at an occupied point only the ko and edge bits are set, and a suicide counts as 1 liberty.
func SternFeatures(b *board.Board, p board.Point, c board.Color) uint8 {
	n := b.Size()
	x, y := p.XY()
	var f uint8
	switch d := min(x, y, n-1-x, n-1-y); {
	case d >= 5:
		f = 3 << 6
	case d == 4:
		f = 2 << 6
	case d == 3:
		f = 1 << 6
	}
	if k, _ := b.Ko(); k != board.NoPoint {
		f |= SternKo
	}
	if b.At(p) != board.Empty || (c != board.Black && c != board.White) {
		return f
	}
	opp := c.Opponent()

	// The chains around p, each once: the mover's (joined by p) and the opponent's in atari (captured
	// by p); the others lose p as a liberty.
	var own, caps, libs [4]board.Point
	nOwn, nCaps, nLibs := 0, 0, 0
	oppLibs := 4 // ">3"
	ownAtari := false
	for _, q := range p.Neighbours() {
		switch b.At(q) {
		case board.Empty:
			libs[nLibs] = q
			nLibs++
		case c:
			if h := b.ChainHead(q); !has(own[:nOwn], h) {
				own[nOwn] = h
				nOwn++
				ownAtari = ownAtari || b.InAtari(h)
			}
		case opp:
			h := b.ChainHead(q)
			if b.InAtari(h) {
				// Captured: the stone next to p becomes a liberty of the new chain.
				libs[nLibs] = q
				nLibs++
				if !has(caps[:nCaps], h) {
					caps[nCaps] = h
					nCaps++
				}
			} else {
				// A capture gives the opponent's other chains nothing (the captured stones touch
				// none of them), so they have their liberties but p.
				oppLibs = min(oppLibs, b.Liberties(h, 5)-1)
			}
		}
	}

	// The new chain's liberties, up to 4: p's empty or captured neighbours, and those of the joined
	// chains but p.
walk:
	for _, h := range own[:nOwn] {
		if nLibs >= 4 {
			break
		}
		for s := h; ; {
			for _, r := range s.Neighbours() {
				switch b.At(r) {
				case board.Empty:
					if r == p {
						continue
					}
				case opp:
					if nCaps == 0 || !has(caps[:nCaps], b.ChainHead(r)) {
						continue
					}
				default:
					continue
				}
				if !has(libs[:nLibs], r) {
					libs[nLibs] = r
					if nLibs++; nLibs == 4 {
						break walk
					}
				}
			}
			if s = b.NextStone(s); s == h {
				break
			}
		}
	}

	// Escaping atari: a joined chain in atari now has the new chain's liberties; a chain in atari
	// elsewhere gets the stones of a captured chain it touches (and keeps its own liberty).
	escapes := ownAtari && nLibs >= 2
	for _, h := range caps[:nCaps] {
		if escapes {
			break
		}
		for s := h; ; {
			for _, r := range s.Neighbours() {
				if b.At(r) == c && b.InAtari(r) && !has(own[:nOwn], b.ChainHead(r)) {
					escapes = true
				}
			}
			if s = b.NextStone(s); s == h {
				break
			}
		}
	}

	f |= uint8(max(nLibs, 1) - 1)
	f |= uint8(oppLibs-1) << 2
	if escapes {
		f |= SternEscapes
	}
	return f
}

func has(s []board.Point, p board.Point) bool {
	for _, q := range s {
		if q == p {
			return true
		}
	}
	return false
}

// T13's points beyond T12: the 16 offsets at Coulom distance 13, row-major.
const numExtra = 16

var (
	extra        [numExtra]offset
	extraGridOff [numExtra][numSyms]int16 // grid displacement of extra offset j under symmetry t
	extraUpdates [numExtra]update         // as updates, for the extra offsets (s0 unused)
)

// The random numbers of the Stern templates, drawn after the Coulom templates' (initZobrist).
var (
	sternConst [NumStern]uint64          // per template
	featBit    [8]uint64                 // per feature bit: Stern's l(i)
	featKey    [256]uint64               // k_f of every feature byte: the XOR of featBit over its bits
	zextra     [4][numExtra]uint64       // T13's extra offsets, by State
	zextraRel  [2][numExtra][4]uint64    // the same by perspective and colour, as zrel
	zfull      [3][board.NumCells]uint64 // T14: [0] the move's point, [Own] and [Opp] stones, by point
	zsize      [board.MaxSize + 1]uint64 // T14: the board size
	// t2Key[persp][code] is the invariant key (without constant) of T2 for the colours of the four
	// orthogonal neighbours, code = Σ colour(offsets[i]) << 2i.
	t2Key [2][256]uint64
)

// initStern runs after initZobrist, initGrid and initUpdates.
func initStern() {
	n := 0
	for dy := -reach; dy <= reach; dy++ {
		for dx := -reach; dx <= reach; dx++ {
			if Distance(dx, dy) == MaxSize+1 {
				if n == numExtra {
					panic("pattern: more than 16 points at distance 13")
				}
				extra[n] = offset{int8(dx), int8(dy)}
				n++
			}
		}
	}
	if n != numExtra {
		panic("pattern: fewer than 16 points at distance 13")
	}
	for j, e := range extra {
		for t := range numSyms {
			dx, dy := transform(t, int(e.dx), int(e.dy))
			extraGridOff[j][t] = int16(dy*gridStride + dx)
		}
	}

	// Continue the sequence of initZobrist: skip its 4*numOffsets numbers.
	state := uint64(0x416A695061747431)
	for range 4 * numOffsets {
		state += 0x9E3779B97F4A7C15
	}
	next := func() uint64 {
		state += 0x9E3779B97F4A7C15
		return board.Mix64(state)
	}
	for i := range sternConst {
		sternConst[i] = next()
	}
	for i := range featBit {
		featBit[i] = next()
	}
	for s := range zextra {
		for j := range zextra[s] {
			zextra[s][j] = next()
		}
	}
	for k := range zfull {
		for p := range zfull[k] {
			zfull[k][p] = next()
		}
	}
	for n := range zsize {
		zsize[n] = next()
	}

	for f := range featKey {
		for i := range featBit {
			if f>>i&1 != 0 {
				featKey[f] ^= featBit[i]
			}
		}
	}
	for persp := range zextraRel {
		for j := range numExtra {
			for c := range 4 {
				zextraRel[persp][j][c] = zextra[relative[persp][c]][j]
			}
		}
	}
	for j, e := range extra {
		u := &extraUpdates[j]
		u.dx, u.dy = e.dx, e.dy
		for t := range numSyms {
			dx, dy := transform(inverse(t), int(e.dx), int(e.dy))
			i := extraIndex(dx, dy)
			u.own[t] = zextra[Own][i] ^ zextra[Empty][i]
			u.opp[t] = zextra[Opp][i] ^ zextra[Empty][i]
		}
	}
	// T2: variant t reads, for template point i, the neighbour transform_t(offsets[i]) = offsets[perm[t][i]].
	var perm [numSyms][4]int
	for t := range numSyms {
		for i := range 4 {
			dx, dy := transform(t, int(offsets[i].dx), int(offsets[i].dy))
			perm[t][i] = int(offsetIndex[dx+reach][dy+reach])
		}
	}
	for persp := range t2Key {
		for code := range 256 {
			var v [numSyms]uint64
			for t := range numSyms {
				for i := range 4 {
					v[t] ^= zrel[persp][i][code>>(2*perm[t][i])&3]
				}
			}
			t2Key[persp][code] = minKey(&v)
		}
	}
}

func extraIndex(dx, dy int) int {
	for j, e := range extra {
		if int(e.dx) == dx && int(e.dy) == dy {
			return j
		}
	}
	panic("pattern: T13 offsets are not symmetric")
}

// finishStern XORs every template's constant and the features' key into k, whose T1 entry is 0.
func finishStern(k *SternKeys, f uint8) {
	kf := featKey[f]
	for i := range k {
		k[i] ^= sternConst[i] ^ kf
	}
}

// sternKeys computes from scratch, in one pass over the template points, the invariant keys of T2..T13
// at p for one player to move, without constants or features (k[0] and k[13] are left alone).
func (g *grid) sternKeys(p board.Point, persp int, k *SternKeys) {
	base := int(gridIndex[p])
	z := &zrel[persp]
	var v [numSyms]uint64
	i := 0
	for s := range NumSizes + 1 { // s = 0 is T2, the first four offsets; s = 1..NumSizes T3..T12
		end := 4
		if s > 0 {
			end = sizeEnd[s-1]
		}
		g.xorVariants(&v, base, gridOff[i:end], z[i:end])
		i = end
		k[1+s] = minKey(&v)
	}
	g.xorVariants(&v, base, extraGridOff[:], zextraRel[persp][:])
	k[12] = minKey(&v)
}

// extraVariants computes the 8 symmetry variants of the extra points of T13 at p for both players to
// move, from scratch.
func (g *grid) extraVariants(p board.Point, v *[2][numSyms]uint64) {
	base := int(gridIndex[p])
	*v = [2][numSyms]uint64{}
	for j := range numExtra {
		o, zb, zw := &extraGridOff[j], &zextraRel[0][j], &zextraRel[1][j]
		for t := range numSyms {
			c := g.c[base+int(o[t])] & 3
			v[0][t] ^= zb[c]
			v[1][t] ^= zw[c]
		}
	}
}

// t2 returns the invariant key of T2 at p (without constant or features).
func (g *grid) t2(p board.Point, persp int) uint64 {
	base := int(gridIndex[p])
	code := 0
	for i := range 4 {
		code |= int(g.c[base+int(gridOff[i][0])]&3) << (2 * i)
	}
	return t2Key[persp][code]
}

// imageXY maps (x, y) by symmetry t of a whole board of side n.
func imageXY(t, n, x, y int) (int, int) {
	// Doubled coordinates centred on the board's centre, so that even sizes need no special case.
	dx, dy := transform(t, 2*x-(n-1), 2*y-(n-1))
	return (dx + n - 1) / 2, (dy + n - 1) / 2
}

// fullKeyAt computes T14's key at p of b for one player to move from scratch (without constant or
// features): min over the symmetries s of the hash of the board mapped by s and the image of p.
func fullKeyAt(b *board.Board, p board.Point, persp int) uint64 {
	n := b.Size()
	var h [numSyms]uint64
	px, py := p.XY()
	for t := range numSyms {
		x, y := imageXY(t, n, px, py)
		h[t] = zfull[0][board.At(x, y)]
	}
	rel := &relative[persp]
	for _, q := range b.Points() {
		c := b.At(q)
		if c == board.Empty {
			continue
		}
		z := &zfull[rel[c&3]]
		qx, qy := q.XY()
		for t := range numSyms {
			x, y := imageXY(t, n, qx, qy)
			h[t] ^= z[board.At(x, y)]
		}
	}
	return minKey(&h) ^ zsize[n]
}

// fullBoard keeps T14's hashes up to date as stones come and go: h[persp][t] is the XOR of the numbers
// of the stones of the board mapped by symmetry t, relative to the player to move.
type fullBoard struct {
	size int
	sym  [board.NumCells][numSyms]board.Point // image of each point under each symmetry
	move [board.NumCells][numSyms]uint64      // zfull[0] of the images
	h    [2][numSyms]uint64
}

// reset makes f the empty board of the given size.
func (f *fullBoard) reset(size int) {
	f.h = [2][numSyms]uint64{}
	if size == f.size {
		return
	}
	f.size = size
	for _, p := range board.PointsOf(size) {
		x, y := p.XY()
		for t := range numSyms {
			q := board.At(imageXY(t, size, x, y))
			f.sym[p][t] = q
			f.move[p][t] = zfull[0][q]
		}
	}
}

// set records that q changed from old to new.
func (f *fullBoard) set(q board.Point, old, new board.Color) {
	var black, white uint64
	if (old == board.Black) != (new == board.Black) {
		black = ^uint64(0)
	}
	if (old == board.White) != (new == board.White) {
		white = ^uint64(0)
	}
	img := &f.sym[q]
	for t := range numSyms {
		i := img[t]
		own, opp := zfull[Own][i], zfull[Opp][i]
		f.h[0][t] ^= own&black ^ opp&white
		f.h[1][t] ^= opp&black ^ own&white
	}
}

// key returns T14's key at p (without constant or features).
func (f *fullBoard) key(p board.Point, persp int) uint64 {
	h, m := &f.h[persp], &f.move[p]
	return min(h[0]^m[0], h[1]^m[1], h[2]^m[2], h[3]^m[3], h[4]^m[4], h[5]^m[5], h[6]^m[6], h[7]^m[7]) ^ zsize[f.size]
}

// SternKeysAt returns the keys of Stern's templates T1..T14 at the on-board point p of b for the player
// toPlay, features included, from scratch. For many points of one position use a SternMatcher.
func SternKeysAt(b *board.Board, p board.Point, toPlay board.Color) SternKeys {
	var s Scanner
	s.Sync(b)
	persp := perspective(toPlay)
	var k SternKeys
	s.g.sternKeys(p, persp, &k)
	k[13] = fullKeyAt(b, p, persp)
	finishStern(&k, SternFeatures(b, p, toPlay))
	return k
}

// SternMatcher keeps the keys of Stern's templates (T1..T14) of every point of a board up to date as
// stones come and go: a Tracker for T3..T12 (whose size-12 variants T13 extends), the variants of T13's
// extra points, and T14's symmetric board hashes. Keys then costs a few lookups and minima, and the
// local features.
//
// The zero value is ready to use. A SternMatcher is about 1 MB; it is not safe for concurrent use.
type SternMatcher struct {
	tr   Tracker
	x13  [board.NumCells][2][numSyms]uint64 // T13's extra points: variants by point, perspective, symmetry
	full fullBoard
}

// Sync brings the keys up to date with the stones of b, as Tracker.Sync does.
func (m *SternMatcher) Sync(b *board.Board) {
	m.tr.Sync(b)
	if m.tr.rebuilt {
		m.rebuild()
		return
	}
	for _, ch := range m.tr.changes[:m.tr.changed] {
		m.apply(ch.p, ch.old, ch.new)
	}
}

func (m *SternMatcher) rebuild() {
	g := &m.tr.g
	m.full.reset(g.size)
	for _, p := range board.PointsOf(g.size) {
		g.extraVariants(p, &m.x13[p])
		if c := g.c[gridIndex[p]]; c != board.Empty {
			m.full.set(p, board.Empty, c)
		}
	}
}

// apply updates T13's extra variants of the centres whose extra points hold q, and T14's hashes, for q
// changing from old to new.
func (m *SternMatcher) apply(q board.Point, old, new board.Color) {
	m.full.set(q, old, new)
	var black, white uint64
	if (old == board.Black) != (new == board.Black) {
		black = ^uint64(0)
	}
	if (old == board.White) != (new == board.White) {
		white = ^uint64(0)
	}
	qx, qy := q.XY()
	n := uint(m.tr.g.size)
	for j := range extraUpdates {
		u := &extraUpdates[j]
		px, py := qx-int(u.dx), qy-int(u.dy)
		if uint(px) >= n || uint(py) >= n {
			continue
		}
		k := &m.x13[board.At(px, py)]
		for t := range numSyms {
			k[0][t] ^= u.own[t]&black ^ u.opp[t]&white
			k[1][t] ^= u.opp[t]&black ^ u.own[t]&white
		}
	}
}

// Keys returns the keys of Stern's templates T1..T14 at the on-board point p for the player toPlay, as
// of the last Sync, with the local features of toPlay playing p on b, which must be the board synced.
func (m *SternMatcher) Keys(b *board.Board, p board.Point, toPlay board.Color) SternKeys {
	persp := perspective(toPlay)
	var out SternKeys
	out[1] = m.tr.g.t2(p, persp)
	r := &m.tr.rings[p][persp]
	var v [numSyms]uint64
	for s := range NumSizes {
		xorInto(&v, &r[s])
		out[2+s] = minKey(&v)
	}
	x := &m.x13[p][persp]
	out[12] = min(v[0]^x[0], v[1]^x[1], v[2]^x[2], v[3]^x[3], v[4]^x[4], v[5]^x[5], v[6]^x[6], v[7]^x[7])
	out[13] = m.full.key(p, persp)
	finishStern(&out, SternFeatures(b, p, toPlay))
	return out
}

// Key returns Keys(b, p, toPlay).Of(template) computing that template's key alone: a search for one
// pattern reads one key per point (analysis/findpattern), and T14's and T13's minima cost more than
// the rest together.
func (m *SternMatcher) Key(b *board.Board, p board.Point, toPlay board.Color, template int) uint64 {
	persp := perspective(toPlay)
	var k uint64
	switch i := template - 1; {
	case i == 1:
		k = m.tr.g.t2(p, persp)
	case i >= 2 && i < 2+NumSizes:
		var v [numSyms]uint64
		m.tr.variants(&v, p, persp, i-2)
		k = minKey(&v)
	case i == 12:
		var v [numSyms]uint64
		m.tr.variants(&v, p, persp, NumSizes-1)
		x := &m.x13[p][persp]
		k = min(v[0]^x[0], v[1]^x[1], v[2]^x[2], v[3]^x[3], v[4]^x[4], v[5]^x[5], v[6]^x[6], v[7]^x[7])
	case i == 13:
		k = m.full.key(p, persp)
	}
	return k ^ sternConst[template-1] ^ featKey[SternFeatures(b, p, toPlay)]
}

// Size returns the board size of the last Sync (0 before the first).
func (m *SternMatcher) Size() int { return m.tr.g.size }
