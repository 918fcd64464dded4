package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// runPlotCNNCurve draws the cnn's learning curves (the DCNN paper's Graphs 1–2): validation top-1 and
// the training and validation losses against training positions, one curve per `aji train cnn --log`
// file (a resumed run's lines continue its positions).
func runPlotCNNCurve(_ context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot cnn-curve", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write (required)")
	files := fs.String("log", "", "`aji train cnn --log` file(s), comma-separated, one curve each (required)")
	labels := fs.String("labels", "", "names of the curves in file order, comma-separated (default: the file names)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *out == "" || *files == "" {
		return fmt.Errorf("%w: plot cnn-curve --log FILE[,FILE...] --out FILE.png [--labels A,B]", errUsage)
	}
	var runs [][]cnnLogLine
	var names []string
	for _, path := range strings.Split(*files, ",") {
		run, err := readCNNLog(path)
		if err != nil {
			return err
		}
		runs = append(runs, run)
		names = append(names, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	}
	if names, err = curveLabels("cnn-curve", *labels, "logs", names); err != nil {
		return err
	}
	acc := curvePanel("Validation top-1 against training positions", "training positions (millions)", "validation top-1")
	loss := curvePanel("Loss against training positions", "training positions (millions)", "nats per move")
	for i, run := range runs {
		top1, train, val := make(plotter.XYs, len(run)), make(plotter.XYs, len(run)), make(plotter.XYs, len(run))
		for k, l := range run {
			x := float64(l.Positions) / 1e6
			top1[k], train[k], val[k] = plotter.XY{X: x, Y: l.Top1}, plotter.XY{X: x, Y: l.Loss}, plotter.XY{X: x, Y: -l.LogEvidence}
		}
		if err := addCurve(acc, i, top1, names[i]); err != nil {
			return err
		}
		if err := addCurve(loss, 2*i, train, names[i]+", training"); err != nil {
			return err
		}
		if err := addCurve(loss, 2*i+1, val, names[i]+", validation"); err != nil {
			return err
		}
		last := run[len(run)-1]
		fmt.Fprintf(stdout, "  %-16s %d positions, validation top-1 %.4f, log-evidence %.4f\n", names[i], last.Positions, last.Top1, last.LogEvidence)
	}
	acc.Y.Tick.Marker = top1Ticks
	legendAt(acc, false, false)
	legendAt(loss, false, true)
	if err := writePanels(*out, []*plot.Plot{acc, loss}, 12*vg.Inch, 5*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: learning curves of %d run(s)\n", *out, len(runs))
	return nil
}

// readCNNLog reads every line of an `aji train cnn --log` file.
func readCNNLog(path string) ([]cnnLogLine, error) {
	var run []cnnLogLine
	err := readLogLines(path, "cnn", func(l cnnLogLine) error {
		if l.Positions < 1 || !(l.Top1 >= 0 && l.Top1 <= 1) {
			return fmt.Errorf("%d positions, top-1 %v is not a validation", l.Positions, l.Top1)
		}
		run = append(run, l)
		return nil
	})
	if err == nil && len(run) == 0 {
		err = fmt.Errorf("read cnn log %s: no validations", path)
	}
	return run, err
}
