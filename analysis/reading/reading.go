package reading

import (
	"context"
	"fmt"
	"time"

	"aji/analysis/board"
)

// Goal says who moves first in a capture problem about one string.
type Goal int8

const (
	// Attack: the string's opponent moves first; can it capture the string?
	Attack Goal = iota
	// Defend: the string's owner moves first; can it save the string?
	Defend
)

func (g Goal) String() string {
	if g == Defend {
		return "defend"
	}
	return "attack"
}

// Code is a reading result as GNU Go reports it.
type Code int8

const (
	// Fail: the mover cannot reach its goal (or the read did not find how within its budget).
	Fail Code = 0
	// Win: the mover succeeds even if the opponent has any number of ko threats.
	Win Code = 1
	// KoFirst: the mover succeeds through a ko it takes first, so the opponent needs the first threat
	// (GNU Go's KO_A).
	KoFirst Code = 2
	// KoLater: the mover succeeds only if it wins a ko the opponent takes first, so the mover needs the
	// first threat (GNU Go's KO_B).
	KoLater Code = 3
)

// Method is the best-first search that develops the tree.
type Method int8

const (
	// PNS is Allis's proof-number search (Stern §4.2.4).
	PNS Method = iota
	// PP is Stern's probability propagation (§4.3, Algorithms 1–4), with messages as log-odds
	// (§4.3.3, Appendix B).
	PP
)

func (m Method) String() string {
	if m == PP {
		return "pp"
	}
	return "pns"
}

// ParseMethod reads "pns" or "pp".
func ParseMethod(s string) (Method, error) {
	switch s {
	case "pns":
		return PNS, nil
	case "pp":
		return PP, nil
	}
	return 0, fmt.Errorf("unknown reading method %q (pns, pp)", s)
}

// Defaults of Options.
const (
	// DefaultMaxNodes bounds the positions one Solve develops, over every liberty bound and ko
	// regime it tries: 0.8 s of one core on the slowest problem of GNU Go's suite, under the second
	// a problem may take.
	DefaultMaxNodes = 80000
	// DefaultMaxLiberties is the largest liberty bound L of Stern's goal function (§4.5): a string
	// with more liberties counts as escaped. GNU Go's reader, too, gives up attacking at five.
	DefaultMaxLiberties = 4
)

// Options configure a Solver. The zero value is PNS with the defaults.
type Options struct {
	Method       Method
	MaxNodes     int // developed positions per Solve (0: DefaultMaxNodes)
	MaxLiberties int // the last liberty bound L tried (0: DefaultMaxLiberties)
	// Prior gives a new leaf its probability of being TRUE (the target captured) for probability
	// propagation; nil is Stern's ignorant prior, 0.5. Proof-number search does not use it.
	Prior Prior
}

// Prior is a surrogate for the unexplored tree below a leaf (Stern §4.4): the probability that the
// position after move (board.Pass for the defender's tenuki), played by toPlay in the parent
// position parent, ends with the target string captured.
type Prior interface {
	Prior(parent *board.Board, move board.Point, toPlay board.Color, target board.Point, attacker board.Color) float64
}

// Result is the answer to one capture problem.
type Result struct {
	Goal Goal
	Code Code
	Move board.Point   // the key move, or NoPoint with Fail
	Line []board.Point // the main line from Move on (a move may be board.Pass)
	// Proved: the search settled the answer at the largest liberty bound. When the budget ran out
	// first, the answer is that of the largest bound settled (Bound; 0: none, and Code is Fail):
	// a string saved at bound 3 has escaped to four liberties, not yet to five.
	Proved bool
	Bound  int
	Nodes  int // positions developed, over every bound and regime tried
	Time   time.Duration
}

// Solver answers capture problems. It keeps its tree, transposition table and board stack between
// calls, so a warm Solver allocates little. It is not safe for concurrent use.
type Solver struct {
	opt Options
	s   search
}

