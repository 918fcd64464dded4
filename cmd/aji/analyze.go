package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/live"
	"aji/analysis/mcts"
	"aji/analysis/predict"
)

// analysis is `aji analyze --json`: one position of a record with what the app shows for it. Points
// are GTP vertices; probabilities, ownership and win rates are for the side named.
type analysis struct {
	Size       int                `json:"size"`
	Move       int                `json:"move"` // moves played before the position
	ToPlay     string             `json:"to_play"`
	Komi       float64            `json:"komi"`
	Next       string             `json:"next,omitempty"` // the record's next move; absent at its end
	Predictors []predictorSummary `json:"predictors"`
	Territory  *territorySummary  `json:"territory,omitempty"`
	Search     *searchSummary     `json:"search,omitempty"`
}

type predictorSummary struct {
	Name string          `json:"name"`
	Top  []moveFigure    `json:"top"` // most probable first, at most live.MaxTop
	Next *nextMoveFigure `json:"next,omitempty"`
}

type moveFigure struct {
	Move        string  `json:"move"`
	Probability float64 `json:"probability"`
}

// nextMoveFigure is the record's next move as a predictor ranks it (ties count against it, as in
// `aji eval`); a move the predictor thinks illegal has no rank.
type nextMoveFigure struct {
	Move        string  `json:"move"`
	Rank        int     `json:"rank,omitempty"`
	Probability float64 `json:"probability"`
	Illegal     bool    `json:"illegal,omitempty"`
}

type territorySummary struct {
	Model  string `json:"model"`
	Method string `json:"method,omitempty"`
	// Ownership is E[s] of every point, +1 Black, rows top first (SGF row a).
	Ownership     [][]float64 `json:"ownership"`
	ExpectedScore float64     `json:"expected_score"` // area score less komi, positive when Black leads
	PBlackWins    float64     `json:"black_win_probability"`
	ScoreStdDev   float64     `json:"score_stddev"`
	Samples       int         `json:"samples"`
}

type searchSummary struct {
	Playouts   int            `json:"playouts"`
	Candidates []searchFigure `json:"candidates"` // by visits, most first
}

type searchFigure struct {
	Move    string   `json:"move"`
	Visits  int      `json:"visits"`
	WinRate float64  `json:"win_rate"`
	Prior   float64  `json:"prior"`
	PV      []string `json:"pv"`
}

// maxSearchCandidates bounds the search's candidates reported: past the first few they have too few
// visits to say much.
const maxSearchCandidates = 10

// runAnalyze analyses the position after move N of the first game's main line with the same functions
// the app's window runs on its engine (analysis/live), called here one after the other.
func runAnalyze(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	move := fs.Int("move", -1, "number of main-line moves to play (default: all)")
	names := fs.String("predictor", "mm", "move predictor(s), comma-separated")
	terrModel := fs.String("territory", "", "territory model (e.g. boltzmann5, boltzmann5+mc, mc); none by default")
	terrMethod := fs.String("territory-method", live.DefaultTerritoryMethod, "its inference method (exact, lbp, gibbs, sw)")
	playouts := fs.Int("mcts-playouts", 0, "tree-search playouts (0: no search)")
	prior := fs.String("mcts-prior", mcts.DefaultPriorName, "the tree search's prior: any predictor")
	asJSON := fs.Bool("json", false, "print one JSON object")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	moveSet := false
	fs.Visit(func(f *flag.Flag) { moveSet = moveSet || f.Name == "move" })
	switch {
	case len(files) != 1 || *names == "":
		return fmt.Errorf("%w: analyze FILE.sgf [--move N] [--predictor NAME[,NAME...]] [--territory NAME] [--mcts-playouts N [--mcts-prior NAME]] [--json]", errUsage)
	case moveSet && *move < 0:
		return fmt.Errorf("%w: --move %d: a move number is at least 0", errUsage, *move)
	case *playouts < 0:
		return fmt.Errorf("%w: --mcts-playouts must not be negative", errUsage)
	}
	if _, err := predict.Configured(*prior); err != nil {
		return fmt.Errorf("%w: --mcts-prior: %v", errUsage, err)
	}
	g, pos, err := positionOf(files[0], *move)
	if err != nil {
		return err
	}
	next, hasNext := nextMainLineMove(g, pos.MoveNumber)
	size := pos.Board.Size()
	a := &analysis{Size: size, Move: pos.MoveNumber, ToPlay: pos.ToPlay.Name(), Komi: pos.Komi}
	if hasNext {
		a.Next = next.GTP(size)
	}

	preds := live.NewPredictors()
	for _, name := range strings.Split(*names, ",") {
		pr, err := preds.Predict(ctx, name, pos)
		if err != nil {
			return err
		}
		ps := predictorSummary{Name: name, Top: make([]moveFigure, 0, len(pr.Top))}
		for _, c := range pr.Top {
			ps.Top = append(ps.Top, moveFigure{c.Point.GTP(size), c.Probability})
		}
		if hasNext {
			r, p, ok := pr.RankOf(next)
			ps.Next = &nextMoveFigure{Move: a.Next, Rank: r, Probability: p, Illegal: !ok}
		}
		a.Predictors = append(a.Predictors, ps)
	}
	if *terrModel != "" {
		if a.Territory, err = territoryOf(ctx, *terrModel, *terrMethod, pos); err != nil {
			return err
		}
	}
	if *playouts > 0 {
		if a.Search, err = searchOf(ctx, *playouts, *prior, pos); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, a)
	}
	return printAnalysis(stdout, a)
}

