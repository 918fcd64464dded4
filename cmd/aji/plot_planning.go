package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"aji/analysis/planning"
	"aji/internal/progress"
)

// runPlotPlanning draws Stern's Figures 6.2, 6.6 and 6.7: the error rate of Monte Carlo planners on
// synthetic game trees against the number of leaf evaluations (log x), one curve per method, and prints
// the figures. Each tree is planned by every method once with the largest budget, its choice read at
// every budget on the way, as Stern records it after every rollout.
func runPlotPlanning(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("plot planning", flag.ContinueOnError)
	out := fs.String("out", "", "PNG file to write (required)")
	tree := fs.String("tree", "pgame", "synthetic tree: pgame or random (Stern §6.2); a comma-separated list draws panels side by side")
	bs := fs.String("branching", "2", "branching factor B, or one per panel, comma-separated")
	ds := fs.String("depth", "20", "depth D, the moves from the root to a leaf (B^D leaves), or one per panel")
	trees := fs.Int("trees", 200, "trees generated (Stern uses 2000)")
	budgets := fs.String("budgets", "1,2,5,10,20,50,100,200,500,1000,2000,5000,10000", "leaf evaluations (rollouts) at which the error is read, ascending")
	methods := fs.String("methods", "mc,uct,ab,counting", "planners, comma-separated: "+strings.Join(planning.Methods, ", "))
	seed := fs.Uint64("seed", 1, "seed of the trees and the planners")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return fmt.Errorf("%w: plot planning takes no arguments, got %q", errUsage, rest)
	case *out == "":
		return fmt.Errorf("%w: plot planning needs --out FILE.png", errUsage)
	case *trees < 1:
		return fmt.Errorf("%w: plot planning needs --trees ≥ 1", errUsage)
	}
	shapes, err := planningShapes(*tree, *bs, *ds)
	if err != nil {
		return err
	}
	at, ok := ascendingInts(*budgets)
	if !ok {
		return fmt.Errorf("%w: plot planning: --budgets must be ascending integers ≥ 1, got %q", errUsage, *budgets)
	}
	names := strings.Split(*methods, ",")
	for _, m := range names {
		if _, err := planning.NewPlanner(m, 2); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	meter := progress.New(os.Stderr, "plan", "tree-methods", len(shapes)**trees*len(names))
	var results []*planning.Result
	var panels []*plot.Plot
	for _, sh := range shapes {
		res, err := planning.Run(ctx, planning.Config{Kind: sh.kind, B: sh.b, D: sh.d, Trees: *trees, Budgets: at,
			Methods: names, Seed: *seed, Done: meter.Add})
		if err != nil {
			return err
		}
		p, err := planningPanel(res)
		if err != nil {
			return err
		}
		results, panels = append(results, res), append(panels, p)
	}
	meter.Done()
	if err := writePanels(*out, panels, vg.Length(len(panels))*6.5*vg.Inch, 5.5*vg.Inch); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, results)
	}
	for _, res := range results {
		fmt.Fprintf(stdout, "%s: %s trees, B=%d, D=%d, %d trees (root won by MAX in %d), seed %d; error rate after N leaf evaluations\n",
			*out, res.Tree, res.B, res.D, res.Trees, res.RootWins, res.Seed)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "method\t")
		for _, n := range res.Budgets {
			fmt.Fprintf(tw, "%d\t", n)
		}
		fmt.Fprintln(tw)
		for _, c := range res.Curves {
			fmt.Fprintf(tw, "%s\t", c.Method)
			for _, e := range c.ErrorRate {
				fmt.Fprintf(tw, "%.3f\t", e)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// planningShape is one panel's trees.
type planningShape struct {
	kind planning.Kind
	b, d int
}

// planningShapes zips the comma-separated --tree, --branching and --depth lists into panels; a list of
// one applies to every panel.
func planningShapes(trees, bs, ds string) ([]planningShape, error) {
	tl, bl, dl := strings.Split(trees, ","), strings.Split(bs, ","), strings.Split(ds, ",")
	n := max(len(tl), len(bl), len(dl))
	at := func(l []string, i int) (string, error) {
		switch len(l) {
		case 1:
			return strings.TrimSpace(l[0]), nil
		case n:
			return strings.TrimSpace(l[i]), nil
		}
		return "", fmt.Errorf("%w: plot planning: --tree, --branching and --depth list 1 or %d values each", errUsage, n)
	}
	var shapes []planningShape
	for i := range n {
		ts, err := at(tl, i)
		if err != nil {
			return nil, err
		}
		kind, err := planning.ParseKind(ts)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		var vals [2]int
		for j, l := range [][]string{bl, dl} {
			s, err := at(l, i)
			if err != nil {
				return nil, err
			}
			if vals[j], err = strconv.Atoi(s); err != nil {
				return nil, fmt.Errorf("%w: plot planning: %q is not a number", errUsage, s)
			}
		}
		switch b, d := vals[0], vals[1]; {
		case b < 2 || d < 1:
			return nil, fmt.Errorf("%w: plot planning needs --branching ≥ 2 and --depth ≥ 1", errUsage)
		case d > 40:
			return nil, fmt.Errorf("%w: plot planning: --depth %d is too deep to solve exactly (at most 40)", errUsage, d)
		}
		shapes = append(shapes, planningShape{kind, vals[0], vals[1]})
	}
	return shapes, nil
}

// planningPanel draws each method's error rate against the budget on a log x axis.
func planningPanel(res *planning.Result) (*plot.Plot, error) {
	p := curvePanel(fmt.Sprintf("Monte Carlo planning on %s trees, B = %d, D = %d (%d trees)", res.Tree, res.B, res.D, res.Trees),
		"leaf evaluations (rollouts)", "error rate (root move not minimax-optimal)")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, c := range res.Curves {
		xys := make(plotter.XYs, len(res.Budgets))
		for k, n := range res.Budgets {
			xys[k] = plotter.XY{X: float64(n), Y: c.ErrorRate[k]}
		}
		if err := addCurve(p, i, xys, c.Method); err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	legendAt(p, true, false)
	return p, nil
}
