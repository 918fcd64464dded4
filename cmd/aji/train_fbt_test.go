package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/predict/fbt"
	"aji/assets"
)

// TestTrainFBT trains F_small on the sample games for a few passes, resumes the run for one more, and
// reads the model, the checkpoint and the log it wrote; then explains a move with the model.
func TestTrainFBT(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	model, log := filepath.Join(tmp, "fbt-small.ajim"), filepath.Join(tmp, "fbt.log")
	args := []string{"train", "fbt", "--small", "--k", "4", "--games", dir, "--validation", dir, "--validation-games", "1",
		"--positions-per-game", "20", "--alpha", "0.01", "--max-passes", "2", "--out", model, "--log", log}
	out, err := run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "trained on") {
		t.Errorf("output: %s", out)
	}
	m, err := fbt.Load(model)
	if err != nil || m.K != 4 || m.Large() || m.Passes < 1 || m.Passes > 2 {
		t.Fatalf("model %s: %+v, %v", model, m, err)
	}
	ckpt, err := fbt.Load(model + ".ckpt")
	if err != nil || ckpt.Passes != 2 {
		t.Fatalf("checkpoint: %v, passes %d", err, ckpt.Passes)
	}
	if _, err := run(t, append(args[:len(args)-4], "--max-passes", "3", "--resume", "--out", model, "--log", log)...); err != nil {
		t.Fatal(err)
	}
	if ckpt, err = fbt.Load(model + ".ckpt"); err != nil || ckpt.Passes != 3 {
		t.Fatalf("resumed checkpoint: %v, passes %d", err, ckpt.Passes)
	}
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []fbtLogLine
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var l fbtLogLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 3 || lines[2].Pass != 3 || lines[0].K != 4 || !(lines[0].Top1 > 0) || lines[2].Seconds < lines[1].Seconds {
		t.Errorf("log (the resumed pass's seconds go on from the run's) %+v", lines)
	}

	// The owner stage fits the Monte Carlo owner levels and leaves every other weight as it was.
	base, err := fbt.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	owner := filepath.Join(tmp, "owner.ajim")
	if _, err := run(t, "train", "fbt", "--owner-from", model, "--games", dir, "--validation", dir, "--validation-games", "1",
		"--validation-positions-per-game", "4", "--positions-per-game", "3", "--alpha", "0.01", "--max-passes", "1", "--out", owner); err != nil {
		t.Fatal(err)
	}
	om, err := fbt.Load(owner)
	if err != nil || !om.Owner() || base.Owner() {
		t.Fatalf("owner stage: %v; owner levels fitted %v (base %v)", err, om != nil && om.Owner(), base.Owner())
	}
	for f := range om.W {
		if !fbt.IsOwner(int32(f)) && (om.W[f] != base.W[f] || om.V[f*om.K] != base.V[f*base.K]) {
			t.Fatalf("the owner stage changed feature %d", f)
		}
	}

	games, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	out, err = run(t, "explain", games[0], "--model", model, "--move", "30", "--point", "D4", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ex explanation
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Point != "D4" || ex.Rank < 1 || len(ex.Factors) == 0 || len(ex.Interactions) == 0 {
		t.Errorf("explanation %+v", ex)
	}

	for _, args := range [][]string{
		{"train", "fbt", "--games", dir, "--out", model},
		{"train", "fbt", "--games", dir, "--validation", dir},
		{"train", "fbt", "--small", "--patterns", "p.ajim", "--games", dir, "--validation", dir, "--out", model},
		{"train", "fbt", "--small", "--owner-from", model, "--games", dir, "--validation", dir, "--out", model},
		{"explain"},
		{"explain", games[0], "--point", "Z99"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, err := run(t, "train", "fbt", "--games", dir, "--validation", dir, "--out", filepath.Join(tmp, "none.ajim"), "--resume"); err == nil {
		t.Error("--resume without a checkpoint accepted")
	}
}
