package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/internal/atomicfile"
	"aji/internal/boardimage"
	"aji/internal/progress"
)

const (
	// reportPredictors are the main predictors, one of each family: the default of --predictors.
	reportPredictors = "mm,cfg,fbt,bayes,cnn"
	// reportWorst is how many worst-ranked positions the page shows per predictor (issue 23).
	reportWorst = 25
	// reportBoardPx is the side of a worst position's board image: small, five to a row on a laptop.
	reportBoardPx = 300
	// Names of the figures in the report's folder; the Chromium test looks for them.
	reportIndex       = "index.html"
	reportRankCDFPNG  = "rank-cdf.png"
	reportPhasePNG    = "phase.png"
	reportPatternsPNG = "pattern-size.png"
)

//go:embed report.html.tmpl
var reportHTML string

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": percent,
}).Parse(reportHTML))

// runReport writes a folder with one HTML page on how the predictors do on a collection: the metrics
// table with Wilson intervals, the rank CDF, top-1 by phase and by pattern size, and each predictor's
// worst-ranked positions drawn with their factors. The games are read once (eval.Run scores every
// predictor on each); the page is built in a temporary folder beside --out and renamed into place
// only when complete, so an interrupted run leaves nothing that looks like a report.
func runReport(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	names := fs.String("predictors", reportPredictors, "predictors, comma-separated")
	games := fs.String("games", "", "game collection: folder, .sgf, .tar.xz or .tar.gz")
	maxGames := fs.Int("max-games", 0, "stop after this many games (0: all)")
	out := fs.String("out", "", "folder to write the report to (created)")
	force := fs.Bool("force", false, "replace --out when it holds files")
	workers := fs.Int("workers", 0, "goroutines (0: all cores)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *games == "" || *out == "" || *maxGames < 0 {
		return fmt.Errorf("%w: report [--predictors A,B] --games PATH [--max-games N] --out DIR [--force]", errUsage)
	}
	list := strings.Split(*names, ",")
	known := predict.Names()
	for i, n := range list {
		switch {
		case !slices.Contains(known, n):
			return fmt.Errorf("%w: --predictors: unknown predictor %q (%s)", errUsage, n, strings.Join(known, ", "))
		case slices.Contains(list[:i], n):
			return fmt.Errorf("%w: --predictors: %s named twice", errUsage, n)
		}
	}
	if _, err := os.Stat(*games); err != nil {
		return fmt.Errorf("games: %w", err)
	}
	if err := checkReportDir(*out, *force); err != nil {
		return err
	}
	parent := filepath.Dir(filepath.Clean(*out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(*out))+".partial-")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place

	total, err := gamesToRead(ctx, *games, *maxGames)
	if err != nil {
		return err
	}
	meter := progress.New(os.Stderr, "report", "games", total)
	results, err := eval.Run(ctx, list, *games, eval.Options{
		MaxGames: *maxGames, Workers: *workers, Progress: meter.Add, Worst: reportWorst, BySize: true,
	})
	if err != nil {
		return err
	}
	meter.Done()
	if err := ctx.Err(); err != nil {
		return err
	}
	page := reportPage{
		Collection: *games,
		Date:       time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Command:    "aji report " + shellJoin(args),
		Games:      results[0].Games,
		Skipped:    results[0].SkippedGames,
		Worst:      reportWorst,
	}
	if page.Games == 0 {
		return fmt.Errorf("report: no game of %s could be scored", *games)
	}
	for _, r := range results {
		page.Rows = append(page.Rows, metricsRow(r))
	}
	if err := reportPlots(tmp, results, &page); err != nil {
		return err
	}
	shown := 0
	for _, r := range results {
		shown += len(r.Worst)
	}
	boards := progress.New(os.Stderr, "report boards", "positions", shown)
	for _, r := range results {
		sec, err := worstSection(ctx, tmp, r, boards.Add)
		if err != nil {
			return err
		}
		page.Predictors = append(page.Predictors, sec)
	}
	boards.Done()
	if err := atomicfile.Write(filepath.Join(tmp, reportIndex), func(w io.Writer) error {
		return reportTemplate.Execute(w, &page)
	}); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := replaceDir(tmp, *out, *force); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "wrote %s (%d games, %s)\n", filepath.Join(*out, reportIndex), page.Games, strings.Join(list, ", "))
	return err
}

// checkReportDir refuses an --out that is a file, or a folder holding files without --force.
func checkReportDir(dir string, force bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("report: %w", err)
	case !st.IsDir():
		return fmt.Errorf("report: --out %s is a file, not a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("report: --out %s is not empty (--force replaces it)", dir)
	}
	return nil
}

