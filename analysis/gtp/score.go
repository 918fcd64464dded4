package gtp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"

	"aji/analysis/board"
	"aji/analysis/game"
)

// DefaultScorePlayouts is the number of playouts a Scorer runs when none is set: enough that a chain's
// fate is read with a standard error under 2.5% of a playout share.
const DefaultScorePlayouts = 400

// Scorer estimates the end of a game by Monte Carlo: it plays many scoring playouts from the position and
// reads, for every chain, whether it survives them. It is the server's answer to final_score and
// final_status_list, and its ownership is the fallback territory estimate.
//
// A scoring playout plays random moves for each side in turn until both pass. The mover never fills its
// own eye (Board.IsEye) and never leaves a chain of two or more of its stones in atari without
// capturing; it first answers the last move as light Monte Carlo policies do (take the stone just
// played if it is in atari, else save a chain it put in atari); otherwise it plays uniformly among the
// moves next to a stone (of either colour, diagonals included), and elsewhere only when there are
// none. The no-self-atari rule keeps a seki standing (else one side fills a shared liberty in half the
// playouts); the tactical answers and the contact rule make the playouts settle the stones on the board
// instead of planting random invasions in open areas, which nobody plays at the end of a game and which
// random replies too often let live. Then
//   - a chain is dead when its points end up owned by the opponent in more playouts than by its own
//     colour (a dead group has no two eyes, so the owner of the surrounding area captures it),
//   - a living chain is in seki when, at the end of most playouts, it keeps a liberty next to a stone of
//     the opponent: a point that neither side could fill, since filling a point shared by two living
//     groups otherwise never self-ataris.
//
// The score is then the area (Chinese) count of the position with the dead chains removed, minus komi
// (an empty region that touches both colours counts for a side only when the playouts give it to that
// side, see Estimate). On the ends of 33 GNU Go self-play games on 9x9 (testdata/referee) it names the
// same dead and seki stones as GNU Go's final_status_list in all 33 and the same final_score in 31 (the
// two others are seki games, one point apart). Areas much larger than those of a finished game, such
// as a whole side four lines deep behind a single wall, come out unsettled.
// A Scorer is used by one goroutine at a time.
type Scorer struct {
	Playouts int    // playouts per estimate; DefaultScorePlayouts when 0
	Seed     uint64 // the playouts are seeded by Seed and the position, so an estimate is repeatable

	b      board.Board
	cand   []board.Point
	libs   []board.Point
	libBuf []board.Point // capacity MaxPoints: LibertyPoints never allocates
	owners []int8
	shared board.PointSet // chains (by head) of the current playout with a liberty next to the opponent
}

// Estimate is a Scorer's reading of a position as if the game ended there.
type Estimate struct {
	Size int
	// Ownership is the mean final owner of every point over the playouts, +1 Black, −1 White, indexed
	// by board.Point.
	Ownership [board.NumCells]float64
	Dead      []board.Point // stones captured in most playouts, in board order
	Seki      []board.Point // living stones in seki
	Alive     []board.Point // the other stones
	// Black and White are the area counts with the dead stones removed.
	Black, White int
	Komi         float64
	Playouts     int
}

// Margin is Black's area count minus White's, minus komi: positive when Black wins.
func (e *Estimate) Margin() float64 { return float64(e.Black-e.White) - e.Komi }

// Result writes the margin as GTP's final_score does: "B+3.5", "W+12" or "0" for a tie.
func (e *Estimate) Result() string { return FormatScore(e.Margin()) }

// FormatScore writes a Black-minus-White margin as a GTP and SGF result: "B+3.5", "W+12", "0".
func FormatScore(margin float64) string {
	switch {
	case margin > 0:
		return "B+" + strconv.FormatFloat(margin, 'f', -1, 64)
	case margin < 0:
		return "W+" + strconv.FormatFloat(-margin, 'f', -1, 64)
	}
	return "0"
}

