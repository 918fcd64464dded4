package main

import (
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `aji plot mixing` on the embedded 9x9 game: a PNG of two panels at 150 dpi and a consistent summary
// of the traces it drew (Gibbs and SW against exact inference).
func TestPlotMixing(t *testing.T) {
	games := sampleFile(t, "pro-Minigo-020303.sgf")
	out := filepath.Join(t.TempDir(), "sub", "mix.png")
	text, err := run(t, "plot", "mixing", "--games", games, "--size", "9", "--move", "15", "--sweeps", "1000", "--out", out, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var sum mixingSummary
	if err := json.Unmarshal([]byte(text), &sum); err != nil {
		t.Fatalf("%v in %s", err, text)
	}
	if len(sum.Methods) != 2 || sum.Methods[0].Method != "gibbs" || sum.Methods[1].Method != "sw" || sum.Sweeps != 1000 {
		t.Fatalf("summary %+v", sum)
	}
	for _, m := range sum.Methods {
		if !(m.MeanAbsError >= 0 && m.MeanAbsError <= m.MaxAbsError && m.MaxAbsError <= 2) {
			t.Errorf("%s: mean error %v, max %v", m.Method, m.MeanAbsError, m.MaxAbsError)
		}
		if (m.SweepsToMean > 0) != (m.MeanAbsError <= mixingTarget) || (m.SweepsToMax > 0) != (m.MaxAbsError <= mixingTarget) {
			t.Errorf("%s: final errors %v, %v but within %v from %d and %d sweeps", m.Method, m.MeanAbsError, m.MaxAbsError, mixingTarget, m.SweepsToMean, m.SweepsToMax)
		}
	}
	// Figure 5.5's claim on this 9x9 too (measured with seeds 1-3: Gibbs 0.03-0.09, SW 0.016-0.018).
	if g, s := sum.Methods[0].MeanAbsError, sum.Methods[1].MeanAbsError; !(s < g) {
		t.Errorf("after 1000 sweeps SW's mean error %.4f is not below Gibbs's %.4f", s, g)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	cfg, err := png.DecodeConfig(fh)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 1950 || cfg.Height != 825 {
		t.Errorf("image %dx%d, want 1950x825 (13 x 5.5 in at 150 dpi)", cfg.Width, cfg.Height)
	}

	text, err = run(t, "plot", "mixing", "--games", games, "--size", "9", "--move", "15", "--sweeps", "20", "--out", out)
	if err != nil || !strings.Contains(text, "sw ") || !strings.Contains(text, "gibbs") {
		t.Errorf("text summary %q, %v", text, err)
	}
}

func TestPlotErrors(t *testing.T) {
	games := sampleFile(t, "pro-Minigo-020303.sgf")
	out := filepath.Join(t.TempDir(), "x.png")
	for _, args := range [][]string{
		{"plot"},
		{"plot", "nope", "--out", out},
		{"plot", "mixing", "--games", games, "--size", "9", "--move", "15"},                                // no --out
		{"plot", "mixing", "--games", games, "--size", "9", "--move", "15", "--sweeps", "0", "--out", out}, // no sweeps
		{"plot", "mixing", "--games", games, "--size", "9", "--move", "15", "--model", "mc", "--out", out},
		{"plot", "mixing", "--games", games, "--size", "9", "--move", "15", "extra", "--out", out},
	} {
		if _, err := run(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	// A game the collection does not have: the 9x9 game has 21 moves.
	_, err := run(t, "plot", "mixing", "--games", games, "--size", "9", "--move", "40", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "not 1") {
		t.Errorf("move 40 of a 21-move game: %v", err)
	}
	if _, err := run(t, "plot", "mixing", "--games", filepath.Join(t.TempDir(), "absent.tar.xz"), "--out", out); err == nil {
		t.Error("absent collection: no error")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed plot left %s (%v)", out, err)
	}
	help, err := run(t, "plot", "-h")
	if err != nil || !strings.Contains(help, "mixing") {
		t.Errorf("plot -h: %q, %v", help, err)
	}
}