// replaceDir renames the finished folder tmp to dir. An old dir is moved aside first and removed
// only after the rename, so a failure leaves either the old report or the new one, never a mixture.
func replaceDir(tmp, dir string, force bool) error {
	if err := checkReportDir(dir, force); err != nil {
		return err // something was written there while the report was computed
	}
	if _, err := os.Stat(dir); err == nil {
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir)
			return fmt.Errorf("report: %w", err)
		}
		return os.RemoveAll(old)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// shellJoin quotes the arguments that a shell would split or expand, for the page's command line.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// reportPage is what the HTML template shows.
type reportPage struct {
	Collection, Date, Command string
	Games, Skipped, Worst     int
	Rows                      []reportRow
	// The figures' file names in the folder; "" for a figure not drawn.
	RankCDF, Phase, Patterns string
	PatternNames             []string // the predictors in the pattern-size figure
	Predictors               []reportSection
}

// reportRow is a predictor's line of the metrics table, as `aji eval` measures it.
type reportRow struct {
	Predictor   string
	Positions   int
	Top         [4]reportRate // top-1, 5, 10, 20
	LogEvidence float64
	MeanRank    float64
}

// reportRate is a top-k rate with its Wilson 95% interval.
type reportRate struct{ P, Lo, Hi float64 }

func metricsRow(r eval.Result) reportRow {
	row := reportRow{Predictor: r.Predictor, Positions: r.Positions, LogEvidence: r.MeanLogEvidence, MeanRank: r.MeanRank}
	for i, p := range []float64{r.Top1, r.Top5, r.Top10, r.Top20} {
		lo, hi := eval.Wilson(p, r.Positions)
		row.Top[i] = reportRate{p, lo, hi}
	}
	return row
}

// reportPlots draws the page's figures into dir with the `aji plot` panels: the rank CDF (and the
// differences to the first predictor), top-1 by phase, and top-1 and share of positions by the size of
// the largest pattern at the expert's move for the predictors that match patterns.
func reportPlots(dir string, results []eval.Result, page *reportPage) error {
	curves := make([]evalCurve, len(results))
	for i, r := range results {
		curves[i] = evalCurve{label: r.Predictor, Result: r}
	}
	cdf, err := rankCDFPanel(curves)
	if err != nil {
		return err
	}
	panels, w := []*plot.Plot{cdf}, 7*vg.Inch
	if len(curves) > 1 {
		d, err := rankDiffPanel(curves)
		if err != nil {
			return err
		}
		panels, w = append(panels, d), 13*vg.Inch
	}
	if err := writePanels(filepath.Join(dir, reportRankCDFPNG), panels, w, 5.5*vg.Inch); err != nil {
		return err
	}
	page.RankCDF = reportRankCDFPNG
	// The late phases of a collection hold few moves, whose top-1 is noise that would set the axis.
	phases := make([]evalCurve, len(curves))
	for i, c := range curves {
		phases[i] = c
		phases[i].ByPhase = slices.DeleteFunc(slices.Clone(c.ByPhase), func(ph eval.Phase) bool {
			return ph.Positions < minShown(c.Positions)
		})
	}
	ph, err := phasePanel(phases)
	if err != nil {
		return err
	}
	if err := writePanels(filepath.Join(dir, reportPhasePNG), []*plot.Plot{ph}, 9*vg.Inch, 5.5*vg.Inch); err != nil {
		return err
	}
	page.Phase = reportPhasePNG

	top1 := curvePanel("Top-1 by the largest pattern at the expert's move", "pattern size (0: none matched)", "top-1")
	share := curvePanel("Positions by the largest pattern at the expert's move", "pattern size (0: none matched)", "share of positions")
	for i, c := range curves {
		if len(c.ByPatternSize) == 0 {
			continue
		}
		var xt, xs plotter.XYs
		for _, row := range c.ByPatternSize {
			xs = append(xs, plotter.XY{X: float64(row.Size), Y: row.Share})
			if row.Positions >= minShown(c.Positions) {
				xt = append(xt, plotter.XY{X: float64(row.Size), Y: row.Top1})
			}
		}
		// Curve i keeps predictor i's colour and shape from the other figures.
		if err := addCurve(top1, i, xt, c.label); err != nil {
			return err
		}
		if err := addCurve(share, i, xs, c.label); err != nil {
			return err
		}
		page.PatternNames = append(page.PatternNames, c.label)
	}
	if len(page.PatternNames) == 0 {
		return nil
	}
	for _, p := range []*plot.Plot{top1, share} {
		p.X.Min, p.X.Max = -0.5, 14.5
		p.X.Tick.Marker = plot.ConstantTicks(append([]plot.Tick{{Value: 0, Label: "0"}}, templateTicks()...))

		p.Y.Min = 0
		legendAt(p, true, true)
	}
	top1.Y.Tick.Marker = top1Ticks
	if err := writePanels(filepath.Join(dir, reportPatternsPNG), []*plot.Plot{top1, share}, 13*vg.Inch, 5*vg.Inch); err != nil {
		return err
	}
	page.Patterns = reportPatternsPNG
	return nil
}

