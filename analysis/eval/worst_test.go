package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		{0.5, 10, 0.2366, 0.7634}, // Wilson's interval, by hand: (0.5 + 0.19207)/1.38415 ± 0.27…
		{0, 4, 0, 0.4899},
		{1, 4, 0.5101, 1},
		{0.7, 100, 0.6041, 0.7810},
	} {
		lo, hi := Wilson(tc.p, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%v, %d) = %.4f, %.4f; want %.4f, %.4f", tc.p, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("no games: %v %v", lo, hi)
	}
}

// TestWorstList checks the bounded list against a full sort: whatever the order of the adds, and split
// over two lists merged, it keeps the n worst, worst first.
func TestWorstList(t *testing.T) {
	var all []Worst
	for i := range 200 {
		// Many ties in rank, some in probability too, so every tie-break is used.
		all = append(all, Worst{Index: i % 7, Move: i, Rank: 1 + (i*37)%23, Probability: float64((i*11)%5) / 10})
	}
	want := slices.Clone(all)
	slices.SortFunc(want, func(a, b Worst) int { return worse(&a, &b) })
	want = want[:25]
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 1))
		a, b := newWorstList(25), newWorstList(25)
		for _, k := range r.Perm(len(all)) {
			if k%2 == 0 {
				a.add(all[k])
			} else {
				b.add(all[k])
			}
		}
		a.merge(&b)
		if !slices.Equal(a.items, want) {
			t.Fatalf("seed %d: kept %v\nwant %v", seed, a.items, want)
		}
	}
	none := newWorstList(0)
	none.add(all[0])
	if len(none.items) != 0 {
		t.Error("a list of 0 kept an entry")
	}
}
