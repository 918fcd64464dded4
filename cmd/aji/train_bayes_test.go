package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/predict/bayes"
	"aji/assets"
)

// TestTrainBayes harvests Stern's patterns from the sample games, learns the ranking model from
// part of them and resumes for the rest, learns the Bernoulli counts alone, and draws Stern's
// diagnostic figures of both.
func TestTrainBayes(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	dict, model := filepath.Join(tmp, "stern.dict"), filepath.Join(tmp, "bayes.ajim")
	out, err := run(t, "harvest", "--stern", "--games", dir, "--threshold", "2", "--filter-mb", "1", "--out", dict)
	if err != nil || !strings.Contains(out, "T14") {
		t.Fatalf("harvest: %v\n%s", err, out)
	}
	// Two games with a checkpoint after each; then a resumed run goes on to the end.
	if out, err = run(t, "train", "bayes", "--games", dir, "--patterns", dict, "--out", model, "--max-games", "2", "--every", "1"); err != nil {
		t.Fatalf("train: %v\n%s", err, out)
	}
	m, err := bayes.Load(model)
	if err != nil || m.Games != 2 {
		t.Fatalf("model after 2 games: %v", err)
	}
	if err := os.Rename(model, model+".ckpt"); err != nil {
		t.Fatal(err)
	}
	if out, err = run(t, "train", "bayes", "--games", dir, "--out", model, "--resume"); err != nil || !strings.Contains(out, "learned from") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	games, err := gamesToRead(t.Context(), dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = bayes.Load(model); err != nil || m.Games != games {
		t.Fatalf("resumed model: %v, %d games of %d", err, m.Games, games)
	}
	counts := filepath.Join(tmp, "bernoulli.ajim")
	if out, err = run(t, "train", "bernoulli", "--games", dir, "--patterns", dict, "--out", counts); err != nil {
		t.Fatalf("train bernoulli: %v\n%s", err, out)
	}
	c, err := bayes.Load(counts)
	if err != nil || c.Mu[0] != bayes.PriorMu || c.Seen[0] != m.Seen[0] {
		t.Fatalf("bernoulli model: %v; μ %g, seen %d (bayes %d)", err, c.Mu[0], c.Seen[0], m.Seen[0])
	}
	img := filepath.Join(tmp, "diag.png")
	out, err = run(t, "plot", "bayes-patterns", "--models", model+","+counts, "--labels", "bayes,counts", "--games", dir, "--max-games", "2", "--out", img)
	if err != nil || !strings.Contains(out, "mean rank error by template") {
		t.Fatalf("plot: %v\n%s", err, out)
	}
	f, err := os.Open(img)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
}
