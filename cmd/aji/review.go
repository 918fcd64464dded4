package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"aji/analysis/game"
	"aji/analysis/mcts"
	"aji/analysis/review"
	"aji/internal/atomicfile"
	"aji/internal/progress"
)

// reviewReport is `aji review --json`: every move of the main line scored. Points are GTP vertices;
// scores and win probabilities are Black's.
type reviewReport struct {
	File              string          `json:"file"`
	Size              int             `json:"size"`
	Komi              float64         `json:"komi"`
	Predictors        []string        `json:"predictors"`
	Territory         string          `json:"territory,omitempty"`
	TerritoryPlayouts int             `json:"territory_playouts,omitempty"`
	SearchPlayouts    int             `json:"search_playouts,omitempty"`
	SearchPrior       string          `json:"search_prior,omitempty"`
	Summary           []reviewSummary `json:"summary"` // per predictor, as `aji eval` counts
	// UsualGain is the median change of the mover's win probability over a move (review.Result.Tempo),
	// against which swings are judged; absent without a territory or search.
	UsualGain *float64          `json:"usual_gain,omitempty"`
	Timing    reviewTiming      `json:"timing"`
	Moves     []reviewMoveEntry `json:"moves"`
}

type reviewSummary struct {
	Predictor       string  `json:"predictor"`
	Positions       int     `json:"positions"`
	Top1            float64 `json:"top1"`
	Top5            float64 `json:"top5"`
	MeanLogEvidence float64 `json:"mean_log_evidence"`
}

type reviewTiming struct {
	WallSeconds      float64 `json:"wall_seconds"`
	PredictSeconds   float64 `json:"predict_seconds"` // summed over the workers
	TerritorySeconds float64 `json:"territory_seconds"`
	SearchSeconds    float64 `json:"search_seconds"`
	Positions        int     `json:"positions"`
	Cached           int     `json:"cached"`
}

type reviewMoveEntry struct {
	Move       int               `json:"move"`  // from 1, passes counted
	Color      string            `json:"color"` // B or W
	Point      string            `json:"point"` // GTP vertex or "pass"
	Predictors []reviewPredEntry `json:"predictors,omitempty"`
	Before     *reviewValue      `json:"before,omitempty"`
	After      *reviewValue      `json:"after,omitempty"`
	Surprising bool              `json:"surprising,omitempty"`
	// Gain is the change of the mover's win probability; absent without a territory or search.
	Gain  *float64 `json:"win_probability_gain,omitempty"`
	Swing string   `json:"swing,omitempty"` // "bad" or "good": Gain beyond usual_gain by the swing threshold
}

type reviewPredEntry struct {
	Name        string       `json:"name"`
	Rank        int          `json:"rank,omitempty"`
	Probability float64      `json:"probability"`
	Illegal     bool         `json:"illegal,omitempty"`
	Top         []moveFigure `json:"top"`
}

type reviewValue struct {
	ExpectedScore   *float64 `json:"expected_score,omitempty"` // area score less komi
	PBlackWins      *float64 `json:"black_win_probability,omitempty"`
	ScoreStdDev     *float64 `json:"score_stddev,omitempty"`
	SearchBest      string   `json:"search_best,omitempty"`
	SearchBlackWins *float64 `json:"search_black_win_probability,omitempty"`
}

