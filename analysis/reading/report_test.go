package reading

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// handProblems are the hand-made cases that have an answer the solver gets, as problems of a file,
// with GNU Go's accepted answers as expected answers.
func handProblems(t *testing.T) []Problem {
	t.Helper()
	var sb strings.Builder
	for _, c := range handCases {
		if len(c.broken) > 0 {
			continue
		}
		b, _ := parseCase(t, &c)
		expected := "0"
		if c.code != Fail {
			expected = fmt.Sprintf("%d (%s)", c.code, strings.Join(c.moves, "|"))
		}
		line, err := json.Marshal(map[string]any{"id": "hand:" + c.name, "sgf": setupSGF(b), "command": c.goal.String(),
			"target": c.target, "expected": expected})
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(line)
		sb.WriteByte('\n')
	}
	ps, err := ReadProblems(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func TestRunReport(t *testing.T) {
	ps := handProblems(t)
	var calls []int
	r, err := Run(context.Background(), ps, Options{Method: PP}, func(done int) { calls = append(calls, done) })
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != len(ps) || calls[0] != 1 || calls[len(calls)-1] != len(ps) {
		t.Errorf("progress calls %v for %d problems", calls, len(ps))
	}
	if r.Method != "pp" || r.MaxNodes != DefaultMaxNodes || r.MaxLiberties != DefaultMaxLiberties {
		t.Errorf("options %s %d %d", r.Method, r.MaxNodes, r.MaxLiberties)
	}
	// TestHandMade checks each answer; here the report must count them.
	if r.Total != len(ps) || r.Passed != len(ps) || r.Proved != len(ps) || r.PassRate != 1 {
		t.Errorf("total %d passed %d proved %d rate %v of %d", r.Total, r.Passed, r.Proved, r.PassRate, len(ps))
	}
	if a, d := r.ByGoal["attack"], r.ByGoal["defend"]; a.Problems+d.Problems != len(ps) || a.Passed != a.Problems || d.Problems == 0 {
		t.Errorf("by goal %+v", r.ByGoal)
	}
	var nodes, ms []float64
	for _, p := range r.Problems {
		if p.Nodes < 1 || p.TimeNs <= 0 || p.Answer == "" || p.Target == "" {
			t.Errorf("problem %+v", p)
		}
		nodes = append(nodes, float64(p.Nodes))
		ms = append(ms, float64(p.TimeNs)/1e6)
	}
	if r.NodesMedian != Quantile(nodes, 0.5) || r.NodesP90 != Quantile(nodes, 0.9) || r.NodesP90 < r.NodesMedian ||
		r.TimeMedianMs != Quantile(ms, 0.5) || r.TimeP90Ms < r.TimeMedianMs || !(r.NodesPerSecond > 0) {
		t.Errorf("totals: %s", r.Summary())
	}
	// JSON: snake_case names, and a report reads back as it was written.
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"pass_rate"`, `"by_goal"`, `"nodes_p90"`, `"time_median_ms"`, `"nodes_per_second"`, `"time_ns"`, `"expected"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	var back Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary() != r.Summary() || !slices.Equal(back.Problems, r.Problems) {
		t.Error("the report does not read back as written")
	}
}

func TestRunCancelled(t *testing.T) {
	ps := handProblems(t)
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Run(ctx, ps, Options{}, func(done int) {
		if done == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || r.Total != 2 || len(r.Problems) != 2 {
		t.Errorf("cancelled after 2: %d problems, %v", r.Total, err)
	}
	// Cancelled before the first: an empty report, which JSON can still write.
	r, err = Run(ctx, ps, Options{}, nil)
	if !errors.Is(err, context.Canceled) || r.Total != 0 {
		t.Errorf("cancelled before: %d problems, %v", r.Total, err)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("an empty report: %v", err)
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.5, 3}, {0.9, 4.6}, {1, 5}} {
		if got := Quantile(xs, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("q %v: %v, want %v", c.q, got, c.want)
		}
	}
	if got := Quantile([]float64{1, 2, 3, 4}, 0.5); got != 2.5 {
		t.Errorf("median of 4: %v", got)
	}
	if !slices.Equal(xs, []float64{5, 1, 4, 2, 3}) {
		t.Error("Quantile sorted its argument")
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("no values: not NaN")
	}
}

func TestSplit(t *testing.T) {
	ps := loadSuite(t)
	train, test := Split(ps, 1)
	if len(train)+len(test) != len(ps) {
		t.Fatalf("%d + %d of %d", len(train), len(test), len(ps))
	}
	// About two thirds to train: a binomial(119, 2/3) lies within 60..99 far beyond 4 sigma.
	if len(train) < 60 || len(train) > 99 {
		t.Errorf("%d of %d to train", len(train), len(ps))
	}
	inTest := map[string]bool{}
	for _, p := range test {
		inTest[p.ID] = true
	}
	for _, p := range train {
		if inTest[p.ID] {
			t.Errorf("%s on both sides", p.ID)
		}
	}
	// A problem keeps its side whatever else the set holds, and another seed gives another split.
	rev := slices.Clone(ps[:40])
	slices.Reverse(rev)
	_, test2 := Split(rev, 1)
	for _, p := range test2 {
		if !inTest[p.ID] {
			t.Errorf("%s moved to test in a subset", p.ID)
		}
	}
	_, other := Split(ps, 2)
	if slices.EqualFunc(test, other, func(a, b Problem) bool { return a.ID == b.ID }) {
		t.Error("seeds 1 and 2 split alike")
	}
}

func TestSelectIDs(t *testing.T) {
	ps := handProblems(t)
	got, err := SelectIDs(ps, []string{"hand:ko", "hand:net", " "})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "hand:net" || got[1].ID != "hand:ko" {
		t.Errorf("selected %d: file order wanted", len(got))
	}
	// By the number after the colon, as `aji reading --ids 1,5,7` names suite problems.
	suite := loadSuite(t)
	got, err = SelectIDs(suite, []string{"7", "1", "reading.tst:5"})
	if err != nil || len(got) != 3 || got[0].ID != "reading.tst:1" || got[2].ID != "reading.tst:7" {
		t.Errorf("by number: %v", err)
	}
	if _, err := SelectIDs(suite, []string{"1", "999", "x"}); err == nil || !strings.Contains(err.Error(), "999, x") {
		t.Errorf("unknown ids: %v", err)
	}
}
