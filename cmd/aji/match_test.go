package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/match"
)

// The test binary doubles as `aji gtp`: `aji match` starts its own executable with the argument "gtp"
// for Aji's engine, which in a test is this binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "gtp" {
		if err := dispatch(context.Background(), os.Args[1:], os.Stdout); err != nil {
			os.Stderr.WriteString("aji: " + oneLine(err) + "\n")
			os.Exit(exitCode(err))
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestMatchUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"match"},
		{"match", "--games", "2", "--out", dir},
		{"match", "--opponent", "gnugo", "--out", dir},
		{"match", "--games", "2", "--opponent", "gnugo"},
		{"match", "--games", "2", "--opponent", "gnugo", "--out", dir, "--size", "30"},
		{"match", "--games", "2", "--opponent", "gnugo", "--out", dir, "--playouts", "10", "--time", "1"},
		{"match", "--games", "2", "--opponent", "gnugo", "--out", dir, "--parallel", "0"},
		{"gtp", "extra"},
		{"gtp", "--threads", "0"},
		{"gtp", "--expand-at", "-1"},
		{"gtp", "--bayes-scale", "-1"},
		{"gtp", "--rave-bias", "-1"},
		{"gtp", "--rave-b", "-1"},
		{"gtp", "--rave-c", "-1"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	// An engine that does not exist fails at once, naming its role.
	if _, err := run(t, "match", "--games", "1", "--opponent", "no-such-engine-xyz --mode gtp", "--out", dir); err == nil || !strings.Contains(err.Error(), "opponent engine") {
		t.Errorf("missing opponent: %v", err)
	}
	// An existing match in the folder is never overwritten.
	os.WriteFile(filepath.Join(dir, "game-0001.sgf"), []byte("(;)"), 0o644)
	if _, err := run(t, "match", "--games", "1", "--opponent", "sh", "--referee", "opponent", "--out", dir); err == nil || !strings.Contains(err.Error(), "earlier match") {
		t.Errorf("match over an earlier one: %v", err)
	}
}

// TestGTPCommand runs `aji gtp` in predictor mode on a short script.
func TestGTPCommand(t *testing.T) {
	old := gtpInput
	defer func() { gtpInput = old }()
	gtpInput = strings.NewReader("1 name\n2 boardsize 9\n3 play b E5\n4 genmove w\n5 final_score\n6 quit\n")
	out, err := run(t, "gtp", "--predictor", "mm")
	if err != nil {
		t.Fatal(err)
	}
	resps := strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n")
	if len(resps) != 6 || resps[0] != "=1 Aji mm" || !strings.HasPrefix(resps[3], "=4 ") || !strings.HasPrefix(resps[4], "=5 ") {
		t.Fatalf("output %q", out)
	}
	if p, err := board.ParseGTP(strings.TrimPrefix(resps[3], "=4 "), 9); err != nil || p == board.Pass || p == board.At(4, 4) {
		t.Errorf("genmove answered %q", resps[3])
	}
}

// TestGTPSearch runs `aji gtp` with the tree search: genmove, the search's GoGui commands, undo.
func TestGTPSearch(t *testing.T) {
	old := gtpInput
	defer func() { gtpInput = old }()
	gtpInput = strings.NewReader("boardsize 9\nkomi 7\ngenmove b\ngenmove w\naji-pv\nundo\ngenmove w\n")
	out, err := run(t, "gtp", "--playouts", "200", "--predictor", "mm")
	if err != nil {
		t.Fatal(err)
	}
	resps := strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n")
	if len(resps) != 7 {
		t.Fatalf("output %q", out)
	}
	for _, i := range []int{2, 3, 6} {
		p, err := board.ParseGTP(strings.TrimPrefix(resps[i], "= "), 9)
		if err != nil || p == board.Pass {
			t.Errorf("genmove answered %q", resps[i])
		}
	}
	if !strings.HasPrefix(resps[4], "= VAR b ") || resps[5] != "= " {
		t.Errorf("aji-pv %q, undo %q", resps[4], resps[5])
	}
}

// TestGTPResign: with a komi Black cannot overcome, the search resigns at the default --resign, and
// plays on with --resign -1.
func TestGTPResign(t *testing.T) {
	old := gtpInput
	defer func() { gtpInput = old }()
	for _, c := range []struct {
		flags  []string
		resign bool
	}{{nil, true}, {[]string{"--resign", "-1"}, false}} {
		gtpInput = strings.NewReader("boardsize 9\nkomi 80\ngenmove b\n")
		out, err := run(t, append([]string{"gtp", "--playouts", "2000", "--predictor", "mm"}, c.flags...)...)
		if err != nil {
			t.Fatal(err)
		}
		if resps := strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n"); len(resps) != 3 || (resps[2] == "= resign") != c.resign {
			t.Errorf("%v: output %q, want resign %v", c.flags, out, c.resign)
		}
	}
	if _, err := run(t, "gtp", "--resign", "1"); err == nil {
		t.Error("--resign 1 accepted")
	}
}

