package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchCfgJSON(t *testing.T) {
	// MemStats counts the whole process's allocations (the runtime's own, finalizers of earlier tests'
	// objects); at 0.1 s a figure there are calls enough that those stay well under one a call, even
	// under -race on a slow machine (at 0.01 s CI once saw 7 over 3 calls).
	out, err := run(t, "bench", "cfg", "--seconds", "0.3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Cfg []cfgFigure }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	want := []string{cfgOpBuild, cfgOpBuildFeatures, cfgOpReset, cfgOpPlay, cfgOpPlayFeatures}
	if len(v.Cfg) != len(want) {
		t.Fatalf("%d figures, want %d: %+v", len(v.Cfg), len(want), v.Cfg)
	}
	for i, f := range v.Cfg {
		per := "position"
		if i >= 3 {
			per = "move"
		}
		if f.Op != want[i] || f.Per != per || f.Ops < 1 || !(f.MicrosPerOp > 0) || f.Iterations < 1 {
			t.Errorf("figure %d: %+v, want %s per %s", i, f, want[i], per)
		}
	}
	// Every empty point of a 19x19 game position has several walks; a move updates some.
	if b, p := v.Cfg[1].FeaturesPerOp, v.Cfg[4].FeaturesPerOp; b < 200 || p < 200 {
		t.Errorf("path features per position %.0f from scratch, %.0f incrementally", b, p)
	}
	if u := v.Cfg[3].WalkUpdatesPerOp; u < 1 {
		t.Errorf("%.1f walk updates per move", u)
	}
	// Graph.Build and Tracker.Reset reuse their memory: once warmed up on every position, none.
	for _, f := range v.Cfg[:3] {
		if f.AllocsPerOp >= 1 {
			t.Errorf("%s: %.2f allocations per position", f.Op, f.AllocsPerOp)
		}
	}

	text, err := run(t, "bench", "cfg", "--seconds", "0.01")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"cfg build ", "cfg build+features", "cfg tracker reset", "cfg tracker play ", "µs per move", "allocs", "walk updates"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in\n%s", s, text)
		}
	}
}
