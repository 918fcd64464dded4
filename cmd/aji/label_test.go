package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/gtp"
	"aji/assets"
)

func TestLabelUsage(t *testing.T) {
	for _, args := range [][]string{
		{"label"},
		{"label", "--games", "x"},
		{"label", "--out", "x.jsonl"},
		{"label", "--games", "x", "--out", "y", "--workers", "0"},
		{"label", "--games", "x", "--out", "y", "extra"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, err := run(t, "label", "--games", filepath.Join(t.TempDir(), "none"), "--out", "y"); err == nil || errors.Is(err, errUsage) {
		t.Errorf("missing games: %v", err)
	}
}

func TestLabel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: labelling runs GNU Go")
	}
	if _, err := gtp.LookPath("gnugo"); err != nil {
		t.Skipf("gnugo not installed (apt-get install gnugo): %v", err)
	}
	dir := filepath.Join(t.TempDir(), "games")
	os.Mkdir(dir, 0o755)
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "labels.jsonl")
	msg, err := run(t, "label", "--games", dir, "--out", out, "--engine", "gnugo --mode gtp --level 10", "--workers", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "labelled 2 of 3 games (1 without a counted result, 0 failed)") {
		t.Errorf("stdout %q", msg)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var l struct {
			Game   string `json:"game"`
			Size   int    `json:"size"`
			Labels []int  `json:"labels"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || len(l.Labels) != l.Size*l.Size {
			t.Errorf("line %d: %v %+v", n+1, err, l)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}