// TestMatchAgainstGNUGo plays a real match: Aji's predictor player (this binary as `aji gtp`) against
// GNU Go at level 1 on 9x9, four short games, counted by a GNU Go referee. It checks the JSON and that
// every game is saved as SGF that reads back with analysis/game and agrees with the JSON.
func TestMatchAgainstGNUGo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a match plays GNU Go")
	}
	if _, err := gtp.LookPath("gnugo"); err != nil {
		t.Skipf("gnugo not installed (apt-get install gnugo): %v", err)
	}
	dir := filepath.Join(t.TempDir(), "games")
	const games = 4
	out, err := run(t, "match", "--size", "9", "--komi", "7", "--games", "4", "--opponent", "gnugo --mode gtp --level 1",
		"--playouts", "0", "--predictor", "mm", "--out", dir, "--json", "--parallel", "2")
	if err != nil {
		t.Fatal(err)
	}
	var sum match.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, f := range []string{"games", "wins", "losses", "win_rate", "ci95_low", "ci95_high", "seconds_per_game"} {
		if _, ok := raw[f]; !ok {
			t.Errorf("JSON lacks %s", f)
		}
	}
	if sum.Games != games || sum.Wins+sum.Losses+sum.Draws != games || sum.Failed != 0 {
		t.Errorf("summary %+v", sum)
	}
	if !(0 <= sum.CI95Low && sum.CI95Low <= sum.WinRate && sum.WinRate <= sum.CI95High && sum.CI95High <= 1) || sum.SecondsPerGame <= 0 {
		t.Errorf("rate and interval %+v", sum)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.sgf"))
	if len(files) != games {
		t.Fatalf("%d SGF files, want %d", len(files), games)
	}
	wins := 0
	for i, f := range files {
		gs, err := game.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g := gs[0]
		if g.Info.Size != 9 || g.Info.Komi != 7 || g.Info.Rules != "Chinese" {
			t.Errorf("%s: info %+v", f, g.Info)
		}
		ajiBlack := i%2 == 0 // colours alternate, Aji black in the first game
		if ajiBlack != strings.HasPrefix(g.Info.Black, "Aji") || ajiBlack == strings.HasPrefix(g.Info.White, "Aji") {
			t.Errorf("%s: PB %q PW %q", f, g.Info.Black, g.Info.White)
		}
		// Every move replays legally, the game ends with two passes or a resignation, and the
		// result names a winner.
		if err := g.WalkMainLine(func(*game.Position, game.Move) error { return nil }); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		line := g.MainLine()
		last := line[len(line)-1].Move
		res := g.Info.Result
		ended := strings.HasSuffix(res, "+R") || len(line) > 2 && last.Point == board.Pass && line[len(line)-2].Move.Point == board.Pass
		if g.NumMoves() < 10 || !ended {
			t.Errorf("%s: %d moves, result %q, last move %+v", f, g.NumMoves(), res, last)
		}
		if res == "" || res != "0" && res[0] != 'B' && res[0] != 'W' {
			t.Fatalf("%s: result %q", f, res)
		}
		if res != "0" && (res[0] == 'B') == ajiBlack {
			wins++
		}
	}
	if wins != sum.Wins {
		t.Errorf("the files show %d wins for Aji, the JSON %d", wins, sum.Wins)
	}
}

// Ctrl-C stops a match promptly; the games finished before stay on disk, whole.
func TestMatchInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a match plays GNU Go")
	}
	if _, err := gtp.LookPath("gnugo"); err != nil {
		t.Skipf("gnugo not installed (apt-get install gnugo): %v", err)
	}
	dir := filepath.Join(t.TempDir(), "games")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the first game is saved.
		for ctx.Err() == nil {
			if f, _ := filepath.Glob(filepath.Join(dir, "game-*.sgf")); len(f) > 0 {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var out strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- dispatch(ctx, []string{"match", "--games", "100", "--opponent", "gnugo --mode gtp --level 1", "--out", dir}, &out)
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("match did not stop after Ctrl-C") // a bound for a hang, not a timing
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted match: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.sgf"))
	if len(files) == 0 || len(files) >= 100 {
		t.Fatalf("%d games kept", len(files))
	}
	for _, f := range files {
		if _, err := game.LoadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(out.String(), "Aji ") {
		t.Errorf("no summary printed: %q", out.String())
	}

	// --resume plays only the missing games; the saved ones stay as they were and count.
	first, _ := os.ReadFile(files[0])
	n := len(files) + 1
	args := []string{"match", "--games", strconv.Itoa(n), "--opponent", "gnugo --mode gtp --level 1", "--out", dir, "--json"}
	if _, err := run(t, args...); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a second match into the same folder: %v, want a refusal naming --resume", err)
	}
	if _, err := run(t, "match", "--games", strconv.Itoa(n), "--opponent", "gnugo --mode gtp --level 2", "--out", dir, "--resume"); err == nil ||
		!strings.Contains(err.Error(), "another match") {
		t.Errorf("resuming with another opponent: %v, want a refusal", err)
	}
	res, err := run(t, append(args, "--resume")...)
	if err != nil {
		t.Fatal(err)
	}
	var sum match.Summary
	if err := json.Unmarshal([]byte(res), &sum); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, res)
	}
	files, _ = filepath.Glob(filepath.Join(dir, "game-*.sgf"))
	if sum.Games != n || len(files) != n || sum.Wins+sum.Losses+sum.Draws != n {
		t.Errorf("resumed to %d games: summary %+v, %d files", n, sum, len(files))
	}
	if again, _ := os.ReadFile(files[0]); string(again) != string(first) {
		t.Errorf("resuming rewrote %s", files[0])
	}
}