// Estimate plays the scoring playouts from pos. It stops early, with ctx's error, when ctx ends.
func (s *Scorer) Estimate(ctx context.Context, pos *game.Position) (*Estimate, error) {
	n := s.Playouts
	if n <= 0 {
		n = DefaultScorePlayouts
	}
	start := &pos.Board
	size := start.Size()
	pts := start.Points()
	if cap(s.owners) < len(pts) {
		s.owners = make([]int8, len(pts))
	}
	owners := s.owners[:len(pts)]
	toPlay := pos.ToPlay
	if toPlay != board.Black && toPlay != board.White {
		toPlay = board.Black
	}

	// Chains of the position, by head, with the sums the verdict needs.
	type chainStat struct {
		own  float64 // Σ over playouts of the chain's own-colour ownership of its head point
		seki int     // playouts in which it lived with a liberty next to the opponent
	}
	stats := map[board.Point]*chainStat{}
	for _, p := range pts {
		if c := start.At(p); c == board.Black || c == board.White {
			h := start.ChainHead(p)
			if stats[h] == nil {
				stats[h] = &chainStat{}
			}
		}
	}

	est := &Estimate{Size: size, Komi: pos.Komi, Playouts: n}
	rng := rand.New(rand.NewPCG(s.Seed, start.Hash()^uint64(size)<<56^uint64(toPlay)))
	maxMoves := 3 * size * size
	for i := range n {
		if i%16 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("score estimate: %w", ctx.Err())
		}
		s.b.CopyFrom(start)
		c := toPlay
		if i%2 == 1 { // either side first, so that neither gets the last word in every playout
			c = c.Opponent()
		}
		s.playout(rng, c, maxMoves)
		s.b.AreaOwners(nil, owners)
		for j, p := range pts {
			est.Ownership[p] += float64(owners[j])
		}
		s.markShared()
		for h, st := range stats {
			col := start.At(h)
			sign := 1.0
			if col == board.White {
				sign = -1
			}
			x, y := h.XY()
			st.own += sign * float64(owners[y*size+x])
			if s.b.At(h) == col && s.shared.Has(s.b.ChainHead(h)) {
				st.seki++
			}
		}
	}
	for _, p := range pts {
		est.Ownership[p] /= float64(n)
	}

	var dead board.PointSet
	for _, p := range pts {
		c := start.At(p)
		if c != board.Black && c != board.White {
			continue
		}
		st := stats[start.ChainHead(p)]
		switch {
		case st.own < 0:
			est.Dead = append(est.Dead, p)
			dead.Add(p)
		case 2*st.seki > n:
			est.Seki = append(est.Seki, p)
		default:
			est.Alive = append(est.Alive, p)
		}
	}
	// The area count with the dead removed (AreaOwners, as AreaScore counts it); an empty point that it
	// leaves to nobody but the playouts give to one side at least 3 times in 4 (ownership ≥ 0.5: a
	// border left open at the end, not a dame or a seki liberty, which the playouts share) counts for
	// that side.
	start.AreaOwners(&dead, owners)
	for j, p := range pts {
		o := owners[j]
		if o == 0 && start.At(p) == board.Empty {
			switch {
			case est.Ownership[p] >= 0.5:
				o = 1
			case est.Ownership[p] <= -0.5:
				o = -1
			}
		}
		switch o {
		case 1:
			est.Black++
		case -1:
			est.White++
		}
	}
	return est, nil
}

// playout plays a scoring playout on s.b, c first, until both pass or maxMoves moves.
func (s *Scorer) playout(rng *rand.Rand, c board.Color, maxMoves int) {
	passes := 0
	last := board.NoPoint
	for range maxMoves {
		if passes == 2 {
			return
		}
		p := s.tactical(rng, c, last)
		if p == board.NoPoint {
			p = s.pick(rng, c)
		}
		if p == board.Pass {
			passes++
		} else {
			passes = 0
			s.b.PlayLegal(p, c)
		}
		last = p
		c = c.Opponent()
	}
}

// acceptable reports whether c may play p in a scoring playout.
func (s *Scorer) acceptable(p board.Point, c board.Color) bool {
	return p != board.NoPoint && !s.b.IsEye(p, c) && s.b.Legal(p, c) && !s.selfAtari(p, c)
}