// runReview reviews every move of the first game's main line with analysis/review, the app's review,
// and prints it, writes it into a copy of the record, or plots it.
func runReview(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	names := fs.String("predictors", review.DefaultPredictor, "move predictors, comma-separated")
	withTerritory := fs.Bool("territory", false, "add the territory estimate's expected score and win probability before and after each move")
	model := fs.String("territory-model", review.DefaultTerritory, "territory model of --territory (boltzmann5, boltzmann12, boltzmann-lib, mc, boltzmann5+mc)")
	playouts := fs.Int("territory-playouts", review.DefaultPlayouts, "rollouts per position of mc and boltzmann5+mc")
	searchPlayouts := fs.Int("search-playouts", 0, "tree-search playouts per position for a search value (0: none)")
	searchPrior := fs.String("search-prior", mcts.DefaultPriorName, "the tree search's prior: any predictor")
	maxMoves := fs.Int("max-moves", 0, "review only the first N moves (0: all)")
	top := fs.Int("top", review.DefaultTop, "candidates per predictor and move in --json")
	labels := fs.Int("labels", review.DefaultLabels, "top candidates labelled on each move's node in --sgf (0: none)")
	workers := fs.Int("workers", 0, "positions analysed at once (0: one per core)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	sgfOut := fs.String("sgf", "", "write the record with the review in comments and markup to this file")
	plotOut := fs.String("plot", "", "draw the review into this PNG file")
	overwrite := fs.Bool("overwrite", false, "allow --sgf to replace the reviewed file itself")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(files) > 1 && *withTerritory:
		return fmt.Errorf("%w: review FILE.sgf: one record (--territory takes no value; --territory-model names the model)", errUsage)
	case len(files) != 1 || *names == "":
		return fmt.Errorf("%w: review FILE.sgf [--predictors A,B] [--territory] [--json | --sgf OUT.sgf | --plot OUT.png]", errUsage)
	case *maxMoves < 0 || *top < 0 || *labels < 0 || *playouts < 0 || *searchPlayouts < 0:
		return fmt.Errorf("%w: review: --max-moves, --top, --labels and the playouts must not be negative", errUsage)
	case *sgfOut != "" && !*overwrite && samePath(files[0], *sgfOut):
		return fmt.Errorf("%w: review: --sgf %s is the reviewed record; write a copy, or pass --overwrite to replace it", errUsage, *sgfOut)
	}
	g, err := loadFirstGame(files[0])
	if err != nil {
		return err
	}
	line := g.MainLine()
	if *maxMoves > 0 {
		line = firstMoves(line, *maxMoves)
	}
	o := review.Options{Predictors: strings.Split(*names, ","), SearchPlayouts: *searchPlayouts, SearchPrior: *searchPrior, Top: *top, Workers: *workers}
	if *withTerritory {
		o.Territory, o.Playouts = *model, *playouts
	}
	moves := 0
	for _, n := range line {
		if n.Move != nil {
			moves++
		}
	}
	meter := progress.New(os.Stderr, "review", "moves", moves)
	res, err := review.New(0).Review(ctx, g, line, o, func(review.Move) { meter.Add(1) })
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	meter.Done()

	if *sgfOut != "" {
		lb := *labels
		if lb == 0 {
			lb = -1
		}
		review.Annotate(res, review.AnnotateOptions{Labels: lb})
		if err := atomicfile.Write(*sgfOut, g.Save); err != nil {
			return err
		}
	}
	if *plotOut != "" {
		if err := plotReview(*plotOut, res); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, reportOf(files[0], res))
	}
	if *sgfOut != "" || *plotOut != "" {
		for _, out := range []string{*sgfOut, *plotOut} {
			if out != "" {
				fmt.Fprintf(stdout, "%s: review of %d moves\n", out, len(res.Moves))
			}
		}
		return nil
	}
	return printReview(stdout, res)
}

