package main

import (
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/predict/cnn"
	"aji/assets"
)

// TestTrainCNN trains a tiny network on the sample games, resumes the run, plots its learning curve and
// evaluates the model it wrote.
func TestTrainCNN(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	model, log := filepath.Join(tmp, "cnn.ajim"), filepath.Join(tmp, "cnn.log")
	args := []string{"train", "cnn", "--games", dir, "--validation", dir, "--validation-games", "2", "--width", "4",
		"--layers", "3", "--batch", "8", "--shuffle", "16", "--validate-every", "16", "--positions-per-game", "20", "--out", model, "--log", log}
	out, err := run(t, append(args, "--max-positions", "32")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "stopped after 32 positions") {
		t.Errorf("output: %s", out)
	}
	net, err := cnn.Load(model)
	if err != nil || net.Width != 4 || net.Layers != 3 || net.Seen < 16 {
		t.Fatalf("model %s: %+v, %v", model, net, err)
	}
	if _, err := run(t, append(args, "--max-positions", "48", "--resume", "--lr", "0.0001")...); err != nil {
		t.Fatal(err)
	}
	tr, err := cnn.LoadCheckpoint(model+".ckpt", 1)
	if err != nil || tr.Net.Seen != 48 || tr.Net.Steps != 6 || tr.Opt.LR != 0.0001 {
		t.Fatalf("resumed checkpoint: %v, %d positions, %d steps, learning rate %g", err, tr.Net.Seen, tr.Net.Steps, tr.Opt.LR)
	}
	run3, err := readCNNLog(log)
	if err != nil || len(run3) != 3 || run3[2].Positions != 48 {
		t.Fatalf("log: %v, %+v", err, run3)
	}
	png := filepath.Join(tmp, "curve.png")
	if out, err := run(t, "plot", "cnn-curve", "--log", log, "--out", png); err != nil || !strings.Contains(out, "learning curves of 1 run") {
		t.Fatalf("plot: %v\n%s", err, out)
	}
	if out, err := run(t, "eval", "--predictor", "cnn", "--model", model, "--games", dir); err != nil || !strings.Contains(out, "cnn") {
		t.Fatalf("eval: %v\n%s", err, out)
	}
}
