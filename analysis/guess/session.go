package guess

import (
	"errors"
	"fmt"
	"slices"

	"aji/analysis/board"
	"aji/analysis/game"
)

// Colors says whose moves are guessed.
type Colors uint8

// The choices of Colors.
const (
	Black Colors = 1 << iota
	White
	Both = Black | White
)

// Has reports whether c's moves are guessed.
func (cs Colors) Has(c board.Color) bool {
	return c == board.Black && cs&Black != 0 || c == board.White && cs&White != 0
}

// String is the choice as a word, as the history file keeps it.
func (cs Colors) String() string {
	switch cs {
	case Black:
		return "black"
	case White:
		return "white"
	case Both:
		return "both"
	}
	return "none"
}

// Move is one move of the line to guess.
type Move struct {
	Index  int         // in Session.Moves
	Node   *game.Node  // the move's node
	Parent *game.Node  // the node shown while the move is guessed: the position before it
	Number int         // its move number in the game, 1 for the first
	Color  board.Color // who played it
	Point  board.Point // where; never a pass
}

// Verdict is what became of a guess.
type Verdict int

// The verdicts of Session.Guess.
const (
	// Ignored: not a guess — a point with a stone on it, one already guessed for this move, off the
	// board, or no move left to guess. Nothing is counted.
	Ignored Verdict = iota
	Wrong
	Right
)

// Outcome is what a guess did.
type Outcome struct {
	Verdict Verdict
	// Narrowed: this wrong guess gave a new hint.
	Narrowed bool
	// Hints and Region are the current move's hint level and region after the guess (of the move just
	// found, when Right).
	Hints  int
	Region Region
	// Result is the move finished, when Right.
	Result *Result
}

// Result is the score of one finished move.
type Result struct {
	Move   Move
	Right  bool // found; false: revealed (given up)
	Wrong  int  // wrong guesses before the end
	Hints  int  // hints given (0..MaxHints)
	Peeked bool // the predictors' guesses were shown before the end
}

// FirstTry reports whether the move was found with no wrong guess.
func (r *Result) FirstTry() bool { return r.Right && r.Wrong == 0 }

// Session is one run of guessing along a line of a record, from a node on it to the line's end or
// until stopped. It never changes the record. It is not safe for concurrent use: the app drives it
// from its UI goroutine and computes predictions on a copy of Position.
type Session struct {
	game   *game.Game
	colors Colors
	moves  []Move
	cur    int // index in moves of the hidden move; len(moves) when done
	pos    *game.Position

	// The current move's state.
	hints   int
	wrong   []board.Point
	peeked  bool
	results []Result
	preds   map[int][]PredictorGuess // by move index

	stopped string // why the session ended before the line's end
}

// ErrNotOnLine reports a start node missing from the line given.
var ErrNotOnLine = errors.New("guess: the start node is not on the line")

// New starts a session on line (a path of g's nodes from the root, as game.Cursor.Line gives it), hiding
// the moves after node from that colors played. The moves of the other colour, passes, and moves whose
// node also sets up stones are played, not guessed.
func New(g *game.Game, line []*game.Node, from *game.Node, colors Colors) (*Session, error) {
	i := slices.Index(line, from)
	if i < 0 {
		return nil, ErrNotOnLine
	}
	base, err := g.PositionAt(from)
	if err != nil {
		return nil, fmt.Errorf("guess: %w", err)
	}
	s := &Session{game: g, colors: colors, preds: map[int][]PredictorGuess{}}
	number := base.MoveNumber
	for k := i + 1; k < len(line); k++ {
		n := line[k]
		m := n.Move
		if m == nil {
			continue
		}
		number++
		if m.Point == board.Pass || !colors.Has(m.Color) || len(n.Setup) > 0 {
			continue
		}
		s.moves = append(s.moves, Move{Index: len(s.moves), Node: n, Parent: line[k-1], Number: number, Color: m.Color, Point: m.Point})
	}
	s.cur = -1
	s.advance()
	return s, nil
}

// Colors are the colours guessed.
func (s *Session) Colors() Colors { return s.colors }

// Size is the board's.
func (s *Session) Size() int { return s.game.Size() }

// Game is the record guessed.
func (s *Session) Game() *game.Game { return s.game }

// Moves are the moves to guess, in order (fewer when an illegal move ended the line early).
func (s *Session) Moves() []Move { return s.moves }

// Done reports whether no move is left to guess.
func (s *Session) Done() bool { return s.cur >= len(s.moves) }

