package main

import (
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

	"aji/analysis/eval"
)

// rankCDFMaxK is the last rank drawn: eval's rank_cdf has 20 entries (Stern et al. 2006, Figure 2).
const rankCDFMaxK = 20

// evalCurve is one predictor result of an `aji eval --json` file, with the name it is drawn under.
type evalCurve struct {
	label string
	eval.Result
}

// runPlotRankCDF draws the rank CDF, P(expert move among the top k), of every result in the given eval
// files on one plot; with more than one curve a second panel shows each curve's difference from the
// first, since predictors of similar strength lie within a point of each other.
func runPlotRankCDF(_ context.Context, args []string, stdout io.Writer) error {
	out, curves, err := evalPlotArgs("rank-cdf", args)
	if err != nil {
		return err
	}
	p, err := rankCDFPanel(curves)
	if err != nil {
		return err
	}
	panels := []*plot.Plot{p}
	w := 7 * vg.Inch
	if len(curves) > 1 {
		d, err := rankDiffPanel(curves)
		if err != nil {
			return err
		}
		panels = append(panels, d)
		w = 13 * vg.Inch
	}
	if err := writePanels(out, panels, w, 5.5*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: rank CDF of %d result(s)\n", out, len(curves))
	for _, c := range curves {
		fmt.Fprintf(stdout, "  %-8s %s; top-20 %.3f (%d positions of %d games)\n", c.label, rankSummary(c.Result), c.RankCDF[len(c.RankCDF)-1], c.Positions, c.Games)
	}
	return nil
}

// readEvalResults reads the results of an `aji eval --json` file and checks that their rank CDFs are
// probabilities that do not decrease.
func readEvalResults(path string) ([]eval.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read eval results: %w", err)
	}
	var v struct {
		Results []eval.Result `json:"results"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("read eval results %s: %w", path, err)
	}
	if len(v.Results) == 0 {
		return nil, fmt.Errorf("read eval results %s: no results", path)
	}
	for _, r := range v.Results {
		if len(r.RankCDF) == 0 {
			return nil, fmt.Errorf("read eval results %s: %s has no rank_cdf", path, r.Predictor)
		}
		for k, q := range r.RankCDF {
			if !(q >= 0 && q <= 1) || (k > 0 && q < r.RankCDF[k-1]) {
				return nil, fmt.Errorf("read eval results %s: %s: rank_cdf[%d] = %v is not a CDF", path, r.Predictor, k, q)
			}
		}
	}
	return v.Results, nil
}

// readEvalCurves reads every result of the comma-separated eval files, in order, named by the

// evalPlotArgs parses the flags of a figure drawn from `aji eval --json` files, one curve per result:
// the PNG to write and the curves read.
func evalPlotArgs(kind string, args []string) (out string, curves []evalCurve, err error) {
	fs := flag.NewFlagSet("plot "+kind, flag.ContinueOnError)
	outFlag := fs.String("out", "", "PNG file to write (required)")
	files := fs.String("eval", "", "`aji eval --json` output file(s), comma-separated (required)")
	labels := fs.String("labels", "", "names of the curves in file order, comma-separated (default: the predictor names)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return "", nil, err
	}
	switch {
	case len(rest) > 0:
		return "", nil, fmt.Errorf("%w: plot %s takes no arguments, got %q", errUsage, kind, rest)
	case *outFlag == "" || *files == "":
		return "", nil, fmt.Errorf("%w: plot %s needs --eval FILE[,FILE...] and --out FILE.png", errUsage, kind)
	}
	curves, err = readEvalCurves(kind, *files, *labels)
	return *outFlag, curves, err
}

// comma-separated labels or else by their predictor.
func readEvalCurves(kind, files, labels string) ([]evalCurve, error) {
	var curves []evalCurve
	var names []string
	for _, path := range strings.Split(files, ",") {
		rs, err := readEvalResults(path)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			curves = append(curves, evalCurve{Result: r})
			names = append(names, r.Predictor)
		}
	}
	names, err := curveLabels(kind, labels, "results", names)
	if err != nil {
		return nil, err
	}
	for i := range curves {
		curves[i].label = names[i]
	}
	return curves, nil
}

// rankSummary is a curve's legend text: "top-1 0.371, log-ev −2.679".
func rankSummary(r eval.Result) string {
	return fmt.Sprintf("top-1 %.3f, log-ev %s", r.Top1, strings.Replace(fmt.Sprintf("%.3f", r.MeanLogEvidence), "-", "−", 1))
}

// rankXYs returns the points (k, f(k, P(rank ≤ k))) for k = 1..20 or as far as the CDF goes.
func rankXYs(cdf []float64, f func(k int, q float64) float64) plotter.XYs {
	n := min(len(cdf), rankCDFMaxK)
	xys := make(plotter.XYs, n)
	for k := range n {
		xys[k] = plotter.XY{X: float64(k + 1), Y: f(k, cdf[k])}
	}
	return xys
}

// rankPanel is an empty panel on the k axis with a grid.
func rankPanel(title, ylabel string) *plot.Plot {
	p := curvePanel(title, "k (rank of the expert move in the predictor's order)", ylabel)
	p.X.Min, p.X.Max = 0.5, rankCDFMaxK+0.5
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ticks []plot.Tick
		for k := 1; k <= rankCDFMaxK; k++ {
			t := plot.Tick{Value: float64(k)}
			if k == 1 || k%5 == 0 {
				t.Label = fmt.Sprint(k)
			}
			ticks = append(ticks, t)
		}
		return ticks
	})
	return p
}

// rankCDFPanel draws P(rank ≤ k) of every curve on the data's range, in tenths.
func rankCDFPanel(curves []evalCurve) (*plot.Plot, error) {
	p := rankPanel("Rank of the expert move: P(among the top k)", "P(rank ≤ k)")
	lo, hi := 1.0, 0.0
	for i, c := range curves {
		xys := rankXYs(c.RankCDF, func(_ int, q float64) float64 { return q })
		for _, xy := range xys {
			lo, hi = min(lo, xy.Y), max(hi, xy.Y)
		}
		if err := addCurve(p, i, xys, c.label+": "+rankSummary(c.Result)); err != nil {
			return nil, err
		}
	}
	p.Y.Min, p.Y.Max = math.Floor(lo*10)/10, math.Min(1, math.Ceil(hi*10)/10)
	legendAt(p, false, false)
	return p, nil
}

// rankDiffPanel draws every curve's difference from the first in percentage points, the first as the
// zero line: the gap the CDF panel's scale hides.
func rankDiffPanel(curves []evalCurve) (*plot.Plot, error) {
	base := curves[0]
	p := rankPanel("P(rank ≤ k) minus that of "+base.label, "difference, percentage points")
	lo, hi := 0.0, 0.0
	for i, c := range curves {
		xys := rankXYs(c.RankCDF, func(k int, q float64) float64 {
			if k >= len(base.RankCDF) {
				return math.NaN()
			}
			return 100 * (q - base.RankCDF[k])
		})
		xys = finiteXYs(xys)
		if len(xys) == 0 {
			continue
		}
		for _, xy := range xys {
			lo, hi = min(lo, xy.Y), max(hi, xy.Y)
		}
		if err := addCurve(p, i, xys, c.label); err != nil {
			return nil, err
		}
	}
	pad := max(0.1, (hi-lo)*0.15)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	p.Y.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		// A labelled tick every 0.1 point up to 1.5 points of range, every 0.5 up to 6, then every 1
		// or 2: a predictor far from the first (uniform, bayes against cnn) would crowd the axis.
		step := 0.1
		switch r := hi - lo; {
		case r > 12:
			step = 2
		case r > 6:
			step = 1
		case r > 1.5:
			step = 0.5
		}
		var ticks []plot.Tick
		for i := math.Ceil(lo / step); i*step <= hi; i++ {
			v := i * step
			if v == 0 {
				v = 0 // not −0, which would print as "-0.0"
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%.1f", v)})
		}
		return ticks
	})
	legendAt(p, false, false)
	return p, nil
}

// finiteXYs drops the points without a value (a curve longer than the first).
func finiteXYs(xys plotter.XYs) plotter.XYs {
	out := xys[:0]
	for _, xy := range xys {
		if !math.IsNaN(xy.Y) {
			out = append(out, xy)
		}
	}
	return out
}
