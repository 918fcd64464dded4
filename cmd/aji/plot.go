package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/territory"
)

// plotKind is one figure of `aji plot KIND`; it parses its own flags.
type plotKind struct {
	summary string
	run     func(ctx context.Context, args []string, stdout io.Writer) error
}

// plotKinds are the figures `aji plot` draws, by name.
var plotKinds = map[string]plotKind{
	"bayes-betas":    {"Stern's Figure 3.19: the hierarchical model's β_i estimated from a flat bayes model", runPlotBayesBetas},
	"bayes-patterns": {"Stern's Figures 3.5, 3.6 and 3.11: largest pattern size by phase, mean rank error by size and by phase, of bayes models", runPlotBayesPatterns},
	"cnn-curve":      {"the DCNN paper's Graphs 1-2: cnn validation top-1 and losses against training positions, from aji train cnn --log files", runPlotCNNCurve},
	"fbt-time":       {"Xiao's Figure 4.4: FBT validation top-1 against training time, from aji train fbt --log files", runPlotFBTTime},
	"mixing":         {"Stern's Figure 5.5: Gibbs and Swendsen-Wang running averages against exact marginals", runPlotMixing},
	"planning":       {"Stern's Figures 6.2, 6.6, 6.7: error rate of Monte Carlo planners (mc, uct, alpha-beta, Bayesian models) on synthetic game trees", runPlotPlanning},
	"phase":          {"Xiao's Figure 4.2(b): top-1 per game phase of the results of aji eval --json files", runPlotPhase},
	"rank-cdf":       {"rank CDF, P(expert move among the top k), of the results of aji eval --json files", runPlotRankCDF},
	"reading":        {"Stern's Figures 4.9, 4.10, 4.12: time and nodes per problem of two aji reading --json reports (pns against pp, before against after learning)", runPlotReading},
}

func plotUsage() string {
	var sb strings.Builder
	sb.WriteString("usage: aji plot KIND --out FILE.png [flags]\n\nkinds:\n")
	for _, n := range plotNames() {
		fmt.Fprintf(&sb, "  %-14s %s\n", n, plotKinds[n].summary)
	}
	sb.WriteString("\nRun aji plot KIND -h for its flags.\n")
	return sb.String()
}

// runPlot dispatches `aji plot KIND ...`.
func runPlot(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: aji plot needs a kind (%s)", errUsage, strings.Join(plotNames(), ", "))
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, plotUsage())
		return nil
	}
	k, ok := plotKinds[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown plot %q (%s)", errUsage, args[0], strings.Join(plotNames(), ", "))
	}
	return k.run(ctx, args[1:], stdout)
}

