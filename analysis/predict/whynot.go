package predict

import (
	"cmp"
	"math"
	"slices"
)

// Term is one row of a why-not table: a factor, or an interaction of two, with its part of the
// log-strength of each of the two moves compared (0 at a move where it did not fire).
type Term struct {
	Name string
	A, B float64 // LogStrength (or interaction value) at move A and at move B
	// FA and FB are the factor at each move (the first of that name), for its weight and σ; nil
	// where it did not fire there, and for an interaction.
	FA, FB *Factor
	// Interaction says the term is a pair of factors acting together (FBT's ⟨v_f, v_g⟩).
	Interaction bool
}

// Diff is the term's part of log(p_A/p_B).
func (t Term) Diff() float64 { return t.A - t.B }

// WhyNot is the factor-by-factor difference between two moves of one position as one predictor
// explains them: why it prefers A to B (positive differences) or B to A (negative ones).
type WhyNot struct {
	A, B  *Explanation
	Terms []Term // largest |A − B| first
}

// Compare matches the factors of a and b by name, and FBT's interactions by the names of their pair,
// into the terms of a why-not table. A factor at one move only counts there alone, so the
// differences sum to log(p_A/p_B) exactly (Factor.LogStrength), whatever the two moves share.
// Both explanations must come from one predictor on one position.
func Compare(a, b *Explanation) WhyNot {
	w := WhyNot{A: a, B: b}
	at := map[string]int{} // term index by name (interactions prefixed so they never meet a factor)
	add := func(key, name string, f *Factor, v float64, side int, inter bool) {
		i, ok := at[key]
		if !ok {
			i = len(w.Terms)
			at[key] = i
			w.Terms = append(w.Terms, Term{Name: name, Interaction: inter})
		}
		t := &w.Terms[i]
		if side == 0 {
			t.A += v
			if t.FA == nil {
				t.FA = f
			}
		} else {
			t.B += v
			if t.FB == nil {
				t.FB = f
			}
		}
	}
	for side, ex := range [2]*Explanation{a, b} {
		for i := range ex.Factors {
			f := &ex.Factors[i]
			add("f\x00"+f.Name, f.Name, f, f.LogStrength, side, false)
		}
		for _, in := range ex.Interactions {
			x, y := ex.Factors[in.A].Name, ex.Factors[in.B].Name
			if y < x {
				x, y = y, x
			}
			add("i\x00"+x+"\x00"+y, x+" × "+y, nil, in.Value, side, true)
		}
	}
	slices.SortStableFunc(w.Terms, func(x, y Term) int {
		if c := cmp.Compare(math.Abs(y.Diff()), math.Abs(x.Diff())); c != 0 {
			return c
		}
		return cmp.Compare(x.Name, y.Name)
	})
	return w
}

// Sum is Σ Diff over the terms: log(p_A/p_B) as the factors add up to it.
func (w *WhyNot) Sum() float64 {
	s := 0.0
	for _, t := range w.Terms {
		s += t.Diff()
	}
	return s
}

// LogRatio is log(p_A/p_B) from the two moves' probabilities, which Sum equals.
func (w *WhyNot) LogRatio() float64 { return math.Log(w.A.Probability) - math.Log(w.B.Probability) }
