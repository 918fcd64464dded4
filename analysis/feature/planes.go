// Input planes of the cnn move predictor: the 27 feature planes of "Deep Convolutional Neural Network
// for Next Move Prediction" (/work/shared/papers/dcnn-next-move-prediction.txt), §3.1, table "Rules /
// Terms — Information — Number of Planes", with the variants of its experiment notes as PlaneOptions.

package feature

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/tactics"
)

// NumPlanes is the number of input planes of the cnn predictor (the paper's 27).
const NumPlanes = 27

// The input planes, in the order of the paper's table. "Own" is the player to move, "opp" the opponent.
// Where the table is ambiguous, the comments say what the encoder does.
const (
	// PlaneOwnLibs1 to PlaneOwnLibs4: 1 on the stones of the player to move whose chain has 1, 2, 3 or
	// at least 4 liberties. A chain with none (possible only through setup stones) is on no plane, as
	// the table says ("if there is none, write 0").
	PlaneOwnLibs1 = iota
	PlaneOwnLibs2
	PlaneOwnLibs3
	PlaneOwnLibs4
	// PlaneOppLibs1 to PlaneOppLibs4: the same for the opponent's stones, also 1 (the paper's f8 found
	// −1 on the liberty planes worse).
	PlaneOppLibs1
	PlaneOppLibs2
	PlaneOppLibs3
	PlaneOppLibs4
	// PlaneRank1 to PlaneRank9: the dan rank r of the player to move fills plane PlaneRank1+r−1 with 1,
	// the table's "write 1 for the current rank plane" (not the −1 fill of experiment f9). Professional
	// and amateur dan ranks share the plane of their number ("9p" and "9d" are both rank 9: the paper's
	// loader only matches "%dd", and GoGoD records write pros either way). Kyu ranks, an empty,
	// unparseable or out-of-range rank, and a position without game information leave all nine planes
	// 0: the paper trained on dan games only and has no plane for them.
	PlaneRank1
	PlaneRank2
	PlaneRank3
	PlaneRank4
	PlaneRank5
	PlaneRank6
	PlaneRank7
	PlaneRank8
	PlaneRank9
	// PlaneHistoryOwn, PlaneHistoryOpp: exp(−0.1·t) on each stone of the player to move / the opponent,
	// t the number of moves (passes included) played since it: the last move has t = 0. A stone's age is
	// that of the latest move at its point (a recaptured point counts from the new stone), read from
	// Position.Moves; a position with fewer Moves than MoveNumber knows only its Last (t = 0) and Prev
	// (t = 1) stones. Setup stones, and stones whose move is not known, get 0. With
	// PlaneOptions.HistoryLastFive the value is 1 for t < 5 instead (the paper's first version).
	PlaneHistoryOwn
	PlaneHistoryOpp
	// PlanePositionMask: exp(−0.5·l) on every point, l the Euclidean distance to the centre of the
	// board ((n−1)/2, (n−1)/2). The table says it "records all stones' position" but also that "each
	// value on the board" is in (0, 1): it is a constant map of the board, like Facebook's, so it fills
	// empty points too.
	PlanePositionMask
	// PlaneOwnStones: 1 on the stones of the player to move.
	PlaneOwnStones
	// PlaneOppStones: −1 on the opponent's stones, as the paper settled on in experiments f6–f8; +1
	// with PlaneOptions.OpponentPlus (f5 and earlier).
	PlaneOppStones
	// PlaneEmpty: 1 on the empty points.
	PlaneEmpty
	// PlaneLegal: 1 where the player to move may play (Board.Legal: empty, not retaking a simple ko,
	// not suicide; superko is not considered).
	PlaneLegal
	// PlaneCapturedOwn, PlaneCapturedOpp: 1 on the points where a stone of the player to move / of the
	// opponent was captured during the game, whatever stands there now. Derived from Position.Moves
	// without replaying: a point where that colour played and which no longer holds its stone, or where
	// it played twice. Captured setup stones are not seen; without complete Moves both planes are 0.
	PlaneCapturedOwn
	PlaneCapturedOpp
	// PlaneLadder: the table fills this plane with 1 "if the last move (made by opponent) is a ladder
	// move" without saying where. It is 1 on the stones of each chain of the player to move that is in
	// atari, touches the last move (so that move put it or keeps it in atari), and that a ladder reader
	// finds captured with its owner to move: the last move is a working ladder against it. It is 0
	// everywhere when the last move is not an opponent's stone (a pass, none, or two moves by one
	// colour in a row) and when a ladder read is cut short by its limits.
	PlaneLadder
)

