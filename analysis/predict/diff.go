package predict

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Change is a row of two listings of one family compared: present in both (A and B ≥ 0), or added
// (only in B, A = −1) or removed (only in A, B = −1).
type Change struct {
	A, B int // row indices in the two listings
	// Delta is the weight's change on the measure's log scale (Δ ln γ, Δμ, Δp, Δw); for a row in one
	// listing only, its weight there on that scale.
	Delta float64
	// DeltaV is ‖v_B − v_A‖ for FBT's interaction vectors (a row in one listing only: its ‖v‖); 0
	// for other models.
	DeltaV float64
}

// Diff is what changed between two listings of one family.
type Diff struct {
	A, B                    *Weights
	Changed, Added, Removed []Change
	Unchanged               int
}

// rowID names a row across listings.
type rowID struct {
	kind RowKind
	size int8
	id   uint64
}

// DiffWeights compares two listings of one family row by row: the rows in both whose weight (or, for
// FBT, interaction vector) differs, and those in only one. It fails for listings of different
// families, whose weights mean different things.
func DiffWeights(a, b *Weights) (*Diff, error) {
	if a.Family != b.Family || a.Measure != b.Measure {
		return nil, fmt.Errorf("%s is a model of kind %s and %s of kind %s: only models of one kind can be compared", a.Predictor, a.Family, b.Predictor, b.Family)
	}
	inB := make(map[rowID]int32, len(b.Rows))
	for i, r := range b.Rows {
		inB[rowID{r.Kind, r.Size, r.ID}] = int32(i)
	}
	d := &Diff{A: a, B: b}
	matched := make([]bool, len(b.Rows))
	for i, r := range a.Rows {
		j, ok := inB[rowID{r.Kind, r.Size, r.ID}]
		if !ok {
			d.Removed = append(d.Removed, Change{A: i, B: -1, Delta: a.Measure.Log(r.Weight), DeltaV: norm(a.Vector(i))})
			continue
		}
		matched[j] = true
		c := Change{A: i, B: int(j), Delta: a.Measure.Log(b.Rows[j].Weight) - a.Measure.Log(r.Weight)}
		if va, vb := a.Vector(i), b.Vector(int(j)); va != nil && vb != nil && len(va) == len(vb) {
			s := 0.0
			for k := range va {
				x := float64(vb[k]) - float64(va[k])
				s += x * x
			}
			c.DeltaV = math.Sqrt(s)
		}
		if c.Delta == 0 && c.DeltaV == 0 {
			d.Unchanged++
			continue
		}
		d.Changed = append(d.Changed, c)
	}
	for j, ok := range matched {
		if !ok {
			d.Added = append(d.Added, Change{A: -1, B: j, Delta: b.Measure.Log(b.Rows[j].Weight), DeltaV: norm(b.Vector(j))})
		}
	}
	d.Order(false)
	return d, nil
}

// Order sorts each list by the size of its change, largest first: |Delta|, or DeltaV when byV (FBT's
// interaction vectors); ties in the first listing's order.
func (d *Diff) Order(byV bool) {
	size := func(c Change) float64 {
		if byV {
			return c.DeltaV
		}
		return math.Abs(c.Delta)
	}
	for _, l := range [][]Change{d.Changed, d.Added, d.Removed} {
		slices.SortStableFunc(l, func(x, y Change) int { return cmp.Compare(size(y), size(x)) })
	}
}

func norm(v []float32) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}
