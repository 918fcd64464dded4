package main

import (
	"context"
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
	"aji/analysis/pattern"
	"aji/analysis/predict/bayes"
	"aji/internal/progress"
)

// bayesPhases is how many 30-move phases the pattern-size panel draws (one colour each): later phases hold few moves.
const bayesPhases = 7

// runPlotBayesPatterns draws Stern's diagnostic figures of pattern models on a game collection: the
// relative frequency of the largest template matching at the expert's move by game phase (Figure 3.5,
// for the first model), and the mean rank error — rank over the number of legal moves — by that
// template and by phase (Figure 3.6 middle and bottom; with models trained on more and more games,
// Figure 3.11's). These are what a person tuning patterns reads: where the model backs off to small
// patterns, and how much that costs.
func runPlotBayesPatterns(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot bayes-patterns", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write")
	modelsFlag := fs.String("models", "", "bayes model files, comma-separated")
	labels := fs.String("labels", "", "their names in the legend, comma-separated (default: the file names)")
	games := fs.String("games", "", "game collection to diagnose the models on")
	maxGames := fs.Int("max-games", 0, "games to read (0: all)")
	workers := fs.Int("workers", 0, "goroutines (0: one per core)")
	bern := fs.Bool("bernoulli", false, "rank by the models' Bernoulli counts, not their ranking model")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *out == "" || *modelsFlag == "" || *games == "" {
		return fmt.Errorf("%w: plot bayes-patterns --models FILE[,FILE] --games PATH --out FILE.png [--labels A,B] [--max-games N] [--bernoulli]", errUsage)
	}
	files := strings.Split(*modelsFlag, ",")
	names, err := curveLabels("bayes-patterns", *labels, "models", files)
	if err != nil {
		return err
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	var ds []*bayes.Diagnostics
	for i, f := range files {
		m, err := bayes.Load(f)
		if err != nil {
			return err
		}
		meter := progress.New(os.Stderr, "diagnose "+names[i], "games", total)
		d, err := bayes.Diagnose(ctx, *games, m, *bern, *maxGames, *workers, func() { meter.Add(1) })
		meter.Done()
		if err != nil {
			return err
		}
		ds = append(ds, d)
	}
	sizes := curvePanel("Largest pattern at the expert's move (Stern Fig. 3.5)", "template", "relative frequency")
	d0 := ds[0]
	for ph := range min(bayesPhases, len(d0.ByPhase)) {
		n := d0.Unmatched[ph]
		for _, c := range d0.ByPhase[ph] {
			n += c
		}
		xys := make(plotter.XYs, pattern.NumStern)
		for t, c := range d0.ByPhase[ph] {
			xys[t] = plotter.XY{X: float64(t + 1), Y: float64(c) / float64(max(n, 1))}
		}
		if err := addCurve(sizes, ph, xys, fmt.Sprintf("moves %d–%d", ph*eval.PhaseLength+1, (ph+1)*eval.PhaseLength)); err != nil {
			return err
		}
	}
	legendAt(sizes, true, false)
	byTemplate := curvePanel("Mean rank error by pattern size (Fig. 3.6 middle)", "template", "rank / legal moves")
	byPhase := curvePanel("Mean rank error by game phase (Fig. 3.6 bottom)", "moves (phase)", "rank / legal moves")
	for i, d := range ds {
		var xt, xp plotter.XYs
		for t, e := range d.MeanErrorByTemplate() {
			if !math.IsNaN(e) {
				xt = append(xt, plotter.XY{X: float64(t + 1), Y: e})
			}
		}
		for ph, n := range d.CountByPhase {
			if n > 0 && ph < 2*bayesPhases {
				xp = append(xp, plotter.XY{X: float64(ph*eval.PhaseLength) + eval.PhaseLength/2, Y: d.ErrByPhase[ph] / float64(n)})
			}
		}
		if err := addCurve(byTemplate, i, xt, names[i]); err != nil {
			return err
		}
		if err := addCurve(byPhase, i, xp, names[i]); err != nil {
			return err
		}
	}
	legendAt(byTemplate, true, false)
	legendAt(byPhase, true, true)
	for _, p := range []*plot.Plot{sizes, byTemplate} {
		p.X.Tick.Marker = plot.ConstantTicks(templateTicks())
	}
	if err := writePanels(*out, []*plot.Plot{sizes, byTemplate, byPhase}, 16*vg.Inch, 5*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d model(s) on %s\n", *out, len(ds), *games)
	for i, d := range ds {
		e := d.MeanErrorByTemplate()
		var sb strings.Builder
		for t := range e {
			if d.CountByTemplate[t] > 0 {
				fmt.Fprintf(&sb, " T%d %.3f (%d)", t+1, e[t], d.CountByTemplate[t])
			}
		}
		fmt.Fprintf(stdout, "  %s: %d positions; mean rank error by template:%s\n", names[i], d.Positions, sb.String())
	}
	return nil
}

func templateTicks() []plot.Tick {
	ticks := make([]plot.Tick, pattern.NumStern)
	for t := range ticks {
		ticks[t] = plot.Tick{Value: float64(t + 1), Label: fmt.Sprint(t + 1)}
	}
	return ticks
}

// runPlotBayesBetas draws Stern's Figure 3.19, the hierarchical model's β_i estimated from a flat
// bayes model on a game collection, and prints them in the form train bayes-hier --betas takes.
func runPlotBayesBetas(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot bayes-betas", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write")
	modelFile := fs.String("model", "", "a flat bayes model (aji train bayes), trained on the largest match only")
	games := fs.String("games", "", "game collection whose moves give each pattern's parent")
	maxGames := fs.Int("max-games", 0, "games to read (0: all)")
	workers := fs.Int("workers", 0, "goroutines (0: one per core)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *out == "" || *modelFile == "" || *games == "" {
		return fmt.Errorf("%w: plot bayes-betas --model FILE --games PATH --out FILE.png [--max-games N]", errUsage)
	}
	m, err := bayes.Load(*modelFile)
	if err != nil {
		return err
	}
	if m.Hier != nil || m.Linear != nil {
		return fmt.Errorf("plot bayes-betas: %s is not a flat bayes model (train it with aji train bayes)", *modelFile)
	}
	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "parents", "games", total)
	est, err := bayes.EstimateBetas(ctx, *games, m, *maxGames, *workers, func() { meter.Add(1) })
	meter.Done()
	if err != nil {
		return err
	}
	p := curvePanel("Estimated β_i (Stern Fig. 3.19)", "i (between templates T_i and T_i+1)", "β_i")
	var xys plotter.XYs
	list := make([]string, len(est.Beta))
	for i, b := range est.Beta {
		list[i] = "1"
		if est.Pairs[i] > 0 {
			xys = append(xys, plotter.XY{X: float64(i + 1), Y: b})
			list[i] = fmt.Sprintf("%.3f", b)
		}
	}
	if err := addCurve(p, 0, xys, *modelFile); err != nil {
		return err
	}
	p.X.Tick.Marker = plot.ConstantTicks(templateTicks()[:len(est.Beta)])
	if err := writePanels(*out, []*plot.Plot{p}, 7*vg.Inch, 5*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: β_i from %s on %s\n", *out, *modelFile, *games)
	for i, b := range est.Beta {
		fmt.Fprintf(stdout, "  β_%d = %.3f over %d patterns of T%d\n", i+1, b, est.Pairs[i], i+2)
	}
	fmt.Fprintf(stdout, "--betas %s\n", strings.Join(list, ","))
	return nil
}
