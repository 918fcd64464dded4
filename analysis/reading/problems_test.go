package reading

import (
	"os"
	"strings"
	"testing"

	"aji/analysis/board"
)

const problemFile = "../../../shared/data/reading-problems.jsonl"

// loadSuite loads GNU Go's reading problems, or skips the test where the data is missing.
func loadSuite(t testing.TB) []Problem {
	t.Helper()
	if _, err := os.Stat(problemFile); err != nil {
		t.Skip("no reading problems at", problemFile)
	}
	ps, err := LoadProblems(problemFile)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// problemLines are a small problem file in the suite's format: a record with setup stones and
// moves, asked before move 3 (two moves played) and after the whole record.
const problemLines = `{"id": "t:1", "sgf": "(;GM[1]FF[4]SZ[9]AB[cd]AW[dd];B[dc];W[ee];B[de])", "move": 3, "command": "attack", "target": "D6", "expected": "1 (D5|E6)"}

{"id": "t:2", "sgf": "(;GM[1]FF[4]SZ[9]AB[cd]AW[dd];B[dc];W[ee];B[de])", "move": null, "command": "defend", "target": "D6", "expected": "1 E6|C7", "gnugo_known_failure": true}
`

func TestReadProblems(t *testing.T) {
	ps, err := ReadProblems(strings.NewReader(problemLines))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("%d problems", len(ps))
	}
	a, d := &ps[0], &ps[1]
	if a.ID != "t:1" || a.Goal != Attack || d.Goal != Defend || a.KnownFailure || !d.KnownFailure {
		t.Errorf("fields: %+v, %+v", a, d)
	}
	// Before move 3: the setup stones and B D7; the whole record adds W E5 and B D5.
	const before3 = ".........\n.........\n...X.....\n..XO.....\n....O....\n.........\n.........\n.........\n.........\n"
	if got := a.Board.String(); got != before3 {
		t.Errorf("position before move 3:\n%swant\n%s", got, before3)
	}
	if a.ToPlay != board.Black || d.ToPlay != board.White {
		t.Errorf("to play %s, %s", a.ToPlay, d.ToPlay)
	}
	if d.Board.At(mustPoint(t, "D5", 9)) != board.Black || a.Board.At(mustPoint(t, "D5", 9)) != board.Empty {
		t.Error("moves after the stop were played, or the whole record was not")
	}
	if a.Target != mustPoint(t, "D6", 9) {
		t.Errorf("target %s", a.Target.GTP(9))
	}
	// Expected answers match whole answers only; "1 E6|C7" is GNU Go's shorthand for "1 (E6|C7)".
	for _, c := range []struct {
		p      *Problem
		answer string
		passes bool
	}{
		{a, "1 D5", true}, {a, "1 E6", true}, {a, "1 E5", false}, {a, "2 D5", false}, {a, "0", false}, {a, "1 D55", false},
		{d, "1 C7", true}, {d, "1 E6", true}, {d, "1 E7", false}, {d, "0", false},
	} {
		if got := c.p.Passes(c.answer); got != c.passes {
			t.Errorf("%s (expected %q) passes %q: %v", c.p.ID, c.p.Expected, c.answer, got)
		}
	}
}

func mustPoint(t *testing.T, v string, size int) board.Point {
	t.Helper()
	p, err := board.ParseGTP(v, size)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadProblemsErrors(t *testing.T) {
	const rec = `(;GM[1]FF[4]SZ[9]AB[cd]AW[dd])`
	for _, c := range []struct{ line, want string }{
		{`{"id": "x"`, "unexpected end"},
		{`{"id": "x", "sgf": "` + rec + `", "command": "capture", "target": "D6", "expected": "0"}`, "command"},
		{`{"id": "x", "sgf": "` + rec + `", "command": "attack", "target": "E5", "expected": "0"}`, "no stone"},
		{`{"id": "x", "sgf": "` + rec + `", "command": "attack", "target": "Z99", "expected": "0"}`, "not a vertex"},
		{`{"id": "x", "sgf": "` + rec + `", "command": "attack", "target": "pass", "expected": "0"}`, "not a vertex"},
		{`{"id": "x", "sgf": "` + rec + `", "move": 0, "command": "attack", "target": "D6", "expected": "0"}`, "moves count from 1"},
		{`{"id": "x", "sgf": "` + rec + `", "command": "attack", "target": "D6", "expected": "1 (D5"}`, "expected answer"},
		{`{"id": "x", "sgf": "", "command": "attack", "target": "D6", "expected": "0"}`, ""},
	} {
		_, err := ReadProblems(strings.NewReader("\n" + c.line + "\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%s: error %v, want one naming line 2 and %q", c.line, err, c.want)
		}
	}
	if _, err := LoadProblems("no-such-file.jsonl"); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing file: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// TestSuiteLoads checks the suite as the data README describes it: 119 problems with distinct ids,
// a stone at every target, both questions asked, and answers of both kinds expected.
func TestSuiteLoads(t *testing.T) {
	ps := loadSuite(t)
	if len(ps) != 119 {
		t.Fatalf("%d problems, the README says 119", len(ps))
	}
	ids := map[string]bool{}
	goals := map[Goal]int{}
	fails := 0
	for i := range ps {
		p := &ps[i]
		if ids[p.ID] {
			t.Errorf("id %s twice", p.ID)
		}
		ids[p.ID] = true
		goals[p.Goal]++
		if c := p.Board.At(p.Target); c != board.Black && c != board.White {
			t.Errorf("%s: no stone at %s", p.ID, p.Target.GTP(p.Board.Size()))
		}
		if p.Passes("0") {
			fails++
		}
	}
	if goals[Attack] == 0 || goals[Defend] == 0 || fails == 0 || fails == len(ps) {
		t.Errorf("attack %d, defend %d, expecting 0: %d", goals[Attack], goals[Defend], fails)
	}
}
