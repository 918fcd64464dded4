package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// fbtCurve is the last run of an `aji train fbt --log` file, with the name it is drawn under.
type fbtCurve struct {
	label  string
	passes []fbtLogLine
}

// runPlotFBTTime draws Xiao's Figure 4.4 (Xiao 2016): the best validation top-1 so far after each pass
// against the training seconds so far (SGD and the validation after each pass), one curve per log
// file, to compare the cost of FBT_Full with that of the sampled gradients FBT_S5...S30. Each log is
// read for its last run (see readFBTLog).
func runPlotFBTTime(_ context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot fbt-time", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write (required)")
	files := fs.String("log", "", "`aji train fbt --log` file(s), comma-separated, one curve each (required)")
	labels := fs.String("labels", "", "names of the curves in file order, comma-separated (default: FBT_Full or FBT_S<m>, and k where the files differ in it)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return fmt.Errorf("%w: plot fbt-time takes no arguments, got %q", errUsage, rest)
	case *out == "" || *files == "":
		return fmt.Errorf("%w: plot fbt-time needs --log FILE[,FILE...] and --out FILE.png", errUsage)
	}
	var curves []fbtCurve
	ks := map[int]bool{}
	for _, path := range strings.Split(*files, ",") {
		passes, err := readFBTLog(path)
		if err != nil {
			return err
		}
		curves = append(curves, fbtCurve{passes: passes})
		ks[passes[len(passes)-1].K] = true
	}
	names := make([]string, len(curves))
	for i, c := range curves {
		last := c.passes[len(c.passes)-1]
		names[i] = "FBT_Full"
		if last.Samples > 0 {
			names[i] = fmt.Sprintf("FBT_S%d", last.Samples)
		}
		if len(ks) > 1 {
			names[i] += fmt.Sprintf(", k=%d", last.K)
		}
	}
	if names, err = curveLabels("fbt-time", *labels, "logs", names); err != nil {
		return err
	}
	for i := range curves {
		curves[i].label = names[i]
	}
	p, err := fbtTimePanel(curves)
	if err != nil {
		return err
	}
	if err := writePanels(*out, []*plot.Plot{p}, 7*vg.Inch, 5.5*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: validation top-1 against training time of %d run(s)\n", *out, len(curves))
	for _, c := range curves {
		last, best := c.passes[len(c.passes)-1], c.passes[0]
		for _, l := range c.passes {
			if l.Top1 > best.Top1 {
				best = l
			}
		}
		fmt.Fprintf(stdout, "  %-12s %d passes in %.0f s; best validation top-1 %.4f after pass %d (%.0f s)\n",
			c.label, last.Pass, last.Seconds, best.Top1, best.Pass, best.Seconds)
	}
	return nil
}

// readFBTLog reads the last run of an `aji train fbt --log` file. The log is appended to, so it may
// hold several runs one after another: a run starts where the pass number does not go up (a fresh run
// counts from pass 1 again; a --resume'd one goes on counting, and its seconds go on from the log's).
func readFBTLog(path string) ([]fbtLogLine, error) {
	var run []fbtLogLine
	err := readLogLines(path, "fbt", func(l fbtLogLine) error {
		if l.Pass < 1 || !(l.Seconds >= 0) || !(l.Top1 >= 0 && l.Top1 <= 1) {
			return fmt.Errorf("pass %d, %v s, top-1 %v is not a pass", l.Pass, l.Seconds, l.Top1)
		}
		if len(run) > 0 && l.Pass <= run[len(run)-1].Pass { // a new run
			run = run[:0]
		}
		run = append(run, l)
		return nil
	})
	if err == nil && len(run) == 0 {
		err = fmt.Errorf("read fbt log %s: no passes", path)
	}
	return run, err
}

// readLogLines decodes each line of a training log of JSON lines (blank lines skipped) and hands it to
// add, which may refuse it; kind names the log in errors.
func readLogLines[T any](path, kind string, add func(T) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s log: %w", kind, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l T
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return fmt.Errorf("read %s log %s: line %d: %w", kind, path, n, err)
		}
		if err := add(l); err != nil {
			return fmt.Errorf("read %s log %s: line %d: %w", kind, path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s log %s: %w", kind, path, err)
	}
	return nil
}

// fbtTimePanel draws every curve's best validation top-1 so far against its seconds, as Xiao does: a
// pass that does not improve on the best leaves the curve flat (training would keep the best model).
func fbtTimePanel(curves []fbtCurve) (*plot.Plot, error) {
	p := curvePanel("Validation top-1 against training time", "training time, seconds (SGD and validation)", "best validation top-1 so far")
	lo, hi, end := 1.0, 0.0, 0.0
	for i, c := range curves {
		xys := make(plotter.XYs, len(c.passes))
		best := 0.0
		for k, l := range c.passes {
			best = max(best, l.Top1)
			xys[k] = plotter.XY{X: l.Seconds, Y: best}
			lo, hi, end = min(lo, best), max(hi, best), max(end, l.Seconds)
		}
		if err := addCurve(p, i, xys, c.label); err != nil {
			return nil, err
		}
	}
	p.X.Min, p.X.Max = 0, max(end*1.03, 1)
	p.Y.Min, p.Y.Max = math.Floor(lo*20)/20, math.Min(1, math.Ceil(hi*20)/20)
	if p.Y.Min == p.Y.Max {
		p.Y.Min, p.Y.Max = max(0, p.Y.Min-0.05), min(1, p.Y.Max+0.05)
	}
	p.Y.Tick.Marker = top1Ticks
	legendAt(p, false, false)
	return p, nil
}
