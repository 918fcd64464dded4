package main

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestExplainWhyNot: --why-not top compares the record's next move with the predictor's top move (its
// second where the record's move is the top), the differences summing to log(p_A/p_B).
func TestExplainWhyNot(t *testing.T) {
	path := sampleFile(t, "Agon-01-8.sgf")
	for _, pred := range []string{"mm", "fbt", "bayes"} {
		out, err := run(t, "explain", path, "--move", "120", "--predictor", pred, "--why-not", "top", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var w whyNotFigures
		if err := json.Unmarshal([]byte(out), &w); err != nil {
			t.Fatal(err)
		}
		if w.A.Point != "C13" || w.B.Rank != 1 && w.A.Rank != 1 || w.B.Point == w.A.Point || w.Predictor != pred || len(w.Terms) == 0 {
			t.Fatalf("%s: %+v", pred, w)
		}
		sum := 0.0
		for i, tm := range w.Terms {
			sum += tm.Diff
			if i > 0 && math.Abs(tm.Diff) > math.Abs(w.Terms[i-1].Diff) {
				t.Errorf("%s: term %d (%s) is larger than the one before", pred, i, tm.Name)
			}
		}
		if want := math.Log(w.A.Probability / w.B.Probability); math.Abs(sum-w.LogRatio) > 1e-9 || math.Abs(want-w.LogRatio) > 1e-9 {
			t.Errorf("%s: Σ diff %g, log_ratio %g, log(pA/pB) %g", pred, sum, w.LogRatio, want)
		}
	}
	out, err := run(t, "explain", path, "--move", "120", "--point", "K10", "--why-not", "A1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "why K10") || !strings.Contains(out, "not A1") || !strings.Contains(out, "log(pA/pB)") {
		t.Errorf("text output:\n%s", out)
	}
	// Pass is a move like any other, on either side.
	out, err = run(t, "explain", path, "--move", "120", "--point", "pass", "--why-not", "top")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "why pass") || !strings.Contains(out, "pass: previous move is not a pass") {
		t.Errorf("pass against the top:\n%s", out)
	}
	if _, err := run(t, "explain", path, "--move", "120", "--why-not", "pass"); err != nil {
		t.Errorf("--why-not pass: %v", err)
	}
	if _, err := run(t, "explain", path, "--why-not", "Z99"); !errors.Is(err, errUsage) {
		t.Errorf("--why-not Z99: %v, want a usage error", err)
	}
}
