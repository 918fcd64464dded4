package all_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	_ "aji/analysis/predict/all"
	"aji/analysis/predict/bayes"
	"aji/analysis/predict/cfgbt"
	"aji/analysis/predict/fbt"
	"aji/analysis/predict/mm"
	"aji/assets"
)

// listers makes every registered predictor and returns those that list weights, failing if one
// that should (or should not) does not.
func listers(t *testing.T) map[string]predict.Lister {
	t.Helper()
	out := map[string]predict.Lister{}
	for _, name := range predict.Names() {
		p, err := predict.New(name, predict.Options{NoOwner: true})
		if err != nil {
			t.Fatal(err)
		}
		l, ok := p.(predict.Lister)
		if none := name == "cnn" || name == "uniform"; none == ok {
			t.Errorf("%s: lists weights %v", name, ok)
		}
		if ok {
			out[name] = l
		}
	}
	return out
}

// TestWeightsCounts checks that each embedded model's listing has a row per parameter of the model,
// of the right kind.
func TestWeightsCounts(t *testing.T) {
	owner := feature.Index(feature.MCOwner, feature.MCOwner.MaxLevel()) - feature.Index(feature.MCOwner, feature.MCOwner.MinLevel()) + 1
	for name, l := range listers(t) {
		w := l.Weights()
		got := [predict.NumRowKinds]int{}
		for k := range predict.NumRowKinds {
			got[k] = w.Count(k)
		}
		var want [predict.NumRowKinds]int
		switch p := l.(type) {
		case *mm.Predictor:
			m := p.Model()
			want[predict.RowFeature] = feature.NumIndices
			if !m.Owner {
				want[predict.RowFeature] -= owner
			}
			want[predict.RowShape] = m.Shapes.Len()
			if len(w.Rows) != len(m.Gamma)-feature.NumIndices+want[predict.RowFeature] {
				t.Errorf("%s: %d rows for %d γ", name, len(w.Rows), len(m.Gamma))
			}
		case *cfgbt.Predictor:
			m := p.Model()
			for _, g := range m.Groups() {
				if g.Hi <= feature.NumIndices {
					want[predict.RowFeature] += g.Hi - g.Lo
				}
			}
			if m.Variant == cfgbt.Small {
				want[predict.RowShape3] = pattern.NumClasses3()
			} else {
				want[predict.RowShape] = m.Shapes.Len()
			}
			want[predict.RowPath] = len(m.Labels)
		case *fbt.Predictor:
			m := p.Model()
			want[predict.RowFeature] = feature.NumIndices
			if !m.Owner() {
				want[predict.RowFeature] -= owner
			}
			want[predict.RowShape] = m.Shapes.Len()
			want[predict.RowShape3] = pattern.NumClasses3()
			if len(w.Rows) != len(m.W)-feature.NumIndices+want[predict.RowFeature] {
				t.Errorf("%s: %d rows for %d features", name, len(w.Rows), len(m.W))
			}
		case *bayes.Predictor:
			m := p.Model()
			if m.Linear != nil && name != "bernoulli" {
				want[predict.RowFeature] = feature.NumIndices - owner
			}
			want[predict.RowShape] = m.Patterns.Len()
			want[predict.RowSlot] = 2
			if len(m.Mu) != m.Patterns.Len()+2 {
				t.Errorf("%s: %d slots for %d patterns", name, len(m.Mu), m.Patterns.Len())
			}
		default:
			t.Fatalf("%s: a lister of type %T the test does not know", name, p)
		}
		if got != want {
			t.Errorf("%s: rows by kind %v, want %v", name, got, want)
		}
		if want[predict.RowShape] == 0 && want[predict.RowShape3] == 0 {
			t.Errorf("%s: no shapes listed", name)
		}
		t.Logf("%s: %d rows %v", name, len(w.Rows), got)
	}
}

