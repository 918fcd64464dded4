package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"aji/analysis/predict"
)

// diffReport is `aji diff-models --json`.
type diffReport struct {
	A         string       `json:"a"`
	B         string       `json:"b"`
	Family    string       `json:"family"`
	Measure   string       `json:"measure"` // what delta is a change of: "ln gamma", "mu", "p", "w"
	RowsA     int          `json:"rows_a"`
	RowsB     int          `json:"rows_b"`
	Changed   int          `json:"changed"`
	Unchanged int          `json:"unchanged"`
	Added     int          `json:"added"`
	Removed   int          `json:"removed"`
	Top       []diffFigure `json:"top_changed"`
	TopAdded  []diffFigure `json:"top_added"`
	TopRemove []diffFigure `json:"top_removed"`
}

type diffFigure struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	Size   string   `json:"size,omitempty"`
	ID     string   `json:"id"` // the pattern key in hex, the feature index, the class or path label
	A      *float64 `json:"a,omitempty"`
	B      *float64 `json:"b,omitempty"`
	Delta  float64  `json:"delta"`
	DeltaV float64  `json:"delta_v,omitempty"` // FBT: ‖v_B − v_A‖
}

// measureNames are the delta's units, by predict.Measure.
var measureNames = map[predict.Measure]string{predict.Gamma: "ln gamma", predict.Gaussian: "mu", predict.Beta: "p", predict.Factorized: "w"}

// runDiffModels lists the weights that changed most between two models of one kind.
func runDiffModels(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("diff-models", flag.ContinueOnError)
	top := fs.Int("top", 20, "rows listed of each kind of change")
	byV := fs.Bool("by-v", false, "fbt: order by the change of the interaction vector ‖Δv‖, not |Δw|")
	asJSON := fs.Bool("json", false, "print one JSON object")
	args2, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args2) != 2 || *top < 0 {
		return fmt.Errorf("%w: diff-models A B [--top N] [--by-v] [--json] (A, B: model files or predictor names)", errUsage)
	}
	var ws [2]*predict.Weights
	for i, arg := range args2 {
		if ws[i], err = listingOf(arg); err != nil {
			return err
		}
	}
	d, err := predict.DiffWeights(ws[0], ws[1])
	if err != nil {
		return err
	}
	if *byV {
		if d.A.Measure != predict.Factorized {
			return fmt.Errorf("%w: --by-v is for fbt models, these are %s", errUsage, d.A.Family)
		}
		d.Order(true)
	}
	rep := diffReport{A: args2[0], B: args2[1], Family: d.A.Family, Measure: measureNames[d.A.Measure],
		RowsA: len(d.A.Rows), RowsB: len(d.B.Rows), Changed: len(d.Changed), Unchanged: d.Unchanged,
		Added: len(d.Added), Removed: len(d.Removed)}
	figures := func(cs []predict.Change) []diffFigure {
		out := []diffFigure{}
		for _, c := range cs[:min(*top, len(cs))] {
			w, i := d.A, c.A
			if i < 0 {
				w, i = d.B, c.B
			}
			r := w.Rows[i]
			f := diffFigure{Name: w.Name(i), Kind: r.Kind.String(), Size: w.Template(i), Delta: c.Delta, DeltaV: c.DeltaV}
			f.ID = fmt.Sprint(r.ID)
			if r.Kind == predict.RowShape || r.Kind == predict.RowPath {
				f.ID = fmt.Sprintf("%x", r.ID)
			}
			if c.A >= 0 {
				f.A = &d.A.Rows[c.A].Weight
			}
			if c.B >= 0 {
				f.B = &d.B.Rows[c.B].Weight
			}
			out = append(out, f)
		}
		return out
	}
	rep.Top, rep.TopAdded, rep.TopRemove = figures(d.Changed), figures(d.Added), figures(d.Removed)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintf(stdout, "%s against %s (%s): %d rows and %d; %d changed, %d unchanged, %d added, %d removed\n",
		rep.A, rep.B, rep.Family, rep.RowsA, rep.RowsB, rep.Changed, rep.Unchanged, rep.Added, rep.Removed)
	if d.A.Note != "" {
		fmt.Fprintf(stdout, "(%s)\n", d.A.Note)
	}
	unit := rep.Measure
	table := func(title string, fs []diffFigure) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(stdout, "\n%s\n", title)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := fmt.Sprintf("Δ %s\tA\tB\t", unit)
		if d.A.Measure == predict.Factorized {
			head = "Δw\t‖Δv‖\tA w\tB w\t"
		}
		fmt.Fprintf(tw, "%sid\tname\t\n", head)
		num := func(x *float64) string {
			if x == nil {
				return "-"
			}
			return fmt.Sprintf("%.4g", *x)
		}
		for _, f := range fs {
			if d.A.Measure == predict.Factorized {
				fmt.Fprintf(tw, "%+.4f\t%.4f\t%s\t%s\t", f.Delta, f.DeltaV, num(f.A), num(f.B))
			} else {
				fmt.Fprintf(tw, "%+.4f\t%s\t%s\t", f.Delta, num(f.A), num(f.B))
			}
			fmt.Fprintf(tw, "%s\t%s\t\n", f.ID, f.Name)
		}
		tw.Flush()
	}
	order := "|Δ " + unit + "|"
	if *byV {
		order = "‖Δv‖"
	}
	table(fmt.Sprintf("Largest changes (by %s):", order), rep.Top)
	table(fmt.Sprintf("Added (in %s only; Δ is the weight, largest first):", rep.B), rep.TopAdded)
	table(fmt.Sprintf("Removed (in %s only; Δ is the weight, largest first):", rep.A), rep.TopRemove)
	return nil
}

// listingOf lists the weights of a registered predictor (an embedded model: mm, fbt-small, …) or of
// the model file at arg.
func listingOf(arg string) (*predict.Weights, error) {
	name := arg
	if _, err := predict.Configured(arg); err != nil {
		if _, statErr := os.Stat(arg); statErr != nil {
			return nil, fmt.Errorf("%s: neither a predictor (%v) nor a model file", arg, predict.Names())
		}
		if name, err = predict.Load(arg); err != nil {
			return nil, err
		}
	}
	p, err := predict.New(name, predict.Options{NoOwner: true})
	if err != nil {
		return nil, err
	}
	l, ok := p.(predict.Lister)
	if !ok {
		return nil, fmt.Errorf("%s: the %s predictor has no weights to list", arg, name)
	}
	return l.Weights(), nil
}
