package main

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/predict/mm"
	"aji/assets"
)

// TestDiffModels trains two small mm models on the sample games, 2 and 4 MM iterations over one
// dictionary, and compares them: the largest change it reports is the largest there is.
func TestDiffModels(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	patterns, a, b := filepath.Join(tmp, "p.ajim"), filepath.Join(tmp, "a.ajim"), filepath.Join(tmp, "b.ajim")
	for _, args := range [][]string{
		{"harvest", "--games", dir, "--threshold", "2", "--filter-mb", "4", "--out", patterns},
		{"train", "mm", "--games", dir, "--patterns", patterns, "--iterations", "2", "--out", a},
		{"train", "mm", "--games", dir, "--patterns", patterns, "--iterations", "4", "--out", b},
	} {
		if _, err := run(t, args...); err != nil {
			t.Fatal(err)
		}
	}
	out, err := run(t, "diff-models", a, b, "--top", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep diffReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	ma, err := mm.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := mm.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	largest, changed := 0.0, 0
	for i := range ma.Gamma {
		d := math.Abs(math.Log(mb.Gamma[i]) - math.Log(ma.Gamma[i]))
		largest = max(largest, d)
		if d != 0 {
			changed++
		}
	}
	if rep.Family != "mm" || rep.Added != 0 || rep.Removed != 0 || rep.Changed != changed || len(rep.Top) != 3 {
		t.Fatalf("report %+v; %d γ changed", rep, changed)
	}
	if got := math.Abs(rep.Top[0].Delta); math.Abs(got-largest) > 1e-12 || math.Abs(rep.Top[2].Delta) > got {
		t.Errorf("largest change %v, want %v (then %v)", got, largest, rep.Top[2].Delta)
	}
	if f := rep.Top[0]; f.A == nil || f.B == nil || math.Abs(math.Log(*f.B)-math.Log(*f.A)-f.Delta) > 1e-12 {
		t.Errorf("top change %+v", f)
	}

	// Against the embedded model: another dictionary, so shapes are added and removed.
	out, err = run(t, "diff-models", "mm", b, "--top", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Largest changes (by |Δ ln gamma|)", "Added (in " + b, "Removed (in mm only", "shape of size"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	if _, err := run(t, "diff-models", a, "fbt-small"); err == nil || !strings.Contains(err.Error(), "of kind mm and fbt-small of kind fbt-small") {
		t.Errorf("models of two kinds: %v", err)
	}
	if _, err := run(t, "diff-models", "mm", "cnn"); err == nil || !strings.Contains(err.Error(), "no weights") {
		t.Errorf("the cnn: %v", err)
	}
	if _, err := run(t, "diff-models", "mm", filepath.Join(tmp, "missing.ajim")); err == nil {
		t.Error("a missing file accepted")
	}
	if _, err := run(t, "diff-models", "mm"); !errors.Is(err, errUsage) {
		t.Errorf("one model: %v", err)
	}
	if _, err := run(t, "diff-models", "mm", a, "--by-v"); !errors.Is(err, errUsage) {
		t.Errorf("--by-v on mm: %v", err)
	}
}

// TestDiffModelsFBT compares the two embedded fbt models' listings with themselves (nothing changes)
// through --by-v, which orders by the interaction vectors.
func TestDiffModelsFBT(t *testing.T) {
	out, err := run(t, "diff-models", "fbt-small", "fbt-small", "--by-v", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep diffReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 0 || rep.Unchanged != rep.RowsA || rep.RowsA == 0 || rep.Measure != "w" {
		t.Errorf("a model against itself: %+v", rep)
	}
}
