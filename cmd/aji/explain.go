package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"aji/analysis/board"
	"aji/analysis/live"
	"aji/analysis/predict"
)

// explanation is `aji explain --json`: what the app's inspector shows for one point.
type explanation struct {
	Predictor    string              `json:"predictor"`
	Move         int                 `json:"move"` // moves played before the position
	ToPlay       string              `json:"to_play"`
	Point        string              `json:"point"`
	Rank         int                 `json:"rank"`
	Moves        int                 `json:"moves"` // legal moves, pass included
	Probability  float64             `json:"probability"`
	Factors      []factorFigure      `json:"factors"`
	Interactions []interactionFigure `json:"interactions,omitempty"` // strongest first
}

type factorFigure struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"` // γ; for fbt e^w
	Elo    float64 `json:"elo"`
	Share  float64 `json:"share"`
	// Up and Down are the factor's largest and smallest interaction, when it has one above (below) 0.
	Up   *interactionFigure `json:"up,omitempty"`
	Down *interactionFigure `json:"down,omitempty"`
}

type interactionFigure struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Value float64 `json:"value"`
}

// runExplain explains one point of the position after move N of a record's main line with a predictor,
// as the app's inspector does (analysis/live's explanations).
func runExplain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	move := fs.Int("move", -1, "number of main-line moves to play (default: all)")
	name := fs.String("predictor", "mm", "move predictor")
	model := fs.String("model", "", "explain with a predictor of this model FILE instead (of its kind: mm, cfg, fbt)")
	point := fs.String("point", "", "the move to explain, e.g. Q16 or pass (default: the record's next move)")
	whyNot := fs.String("why-not", "", "compare the move with this one, factor by factor: a point, pass, or \"top\" for the predictor's top point (its second when the move is the top)")
	top := fs.Int("interactions", 10, "strongest interactions listed")
	asJSON := fs.Bool("json", false, "print one JSON object")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return fmt.Errorf("%w: explain FILE.sgf [--predictor NAME] [--model FILE] [--move N] [--point Q16] [--why-not D4|top] [--json]", errUsage)
	}
	g, pos, err := positionOf(files[0], *move)
	if err != nil {
		return err
	}
	size := pos.Board.Size()
	p, ok := nextMainLineMove(g, pos.MoveNumber)
	if *point != "" {
		if p, err = board.ParseGTP(*point, size); err != nil {
			return fmt.Errorf("%w: --point: %v", errUsage, err)
		}
		ok = true
	}
	if !ok {
		return fmt.Errorf("%w: the record ends after move %d: name a --point", errUsage, pos.MoveNumber)
	}
	if *model != "" { // a predictor of the file's kind, named after it, as File ▸ Load Model… makes
		if *name, err = predict.Load(*model); err != nil {
			return err
		}
	}
	all, err := live.NewPredictors().Explain(ctx, *name, pos)
	if err != nil {
		return err
	}
	if all.Unable {
		return fmt.Errorf("%s does not explain its moves", *name)
	}
	ex := all.Lookup(p)
	if ex == nil {
		return fmt.Errorf("%s is not a legal move for %s after move %d", p.GTP(size), pos.ToPlay.Name(), pos.MoveNumber)
	}
	if *whyNot != "" {
		q := all.BestBut(p)
		if *whyNot != "top" {
			if q, err = board.ParseGTP(*whyNot, size); err != nil {
				return fmt.Errorf("%w: --why-not: %v", errUsage, err)
			}
		}
		exB := all.Lookup(q)
		if exB == nil {
			return fmt.Errorf("--why-not: %s is not a legal move for %s after move %d", q.GTP(size), pos.ToPlay.Name(), pos.MoveNumber)
		}
		return printWhyNot(stdout, *asJSON, all, pos.MoveNumber, predict.Compare(ex, exB))
	}
	out := explanation{Predictor: *name, Move: pos.MoveNumber, ToPlay: pos.ToPlay.Name(), Point: p.GTP(size),
		Rank: ex.Rank, Moves: all.Moves, Probability: ex.Probability}
	figure := func(k int) *interactionFigure {
		if k < 0 {
			return nil
		}
		in := ex.Interactions[k]
		return &interactionFigure{A: ex.Factors[in.A].Name, B: ex.Factors[in.B].Name, Value: in.Value}
	}
	up, down := ex.Partners()
	for i, f := range ex.Factors {
		out.Factors = append(out.Factors, factorFigure{Name: f.Name, Weight: f.Weight, Elo: f.Elo, Share: f.Share,
			Up: figure(up[i]), Down: figure(down[i])})
	}
	for k := range ex.Interactions[:min(*top, len(ex.Interactions))] {
		out.Interactions = append(out.Interactions, *figure(k))
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "%s, %s to play after move %d: %s ranks %d of %d, probability %.2f%%\n",
		out.Predictor, out.ToPlay, out.Move, out.Point, out.Rank, out.Moves, 100*out.Probability)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "γ\tElo\tshare\t\t")
	for i, f := range out.Factors {
		fmt.Fprintf(w, "%.3f\t%.0f\t%+.2f\t\t%s\n", f.Weight, f.Elo, f.Share, f.Name)
		for _, k := range []int{up[i], down[i]} {
			if k >= 0 {
				fmt.Fprintf(w, "\t\t\t\t  %s\n", ex.InteractionText(k, i))
			}
		}
	}
	w.Flush()
	if len(out.Interactions) > 0 {
		fmt.Fprintln(stdout, "strongest interactions:")
		for k := range out.Interactions {
			fmt.Fprintf(stdout, "  %s\n", ex.InteractionText(k, -1))
		}
	}
	return nil
}