func plotNames() []string {
	var names []string
	for n := range plotKinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// mixingTarget is the error the summary counts sweeps to: issue 5's "within 0.02 of exact".
const mixingTarget = 0.02

// mixingMethod is one sampler's line of the mixing summary.
type mixingMethod struct {
	Method       string  `json:"method"`
	MeanAbsError float64 `json:"mean_abs_error"` // after all sweeps, of E[s] against exact, over points
	MaxAbsError  float64 `json:"max_abs_error"`  // the largest over points
	// SweepsToMean and SweepsToMax are the first plotted sweep counts from which the mean (largest)
	// error stays within mixingTarget to the end; 0 when it does not get there.
	SweepsToMean int     `json:"sweeps_to_mean_002"`
	SweepsToMax  int     `json:"sweeps_to_max_002"`
	MsPerSweep   float64 `json:"ms_per_sweep"` // wall clock, one goroutine
}

// mixingSummary is what `aji plot mixing` reports besides the image.
type mixingSummary struct {
	Out     string         `json:"out"`
	Games   string         `json:"games"`
	Game    int            `json:"game"`
	Move    int            `json:"move"`
	Model   string         `json:"model"`
	Sweeps  int            `json:"sweeps"`
	Burnin  int            `json:"burnin"`
	Methods []mixingMethod `json:"methods"`
}

// runPlotMixing draws Stern's Figure 5.5 on one of our positions: for Gibbs (left) and Swendsen-Wang
// (right), the distance of every point's running average from its exact marginal as sweeps go on, on
// log-log axes, with the mean and largest over the points drawn bold. Both samplers use their
// Rao-Blackwellised estimates, as Estimator does (Stern §5.3.3 for Gibbs); SW includes the chain block
// move (see territory.SW).
func runPlotMixing(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot mixing", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write (required)")
	games := fs.String("games", filepath.Join("..", "shared", "data", "games-validation.tar.xz"), "game collection (folder, .sgf, .tar.xz)")
	gameNo := fs.Int("game", 1, "which game of the collection that fits --size and --move, from 1")
	size := fs.Int("size", 19, "board size of the games considered")
	move := fs.Int("move", 80, "the position before this move")
	model := fs.String("model", territory.KindBoltzmann5.String(), "Boltzmann model: boltzmann5, boltzmann12, boltzmann-lib")
	sweeps := fs.Int("sweeps", 10000, "sweeps of each sampler after the burn-in")
	burnin := fs.Int("burnin", territory.DefaultBurnin, "sweeps discarded first")
	seed := fs.Uint64("seed", 1, "seed of both samplers")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return fmt.Errorf("%w: plot mixing takes no arguments, got %q", errUsage, rest)
	case *out == "":
		return fmt.Errorf("%w: plot mixing needs --out FILE.png", errUsage)
	case *gameNo < 1 || *move < 1 || *sweeps < 1 || *burnin < 0:
		return fmt.Errorf("%w: plot mixing needs --game, --move and --sweeps ≥ 1 and --burnin ≥ 0", errUsage)
	}
	kind, err := territory.ParseKind(*model)
	if err != nil {
		return err
	}
	trained, err := territory.DefaultTrained(kind)
	if err != nil {
		return err
	}
	pos, err := nthPosition(ctx, *games, *size, *gameNo, *move)
	if err != nil {
		return err
	}
	var f territory.Field
	trained.At(pos.MoveNumber).Field(&pos.Board, &f)
	var ex territory.Exact
	var want territory.Marginals
	if _, err := ex.RunContext(ctx, &f, &want); err != nil {
		return err
	}
	exact := make([]float64, 0, *size**size)
	for _, p := range board.PointsOf(*size) {
		exact = append(exact, want.Mean[p])
	}
	at := logSteps(*sweeps, 1.05)
	sum := mixingSummary{Out: *out, Games: *games, Game: *gameNo, Move: *move, Model: *model, Sweeps: *sweeps, Burnin: *burnin}
	var traces []*territory.Trace
	for _, method := range []territory.Method{territory.MethodGibbs, territory.MethodSW} {
		o := territory.SampleOptions{Burnin: *burnin, Seed: *seed, RaoBlack: true}
		t0 := time.Now()
		tr, err := territory.RunTrace(ctx, &f, method, o, at)
		if err != nil {
			return err
		}
		ms := float64(time.Since(t0).Microseconds()) / 1000 / float64(*burnin+*sweeps)
		traces = append(traces, tr)
		sum.Methods = append(sum.Methods, summariseTrace(method.String(), tr, exact, ms))
	}
	where := fmt.Sprintf("%s, game %d of %s, before move %d", *model, *gameNo, filepath.Base(*games), *move)
	titles := []string{"Gibbs sampling (Rao-Blackwellised)\n" + where, "Swendsen-Wang sampling (Rao-Blackwellised, chain block move)\n" + where}
	var panels []*plot.Plot
	for k, tr := range traces {
		p, err := mixingPanel(titles[k], tr, exact, *sweeps)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if err := writePanels(*out, panels, 13*vg.Inch, 5.5*vg.Inch); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "%s: %s, %d sweeps after %d\n", *out, where, *sweeps, *burnin)
	for _, m := range sum.Methods {
		fmt.Fprintf(stdout, "  %-5s mean |error| %.4f, max %.3f; mean ≤ %.2f from %s sweeps, max from %s; %.3f ms a sweep\n",
			m.Method, m.MeanAbsError, m.MaxAbsError, mixingTarget, sweepsOrNever(m.SweepsToMean), sweepsOrNever(m.SweepsToMax), m.MsPerSweep)
	}
	return nil
}

func sweepsOrNever(n int) string {
	if n == 0 {
		return "never"
	}
	return fmt.Sprint(n)
}