// positionOf loads the first game of a record and its position after move main-line moves (after all of
// them when move is negative).
func positionOf(path string, move int) (*game.Game, *game.Position, error) {
	g, err := loadFirstGame(path)
	if err != nil {
		return nil, nil, err
	}
	if n := g.NumMoves(); move > n {
		return nil, nil, fmt.Errorf("%w: --move %d: the main line of %s has %d moves", errUsage, move, path, n)
	}
	pos, err := g.PositionAfter(move)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, pos, nil
}

// nextMainLineMove is the move the record plays after n main-line moves.
func nextMainLineMove(g *game.Game, n int) (board.Point, bool) {
	for _, node := range g.MainLine() {
		if node.Move == nil {
			continue
		}
		if n == 0 {
			return node.Move.Point, true
		}
		n--
	}
	return board.NoPoint, false
}

// territoryOf is the app's territory estimate and score of pos by model and method.
func territoryOf(ctx context.Context, model, method string, pos *game.Position) (*territorySummary, error) {
	var tr live.Territory
	o, err := tr.Estimate(ctx, model, method, pos)
	if err != nil {
		return nil, fmt.Errorf("territory: %w", err)
	}
	sc, err := tr.Score(ctx, model, pos)
	if err != nil {
		return nil, fmt.Errorf("territory: %w", err)
	}
	ts := &territorySummary{
		Model: o.Model, Method: o.Method, ExpectedScore: o.Score(),
		PBlackWins: sc.Estimate.PBlackWins, ScoreStdDev: sc.Estimate.StdDev, Samples: sc.Estimate.Samples,
	}
	for y := range o.Size {
		row := make([]float64, o.Size)
		for x := range row {
			row[x] = math.Round(o.Mean[y*o.Size+x]*1e4) / 1e4 // more digits than any estimate's precision
		}
		ts.Ownership = append(ts.Ownership, row)
	}
	return ts, nil
}

// searchOf runs the fixed-budget search (mcts.NewFixed: RAVE, pattern playouts, one thread, seeded so
// that a run repeats) with the named prior for a number of playouts.
func searchOf(ctx context.Context, playouts int, prior string, pos *game.Position) (*searchSummary, error) {
	s, err := mcts.NewFixed(playouts, prior)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	r := s.Run(ctx, pos)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	size := pos.Board.Size()
	ss := &searchSummary{Playouts: r.Playouts, Candidates: []searchFigure{}}
	for _, c := range r.Candidates {
		if c.Visits == 0 || len(ss.Candidates) == maxSearchCandidates {
			break // by visits: the rest have none
		}
		pv := make([]string, len(c.PV))
		for i, p := range c.PV {
			pv[i] = p.GTP(size)
		}
		ss.Candidates = append(ss.Candidates, searchFigure{c.Move.GTP(size), c.Visits, c.WinRate, c.Prior, pv})
	}
	return ss, nil
}

// shownCandidates is how many of a predictor's candidates the text output lists.
const shownCandidates = 10

// printAnalysis writes a for a person: one paragraph per analysis, ownership as a map of owners.
func printAnalysis(out io.Writer, a *analysis) error {
	w := new(strings.Builder)
	fmt.Fprintf(w, "%dx%d, komi %g, after move %d: %s to play", a.Size, a.Size, a.Komi, a.Move, a.ToPlay)
	if a.Next != "" {
		fmt.Fprintf(w, "; the record plays %s", a.Next)
	}
	fmt.Fprintln(w)
	for _, ps := range a.Predictors {
		var top []string
		for _, c := range ps.Top[:min(shownCandidates, len(ps.Top))] {
			top = append(top, fmt.Sprintf("%s %.1f%%", c.Move, 100*c.Probability))
		}
		fmt.Fprintf(w, "\n%s: %s\n", ps.Name, strings.Join(top, ", "))
		switch n := ps.Next; {
		case n == nil:
		case n.Illegal:
			fmt.Fprintf(w, "  %s is illegal by %s\n", n.Move, ps.Name)
		default:
			fmt.Fprintf(w, "  %s: rank %d, %.2f%%\n", n.Move, n.Rank, 100*n.Probability)
		}
	}
	if t := a.Territory; t != nil {
		name := t.Model
		if t.Method != "" {
			name += " (" + t.Method + ")"
		}
		fmt.Fprintf(w, "\nterritory by %s: expected score %s (area), Black wins %.0f%% (score spread ±%.0f over %d samples)\n",
			name, gtp.FormatScore(math.Round(t.ExpectedScore*10)/10), 100*t.PBlackWins, t.ScoreStdDev, t.Samples)
		for _, row := range t.Ownership {
			line := make([]byte, len(row))
			for x, v := range row {
				line[x] = ownerMark(v)
			}
			fmt.Fprintf(w, "  %s\n", line)
		}
		fmt.Fprintln(w, "  X / O: Black's / White's (|E[s]| ≥ 0.6), x / o: leaning (≥ 0.2), .: open")
	}
	if s := a.Search; s != nil {
		fmt.Fprintf(w, "\nsearch, %d playouts:\n", s.Playouts)
		for _, c := range s.Candidates {
			fmt.Fprintf(w, "  %-4s %6d visits, win rate %5.1f%%, PV %s\n", c.Move, c.Visits, 100*c.WinRate, strings.Join(c.PV, " "))
		}
	}
	_, err := io.WriteString(out, w.String())
	return err
}

// ownerMark is one point of the text ownership map.
func ownerMark(v float64) byte {
	switch {
	case v >= 0.6:
		return 'X'
	case v >= 0.2:
		return 'x'
	case v <= -0.6:
		return 'O'
	case v <= -0.2:
		return 'o'
	}
	return '.'
}