// whyNotFigures is `aji explain --why-not --json`: the factor-by-factor difference of two moves'
// log-strengths, which sums to log_ratio.
type whyNotFigures struct {
	Predictor string       `json:"predictor"`
	Move      int          `json:"move"` // moves played before the position
	ToPlay    string       `json:"to_play"`
	Moves     int          `json:"moves"` // legal moves, pass included
	A         pointFigure  `json:"a"`
	B         pointFigure  `json:"b"`
	LogRatio  float64      `json:"log_ratio"` // log(p_A/p_B)
	Terms     []termFigure `json:"terms"`     // largest |diff| first; their diffs sum to log_ratio
}

type pointFigure struct {
	Point       string  `json:"point"`
	Rank        int     `json:"rank"`
	Probability float64 `json:"probability"`
}

type termFigure struct {
	Name        string  `json:"name"`
	A           float64 `json:"a"` // part of log-strength at A (0 where it did not fire)
	B           float64 `json:"b"`
	Diff        float64 `json:"diff"` // a − b
	Interaction bool    `json:"interaction,omitempty"`
	AtA         bool    `json:"at_a"` // fired at A (an interaction: both its factors did)
	AtB         bool    `json:"at_b"`
	// SDA and SDB are σ of a Bayesian factor's belief at A and B (its μ is weight_a, weight_b).
	WeightA float64 `json:"weight_a,omitempty"`
	WeightB float64 `json:"weight_b,omitempty"`
	SDA     float64 `json:"sd_a,omitempty"`
	SDB     float64 `json:"sd_b,omitempty"`
}

// printWhyNot writes the why-not table of w as text or JSON.
func printWhyNot(stdout io.Writer, asJSON bool, all *live.Explanations, move int, w predict.WhyNot) error {
	size := all.Size
	fig := func(ex *predict.Explanation) pointFigure {
		return pointFigure{Point: ex.Point.GTP(size), Rank: ex.Rank, Probability: ex.Probability}
	}
	out := whyNotFigures{Predictor: all.Predictor, Move: move, ToPlay: all.ToPlay.Name(), Moves: all.Moves,
		A: fig(w.A), B: fig(w.B), LogRatio: w.LogRatio(), Terms: []termFigure{}}
	for _, t := range w.Terms {
		f := termFigure{Name: t.Name, A: t.A, B: t.B, Diff: t.Diff(), Interaction: t.Interaction,
			AtA: t.FA != nil || t.Interaction && t.A != 0, AtB: t.FB != nil || t.Interaction && t.B != 0}
		if t.FA != nil {
			f.WeightA, f.SDA = t.FA.Weight, t.FA.SD
		}
		if t.FB != nil {
			f.WeightB, f.SDB = t.FB.Weight, t.FB.SD
		}
		out.Terms = append(out.Terms, f)
	}
	if asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "%s, %s to play after move %d: why %s (rank %d, %.2f%%) and not %s (rank %d, %.2f%%)?\n",
		out.Predictor, out.ToPlay, out.Move, out.A.Point, out.A.Rank, 100*out.A.Probability,
		out.B.Point, out.B.Rank, 100*out.B.Probability)
	fmt.Fprintf(stdout, "log(pA/pB) = %+.3f, the sum of the differences:\n", out.LogRatio)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "at %s\tat %s\tA−B\t\t\n", out.A.Point, out.B.Point)
	cell := func(v float64, at bool) string {
		if !at {
			return "·"
		}
		return fmt.Sprintf("%+.3f", v)
	}
	for _, f := range out.Terms {
		name := f.Name
		if f.SDA > 0 || f.SDB > 0 {
			name += fmt.Sprintf(" (μ±σ %s / %s)", musd(f.WeightA, f.SDA, f.AtA), musd(f.WeightB, f.SDB, f.AtB))
		}
		fmt.Fprintf(tw, "%s\t%s\t%+.3f\t\t%s\n", cell(f.A, f.AtA), cell(f.B, f.AtB), f.Diff, name)
	}
	return tw.Flush()
}

// musd is "0.42±0.10", or "·" where the factor did not fire.
func musd(mu, sd float64, at bool) string {
	if !at {
		return "·"
	}
	return fmt.Sprintf("%.2f±%.2f", mu, sd)
}
