package reading

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"aji/analysis/board"
)

// ProblemResult is what one Solve gave on one problem of a Report.
type ProblemResult struct {
	ID       string `json:"id"`
	Goal     string `json:"goal"` // "attack" or "defend"
	Target   string `json:"target"`
	Expected string `json:"expected"`
	Answer   string `json:"answer"` // as GNU Go prints it: "0", "1 G1"
	Passed   bool   `json:"passed"`
	Code     int    `json:"code"`
	Proved   bool   `json:"proved"`
	Bound    int    `json:"bound"` // the largest liberty bound settled (Result.Bound)
	Nodes    int    `json:"nodes"`
	TimeNs   int64  `json:"time_ns"`
}

// GoalTally counts the problems of one goal and those passed.
type GoalTally struct {
	Problems int `json:"problems"`
	Passed   int `json:"passed"`
}

// Report is a run of a solver over a problem set: every problem's answer and cost, and the totals
// `aji reading`, `aji bench reading` and `aji plot reading` show.
type Report struct {
	Method       string  `json:"method"`
	MaxNodes     int     `json:"max_nodes"`
	MaxLiberties int     `json:"max_liberties"`
	Total        int     `json:"total"` // problems solved
	Passed       int     `json:"passed"`
	PassRate     float64 `json:"pass_rate"`
	Proved       int     `json:"proved"`
	// ByGoal tallies attack and defend problems ("attack", "defend").
	ByGoal map[string]GoalTally `json:"by_goal"`
	// Nodes and time per problem, over every problem solved: median and 90th percentile.
	NodesMedian  float64 `json:"nodes_median"`
	NodesP90     float64 `json:"nodes_p90"`
	TimeMedianMs float64 `json:"time_median_ms"`
	TimeP90Ms    float64 `json:"time_p90_ms"`
	// NodesPerSecond is every problem's nodes over every problem's time.
	NodesPerSecond float64         `json:"nodes_per_second"`
	Problems       []ProblemResult `json:"problems"`
}

// Run solves every problem with one Solver of the given options (warm from one problem to the
// next, as a long-lived solver is), calling progress, when not nil, with the number of problems
// done after each. A cancelled ctx ends the run with the report of the problems done and ctx's
// error.
func Run(ctx context.Context, problems []Problem, opt Options, progress func(done int)) (Report, error) {
	s := NewSolver(opt)
	o := s.Options()
	r := Report{Method: o.Method.String(), MaxNodes: o.MaxNodes, MaxLiberties: o.MaxLiberties}
	for i := range problems {
		if err := ctx.Err(); err != nil {
			r.total()
			return r, err
		}
		p := &problems[i]
		res, err := s.Solve(ctx, &p.Board, p.Target, p.Goal)
		if err != nil && ctx.Err() != nil {
			r.total()
			return r, ctx.Err()
		}
		if err != nil {
			return r, fmt.Errorf("problem %s: %w", p.ID, err)
		}
		size := p.Board.Size()
		answer := res.Answer(size)
		r.Problems = append(r.Problems, ProblemResult{
			ID: p.ID, Goal: p.Goal.String(), Target: p.Target.GTP(size), Expected: p.Expected,
			Answer: answer, Passed: p.Passes(answer), Code: int(res.Code), Proved: res.Proved, Bound: res.Bound,
			Nodes: res.Nodes, TimeNs: res.Time.Nanoseconds(),
		})
		if progress != nil {
			progress(i + 1)
		}
	}
	r.total()
	return r, nil
}