// samePath reports whether two paths name one file: the same file on disk, or the same clean path.
func samePath(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// firstMoves cuts a line after its n-th move.
func firstMoves(line []*game.Node, n int) []*game.Node {
	for i, node := range line {
		if node.Move != nil {
			if n--; n == 0 {
				return line[:i+1]
			}
		}
	}
	return line
}

// reportOf turns a review into its JSON report.
func reportOf(file string, r *review.Result) *reviewReport {
	rep := &reviewReport{
		File: file, Size: r.Size, Komi: r.Komi, Predictors: r.Options.Predictors, Territory: r.Options.Territory,
		SearchPlayouts: r.Options.SearchPlayouts, Moves: []reviewMoveEntry{},
		Timing: reviewTiming{
			WallSeconds: r.Timing.Wall.Seconds(), PredictSeconds: r.Timing.Predict.Seconds(),
			TerritorySeconds: r.Timing.Territory.Seconds(), SearchSeconds: r.Timing.Search.Seconds(),
			Positions: r.Timing.Positions, Cached: r.Timing.Cached,
		},
	}
	if rep.Territory != "" {
		rep.TerritoryPlayouts = r.Options.Playouts
	}
	if rep.SearchPlayouts > 0 {
		rep.SearchPrior = r.Options.SearchPrior
	}
	if !math.IsNaN(r.Tempo) {
		rep.UsualGain = &r.Tempo
	}
	for i, name := range r.Options.Predictors {
		s := r.Score(i)
		cdf := s.RankCDF()
		rep.Summary = append(rep.Summary, reviewSummary{name, s.Positions, cdf[0], cdf[4], s.MeanLogEvidence()})
	}
	for i := range r.Moves {
		m := &r.Moves[i]
		e := reviewMoveEntry{Move: m.Number, Color: m.Color.String(), Point: m.Point.GTP(r.Size),
			Before: valueOf(m.Before, r.Size), After: valueOf(m.After, r.Size)}
		for _, p := range m.Predictions {
			pe := reviewPredEntry{Name: p.Predictor, Rank: p.Rank, Probability: p.Probability, Illegal: !p.Legal, Top: []moveFigure{}}
			for _, c := range p.Top {
				pe.Top = append(pe.Top, moveFigure{c.Point.GTP(r.Size), c.Probability})
			}
			e.Predictors = append(e.Predictors, pe)
		}
		j := r.Judge(i, review.AnnotateOptions{})
		e.Surprising = j.Surprising
		if !math.IsNaN(j.Gain) {
			e.Gain = &j.Gain
		}
		switch {
		case j.Bad:
			e.Swing = "bad"
		case j.Good:
			e.Swing = "good"
		}
		rep.Moves = append(rep.Moves, e)
	}
	return rep
}

func valueOf(v review.Value, size int) *reviewValue {
	if v.Score == nil && v.Search == nil {
		return nil
	}
	out := new(reviewValue)
	if s := v.Score; s != nil {
		out.ExpectedScore, out.PBlackWins, out.ScoreStdDev = &s.Mean, &s.PBlackWins, &s.StdDev
	}
	if s := v.Search; s != nil && s.Visits > 0 {
		out.SearchBest, out.SearchBlackWins = s.Best.GTP(size), &s.PBlackWins
	}
	return out
}

// printReview writes a review for a person: the predictors' summary, then a line per move.
func printReview(out io.Writer, r *review.Result) error {
	w := new(strings.Builder)
	fmt.Fprintf(w, "%dx%d, komi %g, %d moves\n", r.Size, r.Size, r.Komi, len(r.Moves))
	for i, name := range r.Options.Predictors {
		s := r.Score(i)
		cdf := s.RankCDF()
		fmt.Fprintf(w, "%s: first choice %.1f%%, top 5 %.1f%% of %d moves, mean log-evidence %.3f\n",
			name, 100*cdf[0], 100*cdf[4], s.Positions, s.MeanLogEvidence())
	}
	for i := range r.Moves {
		m := &r.Moves[i]
		mark := ""
		j := r.Judge(i, review.AnnotateOptions{})
		switch {
		case j.Bad:
			mark = " ?"
		case j.Good:
			mark = " !"
		}
		if j.Surprising {
			mark += " (surprising)"
		}
		fmt.Fprintf(w, "%4d %s %-4s %s%s\n", m.Number, m.Color, m.Point.GTP(r.Size), review.Line(m, r.Size), mark)
	}
	_, err := io.WriteString(out, w.String())
	return err
}

// plotReview draws the review: the probability each predictor gave the move played (log scale), and,
// when there are values, the expected score and Black's win probability after each move.
func plotReview(path string, r *review.Result) error {
	if len(r.Moves) == 0 {
		return errors.New("plot: the review has no moves")
	}
	prob := curvePanel("Probability of the move played", "move", "probability")
	prob.Y.Scale = plot.LogScale{}
	prob.Y.Tick.Marker = inRange{plot.LogTicks{Prec: -1}}
	prob.Y.Min, prob.Y.Max = 1e-4, 1
	prob.X.Min = float64(r.Moves[0].Number - 1) // as the other panels start
	for i, name := range r.Options.Predictors {
		var xys plotter.XYs
		for _, m := range r.Moves {
			if i < len(m.Predictions) && m.Predictions[i].Legal {
				xys = append(xys, plotter.XY{X: float64(m.Number), Y: max(m.Predictions[i].Probability, 1e-4)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		// Points only: a line joining moves 1 to 250 hides them.
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		sc.Color, sc.Shape, sc.Radius = plotutil.Color(i), plotutil.Shape(i), vg.Points(2.5)
		prob.Add(sc)
		prob.Legend.Add(name, sc)
	}
	legendAt(prob, false, false)
	panels := []*plot.Plot{prob}

	// Values after each move, and before the first: the positions 0..N of the line.
	values := func(f func(review.Value) (float64, bool)) plotter.XYs {
		var xys plotter.XYs
		if v, ok := f(r.Moves[0].Before); ok {
			xys = append(xys, plotter.XY{X: float64(r.Moves[0].Number - 1), Y: v})
		}
		for _, m := range r.Moves {
			if v, ok := f(m.After); ok {
				xys = append(xys, plotter.XY{X: float64(m.Number), Y: v})
			}
		}
		return xys
	}
	score := values(func(v review.Value) (float64, bool) {
		if v.Score == nil {
			return 0, false
		}
		return v.Score.Mean, true
	})
	if len(score) > 0 {
		p := curvePanel("Expected score (Stern §5.1.1)", "move", "Black's lead in points (area, komi included)")
		if err := addCurve(p, 0, score, r.Options.Territory); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		legendAt(p, true, true)
		panels = append(panels, p)
	}
	win := curvePanel("Black's win probability", "move", "P(Black wins)")
	win.Y.Min, win.Y.Max = 0, 1
	curves := 0
	if xys := values(func(v review.Value) (float64, bool) {
		if v.Score == nil {
			return 0, false
		}
		return v.Score.PBlackWins, true
	}); len(xys) > 0 {
		if err := addCurve(win, 0, xys, r.Options.Territory); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		curves++
	}
	if xys := values(func(v review.Value) (float64, bool) {
		if v.Search == nil || v.Search.Visits == 0 {
			return 0, false
		}
		return v.Search.PBlackWins, true
	}); len(xys) > 0 {
		if err := addCurve(win, 1, xys, fmt.Sprintf("search, %d playouts, %s prior", r.Options.SearchPlayouts, r.Options.SearchPrior)); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		curves++
	}
	if curves > 0 {
		legendAt(win, true, true)
		panels = append(panels, win)
	}
	return writePanels(path, panels, vg.Length(len(panels))*6*vg.Inch, 4.5*vg.Inch)
}
