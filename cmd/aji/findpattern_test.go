package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"aji/analysis/findpattern/findtest"
)

// TestFindPattern: the shape read from a planted game with --sgf, and the same given as --shape, find
// every plant of the synthetic archive as JSON lines, the broken records skipped; --limit stops early.
func TestFindPattern(t *testing.T) {
	plants := findtest.Plants()
	dir := t.TempDir()
	archive, err := findtest.WriteTarXz(dir, "planted", findtest.Collection(plants))
	if err != nil {
		t.Fatal(err)
	}
	first, err := findtest.WriteFolder(dir, "one", []findtest.Member{{Name: "first.sgf", Data: plants[0].SGF()}})
	if err != nil {
		t.Fatal(err)
	}
	at := plants[0].Point().GTP(19)
	out, err := run(t, "find-pattern", "--games", archive, "--sgf", first+"/first.sgf", "--move", fmt.Sprint(plants[0].Move()), "--at", at, "--size", "8")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(plants) {
		t.Fatalf("%d lines, want one per plant (%d):\n%s", len(lines), len(plants), out)
	}
	for i, line := range lines {
		var m patternMatch
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		p := plants[i]
		want := patternMatch{File: fmt.Sprintf("planted/plant-%02d.sgf", i), Move: p.Move(), Point: p.Point().GTP(19),
			Color: p.Color.String(), Played: p.Played, Next: "S2"} // the far corner where a plant is not played
		if p.Played {
			want.Next = want.Point
		}
		if m != want {
			t.Errorf("line %d: %+v, want %+v", i, m, want)
		}
	}

	// The same shape by its text, which the stderr summary names; a limit.
	out, err = run(t, "find-pattern", "--games", archive, "--shape", "T8:0", "--limit", "3")
	if err != nil || out != "" {
		t.Fatalf("a shape that is nowhere: %q, %v", out, err)
	}
	for _, args := range [][]string{
		{"find-pattern", "--games", archive},
		{"find-pattern", "--games", archive, "--shape", "8:1", "--feature", "self-atari"},
		{"find-pattern", "--games", archive, "--shape", "2:1"},
		{"find-pattern", "--games", archive, "--feature", "no such feature"},
		{"find-pattern", "--games", archive, "--sgf", first + "/first.sgf"},
		{"find-pattern", "--shape", "8:1"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, err := run(t, "find-pattern", "--games", dir+"/missing", "--shape", "8:1"); err == nil {
		t.Error("a missing collection is no error")
	}
}
