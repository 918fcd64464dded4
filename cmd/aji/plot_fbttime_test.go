package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFBTLog writes an `aji train fbt --log` file of the given lines, as the training writes them.
func writeFBTLog(t *testing.T, name string, lines ...fbtLogLine) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(fh)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// `aji plot fbt-time` on a full-gradient log holding an old run and then a run resumed after pass 3,
// and on a sampled one: the old run is left out, and the best top-1 is taken over the whole last run;
// k joins the default names where the logs differ in it.
func TestPlotFBTTime(t *testing.T) {
	full := writeFBTLog(t, "full.log",
		fbtLogLine{K: 10, Pass: 1, Seconds: 50, Top1: 0.30}, // an old run
		fbtLogLine{K: 10, Pass: 2, Seconds: 100, Top1: 0.31},
		fbtLogLine{K: 10, Pass: 1, Seconds: 60, Top1: 0.32}, // the last run
		fbtLogLine{K: 10, Pass: 2, Seconds: 120, Top1: 0.36},
		fbtLogLine{K: 10, Pass: 3, Seconds: 180, Top1: 0.35},
		fbtLogLine{K: 10, Pass: 4, Seconds: 235, Top1: 0.37}, // resumed
		fbtLogLine{K: 10, Pass: 5, Seconds: 290, Top1: 0.365},
	)
	s5 := writeFBTLog(t, "s5.log",
		fbtLogLine{K: 10, Samples: 5, Pass: 1, Seconds: 10, Top1: 0.25},
		fbtLogLine{K: 10, Samples: 5, Pass: 2, Seconds: 20, Top1: 0.30},
		fbtLogLine{K: 10, Samples: 5, Pass: 3, Seconds: 30, Top1: 0.33},
	)
	out := filepath.Join(t.TempDir(), "sub", "fbt.png")
	text, err := run(t, "plot", "fbt-time", "--log", full+","+s5, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"of 2 run(s)",
		"FBT_Full     5 passes in 290 s; best validation top-1 0.3700 after pass 4 (235 s)",
		"FBT_S5       3 passes in 30 s; best validation top-1 0.3300 after pass 3 (30 s)"} {
		if !strings.Contains(text, s) {
			t.Errorf("no %q in %q", s, text)
		}
	}
	if w, h := pngSize(t, out); w != 1050 || h != 825 {
		t.Errorf("image %dx%d, want 1050x825 (7 x 5.5 in at 150 dpi)", w, h)
	}

	s5k5 := writeFBTLog(t, "s5k5.log", fbtLogLine{K: 5, Samples: 5, Pass: 1, Seconds: 8, Top1: 0.28})
	text, err = run(t, "plot", "fbt-time", "--log", full+","+s5k5, "--out", out)
	if err != nil || !strings.Contains(text, "FBT_Full, k=10 ") || !strings.Contains(text, "FBT_S5, k=5 ") {
		t.Errorf("logs of two k: %q, %v", text, err)
	}
	text, err = run(t, "plot", "fbt-time", "--log", s5k5, "--labels", "sampled", "--out", out)
	if err != nil || !strings.Contains(text, "sampled      1 passes in 8 s") {
		t.Errorf("--labels: %q, %v", text, err)
	}
	if w, h := pngSize(t, out); w != 1050 || h != 825 {
		t.Errorf("one pass: image %dx%d, want 1050x825", w, h)
	}
}

func TestPlotFBTTimeErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFBTLog(t, "good.log", fbtLogLine{K: 10, Pass: 1, Seconds: 10, Top1: 0.3})
	file := func(name, content string) string {
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
		{[]string{"--log", good}, "--out"},
		{[]string{"--out", out}, "--log"},
		{[]string{"--log", good, "extra", "--out", out}, "no arguments"},
		{[]string{"--log", filepath.Join(dir, "absent.log"), "--out", out}, "no such file"},
		{[]string{"--log", file("text.log", `{"k":10,"pass":1,"seconds":10,"top1":0.3}`+"\npass 2\n"), "--out", out}, "line 2"},
		{[]string{"--log", file("empty.log", "\n"), "--out", out}, "no passes"},
		{[]string{"--log", file("top1.log", `{"k":10,"pass":1,"seconds":10,"top1":31}`), "--out", out}, "is not a pass"},
		{[]string{"--log", file("pass0.log", `{"k":10,"pass":0,"seconds":10,"top1":0.3}`), "--out", out}, "is not a pass"},
		{[]string{"--log", good + "," + good, "--labels", "a", "--out", out}, "1 labels for 2 logs"},
	} {
		_, err := run(t, append([]string{"plot", "fbt-time"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.args, err, c.want)
		}
	}
	if _, err := run(t, "plot", "fbt-time", "--out", out); !errors.Is(err, errUsage) {
		t.Errorf("no --log: %v, want a usage error", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed plot left %s (%v)", out, err)
	}
}
