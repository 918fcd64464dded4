package predict

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"aji/analysis/feature"
	"aji/analysis/pattern"
)

// synthetic is a listing of every feature level and n shapes of random sizes, γ and counts.
func synthetic(t testing.TB, n int) *Weights {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	entries := make([]pattern.Entry, n)
	gamma := make([]float64, n)
	for i := range entries {
		entries[i] = pattern.Entry{Key: rng.Uint64(), Size: pattern.MinSize + rng.IntN(pattern.NumSizes), Count: 40 + rng.IntN(5000)}
		gamma[i] = rng.ExpFloat64()
	}
	d, err := pattern.NewDictionary(entries)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWeights("synthetic", "mm", Gamma, feature.NumIndices+n)
	for i := range feature.NumIndices {
		w.AddFeature(i, float64(i)/10-2, -float64(i), -1, -1) // negative weights too
	}
	w.AddShapes(d, feature.NumIndices, func(id int) (float64, float64, int64, int64) {
		return gamma[id], 0, int64(entries[id].Count), -1
	})
	return w
}

func ptr(x float64) *float64 { return &x }

func TestFilter(t *testing.T) {
	w := synthetic(t, 5000)
	all := Filter(w, Query{}, nil)
	if len(all) != len(w.Rows) {
		t.Fatalf("the empty query keeps %d of %d rows", len(all), len(w.Rows))
	}
	for i, r := range all {
		if int(r) != i {
			t.Fatalf("the model's order: row %d at %d", r, i)
		}
	}

	// Text, case ignored: the ladder levels of capture, atari and extension.
	v := Filter(w, Query{Text: "LADDER"}, nil)
	if len(v) == 0 {
		t.Fatal("no row names a ladder")
	}
	for _, i := range v {
		if n := w.Name(int(i)); !strings.Contains(n, "ladder") || w.Rows[i].Kind != RowFeature {
			t.Errorf("kept %q", n)
		}
	}
	// Size range: shapes only.
	v = Filter(w, Query{MinSize: 5, MaxSize: 6}, nil)
	want := 0
	for _, r := range w.Rows {
		if r.Kind == RowShape && r.Size >= 5 && r.Size <= 6 {
			want++
		}
	}
	if len(v) != want || want == 0 {
		t.Errorf("sizes 5-6: %d rows, want %d", len(v), want)
	}
	// Weight range with the text of a size, sorted by weight both ways.
	q := Query{Text: "size 7", MinWeight: ptr(0.5), MaxWeight: ptr(2), By: ByWeight}
	up := Filter(w, q, nil)
	q.Desc = true
	down := Filter(w, q, nil)
	if len(up) == 0 || len(up) != len(down) {
		t.Fatalf("%d rows ascending, %d descending", len(up), len(down))
	}
	for k, i := range up {
		r := w.Rows[i]
		if r.Size != 7 || r.Weight < 0.5 || r.Weight > 2 {
			t.Fatalf("kept %+v", r)
		}
		if k > 0 && w.Rows[up[k-1]].Weight > r.Weight {
			t.Fatalf("not ascending at %d", k)
		}
	}
	rev := slices.Clone(down)
	slices.Reverse(rev)
	if !slices.Equal(up, rev) {
		t.Error("descending is not ascending reversed")
	}
	if v := Filter(w, Query{Text: "no such name", By: ByWeight}, nil); len(v) != 0 {
		t.Errorf("kept %d rows", len(v))
	}
	// Kinds.
	if v := Filter(w, Query{Kinds: 1 << RowFeature}, nil); len(v) != feature.NumIndices {
		t.Errorf("features: %d rows", len(v))
	}
	// Every column sorts.
	for c := range NumColumns {
		v := Filter(w, Query{By: c, Desc: true}, nil)
		if len(v) != len(w.Rows) {
			t.Fatalf("column %d: %d rows", c, len(v))
		}
	}
	// The radix sort against a comparison sort of each numeric column's values, ties by index.
	value := map[Column]func(r Row) float64{
		BySize:   func(r Row) float64 { return float64(r.Size) },
		ByWeight: func(r Row) float64 { return r.Weight },
		BySpread: func(r Row) float64 { return r.Spread },
		BySeen:   func(r Row) float64 { return float64(r.Seen) },
		ByPlayed: func(r Row) float64 { return float64(r.Played) },
	}
	for c, f := range value {
		got := Filter(w, Query{By: c}, nil)
		want := Filter(w, Query{}, nil)
		slices.SortStableFunc(want, func(i, j int32) int { return cmp.Compare(f(w.Rows[i]), f(w.Rows[j])) })
		if !slices.Equal(got, want) {
			t.Errorf("column %d: the radix order differs from a comparison sort's", c)
		}
	}
}

func TestClass3Cells(t *testing.T) {
	for c := range pattern.NumClasses3() {
		code := pattern.Class3Code(uint16(c))
		cells := class3Cells(uint16(c))
		for i, cell := range cells {
			if cell.DX == 0 && cell.DY == 0 || cell.DX < -1 || cell.DX > 1 || cell.DY < -1 || cell.DY > 1 {
				t.Fatalf("class %d: cell %d at %d,%d", c, i, cell.DX, cell.DY)
			}
			if cell.State != cellStates[code.State(i)] {
				t.Fatalf("class %d: cell %d %s, code says %s", c, i, cell.State, code.State(i))
			}
		}
		// Ring order: above-left, above, above-right, left, right, below-left, below, below-right.
		if c == 0 && (cells[1].DX != 0 || cells[1].DY != -1 || cells[4].DX != 1 || cells[4].DY != 0 || cells[6].DX != 0 || cells[6].DY != 1) {
			t.Fatalf("ring order: %+v", cells)
		}
	}
}

// BenchmarkFilter100k filters and sorts 100,000 shapes as the model browser does on each keystroke:
// a text, a size range, a weight range, sorted by weight (the bar: 50 ms).
func BenchmarkFilter100k(b *testing.B) {
	w := synthetic(b, 100_000)
	var view []int32
	for _, bc := range []struct {
		name string
		q    Query
	}{
		{"all-by-model", Query{}},
		{"text", Query{Text: "size 7 (seen 1"}},
		{"sizes-weights-by-weight", Query{MinSize: 4, MaxSize: 9, MinWeight: ptr(0.2), MaxWeight: ptr(3), By: ByWeight, Desc: true}},
		{"all-by-weight", Query{By: ByWeight}},
		{"all-by-name", Query{By: ByName}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				view = Filter(w, bc.q, view)
			}
			b.ReportMetric(float64(len(view)), "rows")
		})
	}
}
