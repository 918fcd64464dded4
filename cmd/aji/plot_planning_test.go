package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/planning"
)

// `aji plot planning` on two small panels draws the image and prints one table a panel, one row a
// method; --json gives the same numbers.
func TestPlotPlanning(t *testing.T) {
	out := filepath.Join(t.TempDir(), "planning.png")
	args := []string{"plot", "planning", "--tree", "pgame,random", "--branching", "3", "--depth", "4,5", "--trees", "20",
		"--budgets", "1,10,100", "--methods", "mc,uct,ab,counting,tree,dyntree", "--out", out}
	text, err := run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"pgame trees, B=3, D=4, 20 trees", "random trees, B=3, D=5, 20 trees", "dyntree", "100"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in %q", s, text)
		}
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() == 0 {
		t.Fatalf("no image: %v", err)
	}
	js, err := run(t, append(args, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var res []planning.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || len(res[0].Curves) != 6 || len(res[1].Curves[2].ErrorRate) != 3 {
		t.Fatalf("json: %+v", res)
	}
	if ab := res[0].Curves[2].ErrorRate; ab[2] != 0 { // 100 leaves search a 3^4 tree through
		t.Errorf("alpha-beta error after a full search: %v", ab)
	}
}

func TestPlotPlanningUsage(t *testing.T) {
	for _, args := range [][]string{
		{"plot", "planning"},
		{"plot", "planning", "--out", "x.png", "--tree", "chess"},
		{"plot", "planning", "--out", "x.png", "--methods", "uct,magic"},
		{"plot", "planning", "--out", "x.png", "--budgets", "10,5"},
		{"plot", "planning", "--out", "x.png", "--branching", "2,3,4", "--depth", "4,5"},
		{"plot", "planning", "--out", "x.png", "--depth", "50"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}
