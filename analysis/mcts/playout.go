package mcts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Playout policies.
const (
	// PolicyLight plays uniformly among legal moves that fill no own eye, except that it captures a
	// chain in atari next to the last move, or saves an own chain the last move put in atari (by
	// capturing next to it, or by extending when that gives it two liberties), whenever it can.
	PolicyLight = "light"
	// PolicyPattern draws moves in proportion to a 3x3-pattern Bradley-Terry model (Coulom 2007 §4.1).
	PolicyPattern = "pattern"
)

// Any other policy name is a predictor's (predict.Names, without its Monte Carlo owner feature): the
// playout draws each move from the predictor's distribution, own eyes left out, as Graf & Platzner's
// CFG playouts do with "cfg-small" (§IV-A, Table I). A predictor predicts the whole board at every move,
// so such playouts are some ten times slower than the pattern policy's.

// logMax bounds the move log: the longest playout (3 moves per point) plus a deep tree path.
const logMax = 3*board.MaxPoints + 256

// Playout plays a game from a position to its end with a playout policy and scores it. It keeps the
// pattern policy's move weights up to date move by move: a move changes the weights only of the points
// around it, around the stones it captures, and at the liberties of chains whose liberty count it
// brings to two or fewer (or from there), so nothing is recomputed over the whole board. One Playout
// per goroutine; playing allocates nothing.
type Playout struct {
	pos  game.Position
	m    *PatternModel     // nil for the light and predictor policies
	pred predict.Predictor // the predictor policy's; nil for the others
	dist predict.Distribution

	// Pattern policy: each point's weight for Black (0) and White (1) with the features that do not
	// depend on the last move (shape, self-atari); 0 where the move is not allowed. row sums them by
	// board row, so a draw walks at most two rows' worth of points.
	w   [2][board.NumCells]float32
	row [2][board.MaxSize]float64

	// Mercy is the mercy rule's capture lead as a fraction of the board's points (0: no mercy rule):
	// Run ends a playout once one side has captured that many more stones than the other since Reset,
	// as Fuego does; such a lead all but decides the count (docs/notes/search-runs). A lead that komi
	// outweighs (Black's lead, komi larger still) decides nothing, and the playout goes on. Set it
	// before Reset.
	Mercy     float64
	mercyLead int // the capture lead that ends a playout, from Mercy at Reset; 0: never
	captures0 int // Black's captures minus White's at Reset
	ended     int // the capture lead when the mercy rule ended the playout, else 0

	// The moves since Reset or CopyFrom (tree moves and playout moves), for AMAF.
	logP [logMax]board.Point
	logC [logMax]board.Color
	nlog int

	// Scratch of one update or draw; never copied.
	gen    uint32
	mark   [board.NumCells]uint32 // == gen: point already dirty
	hmark  [board.NumCells]uint32 // == gen: chain head already refreshed
	smark  [board.NumCells]uint32 // == gen: point has a context weight in this draw
	dirty  [board.MaxPoints]board.Point
	nd     int
	capt   [board.MaxPoints]board.Point
	libBuf [board.MaxPoints]board.Point
	ctx    ctxMoves
	spW    [contextMax + 1]float64 // special points of a draw: weight without and with context
	spNew  [contextMax + 1]float64
	spP    [contextMax + 1]board.Point
	rowAdj [board.MaxSize]float64
}

// NewPlayout returns a playout for the named policy: PolicyLight, PolicyPattern with the default model,
// or a predictor's name.
func NewPlayout(policy string) (*Playout, error) {
	switch policy {
	case PolicyLight, "":
		return &Playout{}, nil
	case PolicyPattern:
		m, err := DefaultPatternModel()
		if err != nil {
			return nil, err
		}
		return NewPatternPlayout(m), nil
	}
	if !slices.Contains(predict.Names(), policy) {
		return nil, fmt.Errorf("unknown playout policy %q (light, pattern, or a predictor: %s)", policy, strings.Join(predict.Names(), ", "))
	}
	p, err := NewPrior(policy)
	if err != nil {
		return nil, fmt.Errorf("playout policy %s: %w", policy, err)
	}
	return &Playout{pred: p}, nil
}

// NewPatternPlayout returns a playout whose policy is the pattern model m.
func NewPatternPlayout(m *PatternModel) *Playout { return &Playout{m: m.tables()} }