// total fills in the totals from r.Problems.
func (r *Report) total() {
	r.Total, r.Passed, r.Proved = len(r.Problems), 0, 0
	r.ByGoal = map[string]GoalTally{Attack.String(): {}, Defend.String(): {}}
	nodes := make([]float64, 0, len(r.Problems))
	ms := make([]float64, 0, len(r.Problems))
	var sumNodes, sumNs float64
	for _, p := range r.Problems {
		g := r.ByGoal[p.Goal]
		g.Problems++
		if p.Passed {
			r.Passed++
			g.Passed++
		}
		r.ByGoal[p.Goal] = g
		if p.Proved {
			r.Proved++
		}
		nodes = append(nodes, float64(p.Nodes))
		ms = append(ms, float64(p.TimeNs)/1e6)
		sumNodes += float64(p.Nodes)
		sumNs += float64(p.TimeNs)
	}
	r.PassRate = 0
	if r.Total > 0 {
		r.PassRate = float64(r.Passed) / float64(r.Total)
	}
	r.NodesMedian, r.NodesP90, r.TimeMedianMs, r.TimeP90Ms, r.NodesPerSecond = 0, 0, 0, 0, 0
	if len(r.Problems) > 0 { // no NaN: JSON has none
		r.NodesMedian, r.NodesP90 = Quantile(nodes, 0.5), Quantile(nodes, 0.9)
		r.TimeMedianMs, r.TimeP90Ms = Quantile(ms, 0.5), Quantile(ms, 0.9)
	}
	if sumNs > 0 {
		r.NodesPerSecond = sumNodes / (sumNs / 1e9)
	}
}

// Summary is the report in one line: "pns: passed 102 of 119 (85.7%); attack 63/67, defend 39/52;
// 117 proved; median 0.175 ms, p90 18.9 ms a problem (50, 2749 nodes); 122764 nodes/s".
func (r *Report) Summary() string {
	a, d := r.ByGoal[Attack.String()], r.ByGoal[Defend.String()]
	return fmt.Sprintf("%s: passed %d of %d (%.1f%%); attack %d/%d, defend %d/%d; %d proved; median %.3g ms, p90 %.3g ms a problem (%.0f, %.0f nodes); %.0f nodes/s",
		r.Method, r.Passed, r.Total, 100*r.PassRate, a.Passed, a.Problems, d.Passed, d.Problems, r.Proved,
		r.TimeMedianMs, r.TimeP90Ms, r.NodesMedian, r.NodesP90, r.NodesPerSecond)
}

// Detail is one problem's line: id, question, expected and given answers, and the cost.
func (p *ProblemResult) Detail() string {
	verdict := "PASS"
	if !p.Passed {
		verdict = "FAIL"
	}
	proved := ""
	if !p.Proved {
		proved = fmt.Sprintf(", unproved: code %d to bound %d", p.Code, p.Bound)
	}
	return fmt.Sprintf("%s %s %s %s: expected %q, got %q (%d nodes, %s%s)", verdict, p.ID, p.Goal, p.Target,
		p.Expected, p.Answer, p.Nodes, time.Duration(p.TimeNs).Round(time.Microsecond), proved)
}

// Quantile is the q-quantile of xs (not modified) by linear interpolation between order statistics
// (Hyndman and Fan's type 7, numpy's default): the median of an even count is the mean of the
// middle two. It is NaN for no values.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	h := q * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// Split divides problems into a training part (about two thirds, as Stern's 289 of 434, §4.5.2)
// and a test part by a hash of each id and the seed: the same problem always falls on the same side
// for a seed, whatever else the file holds and in whatever order. Both keep the file's order.
func Split(problems []Problem, seed uint64) (train, test []Problem) {
	for _, p := range problems {
		if InTest(p.ID, seed) {
			test = append(test, p)
		} else {
			train = append(train, p)
		}
	}
	return train, test
}

// InTest reports whether the problem with this id is in the test part of Split for seed.
func InTest(id string, seed uint64) bool {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(id))
	return board.Mix64(h.Sum64())%3 == 0
}

// SelectIDs returns the problems named in ids, in file order: a name matches a problem's whole id
// ("reading.tst:5") or its number after the last colon ("5"). A name no problem has is an error.
func SelectIDs(problems []Problem, ids []string) ([]Problem, error) {
	want := map[string]bool{}
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = false
		}
	}
	var out []Problem
	for _, p := range problems {
		short := p.ID[strings.LastIndex(p.ID, ":")+1:]
		_, full := want[p.ID]
		_, num := want[short]
		if full || num {
			out = append(out, p)
		}
		if full {
			want[p.ID] = true
		}
		if num {
			want[short] = true
		}
	}
	var missing []string
	for id, found := range want {
		if !found {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("no problem with id %s", strings.Join(missing, ", "))
	}
	return out, nil
}