// PlaneNames are short names of the planes, for people debugging the network.
var PlaneNames = [NumPlanes]string{
	PlaneOwnLibs1:     "own libs 1",
	PlaneOwnLibs2:     "own libs 2",
	PlaneOwnLibs3:     "own libs 3",
	PlaneOwnLibs4:     "own libs 4+",
	PlaneOppLibs1:     "opp libs 1",
	PlaneOppLibs2:     "opp libs 2",
	PlaneOppLibs3:     "opp libs 3",
	PlaneOppLibs4:     "opp libs 4+",
	PlaneRank1:        "rank 1d",
	PlaneRank2:        "rank 2d",
	PlaneRank3:        "rank 3d",
	PlaneRank4:        "rank 4d",
	PlaneRank5:        "rank 5d",
	PlaneRank6:        "rank 6d",
	PlaneRank7:        "rank 7d",
	PlaneRank8:        "rank 8d",
	PlaneRank9:        "rank 9d",
	PlaneHistoryOwn:   "history own",
	PlaneHistoryOpp:   "history opp",
	PlanePositionMask: "position mask",
	PlaneOwnStones:    "own stones",
	PlaneOppStones:    "opp stones",
	PlaneEmpty:        "empty",
	PlaneLegal:        "legal",
	PlaneCapturedOwn:  "captured own",
	PlaneCapturedOpp:  "captured opp",
	PlaneLadder:       "ladder",
}

// PlaneOptions are the encoder's variants: the paper's ablations.
type PlaneOptions struct {
	OpponentPlus    bool // opponent stones as +1 instead of the paper's −1 (its rows f5 vs f6/f7)
	HistoryLastFive bool // history planes as 1 on the last five moves' stones instead of exp(−0.1·t)
}

// NumSymmetries is the number of symmetries of the square board.
const NumSymmetries = 8

// Symmetry is one of the 8 symmetries of the square board (0 = identity), applied to the encoding: the
// paper augments its training data with them (§3.3). Bit 2 mirrors left and right (x → n−1−x), then
// bits 0–1 rotate that many quarter turns clockwise (rows grow downwards, as in SGF). Only the low three
// bits count.
type Symmetry uint8

// Apply returns where point (x, y) of an n×n board goes.
func (s Symmetry) Apply(x, y, n int) (int, int) {
	if s&4 != 0 {
		x = n - 1 - x
	}
	for range s & 3 {
		x, y = n-1-y, x
	}
	return x, y
}

// Inverse returns the symmetry that undoes s. A mirrored symmetry is its own inverse (the mirror turns
// the rotation around); a rotation is undone by turning the rest of the way.
func (s Symmetry) Inverse() Symmetry {
	if s&4 != 0 {
		return s & 7
	}
	return (4 - s&3) & 3
}

// Planes encodes positions; it keeps scratch (a ladder reader, chain marks, age table) so that Encode
// allocates nothing. The zero value is ready to use. Not safe for concurrent use.
type Planes struct {
	ladder tactics.LadderReader

	// libBin marks chain heads with 1 + their liberty plane offset (0..3), or 5 for no liberty; 0 means
	// not counted yet. It saves counting a chain's liberties once per stone.
	libBin [board.NumCells]uint8
	// lastMove is 1 + the index in Position.Moves of the latest move at each point, 0 when none.
	lastMove [board.NumCells]int32
	// played counts the moves of each colour (Black−1, White−1) at each point, up to 2.
	played [2][board.NumCells]uint8

	// idx maps row-major point index y·n+x to its place in a plane, for board size idxN and symmetry
	// idxSym; it is rebuilt only when they change.
	idx    [board.MaxPoints]int32
	idxN   int
	idxSym Symmetry
	// mask is the position mask of size maskN, row-major (it is the same under every symmetry).
	mask  [board.MaxPoints]float32
	maskN int
}

// ageWeights holds exp(−0.1·t) for the ages most stones have, to spare Encode an exp per stone.
var ageWeights = func() (w [1024]float32) {
	for t := range w {
		w[t] = float32(math.Exp(-0.1 * float64(t)))
	}
	return w
}()