// Position returns the current position. It is the playout's own: do not modify it.
func (pl *Playout) Position() *game.Position { return &pl.pos }

// Board returns the current board. Do not modify it.
func (pl *Playout) Board() *board.Board { return &pl.pos.Board }

// Reset starts from pos (which is copied) and computes every weight of the pattern policy.
func (pl *Playout) Reset(pos *game.Position) {
	pl.pos = *pos
	pl.nlog = 0
	pl.ended = 0
	pl.mercyLead = int(pl.Mercy * float64(len(pos.Board.Points())))
	pl.captures0 = pos.Board.Captures(board.Black) - pos.Board.Captures(board.White)
	if pl.m == nil {
		return
	}
	pl.begin()
	clear(pl.w[0][:])
	clear(pl.w[1][:])
	for _, p := range pl.pos.Board.Points() {
		pl.mark[p] = pl.gen
		pl.dirty[pl.nd] = p
		pl.nd++
	}
	pl.flush()
	// Exact sums, free of the rounding of the differences.
	size := pl.pos.Board.Size()
	for y := range size {
		start := board.At(0, y)
		var sb, sw float64
		for i := start; i < start+board.Point(size); i++ {
			sb += float64(pl.w[0][i])
			sw += float64(pl.w[1][i])
		}
		pl.row[0][y], pl.row[1][y] = sb, sw
	}
}

// CopyFrom makes pl continue from src's position and weights (src was Reset or played to it), with an
// empty move log and src's mercy rule. pl and src must use the same policy.
func (pl *Playout) CopyFrom(src *Playout) {
	pl.pos = src.pos
	pl.nlog = 0
	pl.ended = src.ended
	pl.mercyLead, pl.captures0 = src.mercyLead, src.captures0
	if pl.m != nil {
		pl.w = src.w
		pl.row = src.row
	}
}

// Moves returns the moves played since Reset or CopyFrom, with their colours. The slices alias pl.
func (pl *Playout) Moves() ([]board.Point, []board.Color) {
	return pl.logP[:pl.nlog], pl.logC[:pl.nlog]
}

// Play plays p (a legal move, or Pass) for the side to move.
func (pl *Playout) Play(p board.Point) {
	c := pl.pos.ToPlay
	if pl.nlog < logMax {
		pl.logP[pl.nlog], pl.logC[pl.nlog] = p, c
		pl.nlog++
	}
	if pl.m == nil || p == board.Pass {
		pl.pos.Board.PlayLegal(p, c)
	} else {
		pl.playPattern(p, c)
	}
	pl.pos.Prev, pl.pos.Last = pl.pos.Last, p
	pl.pos.ToPlay = c.Opponent()
	pl.pos.MoveNumber++
}

// Run plays the policy's moves until two passes in a row (a pass just before Run counts), maxMoves
// moves (3 per point when maxMoves <= 0) or the mercy rule, and returns the number of moves played.
// The mercy rule ends the game with two passes, so that the move log reads as a finished game.
func (pl *Playout) Run(rng *rand.PCG, maxMoves int) int {
	if maxMoves <= 0 {
		maxMoves = 3 * len(pl.pos.Board.Points())
	}
	passes := 0
	if pl.pos.Last == board.Pass {
		passes = 1
	}
	n := 0
	b := &pl.pos.Board
	for n < maxMoves && passes < 2 {
		p := pl.Choose(rng)
		if p == board.Pass {
			passes++
		} else {
			passes = 0
		}
		pl.Play(p)
		n++
		if pl.mercyLead > 0 {
			lead := b.Captures(board.Black) - b.Captures(board.White) - pl.captures0
			if (lead >= pl.mercyLead || -lead >= pl.mercyLead) && pl.decides(lead) {
				pl.ended = lead
				for ; passes < 2; passes++ {
					pl.Play(board.Pass)
					n++
				}
			}
		}
	}
	return n
}

// decides reports whether a capture lead for Black (negative: for White) still favours the same side
// after komi, so that the mercy rule may score it.
func (pl *Playout) decides(lead int) bool {
	net := float64(lead) - pl.pos.Komi
	return net != 0 && (net > 0) == (lead > 0)
}

