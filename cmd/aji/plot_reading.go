package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"aji/analysis/reading"
)

// readingPoint is one problem of the figure: its cost under each report, where that report proved
// it.
type readingPoint struct {
	id     string
	proved [2]bool
	ms     [2]float64
	nodes  [2]float64
}

// readingComparison is what `aji plot reading` draws and counts.
type readingComparison struct {
	labels [2]string
	points []readingPoint // proved by at least one report, by the first report's time (else the second's)
	both   int
	only   [2]int // proved by this report only
}

// runPlotReading draws Stern's Figure 4.9 from two `aji reading --json` reports: the time (top) and
// the nodes developed (bottom) for each problem proved by both, sorted by the first report's time on
// a log scale. Problems proved by only one are marked as in his Figures 4.10 and 4.12 (before and
// after learning): a circle where only the first proved it, a cross where only the second did.
func runPlotReading(_ context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot reading", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write (required)")
	results := fs.String("results", "", "two `aji reading --json` reports, comma-separated (required)")
	labels := fs.String("labels", "", "names of the two reports, comma-separated (default: their methods)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	files := strings.Split(*results, ",")
	switch {
	case len(rest) > 0:
		return fmt.Errorf("%w: plot reading takes no arguments, got %q", errUsage, rest)
	case *out == "" || *results == "" || len(files) != 2:
		return fmt.Errorf("%w: plot reading needs --results A.json,B.json (two reports) and --out FILE.png", errUsage)
	}
	var reports [2]reading.Report
	for i, path := range files {
		if reports[i], err = readReadingReport(path); err != nil {
			return err
		}
	}
	defaults := []string{reports[0].Method, reports[1].Method}
	if defaults[0] == defaults[1] {
		defaults = []string{filepath.Base(files[0]), filepath.Base(files[1])}
	}
	names, err := curveLabels("reading", *labels, "reports", defaults)
	if err != nil {
		return err
	}
	c := compareReports(reports, [2]string{names[0], names[1]})
	if len(c.points) == 0 {
		return fmt.Errorf("plot reading: neither %s nor %s proved a problem", files[0], files[1])
	}
	top, err := readingPanel(c, "Time to solve each problem", "time (ms)", func(p readingPoint) [2]float64 { return p.ms })
	if err != nil {
		return err
	}
	bottom, err := readingPanel(c, "Nodes developed to solve each problem", "nodes developed", func(p readingPoint) [2]float64 { return p.nodes })
	if err != nil {
		return err
	}
	if err := writeStackedPanels(*out, []*plot.Plot{top, bottom}, 9*vg.Inch, 9*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d problems proved by both %s and %s\n", *out, c.both, c.labels[0], c.labels[1])
	for i := range 2 {
		fmt.Fprintf(stdout, "  %s proved %d that %s did not\n", c.labels[i], c.only[i], c.labels[1-i])
	}
	return nil
}

// readReadingReport reads an `aji reading --json` report and checks what the figure needs of it.
func readReadingReport(path string) (reading.Report, error) {
	var r reading.Report
	data, err := os.ReadFile(path)
	if err != nil {
		return r, fmt.Errorf("read reading report: %w", err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("read reading report %s: %w", path, err)
	}
	if len(r.Problems) == 0 {
		return r, fmt.Errorf("read reading report %s: no problems", path)
	}
	for _, p := range r.Problems {
		if p.ID == "" || p.TimeNs < 0 || p.Nodes < 0 {
			return r, fmt.Errorf("read reading report %s: problem %q has time %d ns and %d nodes", path, p.ID, p.TimeNs, p.Nodes)
		}
	}
	return r, nil
}

// compareReports pairs the problems of two reports by id.
func compareReports(reports [2]reading.Report, labels [2]string) readingComparison {
	c := readingComparison{labels: labels}
	at := map[string]int{}
	for k, r := range reports {
		for _, p := range r.Problems {
			i, ok := at[p.ID]
			if !ok {
				i = len(c.points)
				at[p.ID] = i
				c.points = append(c.points, readingPoint{id: p.ID})
			}
			pt := &c.points[i]
			pt.proved[k] = p.Proved
			// A log axis has no 0: a time or node count below the smallest drawn is drawn there.
			pt.ms[k] = max(float64(p.TimeNs)/1e6, 1e-3)
			pt.nodes[k] = max(float64(p.Nodes), 1)
		}
	}
	c.points = slices.DeleteFunc(c.points, func(p readingPoint) bool { return !p.proved[0] && !p.proved[1] })
	key := func(p readingPoint) float64 {
		if p.proved[0] {
			return p.ms[0]
		}
		return p.ms[1]
	}
	slices.SortStableFunc(c.points, func(a, b readingPoint) int { return cmp.Compare(key(a), key(b)) })
	for _, p := range c.points {
		switch {
		case p.proved[0] && p.proved[1]:
			c.both++
		case p.proved[0]:
			c.only[0]++
		default:
			c.only[1]++
		}
	}
	return c
}

// readingPanel draws one panel of the figure: value(p)[k] of report k at each problem's rank, the
// first report's as a curve, the second's as points, and the problems only one proved as circles
// (the first) and crosses (the second).
func readingPanel(c readingComparison, title, ylabel string, value func(readingPoint) [2]float64) (*plot.Plot, error) {
	p := curvePanel(title, fmt.Sprintf("problem, by %s's time", c.labels[0]), ylabel)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = inRange{plot.LogTicks{Prec: -1}}
	var series [2]plotter.XYs
	var only [2]plotter.XYs
	lo, hi := 0.0, 0.0
	for i, pt := range c.points {
		v := value(pt)
		for k := range 2 {
			if !pt.proved[k] {
				continue
			}
			xy := plotter.XY{X: float64(i + 1), Y: v[k]}
			if pt.proved[1-k] {
				series[k] = append(series[k], xy)
			} else {
				only[k] = append(only[k], xy)
			}
			if lo == 0 || v[k] < lo {
				lo = v[k]
			}
			hi = max(hi, v[k])
		}
	}
	if len(series[0]) > 0 {
		if err := addCurve(p, 0, series[0], c.labels[0]); err != nil {
			return nil, err
		}
	}
	// The one-sided marks are black and larger than the curves' points, circles and crosses as in
	// Stern's figures.
	marks := []struct {
		xys    plotter.XYs
		colour color.Color
		shape  draw.GlyphDrawer
		radius float64
		legend string
	}{
		{series[1], plotutil.Color(1), plotutil.Shape(1), 3, c.labels[1]},
		{only[0], color.Black, draw.RingGlyph{}, 5, "proved by " + c.labels[0] + " only"},
		{only[1], color.Black, draw.CrossGlyph{}, 5, "proved by " + c.labels[1] + " only"},
	}
	for _, m := range marks {
		if len(m.xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(m.xys)
		if err != nil {
			return nil, err
		}
		s.Color, s.Shape, s.Radius = m.colour, m.shape, vg.Points(m.radius)
		p.Add(s)
		p.Legend.Add(m.legend, s)
	}
	// Whole decades around the values, so the log ticks label both ends.
	p.Y.Min, p.Y.Max = decadeBelow(lo), decadeAbove(hi)
	p.X.Min, p.X.Max = 0, float64(len(c.points)+1)
	legendAt(p, true, true)
	return p, nil
}

// decadeBelow and decadeAbove are the powers of ten around v > 0.
func decadeBelow(v float64) float64 {
	d := 1.0
	for d > v {
		d /= 10
	}
	for d*10 <= v {
		d *= 10
	}
	return d
}

func decadeAbove(v float64) float64 {
	d := decadeBelow(v)
	if d < v {
		d *= 10
	}
	return d
}
