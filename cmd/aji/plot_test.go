package main

import (
	"encoding/json"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/eval"
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

// writeEvalJSON writes an `aji eval --json` file of one result per predictor, with the given rank CDFs.
func writeEvalJSON(t *testing.T, name string, cdfs map[string][]float64) string {
	t.Helper()
	var results []eval.Result
	for p, cdf := range cdfs {
		results = append(results, eval.Result{Predictor: p, Games: 2, Positions: 400, Top1: cdf[0], MeanLogEvidence: -2.5, RankCDF: cdf})
	}
	data, err := json.Marshal(map[string]any{"results": results})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rankCDF returns a CDF of 20 ranks rising from top1 towards top20.
func rankCDF(top1, top20 float64) []float64 {
	cdf := make([]float64, 20)
	for k := range cdf {
		cdf[k] = top1 + (top20-top1)*math.Sqrt(float64(k)/19)
	}
	return cdf
}

func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	cfg, err := png.DecodeConfig(fh)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Width, cfg.Height
}

// `aji plot rank-cdf` on two eval files that both name their predictor "mm": two panels (the CDFs and
// their difference), renamed by --labels; one curve alone gets one panel.
func TestPlotRankCDF(t *testing.T) {
	a := writeEvalJSON(t, "a.json", map[string][]float64{"mm": rankCDF(0.37, 0.85)})
	b := writeEvalJSON(t, "b.json", map[string][]float64{"mm": rankCDF(0.36, 0.84)})
	out := filepath.Join(t.TempDir(), "sub", "rank.png")
	text, err := run(t, "plot", "rank-cdf", "--eval", a+","+b, "--labels", "old,new", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"old ", "new ", "top-1 0.370, log-ev −2.500", "top-1 0.360", "top-20 0.840", "400 positions of 2 games"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in %q", s, text)
		}
	}
	if w, h := pngSize(t, out); w != 1950 || h != 825 {
		t.Errorf("image %dx%d, want 1950x825 (13 x 5.5 in at 150 dpi)", w, h)
	}
	if _, err := run(t, "plot", "rank-cdf", "--eval", a, "--out", out); err != nil {
		t.Fatal(err)
	}
	if w, h := pngSize(t, out); w != 1050 || h != 825 {
		t.Errorf("one curve: image %dx%d, want 1050x825", w, h)
	}
}

func TestPlotRankCDFErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeEvalJSON(t, "good.json", map[string][]float64{"mm": rankCDF(0.37, 0.85)})
	bad := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	out := filepath.Join(dir, "x.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--eval", filepath.Join(dir, "absent.json"), "--out", out}, "no such file"},
		{[]string{"--eval", bad("text.json", "top1 0.37"), "--out", out}, "invalid character"},
		{[]string{"--eval", bad("empty.json", `{"results": []}`), "--out", out}, "no results"},
		{[]string{"--eval", bad("nocdf.json", `{"results": [{"predictor": "mm"}]}`), "--out", out}, "no rank_cdf"},
		{[]string{"--eval", bad("down.json", `{"results": [{"predictor": "mm", "rank_cdf": [0.4, 0.3]}]}`), "--out", out}, "not a CDF"},
		{[]string{"--eval", good + "," + good, "--labels", "a", "--out", out}, "1 labels for 2 results"},
		{[]string{"--eval", good}, "--out"},
		{[]string{"--out", out}, "--eval"},
	} {
		_, err := run(t, append([]string{"plot", "rank-cdf"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed plot left %s (%v)", out, err)
	}
}