// Score returns the area score of the board (Chinese counting, every stone alive: at the end of a
// playout, where no one fills an own eye, the dead are captured) minus komi: positive when Black wins.
// A playout the mercy rule ended scores its capture lead, minus komi, instead.
func (pl *Playout) Score() float64 {
	if pl.ended != 0 {
		return float64(pl.ended) - pl.pos.Komi
	}
	black, white := pl.pos.Board.AreaScore(nil)
	return float64(black-white) - pl.pos.Komi
}

// Choose returns the policy's move for the side to move: Pass when it has none.
func (pl *Playout) Choose(rng *rand.PCG) board.Point {
	switch {
	case pl.pred != nil:
		return pl.predictorMove(rng)
	case pl.m == nil:
		return pl.lightMove(rng)
	}
	return pl.patternMove(rng)
}

// predictorMove draws a move from the predictor's distribution over the legal moves that fill no own eye.
func (pl *Playout) predictorMove(rng *rand.PCG) board.Point {
	b := &pl.pos.Board
	c := pl.pos.ToPlay
	pl.pred.Predict(&pl.pos, &pl.dist)
	total := 0.0
	for _, p := range b.Points() {
		if w := pl.dist.P[p]; w > 0 && !b.IsEye(p, c) {
			total += w
		} else {
			pl.dist.P[p] = 0
		}
	}
	if !(total > 0) {
		return board.Pass
	}
	u := float64(rng.Uint64()>>11) * (1.0 / (1 << 53)) * total
	last := board.Pass
	for _, p := range b.Points() {
		if w := pl.dist.P[p]; w > 0 {
			if last = p; u < w {
				return p
			}
			u -= w
		}
	}
	return last
}

// lightMove: capture a chain in atari next to the last move, save an own chain it put in atari, else
// uniform (board.RandomMove). A heuristic move is drawn uniformly among those that apply.
func (pl *Playout) lightMove(rng *rand.PCG) board.Point {
	b := &pl.pos.Board
	c := pl.pos.ToPlay
	opp := c.Opponent()
	last := pl.pos.Last
	if last == board.Pass || !b.OnBoard(last) || b.At(last) != opp {
		return b.RandomMove(rng, c)
	}
	var cand [16]board.Point
	n := 0
	add := func(p board.Point) {
		if p != board.NoPoint && n < len(cand) && b.Legal(p, c) && !b.IsEye(p, c) {
			cand[n] = p
			n++
		}
	}
	// Capture: the chain just played or an opponent chain around it, in atari.
	add(b.AtariLiberty(last))
	for _, d := range ring3 {
		if q := last + d; b.At(q) == opp {
			add(b.AtariLiberty(q))
		}
	}
	// Save: own chains next to the last stone that it put in atari.
	for _, q := range last.Neighbours() {
		if b.At(q) != c || !b.InAtari(q) {
			continue
		}
		h := b.ChainHead(q)
		s := h
		for {
			for _, r := range s.Neighbours() {
				if b.At(r) == opp {
					add(b.AtariLiberty(r))
				}
			}
			if s = b.NextStone(s); s == h {
				break
			}
		}
		if l := b.AtariLiberty(q); l != board.NoPoint {
			if libs, _ := libertiesAfter(b, l, c, 2); libs >= 2 {
				add(l)
			}
		}
	}
	if n > 0 {
		return cand[(rng.Uint64()>>32)*uint64(n)>>32]
	}
	return b.RandomMove(rng, c)
}

// begin starts a new update: a fresh generation for the marks.
func (pl *Playout) begin() {
	pl.gen++
	if pl.gen == 0 {
		clear(pl.mark[:])
		clear(pl.hmark[:])
		clear(pl.smark[:])
		pl.gen = 1
	}
	pl.nd = 0
}

// touch marks an on-board point whose weights must be recomputed.
func (pl *Playout) touch(q board.Point) {
	if pl.mark[q] == pl.gen || pl.pos.Board.At(q) == board.Edge {
		return
	}
	pl.mark[q] = pl.gen
	pl.dirty[pl.nd] = q
	pl.nd++
}

// touchAround marks q and its eight neighbours: their 3x3 codes contain q.
func (pl *Playout) touchAround(q board.Point) {
	pl.touch(q)
	for _, d := range ring3 {
		pl.touch(q + d)
	}
}