// nthPosition returns the position before move of the n-th game (from 1) of the collection at path
// with the given size and at least that many moves.
func nthPosition(ctx context.Context, path string, size, n, move int) (*game.Position, error) {
	errFound := errors.New("found")
	var pos *game.Position
	seen := 0
	_, err := dataset.Walk(ctx, path, dataset.Filter{Size: size, MinMoves: move}, func(r dataset.Record) error {
		for _, g := range r.Games {
			if seen++; seen < n {
				continue
			}
			p, err := g.PositionAfter(move - 1)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			pos = p
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if pos == nil {
		return nil, fmt.Errorf("%s has %d %dx%d games of %d moves or more, not %d", path, seen, size, size, move, n)
	}
	return pos, nil
}

// logSteps returns sweep counts from 1 to n, each at least ratio times the last (and at least one
// more), n included: even spacing on a log axis.
func logSteps(n int, ratio float64) []int {
	var at []int
	for x := 1; x < n; x = max(x+1, int(float64(x)*ratio)) {
		at = append(at, x)
	}
	return append(at, n)
}

// summariseTrace reduces a trace to its summary line.
func summariseTrace(method string, tr *territory.Trace, exact []float64, msPerSweep float64) mixingMethod {
	m := mixingMethod{Method: method, MsPerSweep: msPerSweep}
	for k, row := range tr.Means {
		mean, worst := pointErrors(row, exact)
		if mean > mixingTarget {
			m.SweepsToMean = 0
		} else if m.SweepsToMean == 0 {
			m.SweepsToMean = tr.At[k]
		}
		if worst > mixingTarget {
			m.SweepsToMax = 0
		} else if m.SweepsToMax == 0 {
			m.SweepsToMax = tr.At[k]
		}
		m.MeanAbsError, m.MaxAbsError = mean, worst
	}
	return m
}

// pointErrors returns the mean and the largest |got − want|.
func pointErrors(got, want []float64) (mean, worst float64) {
	for i, v := range got {
		d := math.Abs(v - want[i])
		mean += d
		worst = max(worst, d)
	}
	return mean / float64(len(got)), worst
}

// mixingFloor is the bottom of the error axis: errors below it are drawn on it, as a log axis has no 0.
const mixingFloor = 1e-4

// mixingPanel is one half of Figure 5.5: a thin line per point, the mean and the largest error bold,
// and the 0.02 target dashed.
func mixingPanel(title string, tr *territory.Trace, exact []float64, sweeps int) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = "sweeps (whole-board samples)"
	p.Y.Label.Text = "|error| of E[s]" // short: gonum pads the plot top for a long rotated label
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = inRange{plot.LogTicks{Prec: -1}}, inRange{plot.LogTicks{Prec: -1}}
	line := func(xys plotter.XYs, c color.Color, width vg.Length, dashes ...vg.Length) (*plotter.Line, error) {
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width, l.Dashes = c, width, dashes
		return l, nil
	}
	meanXY := make(plotter.XYs, len(tr.At))
	maxXY := make(plotter.XYs, len(tr.At))
	for k, n := range tr.At {
		mean, worst := pointErrors(tr.Means[k], exact)
		meanXY[k] = plotter.XY{X: float64(n), Y: max(mean, mixingFloor)}
		maxXY[k] = plotter.XY{X: float64(n), Y: max(worst, mixingFloor)}
	}
	var first *plotter.Line
	for i := range exact {
		xys := make(plotter.XYs, len(tr.At))
		for k, n := range tr.At {
			xys[k] = plotter.XY{X: float64(n), Y: max(math.Abs(tr.Means[k][i]-exact[i]), mixingFloor)}
		}
		l, err := line(xys, color.NRGBA{R: 60, G: 110, B: 190, A: 55}, vg.Points(0.5))
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = l
		}
		p.Add(l)
	}
	target, err := line(plotter.XYs{{X: 1, Y: mixingTarget}, {X: float64(sweeps), Y: mixingTarget}}, color.Gray{Y: 90}, vg.Points(1), vg.Points(4), vg.Points(3))
	if err != nil {
		return nil, err
	}
	meanL, err := line(meanXY, color.Black, vg.Points(2.2))
	if err != nil {
		return nil, err
	}
	maxL, err := line(maxXY, color.NRGBA{R: 200, G: 30, B: 30, A: 255}, vg.Points(1.8))
	if err != nil {
		return nil, err
	}
	p.Add(target, meanL, maxL)
	legendSample := *first
	legendSample.Color, legendSample.Width = color.NRGBA{R: 60, G: 110, B: 190, A: 200}, vg.Points(1)
	p.Legend.Add(fmt.Sprintf("each of the %d points", len(exact)), &legendSample)
	p.Legend.Add("mean over the points", meanL)
	p.Legend.Add("largest", maxL)
	p.Legend.Add(fmt.Sprintf("%.2f", mixingTarget), target)
	p.Legend.Top, p.Legend.Left = false, true
	p.X.Min, p.X.Max = 1, float64(sweeps)
	p.Y.Min, p.Y.Max = mixingFloor, 2
	return p, nil
}

// inRange drops the ticks a Ticker places outside the axis range: plot.LogTicks labels the next power
// of ten, and the plot then leaves room for that label above or beside the axis.
type inRange struct{ plot.Ticker }

func (t inRange) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range t.Ticker.Ticks(lo, hi) {
		if tk.Value >= lo*(1-1e-9) && tk.Value <= hi*(1+1e-9) {
			out = append(out, tk)
		}
	}
	return out
}