// historyValue is the history planes' value of a stone placed t moves ago.
func historyValue(t int, lastFive bool) float32 {
	switch {
	case lastFive && t < 5:
		return 1
	case lastFive:
		return 0
	case t < len(ageWeights):
		return ageWeights[t]
	}
	return float32(math.Exp(-0.1 * float64(t)))
}

// Encode writes the NumPlanes planes of pos, seen by the player to move, into dst (len ≥ NumPlanes·n·n,
// n the board size), plane-major: dst[plane*n*n + y*n + x], each point placed where sym sends it. Only
// the first NumPlanes·n·n values are written, all of them. It panics when dst is too short or pos.ToPlay
// is not Black or White: both are the caller's bugs.
func (e *Planes) Encode(dst []float32, pos *game.Position, sym Symmetry, opt PlaneOptions) {
	b := &pos.Board
	n := b.Size()
	nn := n * n
	if len(dst) < NumPlanes*nn {
		panic(fmt.Sprintf("feature: Planes.Encode: dst holds %d values, a %dx%d board needs %d", len(dst), n, n, NumPlanes*nn))
	}
	me := pos.ToPlay
	if me != board.Black && me != board.White {
		panic(fmt.Sprintf("feature: Planes.Encode: ToPlay is %v, not black or white", me))
	}
	opp := me.Opponent()
	dst = dst[:NumPlanes*nn]
	clear(dst)
	idx := e.indices(n, sym)
	mask := e.positionMask(n)
	full := len(pos.Moves) == pos.MoveNumber
	if full {
		e.scanMoves(b, pos.Moves)
	}
	clear(e.libBin[:])
	oppValue := float32(-1)
	if opt.OpponentPlus {
		oppValue = 1
	}

	for i, p := range b.Points() {
		d := int(idx[i])
		dst[PlanePositionMask*nn+d] = mask[i]
		c := b.At(p)
		switch c {
		case board.Empty:
			dst[PlaneEmpty*nn+d] = 1
			if b.Legal(p, me) {
				dst[PlaneLegal*nn+d] = 1
			}
		case me, opp:
			libs, stones, history, value := PlaneOwnLibs1, PlaneOwnStones, PlaneHistoryOwn, float32(1)
			if c == opp {
				libs, stones, history, value = PlaneOppLibs1, PlaneOppStones, PlaneHistoryOpp, oppValue
			}
			if bin := e.libertyBin(b, p); bin < 4 {
				dst[(libs+bin)*nn+d] = 1
			}
			dst[stones*nn+d] = value
			if full {
				// The latest move here placed this stone, unless setup stones changed the point since.
				if m := int(e.lastMove[p]); m > 0 && pos.Moves[m-1].Color == c {
					dst[history*nn+d] = historyValue(len(pos.Moves)-m, opt.HistoryLastFive)
				}
			}
		}
		if full {
			// A colour's stone was captured here if it played here and its stone is gone, or if it
			// played here twice (the first stone had to go before the second).
			if k := e.played[me-1][p]; k >= 2 || k == 1 && c != me {
				dst[PlaneCapturedOwn*nn+d] = 1
			}
			if k := e.played[opp-1][p]; k >= 2 || k == 1 && c != opp {
				dst[PlaneCapturedOpp*nn+d] = 1
			}
		}
	}

	if !full {
		// Only the last two moves' ages are known. Prev first, so that Last wins should they coincide.
		for _, h := range [2]struct {
			p board.Point
			t int
		}{{pos.Prev, 1}, {pos.Last, 0}} {
			if !b.OnBoard(h.p) {
				continue
			}
			x, y := h.p.XY()
			d := int(idx[y*n+x])
			switch b.At(h.p) {
			case me:
				dst[PlaneHistoryOwn*nn+d] = historyValue(h.t, opt.HistoryLastFive)
			case opp:
				dst[PlaneHistoryOpp*nn+d] = historyValue(h.t, opt.HistoryLastFive)
			}
		}
	}

	if pos.Info != nil {
		rankText := pos.Info.BlackRank
		if me == board.White {
			rankText = pos.Info.WhiteRank
		}
		if r := rankOf(rankText); r > 0 {
			plane := dst[(PlaneRank1+r-1)*nn : (PlaneRank1+r)*nn]
			for i := range plane {
				plane[i] = 1
			}
		}
	}

	e.encodeLadder(dst[PlaneLadder*nn:(PlaneLadder+1)*nn], pos, idx)
}

