package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/assets"
	"aji/models"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := dispatch(context.Background(), args, &out)
	return out.String(), err
}

// skipUnderRace skips a test that only recomputes figures end to end under the race detector; the
// goroutines it passes through are race-tested in their own packages (eval, territory, mcts) and by
// this package's lighter tests, and `make test` runs it without -race.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("-race: figures recomputed end to end; run without -race")
	}
}

func sampleFile(t *testing.T, name string) string {
	t.Helper()
	data, err := assets.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReplayFormat(t *testing.T) {
	path := sampleFile(t, "pro-Minigo-020303.sgf")
	out, err := run(t, "replay", path, "--move", "3")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 10 || lines[9] != "captures B=0 W=0" {
		t.Fatalf("replay output:\n%s", out)
	}
	stones := strings.Count(strings.Join(lines[:9], ""), "X") + strings.Count(strings.Join(lines[:9], ""), "O")
	if stones != 3 {
		t.Errorf("%d stones after 3 moves:\n%s", stones, out)
	}
	for _, l := range lines[:9] {
		if len(l) != 9 || strings.Trim(l, "XO.") != "" {
			t.Errorf("bad row %q", l)
		}
	}
	// Flags may come before the file too; no --move means the last position.
	last, err := run(t, "replay", path)
	if err != nil {
		t.Fatal(err)
	}
	if same, _ := run(t, "replay", "--move", "100000", path); same != last {
		t.Error("--move past the end should give the last position")
	}
}

func TestErrorsAreOneLineAndNonZero(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.sgf")
	os.WriteFile(bad, []byte("(;SZ[19];B[zz])"), 0o644)
	for _, args := range [][]string{
		{},
		{"nonsense"},
		{"replay"},
		{"replay", "missing.sgf"},
		{"replay", bad},
		{"replay", "--move", "x", bad},
		{"eval", "--games", bad},
		{"eval", "--predictor", "nope", "--games", bad},
		{"bench", "nothing"},
	} {
		_, err := run(t, args...)
		if err == nil {
			t.Errorf("aji %v succeeded", args)
			continue
		}
		if msg := oneLine(err); strings.Contains(msg, "\n") || msg == "" {
			t.Errorf("aji %v: message %q is not one line", args, msg)
		}
		if exitCode(err) == 0 {
			t.Errorf("aji %v: exit code 0", args)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	dir := filepath.Dir(sampleFile(t, "Agon-01-8.sgf"))
	out, err := run(t, "eval", "--predictor", "uniform,uniform", "--games", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if len(v.Results) != 2 {
		t.Fatalf("%d results, want 2", len(v.Results))
	}
	for _, field := range []string{"predictor", "games", "positions", "skipped", "top1", "top5", "top10", "top20",
		"mean_log_evidence", "positions_per_second", "rank_cdf", "by_phase"} {
		if _, ok := v.Results[0][field]; !ok {
			t.Errorf("field %s missing", field)
		}
	}
	if n := len(v.Results[0]["rank_cdf"].([]any)); n != 20 {
		t.Errorf("rank_cdf has %d entries", n)
	}
}

// TestBenchJSON runs the board and predictor benchmarks, whose worker goroutines are this package's
// own; TestBenchAllJSON runs them all.
func TestBenchJSON(t *testing.T) {
	var v struct {
		Board   []boardFigure
		Predict []predictFigure
	}
	for _, what := range []string{"board", "predict"} {
		out, err := run(t, "bench", what, "--seconds", "0.05", "--json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
	}
	if len(v.Board) < 2 || v.Board[0].MovesPerSecond <= 0 || len(v.Predict) == 0 || v.Predict[0].PredictionsPerSecond <= 0 {
		t.Errorf("bench figures: %+v", v)
	}
}

func TestHelp(t *testing.T) {
	out, err := run(t, "help")
	if err != nil || !strings.Contains(out, "replay") {
		t.Errorf("help: %v %q", err, out)
	}
	_, err = run(t, "replay", "-h")
	if !errors.Is(err, flag.ErrHelp) || exitCode(err) != 0 {
		t.Errorf("replay -h: %v", err)
	}
}

// TestEvalModel: --model runs a predictor on a model file (here the embedded mm model's bytes), giving
// the figures of the model it holds; a bad file or a second predictor is refused.
func TestEvalModel(t *testing.T) {
	skipUnderRace(t)
	dir := filepath.Dir(sampleFile(t, "Agon-01-8.sgf"))
	data, ok := models.Default("mm")
	if !ok {
		t.Skip("no embedded mm model")
	}
	file := filepath.Join(t.TempDir(), "copy.ajim")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", "--predictor", "mm", "--games", dir, "--max-games", "1", "--workers", "1"}
	want, err := run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := run(t, append(args, "--model", file)...)
	if err != nil {
		t.Fatal(err)
	}
	figures := func(out string) string { // the table without pos/s, which is timing
		var rows []string
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) == 10 && f[0] == "mm" {
				rows = append(rows, strings.Join(f[:9], " "))
			}
		}
		return strings.Join(rows, "\n")
	}
	if figures(got) == "" || figures(got) != figures(want) {
		t.Errorf("with --model:\n%s\nwithout:\n%s", got, want)
	}
	os.WriteFile(file, data[:len(data)/2], 0o644)
	if _, err := run(t, append(args, "--model", file)...); !errors.Is(err, models.ErrFormat) {
		t.Errorf("a truncated model: %v", err)
	}
	if _, err := run(t, "eval", "--predictor", "mm,uniform", "--model", file, "--games", dir); !errors.Is(err, errUsage) {
		t.Errorf("--model with two predictors: %v", err)
	}
}
