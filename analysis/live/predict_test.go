package live

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"testing"

	"aji/analysis/board"
	"aji/analysis/predict"
	_ "aji/analysis/predict/all" // every predictor, for TestExplainPass
)

// TestSummarizeRanksAsTheDistribution summarizes mm's and uniform's
// distributions of a real position: the ranks are
// predict.Distribution.Rank's (ties against), illegal points have none, and
// the top is the distribution's.
func TestSummarizeRanksAsTheDistribution(t *testing.T) {
	pos := proPosition(t, 120)
	for _, name := range []string{"mm", "uniform"} {
		pred, err := predict.New(name, predict.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var d predict.Distribution
		pred.Predict(pos, &d)
		pr := Summarize(name, pos, &d)
		top := d.Top(MaxTop, nil)
		if pr.Predictor != name || pr.Size != 19 || pr.Pass != d.P[board.Pass] || !slices.Equal(pr.Top, top) {
			t.Errorf("%s: summary %s %d pass %g, top %v", name, pr.Predictor, pr.Size, pr.Pass, pr.Top)
		}
		maxP := 0.0
		for _, p := range pos.Board.Points() {
			r, prob, ok := pr.RankOf(p)
			if legal := pos.Board.Legal(p, pos.ToPlay); !legal {
				x, y := p.XY()
				if ok || pr.Heat[y*19+x] != -1 {
					t.Fatalf("%s: illegal %s ranked %d", name, p.GTP(19), r)
				}
				continue
			}
			maxP = max(maxP, d.P[p])
			if !ok || r != d.Rank(pos, p) || prob != d.P[p] {
				t.Fatalf("%s: %s rank %d p %g, want %d %g", name, p.GTP(19), r, prob, d.Rank(pos, p), d.P[p])
			}
		}
		if r, _, _ := pr.RankOf(board.Pass); r != d.Rank(pos, board.Pass) || pr.Max != maxP {
			t.Errorf("%s: rank of pass %d, want %d; max %g, want %g", name, r, d.Rank(pos, board.Pass), pr.Max, maxP)
		}
	}
}

// TestPredictOnAGame runs a predictor through the pool on a real position:
// the heat is its distribution over the legal moves, the top candidates are
// sorted and at most MaxTop.
func TestPredictOnAGame(t *testing.T) {
	pos := proPosition(t, 100)
	before := *pos
	a := NewPredictors()
	pr, err := a.Predict(context.Background(), "uniform", pos)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*pos, before) {
		t.Error("Predict changed the caller's position")
	}
	sum := pr.Pass
	legal := 1
	for _, v := range pr.Heat {
		if v >= 0 {
			sum += v
			legal++
		}
	}
	if sum < 0.999999 || sum > 1.000001 {
		t.Errorf("probabilities sum to %g", sum)
	}
	if len(pr.Top) != MaxTop || !sort.SliceIsSorted(pr.Top, func(i, j int) bool { return pr.Top[i].Probability > pr.Top[j].Probability }) {
		t.Errorf("%d top candidates, sorted %v", len(pr.Top), pr.Top)
	}
	// Uniform ties every move with every other: each ranks last.
	if r, _, _ := pr.RankOf(pr.Top[0].Point); r != legal {
		t.Errorf("uniform rank %d of %d moves", r, legal)
	}
	if _, err := a.Predict(context.Background(), "no-such-predictor", pos); err == nil {
		t.Error("an unknown predictor ran")
	}
}

// TestExplainEveryLegalPoint explains a real position with mm: every legal
// point and no other, the best the most probable.
func TestExplainEveryLegalPoint(t *testing.T) {
	pos := proPosition(t, 40)
	ex, err := NewPredictors().Explain(context.Background(), "mm", pos)
	if err != nil {
		t.Fatal(err)
	}
	legal := 1
	for _, p := range pos.Board.Points() {
		e := ex.Lookup(p)
		if pos.Board.Legal(p, pos.ToPlay) != (e != nil) {
			t.Fatalf("%s: explained %v", p.GTP(19), e != nil)
		}
		if e != nil {
			legal++
			if e.Point != p || e.Probability > ex.Lookup(ex.Best).Probability {
				t.Fatalf("%s: explanation of %s, p %g above the best's", p.GTP(19), e.Point.GTP(19), e.Probability)
			}
		}
	}
	if ex.Unable || ex.Moves != legal || ex.Predictor != "mm" || ex.ToPlay != pos.ToPlay {
		t.Errorf("unable %v, %d moves (want %d)", ex.Unable, ex.Moves, legal)
	}
	// The best but the best is the second: no other point is more probable.
	second := ex.BestBut(ex.Best)
	if ex.BestBut(second) != ex.Best || second == ex.Best || ex.Lookup(second) == nil {
		t.Fatalf("best %v, second %v", ex.Best, second)
	}
	for _, p := range pos.Board.Points() {
		if e := ex.Lookup(p); e != nil && p != ex.Best && e.Probability > ex.Lookup(second).Probability {
			t.Errorf("%s is more probable than the second, %s", p.GTP(19), second.GTP(19))
		}
	}
}

// TestExplainPass: every predictor that explains itself explains pass too, with the probability of its
// own distribution and at least one factor (the pass feature, or a Bayesian model's pass belief).
func TestExplainPass(t *testing.T) {
	pos := proPosition(t, 40)
	a := NewPredictors()
	explained := 0
	for _, name := range predict.Names() {
		ex, err := a.Explain(context.Background(), name, pos)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ex.Unable {
			if ex.Lookup(board.Pass) != nil {
				t.Errorf("%s explains pass but not its moves", name)
			}
			continue
		}
		pr, err := a.Predict(context.Background(), name, pos)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e := ex.Lookup(board.Pass)
		if e == nil || e.Point != board.Pass || e.Probability != pr.Pass || len(e.Factors) == 0 {
			t.Errorf("%s: pass explained as %+v; its probability %g", name, e, pr.Pass)
		}
		explained++
	}
	if explained < 5 {
		t.Errorf("%d predictors explained pass; the test should meet every family but the network", explained)
	}
}

// TestExplainUnable: a predictor that does not explain itself says so.
func TestExplainUnable(t *testing.T) {
	ex, err := NewPredictors().Explain(context.Background(), "uniform", proPosition(t, 10))
	if err != nil {
		t.Fatal(err)
	}
	if !ex.Unable || ex.Lookup(board.At(3, 3)) != nil || ex.Best != board.NoPoint {
		t.Errorf("uniform explained: %+v", ex)
	}
}