// touchLiberties marks the liberties of the chain at q (once per chain and update): their atari bits and
// self-atari status depend on its liberty count.
func (pl *Playout) touchLiberties(q board.Point) {
	b := &pl.pos.Board
	h := b.ChainHead(q)
	if pl.hmark[h] == pl.gen {
		return
	}
	pl.hmark[h] = pl.gen
	for _, l := range b.LibertyPoints(h, pl.libBuf[:0]) {
		pl.touch(l)
	}
}

// playPattern plays c at p and updates the weights it changes. A weight depends on the 3x3 colours
// around its point, on which orthogonal chains are in atari, and (self-atari) on the liberties of
// chains with at most two; so the points to redo are the 3x3 blocks around p and the captured stones,
// and the liberties of each chain whose liberty count is at most two before or after the move.
func (pl *Playout) playPattern(p board.Point, c board.Color) {
	b := &pl.pos.Board
	opp := c.Opponent()
	var heads [4]board.Point
	nh, nc := 0, 0
	// The other liberties of the mover's chains next to p that have two: they change status if the
	// chain p joins them into has three or more (with two or fewer, all its liberties are redone).
	var ownLibs [4]board.Point
	no := 0
	for _, q := range p.Neighbours() {
		switch b.At(q) {
		case opp:
			if !b.InAtari(q) {
				continue
			}
			h := b.ChainHead(q)
			dup := false
			for _, o := range heads[:nh] {
				dup = dup || o == h
			}
			if dup {
				continue
			}
			heads[nh] = h
			nh++
			for s := h; ; {
				pl.capt[nc] = s
				nc++
				if s = b.NextStone(s); s == h {
					break
				}
			}
		case c:
			if b.Liberties(q, 3) == 2 {
				ownLibs[no] = b.OtherLiberty(q, p)
				no++
			}
		}
	}
	// The mover's chains next to the captured stones gain liberties; the weights at their old liberties
	// change only if they had two or fewer. Those are noted now, before the capture.
	var short [8]board.Point
	ns := 0
	for _, s := range pl.capt[:nc] {
		for _, q := range s.Neighbours() {
			if b.At(q) == c && b.Liberties(q, 3) <= 2 {
				if ns == len(short) {
					break
				}
				short[ns] = q
				ns++
			}
		}
	}
	b.PlayLegal(p, c)
	pl.begin()
	pl.touchAround(p)
	for _, s := range pl.capt[:nc] {
		pl.touchAround(s)
	}
	for _, q := range short[:ns] {
		pl.touchLiberties(q)
	}
	if ns == len(short) { // too many to note: redo them all
		for _, s := range pl.capt[:nc] {
			for _, q := range s.Neighbours() {
				if b.At(q) == c {
					pl.touchLiberties(q)
				}
			}
		}
	}
	if b.Liberties(p, 3) <= 2 {
		pl.touchLiberties(p)
	} else {
		for _, l := range ownLibs[:no] {
			pl.touch(l)
		}
	}
	for _, q := range p.Neighbours() {
		if b.At(q) == opp && b.Liberties(q, 3) <= 2 {
			pl.touchLiberties(q)
		}
	}
	pl.flush()
}

// flush recomputes the weights of the dirty points and updates the row sums by the differences. The
// weights are float32 added into float64 sums, so the differences cancel exactly unless the weights
// span more than 2^29; Reset recomputes the sums from scratch at the start of every playout anyway.
func (pl *Playout) flush() {
	b := &pl.pos.Board
	m := pl.m
	for _, q := range pl.dirty[:pl.nd] {
		var wb, ww float32
		if b.At(q) == board.Empty {
			code := code3Black(b, q)
			wb, ww = m.code[code], m.code[code.Swap()]
			if wb < 0 { // the rare entries that need the self-atari test, out of line
				wb = pl.selfAtariWeight(q, wb, board.Black)
			}
			if ww < 0 {
				ww = pl.selfAtariWeight(q, ww, board.White)
			}
		}
		y := rowOf(q)
		pl.row[0][y] += float64(wb) - float64(pl.w[0][q])
		pl.row[1][y] += float64(ww) - float64(pl.w[1][q])
		pl.w[0][q], pl.w[1][q] = wb, ww
	}
}

// rowOf is the row of the on-board point p (Point.XY's y), the index of the row sums; unsigned division
// is the cheaper one on this hot path.
func rowOf(p board.Point) uint { return uint(p)/board.Stride - 1 }

