package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/reading"
	"aji/analysis/reading/surrogate"
)

// sgfOf is a record of b's stones as setup properties.
func sgfOf(t *testing.T, drawing string) string {
	t.Helper()
	b, err := board.Parse(drawing)
	if err != nil {
		t.Fatal(err)
	}
	var ab, aw strings.Builder
	for _, p := range b.Points() {
		x, y := p.XY()
		v := "[" + string(rune('a'+x)) + string(rune('a'+y)) + "]"
		switch b.At(p) {
		case board.Black:
			ab.WriteString(v)
		case board.White:
			aw.WriteString(v)
		}
	}
	return "(;GM[1]FF[4]SZ[" + strconv.Itoa(b.Size()) + "]AB" + ab.String() + "AW" + aw.String() + ")"
}

// readingProblems writes a problem file of two small attack problems: one probability propagation
// proves in about 400 nodes, one at once.
func readingProblems(t *testing.T) string {
	t.Helper()
	lines := []map[string]any{
		{"id": "t:1", "command": "attack", "target": "G2", "expected": "1 F2", "sgf": sgfOf(t, `
			. . . . X . X X .
			X . . . . . . . X
			. . O . . . O X .
			O . O X O X . . .
			. . . . . X . O .
			. . X X O . X . O
			. . X O O X . X .
			. . O . O . O O X
			. O . . . . X . .`)},
		{"id": "t:2", "command": "attack", "target": "C6", "expected": "1 .*", "sgf": sgfOf(t, `
			. . . . . . . . .
			. . . . . . . . .
			. . X X X . . . .
			. X O O . X . . .
			. . X O X . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`)},
	}
	var sb strings.Builder
	for _, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(data)
		sb.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "problems.jsonl")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if ps, err := reading.LoadProblems(path); err != nil || len(ps) != 2 {
		t.Fatalf("problem file: %v", err)
	}
	return path
}

func TestTrainReading(t *testing.T) {
	problems := readingProblems(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		kind string
	}{
		{[]string{"--model", "beta", "--alpha0", "size", "--learn", "all"}, "*surrogate.Beta"},
		{[]string{"--model", "beta", "--alpha0", "2", "--learn", "proved"}, "*surrogate.Beta"},
		{[]string{"--model", "hier", "--learn", "solved", "--pseudo", "0"}, "*surrogate.Hier"},
	} {
		out := filepath.Join(dir, "model.ajim")
		args := append([]string{"train", "reading", "--problems", problems, "--passes", "2", "--out", out}, c.args...)
		text, err := run(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, text)
		}
		// Both problems are proved in the first pass, so there is no second.
		if !strings.Contains(text, "pass 1: 2 problems tried, 2 proved (2 of 2 so far)") || strings.Contains(text, "pass 2") {
			t.Errorf("%v: output\n%s", c.args, text)
		}
		m, err := surrogate.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%T", m); got != c.kind {
			t.Errorf("%v: a %s", c.args, got)
		}
	}
	// aji reading --prior: the model as probability propagation's prior, for pp only.
	model := filepath.Join(dir, "model.ajim")
	if text, err := run(t, "reading", "--problems", problems, "--method", "pp", "--prior", model); err != nil || !strings.Contains(text, "2 proved") {
		t.Errorf("reading --prior: %v\n%s", err, text)
	}
	if _, err := run(t, "reading", "--problems", problems, "--method", "pns", "--prior", model); !errors.Is(err, errUsage) {
		t.Errorf("reading --method pns --prior: %v, want a usage error", err)
	}
	if _, err := run(t, "reading", "--problems", problems, "--method", "pp", "--prior", problems); err == nil {
		t.Error("reading --prior with a problem file for a model: no error")
	}
	// A budget too small to prove the first problem: it is tried again in the second pass.
	out := filepath.Join(dir, "small.ajim")
	text, err := run(t, "train", "reading", "--problems", problems, "--passes", "2", "--max-nodes", "50", "--out", out)
	if err != nil || !strings.Contains(text, "pass 2: 1 problems tried") {
		t.Errorf("small budget: %v\n%s", err, text)
	}
	for _, bad := range [][]string{
		{"--model", "nosuch"}, {"--alpha0", "-1"}, {"--learn", "some"}, {"--split", "half"}, {"--passes", "0"},
	} {
		args := append([]string{"train", "reading", "--problems", problems, "--out", out}, bad...)
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
}

// TestTrainReadingInterrupted: Ctrl-C saves what was learned.
func TestTrainReadingInterrupted(t *testing.T) {
	problems := readingProblems(t)
	out := filepath.Join(t.TempDir(), "model.ajim")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var sb strings.Builder
	err := dispatch(ctx, []string{"train", "reading", "--problems", problems, "--model", "hier", "--out", out}, &sb)
	if !errors.Is(err, context.Canceled) || !strings.Contains(sb.String(), "interrupted") {
		t.Fatalf("%v\n%s", err, sb.String())
	}
	if _, err := surrogate.Load(out); err != nil {
		t.Fatalf("the interrupted run's model: %v", err)
	}
}

// TestTrainReadingOnGames: --games turns every string of two or three liberties of the positions
// read into an attack search the model learns from.
func TestTrainReadingOnGames(t *testing.T) {
	dir := t.TempDir()
	record := strings.TrimSuffix(sgfOf(t, `
		. . . . . . .
		. . X O . . .
		. X O . O . .
		. . X O . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`), ")") + ";B[dc];W[ee];B[bd])"
	games := filepath.Join(dir, "g.sgf")
	if err := os.WriteFile(games, []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.ajim")
	text, err := run(t, "train", "reading", "--games", games, "--every", "1", "--model", "hier", "--max-nodes", "2000", "--out", out)
	var searches int
	if err == nil {
		_, err = fmt.Sscanf(text, "%d searches", &searches)
	}
	if err != nil || searches == 0 {
		t.Fatalf("%v, %d searches:\n%s", err, searches, text)
	}
	if _, err := surrogate.Load(out); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "train", "reading", "--games", games, "--problems", games, "--out", out); !errors.Is(err, errUsage) {
		t.Errorf("--games with --problems: %v, want a usage error", err)
	}
}
