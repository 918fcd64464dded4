package reading

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	"aji/analysis/board"
	"aji/analysis/game"
)

// Problem is one tactical reading problem in the JSON-lines format of GNU Go's regression suite as
// ../shared/data/reading-problems.jsonl holds it: a game record, the move to stop before, the
// question (attack or defend the string at target) and the expected answer as a regular expression.
type Problem struct {
	ID           string
	Goal         Goal
	Target       board.Point
	Expected     string // as written: "1 (S4|T5)", "0", "1 T15|O13"
	Board        board.Board
	ToPlay       board.Color // whose turn it is in the record (the reader ignores it)
	KnownFailure bool        // the suite marked it as one GNU Go failed when it was written

	expected *regexp.Regexp
}

// problemLine is a line of the problem file.
type problemLine struct {
	ID           string `json:"id"`
	SGF          string `json:"sgf"`
	Move         *int   `json:"move"`
	Command      string `json:"command"`
	Target       string `json:"target"`
	Expected     string `json:"expected"`
	KnownFailure bool   `json:"gnugo_known_failure"`
}

// maxProblemLine bounds one line of a problem file (a whole game record).
const maxProblemLine = 1 << 20

// LoadProblems reads a problem file.
func LoadProblems(path string) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading problems: %w", err)
	}
	defer f.Close()
	ps, err := ReadProblems(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ps, nil
}

// ReadProblems reads problems, one JSON object a line; blank lines are skipped.
func ReadProblems(r io.Reader) ([]Problem, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxProblemLine)
	var out []Problem
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l problemLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		p, err := l.problem()
		if err != nil {
			return nil, fmt.Errorf("line %d (%s): %w", n, l.ID, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// problem builds the position before move l.Move (GNU Go's loadsgf FILE N; the whole record when
// absent) and checks the question.
func (l *problemLine) problem() (Problem, error) {
	p := Problem{ID: l.ID, Expected: l.Expected, KnownFailure: l.KnownFailure}
	switch l.Command {
	case "attack":
		p.Goal = Attack
	case "defend":
		p.Goal = Defend
	default:
		return p, fmt.Errorf("command %q is not attack or defend", l.Command)
	}
	re, err := regexp.Compile("^(?:" + expectedPattern(l.Expected) + ")$")
	if err != nil {
		return p, fmt.Errorf("expected answer %q: %w", l.Expected, err)
	}
	p.expected = re
	games, err := game.Parse([]byte(l.SGF))
	if err != nil {
		return p, err
	}
	if len(games) == 0 {
		return p, errors.New("no game in the record")
	}
	g := games[0]
	stop := 0
	if l.Move != nil {
		if *l.Move < 1 {
			return p, fmt.Errorf("move %d: moves count from 1", *l.Move)
		}
		stop = *l.Move
	}
	pos, err := g.PositionAfter(0)
	if err != nil {
		return p, err
	}
	last := *pos
	played := 0
	errStop := errors.New("stop")
	err = g.WalkMainLine(func(at *game.Position, m game.Move) error {
		if stop > 0 && played+1 >= stop {
			last = *at
			return errStop
		}
		last = *at
		if err := last.Board.Play(m.Point, m.Color); err != nil {
			return err
		}
		last.ToPlay = m.Color.Opponent()
		played++
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return p, err
	}
	p.Board, p.ToPlay = last.Board, last.ToPlay
	t, err := board.ParseGTP(l.Target, p.Board.Size())
	if err != nil || t == board.Pass {
		return p, fmt.Errorf("target %q is not a vertex", l.Target)
	}
	if c := p.Board.At(t); c != board.Black && c != board.White {
		return p, fmt.Errorf("no stone at the target %s", l.Target)
	}
	p.Target = t
	return p, nil
}

// expectedPattern reads GNU Go's shorthand "1 T15|O13" as "1 (T15|O13)", as its regression runner
// does.
var shorthand = regexp.MustCompile(`^(\d|\(\d\|\d\)) ([^()]*\|[^()]*)$`)

func expectedPattern(exp string) string {
	if m := shorthand.FindStringSubmatch(exp); m != nil {
		return m[1] + " (" + m[2] + ")"
	}
	return exp
}

// Answer is a result as GNU Go's attack and defend print it: "0", or the code and the key move. An
// answer the search did not settle at the largest liberty bound is "0": not shown to succeed.
func (r Result) Answer(size int) string {
	if r.Code == Fail || !r.Proved {
		return "0"
	}
	return fmt.Sprintf("%d %s", r.Code, r.Move.GTP(size))
}

// Passes reports whether answer is one the problem accepts (never, for a problem with no expected
// answer).
func (p *Problem) Passes(answer string) bool {
	return p.expected != nil && p.expected.MatchString(answer)
}

// AttackProblems appends to out a problem for every string of b with minLibs to maxLibs liberties:
// can its opponent, moving first, capture it? They have no expected answer: they are for learning
// surrogate priors from game positions, which learn from the search trees, not from answers (Stern
// §4.4). ids name them after id and the string's first stone.
func AttackProblems(out []Problem, id string, b *board.Board, toPlay board.Color, minLibs, maxLibs int) []Problem {
	var seen board.PointSet
	for _, p := range b.Points() {
		c := b.At(p)
		if c != board.Black && c != board.White || seen.Has(b.ChainHead(p)) {
			continue
		}
		seen.Add(b.ChainHead(p))
		if libs := b.Liberties(p, maxLibs+1); libs < minLibs || libs > maxLibs {
			continue
		}
		out = append(out, Problem{ID: id + ":" + p.GTP(b.Size()), Goal: Attack, Target: p, Board: *b, ToPlay: toPlay})
	}
	return out
}
