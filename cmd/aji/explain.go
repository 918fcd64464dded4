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
	point := fs.String("point", "", "the point to explain, e.g. Q16 (default: the record's next move)")
	top := fs.Int("interactions", 10, "strongest interactions listed")
	asJSON := fs.Bool("json", false, "print one JSON object")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return fmt.Errorf("%w: explain FILE.sgf [--predictor NAME] [--model FILE] [--move N] [--point Q16] [--json]", errUsage)
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
