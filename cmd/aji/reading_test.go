package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aji/analysis/reading"
)

// handReadingProblems is a problem file of hand-made 9x9 positions (those of analysis/reading's
// tests) in GNU Go's format; t:5 expects a wrong answer, so four of five pass.
const handReadingProblems = `{"id": "t:1", "sgf": "(;GM[1]FF[4]SZ[9]AB[de][cf][eg]AW[fd][df])", "move": null, "command": "attack", "target": "D4", "expected": "1 E4"}
{"id": "t:2", "sgf": "(;GM[1]FF[4]SZ[9]AB[dd][ce][df]AW[ed][de][fe][ef])", "move": null, "command": "attack", "target": "D5", "expected": "2 E5"}
{"id": "t:3", "sgf": "(;GM[1]FF[4]SZ[9]AB[dd][fd][ce][cg]AW[de])", "move": null, "command": "attack", "target": "D5", "expected": "1 E4|E3"}
{"id": "t:4", "sgf": "(;GM[1]FF[4]SZ[9]AB[dd][ce][df]AW[ed][de][fe][ef])", "move": null, "command": "defend", "target": "D5", "expected": "1 E5"}
{"id": "t:5", "sgf": "(;GM[1]FF[4]SZ[9]AB[de][cf][eg]AW[fd][df])", "move": null, "command": "attack", "target": "D4", "expected": "0"}
`

func writeReadingProblems(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "problems.jsonl")
	if err := os.WriteFile(path, []byte(handReadingProblems), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadingCommand(t *testing.T) {
	path := writeReadingProblems(t)
	for _, method := range []string{"pns", "pp"} {
		out, err := run(t, "reading", "--problems", path, "--method", method)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out, method+": passed 4 of 5 (80.0%); attack 3/4, defend 1/1; 5 proved;") || !strings.Contains(out, "nodes/s") ||
			strings.Count(out, "\n") != 1 {
			t.Errorf("%s summary: %q", method, out)
		}
	}
	out, err := run(t, "reading", "--problems", path, "--details")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], `PASS t:1 attack D4: expected "1 E4", got "1 E4"`) ||
		!strings.HasPrefix(lines[4], `FAIL t:5 attack D4: expected "0", got "1 E4"`) {
		t.Errorf("details:\n%s", out)
	}

	// --json is the report; --ids picks problems by their number, in file order.
	out, err = run(t, "reading", "--problems", path, "--json", "--ids", "4,2", "--max-nodes", "5000", "--max-liberties", "3")
	if err != nil {
		t.Fatal(err)
	}
	var r reading.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Total != 2 || r.Problems[0].ID != "t:2" || r.Problems[1].ID != "t:4" || r.MaxNodes != 5000 || r.MaxLiberties != 3 ||
		r.Problems[0].Answer != "2 E5" || r.Problems[0].Code != 2 || r.ByGoal["defend"].Passed != 1 {
		t.Errorf("report %+v", r)
	}

	// --split divides the problems between train and test, the same way every time.
	var parts [2][]string
	for i, part := range []string{"train", "test"} {
		for range 2 {
			out, err := run(t, "reading", "--problems", path, "--json", "--split", part, "--split-seed", "3")
			if err != nil {
				if strings.Contains(err.Error(), "no problems selected") {
					continue // all five fell on the other side
				}
				t.Fatal(err)
			}
			var r reading.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, p := range r.Problems {
				ids = append(ids, p.ID)
			}
			if parts[i] != nil && !slices.Equal(parts[i], ids) {
				t.Errorf("--split %s: %v, then %v", part, parts[i], ids)
			}
			parts[i] = ids
		}
	}
	all := append(slices.Clone(parts[0]), parts[1]...)
	slices.Sort(all)
	if !slices.Equal(all, []string{"t:1", "t:2", "t:3", "t:4", "t:5"}) {
		t.Errorf("train %v and test %v", parts[0], parts[1])
	}
}

