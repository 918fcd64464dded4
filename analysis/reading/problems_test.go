package reading

import (
	"context"
	"os"
	"testing"
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

func TestSuiteLoads(t *testing.T) {
	ps := loadSuite(t)
	if len(ps) != 119 {
		t.Fatalf("%d problems", len(ps))
	}
	s := NewSolver(Options{})
	passed := 0
	for i := range ps {
		p := &ps[i]
		res, err := s.Solve(context.Background(), &p.Board, p.Target, p.Goal)
		if err != nil {
			t.Fatal(err)
		}
		if p.Passes(res.Answer(p.Board.Size())) {
			passed++
		}
	}
	t.Logf("%d of %d pass", passed, len(ps))
}
