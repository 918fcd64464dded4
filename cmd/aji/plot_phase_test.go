package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/eval"
)

// phaseResult is an eval result whose top-1 by phase is top1s, over 30-move phases from move 1.
func phaseResult(name string, top1s ...float64) eval.Result {
	r := eval.Result{Predictor: name, Games: 2, Positions: 100 * len(top1s), MeanLogEvidence: -2.5, RankCDF: rankCDF(0.4, 0.85)}
	for i, q := range top1s {
		r.ByPhase = append(r.ByPhase, eval.Phase{From: 30*i + 1, To: 30 * (i + 1), Positions: 100, Top1: q, MeanLogEvidence: -2.5})
		r.Top1 += q / float64(len(top1s))
	}
	return r
}

// writeEvalResults writes an `aji eval --json` file of the given results, in order.
func writeEvalResults(t *testing.T, name string, results ...eval.Result) string {
	t.Helper()
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

// `aji plot phase` on a file of two results and a file of one: three curves in a 9 x 5.5 in PNG, the
// summary naming each phase's top-1 under the predictor names or --labels.
func TestPlotPhase(t *testing.T) {
	a := writeEvalResults(t, "a.json", phaseResult("mm", 0.52, 0.38, 0.33, 0.37), phaseResult("fbt", 0.55, 0.41, 0.34, 0.38))
	b := writeEvalResults(t, "b.json", phaseResult("mm", 0.50, 0.37, 0.32))
	out := filepath.Join(t.TempDir(), "sub", "phase.png")
	text, err := run(t, "plot", "phase", "--eval", a+","+b, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"top-1 by phase of 3 result(s)", "mm       top-1 0.400; 1–30 0.520, 31–60 0.380, 61–90 0.330, 91–120 0.370",
		"fbt      top-1 0.420; 1–30 0.550", "mm       top-1 0.397; 1–30 0.500, 31–60 0.370, 61–90 0.320\n"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in %q", s, text)
		}
	}
	if w, h := pngSize(t, out); w != 1350 || h != 825 {
		t.Errorf("image %dx%d, want 1350x825 (9 x 5.5 in at 150 dpi)", w, h)
	}
	text, err = run(t, "plot", "phase", "--eval", b, "--labels", "MM 2007", "--out", out)
	if err != nil || !strings.Contains(text, "MM 2007  top-1 0.397") {
		t.Errorf("--labels: %q, %v", text, err)
	}
	if w, h := pngSize(t, out); w != 1350 || h != 825 {
		t.Errorf("one curve: image %dx%d, want 1350x825", w, h)
	}
}

func TestPlotPhaseErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeEvalResults(t, "good.json", phaseResult("mm", 0.5, 0.4))
	noPhase := phaseResult("mm", 0.5)
	noPhase.ByPhase = nil
	badTop1 := phaseResult("mm", 0.5)
	badTop1.ByPhase[0].Top1 = 1.5
	text := filepath.Join(dir, "text.json")
	if err := os.WriteFile(text, []byte("top1 0.37"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "x.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--eval", good}, "--out"},
		{[]string{"--out", out}, "--eval"},
		{[]string{"--eval", good, "extra", "--out", out}, "no arguments"},
		{[]string{"--eval", filepath.Join(dir, "absent.json"), "--out", out}, "no such file"},
		{[]string{"--eval", text, "--out", out}, "invalid character"},
		{[]string{"--eval", writeEvalResults(t, "nophase.json", noPhase), "--out", out}, "has no by_phase"},
		{[]string{"--eval", writeEvalResults(t, "badtop1.json", badTop1), "--out", out}, "phase 1–30 has top-1 1.5"},
		{[]string{"--eval", good + "," + good, "--labels", "a", "--out", out}, "1 labels for 2 results"},
	} {
		_, err := run(t, append([]string{"plot", "phase"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
	if _, err := run(t, "plot", "phase", "--eval", good); !errors.Is(err, errUsage) {
		t.Errorf("no --out: %v, want a usage error", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed plot left %s (%v)", out, err)
	}
	help, err := run(t, "plot", "-h")
	if err != nil || !strings.Contains(help, "phase") || !strings.Contains(help, "fbt-time") {
		t.Errorf("plot -h: %q, %v", help, err)
	}
}
