package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/mcts"
)

func TestBenchPlayoutJSON(t *testing.T) {
	out, err := run(t, "bench", "playout", "--seconds", "0.05", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Playout []playoutFigure }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	// Bare playouts and search, 9x9 and 19x19, light and pattern, 1 and 2 threads.
	if len(v.Playout) != 16 {
		t.Fatalf("%d figures, want 16: %+v", len(v.Playout), v.Playout)
	}
	for _, f := range v.Playout {
		if f.PlayoutsPerSecond <= 0 || (f.Mode == "playout" && f.MovesPerPlayout < float64(f.Size*f.Size)/2) {
			t.Errorf("implausible figure %+v", f)
		}
	}
}

func TestTrainPlayout(t *testing.T) {
	games := filepath.Join("..", "..", "..", "shared", "data", "games9-train.tar.xz")
	if _, err := os.Stat(games); err != nil {
		t.Skipf("training data absent: %v", err)
	}
	model := filepath.Join(t.TempDir(), "playout.ajim")
	out, err := run(t, "train", "playout", "--games", games, "--max-games", "20", "--iterations", "3", "--out", model)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "contiguous to the previous move") {
		t.Errorf("no feature table in the output:\n%s", out)
	}
	if _, err := mcts.LoadPatternModel(model); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "train", "playout", "--games", games); err == nil {
		t.Error("train playout without --out accepted")
	}
}
