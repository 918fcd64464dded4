package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/predict/cfgbt"
	"aji/assets"
)

// TestTrainCFGSmall trains the small variant on the sample games, validates it on them through the
// registry, and loads the file it wrote.
func TestTrainCFGSmall(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "cfg-small.ajim")
	out, err := run(t, "train", "cfg", "--small", "--games", dir, "--positions-per-game", "20", "--min-count", "3",
		"--iterations", "3", "--out", model, "--validation", dir, "--validation-games", "1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"path labels:", "kept (seen at least 3 times)", "trained the small variant", "cfg-small"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	m, err := cfgbt.Load(model)
	if err != nil || m.Variant != cfgbt.Small || len(m.Labels) == 0 {
		t.Fatalf("model %s: %v", model, err)
	}
	for _, args := range [][]string{
		{"train", "cfg", "--games", dir},
		{"train", "cfg", "--out", model},
		{"train", "cfg", "--small", "--patterns", "p.ajim", "--games", dir, "--out", model},
		{"train", "cfg", "--games", dir, "--out", model, "extra"},
		{"train", "cfg", "--games", dir, "--out", model, "--fix-shapes"},
		{"train", "cfg", "--games", dir, "--out", model, "--patterns", "p.ajim", "--init-from", "default"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, err := run(t, "train", "cfg", "--games", dir, "--out", model, "--owner-from", model); err == nil {
		t.Error("--owner-from a small model accepted")
	}
}
