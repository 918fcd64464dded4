package predict_test

import (
	"math"
	"path/filepath"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	_ "aji/analysis/predict/all"
)

func TestCompareMatchesByName(t *testing.T) {
	a := predict.Explanation{Probability: 0.2, Factors: []predict.Factor{
		{Name: "atari", LogStrength: 1.5}, {Name: "shape", LogStrength: 0.5}, {Name: "edge", LogStrength: -0.25},
	}, Interactions: []predict.Interaction{{A: 0, B: 1, Value: 0.3}}}
	b := predict.Explanation{Probability: 0.1, Factors: []predict.Factor{
		{Name: "shape", LogStrength: 0.75}, {Name: "atari", LogStrength: 0.25}, {Name: "capture", LogStrength: 2},
	}, Interactions: []predict.Interaction{{A: 0, B: 1, Value: -0.1}}}
	w := predict.Compare(&a, &b)
	want := []struct {
		name string
		a, b float64
	}{
		{"capture", 0, 2},            // at B only: counts fully there
		{"atari", 1.5, 0.25},         // shared
		{"atari × shape", 0.3, -0.1}, // the same pair, named in either order
		{"edge", -0.25, 0},
		{"shape", 0.5, 0.75},
	}
	if len(w.Terms) != len(want) {
		t.Fatalf("%d terms, want %d: %+v", len(w.Terms), len(want), w.Terms)
	}
	for i, tm := range w.Terms {
		if tm.Name != want[i].name || tm.A != want[i].a || tm.B != want[i].b {
			t.Errorf("term %d: %s %g %g, want %+v", i, tm.Name, tm.A, tm.B, want[i])
		}
		if tm.Interaction != (tm.Name == "atari × shape") || !tm.Interaction && (tm.FA == nil) != (tm.A == 0) {
			t.Errorf("term %d: %+v", i, tm)
		}
	}
	if w.Terms[0].FB != &b.Factors[2] || w.Terms[0].FA != nil {
		t.Errorf("capture's factors: %p %p", w.Terms[0].FA, w.Terms[0].FB)
	}
	if got := w.Sum(); math.Abs(got-(-2+1.25+0.4-0.25-0.25)) > 1e-15 {
		t.Errorf("sum %g", got)
	}
}

// registered are the predictors registered before any test runs (TestLoad adds some of its own).
var registered = predict.Names()

// samplePositions are positions of the sample games: early, middle and late.
func samplePositions(t testing.TB) []*game.Position {
	t.Helper()
	var out []*game.Position
	for _, f := range []string{"Agon-01-8.sgf", "pro-Minigo-020303.sgf", "castle-cg048.sgf"} {
		gs, err := game.LoadFile(filepath.Join("..", "..", "assets", "games", f))
		if err != nil {
			t.Fatal(err)
		}
		err = gs[0].WalkMainLine(func(pos *game.Position, _ game.Move) error {
			if pos.MoveNumber == 25 || pos.MoveNumber == 120 || pos.MoveNumber == 210 {
				c := *pos
				out = append(out, &c)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d positions", len(out))
	}
	return out
}

// TestWhyNotSumsToLogRatio: for every registered predictor that explains itself, on real positions,
// the why-not differences between the most probable move and every other legal move, pass included,
// sum to log(p_A/p_B) of the predictor's own distribution. 1e-9 is far above the rounding of the ~20
// terms' sums (~1e-14) and far below any term a model could leave out (a γ differing from 1 by 1e-9).
func TestWhyNotSumsToLogRatio(t *testing.T) {
	positions := samplePositions(t)
	t.Logf("%d positions", len(positions))
	explainers, allDisjoint := 0, 0
	for _, name := range registered {
		p, err := predict.New(name, predict.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e, ok := p.(predict.Explainer)
		if !ok {
			continue
		}
		explainers++
		pairs, disjoint, worst := 0, 0, 0.0
		for _, pos := range positions {
			var d predict.Distribution
			p.Predict(pos, &d)
			all := predict.ExplainAll(e, pos)
			if pe := e.Explain(pos, board.Pass); len(pe.Factors) > 0 {
				all = append(all, pe)
			}
			top := &all[0]
			for i := range all {
				if all[i].Probability > top.Probability {
					top = &all[i]
				}
			}
			for i := range all {
				b := &all[i]
				if b == top || b.Probability == 0 {
					continue // a probability that underflowed has no finite log
				}
				if b.Probability != d.P[b.Point] {
					t.Fatalf("%s: explained p(%s) %g, predicted %g", name, b.Point.GTP(pos.Board.Size()), b.Probability, d.P[b.Point])
				}
				w := predict.Compare(top, b)
				want := math.Log(d.P[top.Point] / d.P[b.Point])
				err := math.Abs(w.Sum() - want)
				worst = max(worst, err)
				if !(err < 1e-9) {
					t.Errorf("%s, move %d, %s vs %s: Σ diff %.12g, log(pA/pB) %.12g", name, pos.MoveNumber,
						top.Point.GTP(pos.Board.Size()), b.Point.GTP(pos.Board.Size()), w.Sum(), want)
				}
				pairs++
				shared := false
				for _, tm := range w.Terms {
					shared = shared || (tm.FA != nil && tm.FB != nil)
				}
				if !shared {
					disjoint++
				}
			}
		}
		if pairs == 0 {
			t.Errorf("%s: no pair compared", name)
		}
		allDisjoint += disjoint
		t.Logf("%s: %d pairs, %d with no shared factor, largest error %.2g", name, pairs, disjoint, worst)
	}
	if explainers < 5 || allDisjoint < explainers {
		t.Errorf("%d predictors explain themselves; %d pairs with no shared factor", explainers, allDisjoint)
	}
}

func BenchmarkWhyNot(b *testing.B) {
	pos := samplePositions(b)[1]
	p, err := predict.New("fbt", predict.Options{})
	if err != nil {
		b.Fatal(err)
	}
	e := p.(predict.Explainer)
	var d predict.Distribution
	p.Predict(pos, &d)
	top := d.Top(2, nil)
	b.Run("compare", func(b *testing.B) {
		x, y := e.Explain(pos, top[0].Point), e.Explain(pos, top[1].Point)
		for b.Loop() {
			predict.Compare(&x, &y)
		}
	})
	b.Run("explain+compare", func(b *testing.B) {
		for b.Loop() {
			x, y := e.Explain(pos, top[0].Point), e.Explain(pos, top[1].Point)
			predict.Compare(&x, &y)
		}
	})
}