// TestWeightsMatchExplain checks that every factor an embedded model's explanations give, on
// positions of a sample game, is a row of its listing with the same name and weight (a hierarchical
// model's patterns by name only: Explain gives their belief down the chain, the listing their own
// message).
func TestWeightsMatchExplain(t *testing.T) {
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := game.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var positions []*game.Position
	for _, n := range []int{15, 60, 121, 200} {
		pos, err := gs[0].PositionAfter(n)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, pos)
	}
	for name, l := range listers(t) {
		w := l.Weights()
		hier := w.Family == bayes.HierName
		key := func(name string, weight float64) string { return fmt.Sprintf("%s|%.12g", name, weight) }
		rows := make(map[string]bool, len(w.Rows))
		names := map[string]bool{}
		var buf []byte
		for i, r := range w.Rows {
			buf = w.AppendName(buf[:0], i)
			weight := r.Weight
			if w.Measure == predict.Factorized {
				weight = math.Exp(weight) // Explain gives γ = exp(w)
			}
			rows[key(string(buf), weight)] = true
			names[string(buf)] = true
		}
		ex := l.(predict.Explainer)
		checked := 0
		for _, pos := range positions {
			for _, e := range predict.ExplainAll(ex, pos) {
				for _, f := range e.Factors {
					if f.Name == bayes.SpreadFactor {
						continue // a share of log p, not a weight
					}
					n := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(f.Name, " (used)"), " (nested, unused)"), " (linear)")
					ok := rows[key(n, f.Weight)]
					if hier && strings.HasSuffix(n, " pattern") {
						ok = names[n]
					}
					if !ok {
						t.Fatalf("%s: factor %q with weight %v is not a row of the listing", name, f.Name, f.Weight)
					}
					checked++
				}
			}
		}
		if checked < 100 {
			t.Errorf("%s: only %d factors checked", name, checked)
		}
	}
}

// TestWeightsLearnShapes checks that Learn at a move finds the shape its explanation draws, drawn
// as the explanation draws it, for a Coulom (mm) and a Stern (bayes) dictionary, and that a 3x3
// class (fbt-small) is drawn without learning, as a symmetry image of the explanation's cells.
func TestWeightsLearnShapes(t *testing.T) {
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := game.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gs[0].PositionAfter(80)
	if err != nil {
		t.Fatal(err)
	}
	ls := listers(t)
	for _, name := range []string{"mm", "bayes", "fbt-small"} {
		l := ls[name]
		w := l.Weights()
		ex := l.(predict.Explainer)
		shapes := 0
		for _, e := range predict.ExplainAll(ex, pos) {
			if e.PatternSize == 0 {
				continue
			}
			var key uint64
			kind := predict.RowShape
			switch name {
			case "mm":
				key = pattern.KeysAt(&pos.Board, e.Point, pos.ToPlay).Of(e.PatternSize)
			case "bayes":
				key = pattern.SternKeysAt(&pos.Board, e.Point, pos.ToPlay).Of(e.PatternSize)
			default:
				kind = predict.RowShape3
				key = uint64(pattern.Class3(pattern.Code3At(&pos.Board, e.Point, pos.ToPlay)))
			}
			row := -1
			for i, r := range w.Rows {
				if r.Kind == kind && r.ID == key {
					row = i
				}
			}
			if row < 0 {
				t.Fatalf("%s: the shape at %v is not in the listing", name, e.Point)
			}
			if kind == predict.RowShape3 {
				cells, ok := w.Cells(row)
				if !ok || len(cells) != len(e.Pattern) {
					t.Fatalf("%s: class %d drawn as %v", name, key, cells)
				}
				count := map[string]int{}
				for k := range cells {
					count[cells[k].State]++
					count[e.Pattern[k].State]--
				}
				for s, c := range count {
					if c != 0 {
						t.Fatalf("%s: class %d has %d more %s points than the shape at %v", name, key, c, s, e.Point)
					}
				}
				shapes++
				continue
			}
			before, known := w.Cells(row)
			w.Learn(&pos.Board, pos.ToPlay, e.Point)
			cells, ok := w.Cells(row)
			if !ok {
				t.Fatalf("%s: Learn at %v did not find its T%d shape", name, e.Point, e.PatternSize)
			}
			if !known && fmt.Sprint(cells) != fmt.Sprint(e.Pattern) {
				t.Fatalf("%s: learned %v, explanation draws %v", name, cells, e.Pattern)
			}
			if known && fmt.Sprint(cells) != fmt.Sprint(before) {
				t.Fatalf("%s: a second Learn replaced the cells", name)
			}
			shapes++
		}
		if shapes < 50 || (name != "fbt-small" && w.Learned() == 0) {
			t.Errorf("%s: %d shapes checked, %d learned", name, shapes, w.Learned())
		}
	}
}

// BenchmarkFilterBayes filters and sorts the embedded bayes model's 402,309 rows.
func BenchmarkFilterBayes(b *testing.B) {
	p, err := predict.New("bayes", predict.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w := p.(predict.Lister).Weights()
	var view []int32
	for _, bc := range []struct {
		name string
		q    predict.Query
	}{
		{"all-by-weight", predict.Query{By: predict.ByWeight, Desc: true}},
		{"sizes-by-spread", predict.Query{MinSize: 5, MaxSize: 9, By: predict.BySpread}},
		{"text", predict.Query{Text: "t13"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				view = predict.Filter(w, bc.q, view)
			}
			b.ReportMetric(float64(len(view)), "rows")
		})
	}
}
