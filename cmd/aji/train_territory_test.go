package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/territory"
)

func TestTrainTerritoryUsage(t *testing.T) {
	for _, args := range [][]string{
		{"train", "boltzmann5"},
		{"train", "boltzmann5", "--games", "x", "--labels", "y"},
		{"train", "boltzmann12", "--games", "x", "--labels", "y", "--out", "z", "--moves", "80,20"},
		{"train", "boltzmann-lib", "--games", "x", "--labels", "y", "--out", "z", "--validation", "v"},
		{"train", "boltzmann5", "--games", "x", "--labels", "y", "--out", "z", "extra"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, err := run(t, "train", "boltzmann5", "--games", "x", "--labels", filepath.Join(t.TempDir(), "none"), "--out", "z"); err == nil || errors.Is(err, errUsage) {
		t.Errorf("missing labels: %v", err)
	}
}

// A short end-to-end run on the validation games and labels: the model file loads, holds one vector per
// move, and the report has the parameter table and the validation scores.
func TestTrainTerritory(t *testing.T) {
	const games, labels = "../../../shared/data/games-validation.tar.xz", "../../../shared/data/territory-labels-validation.jsonl"
	if _, err := os.Stat(labels); err != nil {
		t.Skipf("no validation data in ../shared/data: %v", err)
	}
	if testing.Short() {
		t.Skip("-short: reads the validation archive")
	}
	skipUnderRace(t)
	out := filepath.Join(t.TempDir(), "b5.ajim")
	text, err := run(t, "train", "boltzmann5", "--games", games, "--labels", labels, "--out", out, "--max-labels", "8",
		"--moves", "20,80", "--iterations", "20", "--validation", games, "--validation-labels", labels, "--validation-inference", "lbp")
	if err != nil {
		t.Fatal(err)
	}
	m, err := territory.LoadTrained(out, territory.KindBoltzmann5)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Moves) != 2 || m.Moves[0] != 20 || m.Moves[1] != 80 {
		t.Errorf("moves %v, want [20 80]", m.Moves)
	}
	for _, want := range []string{"w_chains", "Stern 80", "cross-entropy", "\nall "} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}