// encodeLadder fills plane (the ladder plane) with 1 on the chains of the player to move that the
// opponent's last move leaves in a working ladder.
func (e *Planes) encodeLadder(plane []float32, pos *game.Position, idx []int32) {
	b := &pos.Board
	me, last := pos.ToPlay, pos.Last
	opp := me.Opponent()
	if !b.OnBoard(last) || b.At(last) != opp {
		return
	}
	n := b.Size()
	var read [4]board.Point // heads of the chains read, so a chain touching the move twice is read once
	nRead := 0
	for _, q := range last.Neighbours() {
		if b.At(q) != me || !b.InAtari(q) {
			continue
		}
		h := b.ChainHead(q)
		if slices.Contains(read[:nRead], h) {
			continue
		}
		read[nRead] = h
		nRead++
		if e.ladder.Read(b, q, opp) != tactics.Captured {
			continue
		}
		for s := q; ; {
			x, y := s.XY()
			plane[idx[y*n+x]] = 1
			if s = b.NextStone(s); s == q {
				break
			}
		}
	}
}

// libertyBin returns the liberty plane offset (0..3 for 1, 2, 3, ≥4 liberties) of the chain at p, or
// 4 when it has none, counting each chain once per Encode.
func (e *Planes) libertyBin(b *board.Board, p board.Point) int {
	h := b.ChainHead(p)
	if m := e.libBin[h]; m != 0 {
		return int(m) - 1
	}
	bin := 4
	if l := b.Liberties(p, 4); l > 0 {
		bin = l - 1
	}
	e.libBin[h] = uint8(bin + 1)
	return bin
}

// scanMoves fills lastMove and played from the moves of the game so far.
func (e *Planes) scanMoves(b *board.Board, moves []game.Move) {
	clear(e.lastMove[:])
	clear(e.played[0][:])
	clear(e.played[1][:])
	for i, m := range moves {
		if !b.OnBoard(m.Point) {
			continue // a pass
		}
		e.lastMove[m.Point] = int32(i + 1)
		if m.Color == board.Black || m.Color == board.White {
			if k := &e.played[m.Color-1][m.Point]; *k < 2 {
				*k++
			}
		}
	}
}

// indices returns the plane offset of each row-major point index of an n×n board under sym.
func (e *Planes) indices(n int, sym Symmetry) []int32 {
	if e.idxN != n || e.idxSym != sym {
		for y := range n {
			for x := range n {
				tx, ty := sym.Apply(x, y, n)
				e.idx[y*n+x] = int32(ty*n + tx)
			}
		}
		e.idxN, e.idxSym = n, sym
	}
	return e.idx[:n*n]
}

// positionMask returns exp(−0.5·l) for each row-major point of an n×n board, l its distance to the
// centre. The values are the same at the image of a point under any symmetry (the squared offsets only
// swap or change sign), so the mask needs no transforming.
func (e *Planes) positionMask(n int) []float32 {
	if e.maskN != n {
		c := float64(n-1) / 2
		for y := range n {
			for x := range n {
				dx, dy := float64(x)-c, float64(y)-c
				e.mask[y*n+x] = float32(math.Exp(-0.5 * math.Sqrt(dx*dx+dy*dy)))
			}
		}
		e.maskN = n
	}
	return e.mask[:n*n]
}

// rankOf returns the dan rank 1..9 written in an SGF BR or WR value ("9p", "3d", "5 dan", "9P", "7段"),
// or 0 for a kyu rank, an empty or unreadable value, or a number out of 1..9. Text after the unit ("3d*",
// "9 dan pro") is ignored.
func rankOf(s string) int {
	s = strings.TrimSpace(s)
	r, i := 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if r = r*10 + int(s[i]-'0'); r > 9 {
			return 0
		}
	}
	if i == 0 || r < 1 {
		return 0
	}
	unit := strings.TrimLeft(s[i:], " ")
	switch {
	case unit == "":
		return 0
	case unit[0] == 'd' || unit[0] == 'D' || unit[0] == 'p' || unit[0] == 'P', strings.HasPrefix(unit, "段"):
		return r
	}
	return 0
}
