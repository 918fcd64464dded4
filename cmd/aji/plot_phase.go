package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// runPlotPhase draws Xiao's Figure 4.2(b) (Xiao 2016): the top-1 of every result in the given eval
// files per game phase (moves 1–30, 31–60, ...), where the overall top-1 hides that predictors
// differ most in the opening and the endgame.
func runPlotPhase(_ context.Context, args []string, stdout io.Writer) error {
	out, curves, err := evalPlotArgs("phase", args)
	if err != nil {
		return err
	}
	for _, c := range curves {
		if len(c.ByPhase) == 0 {
			return fmt.Errorf("plot phase: %s (%s) has no by_phase", c.label, c.Predictor)
		}
		for _, ph := range c.ByPhase {
			if ph.From < 1 || ph.To < ph.From || !(ph.Top1 >= 0 && ph.Top1 <= 1) {
				return fmt.Errorf("plot phase: %s (%s): phase %d–%d has top-1 %v", c.label, c.Predictor, ph.From, ph.To, ph.Top1)
			}
		}
	}
	p, err := phasePanel(curves)
	if err != nil {
		return err
	}
	if err := writePanels(out, []*plot.Plot{p}, 9*vg.Inch, 5.5*vg.Inch); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: top-1 by phase of %d result(s)\n", out, len(curves))
	for _, c := range curves {
		var sb strings.Builder
		for i, ph := range c.ByPhase {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "%d–%d %.3f", ph.From, ph.To, ph.Top1)
		}
		fmt.Fprintf(stdout, "  %-8s top-1 %.3f; %s\n", c.label, c.Top1, sb.String())
	}
	return nil
}

// phasePanel draws every curve's top-1 at the middle of each phase, the phases labelled on the x axis
// (every other one when there are more than 12, so the labels do not run together).
func phasePanel(curves []evalCurve) (*plot.Plot, error) {
	p := curvePanel("Top-1 accuracy by game phase", "moves (game phase)", "top-1")
	phases := map[float64]string{}
	lo, hi, half := 1.0, 0.0, 0.0
	for i, c := range curves {
		xys := make(plotter.XYs, len(c.ByPhase))
		for k, ph := range c.ByPhase {
			x := float64(ph.From+ph.To) / 2
			phases[x] = fmt.Sprintf("%d–%d", ph.From, ph.To)
			xys[k] = plotter.XY{X: x, Y: ph.Top1}
			lo, hi = min(lo, ph.Top1), max(hi, ph.Top1)
			half = max(half, float64(ph.To-ph.From+1)/2)
		}
		if err := addCurve(p, i, xys, c.label); err != nil {
			return nil, err
		}
	}
	var xs []float64
	for x := range phases {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	every := 1
	if len(xs) > 12 {
		every = 2
	}
	ticks := make([]plot.Tick, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x}
		if i%every == 0 {
			ticks[i].Label = phases[x]
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	// Half a phase of room either side of the first and last points.
	p.X.Min, p.X.Max = xs[0]-half, xs[len(xs)-1]+half
	p.Y.Min, p.Y.Max = math.Floor(lo*10)/10, math.Min(1, math.Ceil(hi*10)/10)
	if p.Y.Min == p.Y.Max {
		p.Y.Min, p.Y.Max = max(0, p.Y.Min-0.1), min(1, p.Y.Max+0.1)
	}
	p.Y.Tick.Marker = top1Ticks
	legendAt(p, true, false)
	return p, nil
}