func TestReadingErrors(t *testing.T) {
	path := writeReadingProblems(t)
	missing := filepath.Join(t.TempDir(), "absent.jsonl")
	_, err := run(t, "reading", "--problems", missing)
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) || exitCode(err) != 1 ||
		strings.Contains(oneLine(err), "\n") {
		t.Errorf("missing file: %v", err)
	}
	for _, args := range [][]string{
		{"reading"},
		{"reading", path, "--problems", path},
		{"reading", "--problems", path, "--method", "mcts"},
		{"reading", "--problems", path, "--max-nodes", "0"},
		{"reading", "--problems", path, "--split", "validation"},
		{"reading", "--problems", path, "--ids", "1,9"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

func TestBenchReading(t *testing.T) {
	path := writeReadingProblems(t)
	out, err := run(t, "bench", "reading", "--problems", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Reading []readingFigure `json:"reading"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Reading) != 2 || v.Reading[0].Method != "pns" || v.Reading[1].Method != "pp" {
		t.Fatalf("figures %+v", v.Reading)
	}
	for _, f := range v.Reading {
		if f.Problems != 5 || f.Passed != 4 || !(f.NodesPerSecond > 0) || !(f.P90Ms >= f.MedianMs) || !(f.MedianMs > 0) {
			t.Errorf("figure %+v", f)
		}
	}
	out, err = run(t, "bench", "reading", "--problems", path)
	if err != nil || strings.Count(out, "nodes/s") != 2 || !strings.Contains(out, "reading pp: ") {
		t.Errorf("bench reading: %q, %v", out, err)
	}
	if _, err := run(t, "bench", "reading", "--problems", filepath.Join(t.TempDir(), "absent.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent problems: %v", err)
	}
}

// writeReadingReport writes an `aji reading --json` report of problems named by id: proved ones
// with the given time in ms (nodes 100 times that), unproved ones with 0.
func writeReadingReport(t *testing.T, name, method string, ms map[string]float64) string {
	t.Helper()
	r := reading.Report{Method: method}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range ms {
			if !yield(id) {
				return
			}
		}
	})
	for _, id := range ids {
		r.Problems = append(r.Problems, reading.ProblemResult{ID: id, Goal: "attack", Proved: ms[id] > 0,
			TimeNs: int64(ms[id] * 1e6), Nodes: int(ms[id] * 100)})
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPlotReading(t *testing.T) {
	a := writeReadingReport(t, "pns.json", "pns", map[string]float64{"1": 2, "2": 0.5, "3": 40, "4": 3, "5": 0, "6": 0})
	b := writeReadingReport(t, "pp.json", "pp", map[string]float64{"1": 3, "2": 0.4, "3": 0, "4": 0, "5": 7, "6": 0, "7": 1})
	out := filepath.Join(t.TempDir(), "sub", "reading.png")
	text, err := run(t, "plot", "reading", "--results", a+","+b, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"2 problems proved by both pns and pp", "pns proved 2 that pp did not", "pp proved 2 that pns did not"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in %q", s, text)
		}
	}
	if w, h := pngSize(t, out); w != 1350 || h != 1350 {
		t.Errorf("image %dx%d, want 1350x1350 (9 x 9 in at 150 dpi)", w, h)
	}
	// The order: by the first report's time, then the second's where the first did not prove it.
	c := compareReports([2]reading.Report{mustReadReport(t, a), mustReadReport(t, b)}, [2]string{"a", "b"})
	var order []string
	for _, p := range c.points {
		order = append(order, p.id)
	}
	if !slices.Equal(order, []string{"2", "7", "1", "4", "5", "3"}) {
		t.Errorf("order %v", order)
	}
	// The same method twice (before and after learning): the files name the curves, or --labels.
	text, err = run(t, "plot", "reading", "--results", a+","+a, "--labels", "before,after", "--out", out)
	if err != nil || !strings.Contains(text, "4 problems proved by both before and after") || !strings.Contains(text, "after proved 0 that before did not") {
		t.Errorf("--labels: %q, %v", text, err)
	}
}

func mustReadReport(t *testing.T, path string) reading.Report {
	t.Helper()
	r, err := readReadingReport(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPlotReadingErrors(t *testing.T) {
	a := writeReadingReport(t, "a.json", "pns", map[string]float64{"1": 2})
	none := writeReadingReport(t, "none.json", "pp", map[string]float64{"1": 0})
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"results": []}`), 0o644)
	out := filepath.Join(t.TempDir(), "x.png")
	for _, args := range [][]string{
		{"plot", "reading", "--results", a, "--out", out},                            // one report
		{"plot", "reading", "--results", a + "," + a + "," + a, "--out", out},        // three
		{"plot", "reading", "--results", a + "," + a},                                // no --out
		{"plot", "reading", "--results", a + "," + a, "--labels", "x", "--out", out}, // one label
		{"plot", "reading", "--results", a + "," + bad, "--out", out},                // not a report
		{"plot", "reading", "--results", none + "," + none, "--out", out},            // nothing proved
		{"plot", "reading", "--results", a + "," + filepath.Join(t.TempDir(), "absent.json"), "--out", out},
	} {
		if _, err := run(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed plot left %s (%v)", out, err)
	}
}