// writePanels draws plots side by side into a PNG file of the given size at 150 dpi. Panels with the
// same axes line up without plot.Align, which leaves a gap under two-line titles.
func writePanels(path string, panels []*plot.Plot, w, h vg.Length) error {
	return writePanelGrid(path, panels, false, w, h)
}

// writeStackedPanels draws plots one above the other, as writePanels draws them side by side.
func writeStackedPanels(path string, panels []*plot.Plot, w, h vg.Length) error {
	return writePanelGrid(path, panels, true, w, h)
}

// writePanelGrid draws plots in one row, or with stacked one column, into a PNG file.
func writePanelGrid(path string, panels []*plot.Plot, stacked bool, w, h vg.Length) error {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Millimeter * 8, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	if stacked {
		tiles.Rows, tiles.Cols, tiles.PadX, tiles.PadY = len(panels), 1, 0, vg.Millimeter*8
	}
	for i, p := range panels {
		if stacked {
			p.Draw(tiles.At(dc, 0, i))
		} else {
			p.Draw(tiles.At(dc, i, 0))
		}
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(fh); err != nil {
		fh.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// curveLabels returns the names of the curves of a plot: those of the comma-separated --labels value
// (flag), one per curve in file order, when given, else the defaults; what names the curves in the
// error.
func curveLabels(kind, flag, what string, defaults []string) ([]string, error) {
	if flag == "" {
		return defaults, nil
	}
	names := strings.Split(flag, ",")
	if len(names) != len(defaults) {
		return nil, fmt.Errorf("%w: plot %s: %d labels for %d %s", errUsage, kind, len(names), len(defaults), what)
	}
	return names, nil
}

// curvePanel is an empty panel with a grid, for curves drawn by addCurve.
func curvePanel(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	return p
}

// addCurve adds curve i drawn as points joined by lines in the i-th colour and shape, so that the
// curves of one result look alike from figure to figure.
func addCurve(p *plot.Plot, i int, xys plotter.XYs, legend string) error {
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color, l.Width = plotutil.Color(i), vg.Points(1.6)
	s.Color, s.Shape, s.Radius = plotutil.Color(i), plotutil.Shape(i), vg.Points(3)
	p.Add(l, s)
	if legend != "" {
		p.Legend.Add(legend, l, s)
	}
	return nil
}

// legendAt puts the legend in a corner, 2 mm in from the axes.
func legendAt(p *plot.Plot, top, left bool) {
	p.Legend.Top, p.Legend.Left = top, left
	p.Legend.XOffs, p.Legend.YOffs = vg.Millimeter*2, vg.Millimeter*2
	if !left {
		p.Legend.XOffs = -p.Legend.XOffs
	}
	if top {
		p.Legend.YOffs = -p.Legend.YOffs
	}
}

// top1Ticks labels a top-1 axis every 0.05, or every 0.1 over a range wider than 0.5: gonum's default
// ticks label only three values on it.
var top1Ticks = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	step := 0.05
	if hi-lo > 0.5 {
		step = 0.1
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+1e-9; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not −0, which would print as "-0.00"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%.2f", v)})
	}
	return ticks
})
