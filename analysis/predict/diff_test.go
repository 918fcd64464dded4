package predict

import (
	"math"
	"testing"

	"aji/analysis/feature"
)

// TestDiffWeights changes, removes and adds rows of a synthetic listing and finds each.
func TestDiffWeights(t *testing.T) {
	a, b := synthetic(t, 300), synthetic(t, 300)
	for i := range feature.NumIndices { // positive γ
		a.Rows[i].Weight, b.Rows[i].Weight = float64(1+i), float64(1+i)
	}
	b.Rows[feature.NumIndices+7].Weight *= math.E // Δ ln γ = 1
	b.Rows[3].Weight /= math.E * math.E           // Δ ln γ = −2
	b.Rows = append(b.Rows[:feature.NumIndices+20], b.Rows[feature.NumIndices+21:]...)
	b.Rows = append(b.Rows, Row{Kind: RowShape, Size: 5, ID: 12345, Weight: math.Exp(3)})
	d, err := DiffWeights(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Changed) != 2 || len(d.Added) != 1 || len(d.Removed) != 1 || d.Unchanged != len(a.Rows)-3 {
		t.Fatalf("%d changed, %d added, %d removed, %d unchanged", len(d.Changed), len(d.Added), len(d.Removed), d.Unchanged)
	}
	if c := d.Changed[0]; c.A != 3 || math.Abs(c.Delta+2) > 1e-12 || d.Changed[1].A != feature.NumIndices+7 || math.Abs(d.Changed[1].Delta-1) > 1e-12 {
		t.Errorf("changes %+v", d.Changed)
	}
	if c := d.Added[0]; c.A != -1 || b.Rows[c.B].ID != 12345 || math.Abs(c.Delta-3) > 1e-12 {
		t.Errorf("added %+v", c)
	}
	if c := d.Removed[0]; c.B != -1 || c.A != feature.NumIndices+20 {
		t.Errorf("removed %+v", c)
	}

	// FBT: the vectors' change, and the order by it.
	a.Measure, b.Measure = Factorized, Factorized
	va := func(i int32) []float32 { return []float32{1, 2} }
	a.SetVectors(va)
	b.SetVectors(func(i int32) []float32 {
		if i == 5 {
			return []float32{4, 6} // ‖Δv‖ = 5
		}
		return va(i)
	})
	d, err = DiffWeights(a, b)
	if err != nil {
		t.Fatal(err)
	}
	d.Order(true)
	if c := d.Changed[0]; c.A != 5 || math.Abs(c.DeltaV-5) > 1e-6 {
		t.Errorf("by ‖Δv‖: %+v", c)
	}

	b.Family = "cfg"
	if _, err := DiffWeights(a, b); err == nil {
		t.Error("two families compared")
	}
}
