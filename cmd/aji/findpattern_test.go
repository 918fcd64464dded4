package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/findpattern/findtest"
	"aji/analysis/game"
	"aji/analysis/predict"
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

// TestFindPatternPredictorShapes: with --predictor mm a shape is found exactly where it is mm's shape
// factor, as mm's explanation names it: of the moves where the shape matches, those where mm explains
// the move with a shape of that size, and no other.
func TestFindPatternPredictorShapes(t *testing.T) {
	const dir = "../../assets/games"
	pred, err := predict.New("mm", predict.Options{NoOwner: true})
	if err != nil {
		t.Fatal(err)
	}
	ex := pred.(predict.Explainer)
	games := map[string]*game.Game{}
	for _, size := range []string{"4", "7"} {
		find := func(extra ...string) []patternMatch {
			t.Helper()
			out, err := run(t, append([]string{"find-pattern", "--games", dir, "--sgf", dir + "/Agon-01-8.sgf", "--move", "20", "--at", "P6", "--size", size}, extra...)...)
			if err != nil {
				t.Fatal(err)
			}
			var ms []patternMatch
			for line := range strings.Lines(out) {
				var m patternMatch
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatal(err)
				}
				ms = append(ms, m)
			}
			return ms
		}
		all, fires := find(), find("--predictor", "mm")
		if len(fires) == 0 || len(fires) == len(all) && size == "4" {
			t.Fatalf("size %s: %d matches, %d with mm: a test of nothing", size, len(all), len(fires))
		}
		j := 0
		for _, m := range all {
			g := games[m.File]
			if g == nil {
				gs, err := game.LoadFile(dir + "/" + strings.TrimPrefix(m.File, "games/"))
				if err != nil {
					t.Fatal(err)
				}
				g, games[m.File] = gs[0], gs[0]
			}
			pos, err := g.PositionAfter(m.Move)
			if err != nil {
				t.Fatal(err)
			}
			p, err := board.ParseGTP(m.Point, 19)
			if err != nil {
				t.Fatal(err)
			}
			isShape := fmt.Sprint(ex.Explain(pos, p).PatternSize) == size
			inFires := j < len(fires) && fires[j] == m
			if inFires {
				j++
			}
			if isShape != inFires {
				t.Fatalf("size %s, %+v: mm's shape there is %v of that size, found with --predictor mm %v", size, m, isShape, inFires)
			}
		}
		if j != len(fires) {
			t.Fatalf("size %s: %d matches with mm are not among the %d without", size, len(fires)-j, len(all))
		}
	}
	if _, err := run(t, "find-pattern", "--games", dir, "--shape", "8:1", "--predictor", "uniform"); !errors.Is(err, errUsage) {
		t.Errorf("a predictor without shapes: %v", err)
	}
}