// Stopped says why the session ended before the line's end ("" when it did not).
func (s *Session) Stopped() string { return s.stopped }

// Current is the hidden move, or false when done.
func (s *Session) Current() (Move, bool) {
	if s.Done() {
		return Move{}, false
	}
	return s.moves[s.cur], true
}

// Position is the position before the hidden move as `aji eval` scores it (the move's colour to play),
// or nil when done. It is the session's: copy it to use it elsewhere.
func (s *Session) Position() *game.Position { return s.pos }

// Hints is the current move's hint level, Region where the hints place it.
func (s *Session) Hints() int { return s.hints }

// Region is where the hints so far place the hidden move (the whole board before any).
func (s *Session) Region() Region {
	m, ok := s.Current()
	if !ok {
		return Whole(s.Size())
	}
	return HintRegion(s.Size(), m.Point, s.hints)
}

// Wrong are the current move's wrong guesses so far.
func (s *Session) Wrong() []board.Point { return s.wrong }

// Peek records that the predictors' guesses for the current move were shown.
func (s *Session) Peek() {
	if !s.Done() {
		s.peeked = true
	}
}

// Peeked reports whether the predictors' guesses were shown for the current move.
func (s *Session) Peeked() bool { return s.peeked }

// Guess takes a guess at the hidden move. Right finishes the move; Wrong narrows the board if a hint
// is left.
func (s *Session) Guess(p board.Point) Outcome {
	m, ok := s.Current()
	if !ok || !s.pos.Board.OnBoard(p) || s.pos.Board.At(p) != board.Empty || slices.Contains(s.wrong, p) {
		return Outcome{Verdict: Ignored, Hints: s.hints, Region: s.Region()}
	}
	if p == m.Point {
		r := s.finish(true)
		return Outcome{Verdict: Right, Hints: r.Hints, Region: HintRegion(s.Size(), m.Point, r.Hints), Result: r}
	}
	s.wrong = append(s.wrong, p)
	o := Outcome{Verdict: Wrong}
	if s.hints < MaxHints {
		if now, next := s.Region(), HintRegion(s.Size(), m.Point, s.hints+1); next != now {
			s.hints++
			o.Narrowed = true
		}
	}
	o.Hints, o.Region = s.hints, s.Region()
	return o
}

// Reveal gives up on the hidden move, which counts as revealed, and returns its result (nil when
// done).
func (s *Session) Reveal() *Result {
	if s.Done() {
		return nil
	}
	return s.finish(false)
}

// finish scores the current move and moves on to the next.
func (s *Session) finish(right bool) *Result {
	s.results = append(s.results, Result{
		Move: s.moves[s.cur], Right: right, Wrong: len(s.wrong), Hints: s.hints, Peeked: s.peeked,
	})
	r := &s.results[len(s.results)-1]
	out := *r
	s.advance()
	return &out
}

// advance makes the next move the hidden one and computes its position. A record whose move is
// illegal there ends the session at it: the app cannot show the position after it.
func (s *Session) advance() {
	s.cur++
	s.hints, s.wrong, s.peeked, s.pos = 0, nil, false, nil
	if s.Done() {
		return
	}
	m := s.moves[s.cur]
	pos, err := s.game.PositionAt(m.Parent)
	if err == nil && !pos.Board.Legal(m.Point, m.Color) {
		err = fmt.Errorf("%s %s is illegal there", m.Color, m.Point.GTP(s.Size()))
	}
	if err != nil {
		s.stopped = fmt.Sprintf("the record's move %d: %v", m.Number, err)
		s.moves = s.moves[:s.cur]
		return
	}
	// WalkMainLine's position before the move: the mover to play, whatever the record's PL said.
	pos.ToPlay = m.Color
	s.pos = pos
}

// Results are the finished moves, in order.
func (s *Session) Results() []Result { return s.results }

// SetPredictions records the predictors' guesses for move i (its Index). They count in Tally once the
// move is finished, whichever comes first.
func (s *Session) SetPredictions(i int, gs []PredictorGuess) { s.preds[i] = gs }

// Predictions are the predictors' guesses recorded for move i, nil until they are.
func (s *Session) Predictions(i int) []PredictorGuess { return s.preds[i] }

// Tally sums up the finished moves, the predictors scored on those of them whose predictions arrived.
func (s *Session) Tally() Tally {
	var t Tally
	for i := range s.results {
		r := &s.results[i]
		t.addResult(r, s.preds[r.Move.Index])
	}
	return t
}