// minShown is the fewest positions of a phase or a pattern size whose top-1 the figures draw, out of
// a predictor's positions: 1%, under which the rate is too noisy to read (and, in the late phases of a
// large collection, would stretch the axis).
func minShown(positions int) int { return max(1, positions/100) }

// reportSection is one predictor's worst-ranked positions.
type reportSection struct {
	Predictor string
	Explains  bool
	Worst     []reportWorstPos
}

// reportWorstPos is one of them, as the page shows it.
type reportWorstPos struct {
	Image             string // the board's file name
	Game              string
	Move              int
	ToPlay            string
	Played, Top       string // GTP coordinates
	Rank              int
	P, TopP           float64
	PlayedWhy, TopWhy []string // the factors of the played move and of the top move, when the predictor explains
}

// worstSection replays each worst position of r, predicts it again and draws it: the predictor's heat
// map, its first choice labelled 1 and the move played labelled with its rank, and explains both moves.
func worstSection(ctx context.Context, dir string, r eval.Result, done func(int)) (reportSection, error) {
	sec := reportSection{Predictor: r.Predictor}
	p, err := predict.New(r.Predictor, predict.Options{})
	if err != nil {
		return sec, err
	}
	ex, explains := p.(predict.Explainer)
	sec.Explains = explains
	var d predict.Distribution
	for k, w := range r.Worst {
		if err := ctx.Err(); err != nil {
			return sec, err
		}
		pos, err := w.Record.PositionAfter(w.Move - 1)
		if err != nil {
			return sec, fmt.Errorf("report: %s move %d: %w", w.Game, w.Move, err)
		}
		p.Predict(pos, &d)
		pr := live.Summarize(r.Predictor, pos, &d)
		top := predict.Candidate{Point: board.Pass}
		if len(pr.Top) > 0 {
			top = pr.Top[0]
		}
		n := pos.Board.Size()
		row := reportWorstPos{
			Image: fmt.Sprintf("worst-%s-%02d.png", r.Predictor, k+1), Game: w.Game, Move: w.Move,
			ToPlay: colorName(pos.ToPlay), Played: w.Coord, Top: top.Point.GTP(n), Rank: w.Rank, P: w.Probability, TopP: top.Probability,
		}
		if explains {
			row.PlayedWhy = factorLines(ex.Explain(pos, w.Point))
			row.TopWhy = factorLines(ex.Explain(pos, top.Point))
		}
		b, err := worstBoard(pos, w.Point, top.Point, pr)
		if err != nil {
			return sec, fmt.Errorf("report: %s move %d: %w", w.Game, w.Move, err)
		}
		if err := atomicfile.Write(filepath.Join(dir, row.Image), func(f io.Writer) error {
			return boardimage.WritePNG(f, b, reportBoardPx)
		}); err != nil {
			return sec, err
		}
		sec.Worst = append(sec.Worst, row)
		done(1)
	}
	return sec, nil
}

// worstBoard draws a worst position for the page: the move played as a stone with the last-move
// ring (captures made), over the predictor's heat map of the position before it (linear, so that
// its few likely moves stand out), the predictor's first choice labelled 1. A label on the played
// point instead would be unreadable at this size.
func worstBoard(pos *game.Position, played, top board.Point, pr *live.Prediction) (*boardimage.Board, error) {
	after := *pos
	if err := after.Board.Play(played, pos.ToPlay); err != nil {
		return nil, err
	}
	b := boardOf(&after)
	x, y := played.XY()
	b.Last, b.HasLast = boardimage.Point{X: x, Y: y}, true
	b.Heat = slices.Clone(pr.Heat)
	b.Heat[y*pos.Board.Size()+x] = -1 // a stone now
	b.HeatMax, b.HideBelow = pr.Max, 0.001
	if top != board.Pass {
		x, y := top.XY()
		b.Labels = append(b.Labels, boardimage.Label{Point: boardimage.Point{X: x, Y: y}, Text: "1"})
	}
	return b, nil
}

// percent is a probability in percent, with two significant figures below 1%.
func percent(p float64) string {
	if v := 100 * p; v < 1 {
		return fmt.Sprintf("%.2g", v)
	}
	return fmt.Sprintf("%.1f", 100*p)
}

func colorName(c board.Color) string {
	if c == board.White {
		return "White"
	}
	return "Black"
}

// factorLines are an explanation's factors as the inspector lists them: name, weight, share.
func factorLines(e predict.Explanation) []string {
	var out []string
	for _, f := range e.Factors {
		switch {
		case f.SD > 0:
			out = append(out, fmt.Sprintf("%s: μ %.2f ± %.2f (seen %d, played %d)", f.Name, f.Weight, f.SD, f.Seen, f.Played))
		default:
			out = append(out, fmt.Sprintf("%s: γ %.2f (%+.0f%%)", f.Name, f.Weight, 100*f.Share))
		}
	}
	if len(out) == 0 {
		out = append(out, "(no factor: an illegal move or pass for this predictor)")
	}
	return out
}