// NewSolver returns a Solver with the given options.
func NewSolver(opt Options) *Solver {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	if opt.MaxLiberties <= 0 {
		opt.MaxLiberties = DefaultMaxLiberties
	}
	return &Solver{opt: opt}
}

// Options returns the solver's options, defaults filled in.
func (s *Solver) Options() Options { return s.opt }

// Solve reads whether the string at target can be captured (Attack: its opponent moves first) or
// saved (Defend: its owner moves first) in position b, which is not modified. It tries the ko
// regimes in order — the mover may not retake a ko while the opponent may (a Win), neither may (a
// KoFirst), the mover may while the opponent may not (a KoLater) — and within each Stern's iterative
// deepening of the liberty bound. A cancelled ctx or an exhausted budget ends the read with Proved
// false and the answer of the largest bound settled (see Result); a cancelled read returns ctx's
// error too.
func (s *Solver) Solve(ctx context.Context, b *board.Board, target board.Point, goal Goal) (Result, error) {
	start := time.Now()
	owner := b.At(target)
	if owner != board.Black && owner != board.White {
		return Result{}, fmt.Errorf("reading: no stone at %s", target.GTP(b.Size()))
	}
	res := Result{Goal: goal, Move: board.NoPoint}
	mover := owner.Opponent()
	if goal == Defend {
		mover = owner
	}
	budget := s.opt.MaxNodes
	for code := Win; code <= KoLater; code++ {
		privileged := mover.Opponent() // Win: the opponent has every ko threat
		switch code {
		case KoFirst:
			privileged = board.Empty
		case KoLater:
			privileged = mover
		}
		out := s.s.run(ctx, b, target, mover, privileged, s.opt, &budget)
		res.Nodes, res.Bound, res.Time = s.opt.MaxNodes-budget, out.bound, time.Since(start)
		if out.success {
			res.Code, res.Move, res.Line, res.Proved = code, out.line[0], out.line, !out.exhausted
			return res, ctx.Err()
		}
		if out.exhausted {
			// The budget or ctx ran out: the answer holds up to the last bound settled, if any.
			return res, ctx.Err()
		}
	}
	res.Proved = true
	return res, nil
}

// Observation is one node of the last search tree, for learning surrogate priors (Stern §4.4): the
// position before the move, the move and who played it, and what the search found — proved
// (TRUE: the target is captured), disproved, or neither, with the probability of TRUE the search
// ended with (probability propagation's upward message; 0.5 under proof-number search).
type Observation struct {
	Parent    *board.Board // valid during the callback only
	Move      board.Point
	ToPlay    board.Color // who played Move
	Target    board.Point
	Attacker  board.Color
	Depth     int  // plies below the root (1: a move at the root)
	Developed bool // the search generated the node's children
	Solved    bool
	True      bool    // with Solved: proved
	P         float64 // the probability that the node is TRUE
}

// Observe calls fn for every node but the root of the last search Solve ran (the final liberty
// bound and ko regime it tried), parents before children.
func (s *Solver) Observe(fn func(Observation)) { s.s.observe(fn) }

// Describe says a read's answer in words for the side that moves first: "White captures with G1 (3
// nodes, 120µs)", "cannot be captured (…)"; size is the board's.
func (r Result) Describe(size int) string {
	what := "cannot be captured"
	if r.Goal == Defend {
		what = "cannot be saved"
	}
	if !r.Proved {
		what = "unknown: the read ran out of nodes"
	}
	if r.Code != Fail {
		verb := "captures"
		if r.Goal == Defend {
			verb = "saves"
		}
		what = fmt.Sprintf("%s with %s", verb, r.Move.GTP(size))
		switch r.Code {
		case KoFirst:
			what += " in a ko it takes first"
		case KoLater:
			what += " only if it wins a ko taken first by the other side"
		}
		if !r.Proved {
			what += fmt.Sprintf(", at least to %d liberties (then the read ran out of nodes)", r.Bound+1)
		}
	}
	return fmt.Sprintf("%s (%d nodes, %s)", what, r.Nodes, r.Time.Round(time.Microsecond))
}