// selfAtariWeight is a point's weight for c from its code's entry g (PatternModel.code) when g is
// negative: −g times the γ of the self-atari that counting liberties finds (codeSelfAtari), else −g.
// A non-negative entry is the weight itself.
func (pl *Playout) selfAtariWeight(q board.Point, g float32, c board.Color) float32 {
	if f := codeSelfAtari(&pl.pos.Board, q, c); f >= 0 {
		return -g * pl.m.feat[f]
	}
	return -g
}

// patternMove draws a move with probability proportional to its weight times the γ of its features
// that depend on the last move; a ko retake gets weight 0. The few points with such features are
// drawn first, then the rest by row sums without them.
func (pl *Playout) patternMove(rng *rand.PCG) board.Point {
	b := &pl.pos.Board
	c := pl.pos.ToPlay
	ci := colorIndex(c)
	w := &pl.w[ci]
	size := b.Size()

	pl.begin()
	findContext(b, pl.pos.Last, c, &pl.ctx)
	ns := 0
	delta := 0.0
	special := func(p board.Point, mult float64) {
		w0 := float64(w[p])
		if w0 == 0 {
			return
		}
		if pl.smark[p] == pl.gen { // already special (only the ko can meet a context point)
			for i := range ns {
				if pl.spP[i] == p {
					delta -= pl.spNew[i]
					pl.spNew[i] *= mult
					delta += pl.spNew[i]
				}
			}
			return
		}
		pl.smark[p] = pl.gen
		pl.spP[ns], pl.spW[ns], pl.spNew[ns] = p, w0, w0*mult
		delta += w0*mult - w0
		pl.rowAdj[rowOf(p)] += w0
		ns++
	}
	for i := range pl.ctx.n {
		special(pl.ctx.point[i], pl.m.contextGamma(&pl.ctx.feats[i]))
	}
	if k, forbidden := b.Ko(); k != board.NoPoint && forbidden == c {
		special(k, 0)
	}
	total := delta
	for _, r := range pl.row[ci][:size] { // the row sums in order, as draw meets them
		total += r
	}
	move := board.Pass
	if total > 1e-30 {
		u := float64(rng.Uint64()>>11) * (1.0 / (1 << 53)) * total
		move = pl.draw(u, w, ci, ns)
	}
	for i := range ns {
		pl.rowAdj[rowOf(pl.spP[i])] = 0
	}
	return move
}

// draw finds the move at cumulative weight u: the special points first, then row by row. Rounding can
// leave u past the end; the last move with a positive weight is taken then.
func (pl *Playout) draw(u float64, w *[board.NumCells]float32, ci, ns int) board.Point {
	fallback := board.Pass
	for i := range ns {
		if pl.spNew[i] > 0 {
			fallback = pl.spP[i]
			if u < pl.spNew[i] {
				return pl.spP[i]
			}
			u -= pl.spNew[i]
		}
	}
	size := pl.pos.Board.Size()
	for y := range size {
		r := pl.row[ci][y] - pl.rowAdj[y]
		if u >= r {
			u -= r
			continue
		}
		start := board.At(0, y)
		for q := start; q < start+board.Point(size); q++ {
			if x := float64(w[q]); x > 0 && pl.smark[q] != pl.gen {
				fallback = q
				if u < x {
					return q
				}
				u -= x
			}
		}
	}
	return fallback
}

// moveWeights fills out with the policy's weight of every move of the side to move (context and ko
// included), and returns their sum: the policy's distribution, unnormalised, for evaluation.
func (pl *Playout) moveWeights(out *[board.NumCells]float64) float64 {
	b := &pl.pos.Board
	c := pl.pos.ToPlay
	w := &pl.w[colorIndex(c)]
	clear(out[:])
	sum := 0.0
	for _, p := range b.Points() {
		out[p] = float64(w[p])
	}
	findContext(b, pl.pos.Last, c, &pl.ctx)
	for i := range pl.ctx.n {
		out[pl.ctx.point[i]] *= pl.m.contextGamma(&pl.ctx.feats[i])
	}
	if k, forbidden := b.Ko(); k != board.NoPoint && forbidden == c {
		out[k] = 0
	}
	for _, p := range b.Points() {
		sum += out[p]
	}
	return sum
}