// tactical answers the last move as the light playout policies of Monte Carlo programs do: capture the
// stone just played if it is in atari, else save a chain of c's next to it that it put in atari, by
// capturing a neighbour in atari or by extending. NoPoint when there is no such move.
func (s *Scorer) tactical(rng *rand.Rand, c board.Color, last board.Point) board.Point {
	b := &s.b
	if last == board.NoPoint || last == board.Pass || b.At(last) != c.Opponent() {
		return board.NoPoint
	}
	if l := b.AtariLiberty(last); s.acceptable(l, c) {
		return l
	}
	nb := last.Neighbours()
	off := rng.IntN(4)
	for k := range 4 {
		q := nb[(k+off)%4]
		if b.At(q) != c {
			continue
		}
		lib := b.AtariLiberty(q)
		if lib == board.NoPoint {
			continue
		}
		// Capture an opponent chain in atari touching the threatened chain.
		for st := q; ; {
			for _, r := range st.Neighbours() {
				if b.At(r) == c.Opponent() {
					if l := b.AtariLiberty(r); s.acceptable(l, c) {
						return l
					}
				}
			}
			if st = b.NextStone(st); st == q {
				break
			}
		}
		if s.acceptable(lib, c) {
			return lib
		}
	}
	return board.NoPoint
}

// pick draws a uniformly random acceptable move for c (see Scorer), preferring moves that touch a stone
// (orthogonally or diagonally), or Pass when there is none. Keeping new stones next to old ones means
// a playout settles the stones on the board rather than planting random invasions in open areas,
// which at the end of a game nobody would play and which random replies too often let live.
func (s *Scorer) pick(rng *rand.Rand, c board.Color) board.Point {
	cand := append(s.cand[:0], s.b.EmptyPoints()...)
	s.cand = cand
	fallback := board.Pass
	for len(cand) > 0 {
		i := rng.IntN(len(cand))
		p := cand[i]
		if s.acceptable(p, c) {
			if s.touches(p) {
				return p
			}
			if fallback == board.Pass {
				fallback = p
			}
		}
		cand[i] = cand[len(cand)-1]
		cand = cand[:len(cand)-1]
	}
	return fallback
}

// touches reports whether one of the eight points around p holds a stone.
func (s *Scorer) touches(p board.Point) bool {
	for _, d := range [8]board.Point{-board.Stride - 1, -board.Stride, -board.Stride + 1, -1, 1, board.Stride - 1, board.Stride, board.Stride + 1} {
		if c := s.b.At(p + d); c == board.Black || c == board.White {
			return true
		}
	}
	return false
}

// selfAtari reports whether c playing the legal move p leaves a chain of two or more stones with one
// liberty without capturing anything.
func (s *Scorer) selfAtari(p board.Point, c board.Color) bool {
	b := &s.b
	stones := 1
	var heads [4]board.Point
	nh := 0
	distinct := s.libs[:0]
	add := func(q board.Point) {
		if q == p {
			return
		}
		for _, l := range distinct {
			if l == q {
				return
			}
		}
		distinct = append(distinct, q)
	}
	for _, q := range p.Neighbours() {
		switch b.At(q) {
		case board.Empty:
			add(q)
		case c:
			h := b.ChainHead(q)
			seen := false
			for _, g := range heads[:nh] {
				seen = seen || g == h
			}
			if seen {
				continue
			}
			heads[nh] = h
			nh++
			stones += b.ChainSize(q)
			if len(distinct) < 2 {
				if s.libBuf == nil {
					s.libBuf = make([]board.Point, 0, board.MaxPoints)
				}
				for _, l := range b.LibertyPoints(q, s.libBuf[:0]) {
					add(l)
					if len(distinct) >= 2 {
						break
					}
				}
			}
		case c.Opponent():
			if b.AtariLiberty(q) == p {
				s.libs = distinct
				return false // a capture gains liberties
			}
		}
	}
	s.libs = distinct
	return stones >= 2 && len(distinct) < 2
}

// markShared records in s.shared the heads of the chains of s.b that touch an empty point which also
// touches a stone of the other colour.
func (s *Scorer) markShared() {
	s.shared.Clear()
	b := &s.b
	for _, p := range b.EmptyPoints() {
		var black, white [4]board.Point
		nb, nw := 0, 0
		for _, q := range p.Neighbours() {
			switch b.At(q) {
			case board.Black:
				black[nb] = q
				nb++
			case board.White:
				white[nw] = q
				nw++
			}
		}
		if nb == 0 || nw == 0 {
			continue
		}
		for _, q := range black[:nb] {
			s.shared.Add(b.ChainHead(q))
		}
		for _, q := range white[:nw] {
			s.shared.Add(b.ChainHead(q))
		}
	}
}
