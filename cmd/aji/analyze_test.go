package main

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/analysis/territory"
)

// analyzeJSON runs `aji analyze --json` and decodes its one object.
func analyzeJSON(t *testing.T, args ...string) *analysis {
	t.Helper()
	out, err := run(t, append([]string{"analyze", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var a analysis
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil || dec.More() {
		t.Fatalf("not one JSON object (%v):\n%s", err, out)
	}
	return &a
}

// recordAt loads the first game of path and its position after n moves, independently of the command.
func recordAt(t *testing.T, path string, n int) (*game.Game, *game.Position) {
	t.Helper()
	games, err := game.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := games[0].PositionAfter(n)
	if err != nil {
		t.Fatal(err)
	}
	return games[0], pos
}

// TestAnalyzePredictions: at move 150 of a professional game, each predictor's candidates are sorted
// legal moves whose probabilities sum to at most 1, and the record's next move has the rank and
// probability of a predictor called directly.
func TestAnalyzePredictions(t *testing.T) {
	path := sampleFile(t, "Agon-01-8.sgf")
	a := analyzeJSON(t, path, "--move", "150", "--predictor", "mm,uniform")
	g, pos := recordAt(t, path, 150)
	if a.Size != 19 || a.Move != 150 || a.Komi != pos.Komi || a.ToPlay != pos.ToPlay.Name() {
		t.Errorf("position %dx%d move %d komi %g %s to play", a.Size, a.Size, a.Move, a.Komi, a.ToPlay)
	}
	var next board.Point
	i := 0
	for _, n := range g.MainLine() {
		if n.Move != nil {
			if i == 150 {
				next = n.Move.Point
				break
			}
			i++
		}
	}
	if a.Next != next.GTP(19) {
		t.Fatalf("next move %q, want %s", a.Next, next.GTP(19))
	}
	if len(a.Predictors) != 2 || a.Predictors[0].Name != "mm" || a.Predictors[1].Name != "uniform" {
		t.Fatalf("predictors %+v", a.Predictors)
	}
	for _, ps := range a.Predictors {
		sum := 0.0
		for i, c := range ps.Top {
			sum += c.Probability
			if i > 0 && c.Probability > ps.Top[i-1].Probability {
				t.Errorf("%s: %s %g after %s %g", ps.Name, c.Move, c.Probability, ps.Top[i-1].Move, ps.Top[i-1].Probability)
			}
			if p, err := board.ParseGTP(c.Move, 19); err != nil || p != board.Pass && !pos.Board.Legal(p, pos.ToPlay) {
				t.Errorf("%s: candidate %s is not a legal move (%v)", ps.Name, c.Move, err)
			}
		}
		if len(ps.Top) == 0 || len(ps.Top) > 20 || sum > 1+1e-9 {
			t.Errorf("%s: %d candidates summing to %g", ps.Name, len(ps.Top), sum)
		}
		pr, err := predict.New(ps.Name, predict.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var d predict.Distribution
		own := *pos
		pr.Predict(&own, &d)
		if n := ps.Next; n == nil || n.Illegal || n.Move != a.Next || n.Rank != d.Rank(pos, next) || n.Probability != d.P[next] {
			t.Errorf("%s: next %+v, want rank %d, p %g", ps.Name, n, d.Rank(pos, next), d.P[next])
		}
	}
	if mm := a.Predictors[0]; mm.Top[0].Probability <= a.Predictors[1].Top[0].Probability {
		t.Errorf("mm's favourite %v is no likelier than uniform's", mm.Top[0])
	}
	// Without --move: the end of the record, with no next move.
	end := analyzeJSON(t, path, "--predictor", "uniform")
	if end.Move != g.NumMoves() || end.Next != "" || end.Predictors[0].Next != nil || end.Territory != nil || end.Search != nil {
		t.Errorf("at the end: move %d of %d, next %q %+v", end.Move, g.NumMoves(), end.Next, end.Predictors[0].Next)
	}
}

// TestAnalyzeTerritory: the ownership grid is the app's estimate (LBP is deterministic), rows top first,
// and the expected score is its sum less komi; without a method the app's is used.
func TestAnalyzeTerritory(t *testing.T) {
	path := sampleFile(t, "Agon-01-8.sgf")
	a := analyzeJSON(t, path, "--move", "200", "--predictor", "uniform", "--territory", "boltzmann5", "--territory-method", "lbp")
	_, pos := recordAt(t, path, 200)
	var lt live.Territory // its own test checks it against the estimator
	o, err := lt.Estimate(context.Background(), territory.KindBoltzmann5.String(), territory.MethodLBP.String(), pos)
	if err != nil {
		t.Fatal(err)
	}
	tr := a.Territory
	if tr == nil || tr.Model != "boltzmann5" || tr.Method != "lbp" || len(tr.Ownership) != 19 {
		t.Fatalf("territory %+v", tr)
	}
	sum := -pos.Komi
	for y, row := range tr.Ownership {
		if len(row) != 19 {
			t.Fatalf("row %d has %d points", y, len(row))
		}
		for x, v := range row {
			sum += v
			if want := o.Mean[y*19+x]; math.Abs(v-want) > 1e-4 {
				t.Fatalf("%s: ownership %g, the estimate's %g", board.At(x, y).GTP(19), v, want)
			}
		}
	}
	if math.Abs(tr.ExpectedScore-sum) > 0.05 || tr.PBlackWins < 0 || tr.PBlackWins > 1 || tr.Samples != territory.DefaultScoreSamples {
		t.Errorf("expected score %g (grid: %g), black wins %g over %d samples", tr.ExpectedScore, sum, tr.PBlackWins, tr.Samples)
	}
	// mc takes no method.
	if b := analyzeJSON(t, path, "--move", "200", "--predictor", "uniform", "--territory", "mc"); b.Territory.Method != "" || len(b.Territory.Ownership) != 19 {
		t.Errorf("mc: method %q", b.Territory.Method)
	}
	if d := analyzeJSON(t, path, "--move", "200", "--predictor", "uniform", "--territory", "boltzmann5"); d.Territory.Method != territory.MethodSW.String() {
		t.Errorf("default method %q, want the app's sw", d.Territory.Method)
	}
}

// TestAnalyzeSearch: the search's candidates on a 9x9 game are sorted by visits within the playouts
// asked for, each principal variation starting with its move.
func TestAnalyzeSearch(t *testing.T) {
	path := sampleFile(t, "pro-Minigo-020303.sgf")
	a := analyzeJSON(t, path, "--move", "20", "--predictor", "uniform", "--mcts-playouts", "300")
	s := a.Search
	if s == nil || s.Playouts != 300 || len(s.Candidates) == 0 || len(s.Candidates) > maxSearchCandidates {
		t.Fatalf("search %+v", s)
	}
	visits := 0
	for i, c := range s.Candidates {
		visits += c.Visits
		if c.Visits <= 0 || i > 0 && c.Visits > s.Candidates[i-1].Visits || c.WinRate < 0 || c.WinRate > 1 ||
			len(c.PV) == 0 || c.PV[0] != c.Move {
			t.Errorf("candidate %+v", c)
		}
	}
	if visits > s.Playouts+1 {
		t.Errorf("%d visits in %d playouts", visits, s.Playouts)
	}
	// The default prior (mm) ranks the moves; --mcts-prior uniform gives every move the same prior.
	if c := s.Candidates; len(c) < 2 || c[0].Prior == c[1].Prior {
		t.Errorf("mm prior: candidates %+v", c)
	}
	u := analyzeJSON(t, path, "--move", "20", "--predictor", "uniform", "--mcts-playouts", "300", "--mcts-prior", "uniform").Search
	for _, c := range u.Candidates {
		if c.Prior != u.Candidates[0].Prior {
			t.Errorf("uniform prior: candidates %+v", u.Candidates)
			break
		}
	}
}

func TestAnalyzeText(t *testing.T) {
	path := sampleFile(t, "pro-Minigo-020303.sgf")
	out, err := run(t, "analyze", path, "--move", "10", "--predictor", "uniform", "--territory", "boltzmann5", "--territory-method", "lbp", "--mcts-playouts", "50")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9x9", "after move 10", "uniform: ", "rank ", "territory by boltzmann5 (lbp): expected score", "search, 50 playouts"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	path := sampleFile(t, "pro-Minigo-020303.sgf")
	for _, args := range [][]string{
		{"analyze"},
		{"analyze", path, path},
		{"analyze", "missing.sgf"},
		{"analyze", path, "--move", "x"},
		{"analyze", path, "--move", "-3"},
		{"analyze", path, "--move", "100000"},
		{"analyze", path, "--predictor", "nope"},
		{"analyze", path, "--predictor", ""},
		{"analyze", path, "--territory", "ising"},
		{"analyze", path, "--mcts-playouts", "-1"},
		{"analyze", path, "--mcts-playouts", "10", "--mcts-prior", "nope"},
	} {
		_, err := run(t, args...)
		if err == nil {
			t.Errorf("aji %v succeeded", args)
			continue
		}
		if msg := oneLine(err); strings.Contains(msg, "\n") || msg == "" || exitCode(err) == 0 {
			t.Errorf("aji %v: message %q, exit code %d", args, msg, exitCode(err))
		}
	}
	if _, err := run(t, "analyze", path, "--move", "100000"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--move 100000") {
		t.Errorf("move past the end: %v", err)
	}
	if out, _ := run(t, "help"); !slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "analyze ") }) {
		t.Errorf("help does not list analyze:\n%s", out)
	}
}
