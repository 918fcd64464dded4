package predict

import (
	"fmt"
	"slices"
	"sort"

	"aji/analysis/board"
	"aji/analysis/pattern"
)

// Ranks ranks moves within one distribution by binary search in its legal moves' sorted probabilities,
// so that an Explainer ranking every point of a position sorts once, not once per point.
type Ranks struct{ sorted []float64 }

// Reset forgets the distribution ranked; call it when the distribution changes.
func (r *Ranks) Reset() { r.sorted = r.sorted[:0] }

// Of returns Distribution.Rank of move in d, whose legal moves are legal; isLegal says whether move is
// one of them.
func (r *Ranks) Of(d *Distribution, legal []board.Point, move board.Point, isLegal bool) int {
	if len(r.sorted) == 0 {
		for _, mv := range legal {
			r.sorted = append(r.sorted, d.P[mv])
		}
		slices.Sort(r.sorted)
	}
	pm := d.P[move]
	n := len(r.sorted) - sort.SearchFloat64s(r.sorted, pm) // legal moves with probability >= pm
	if !isLegal {
		n++ // the count did not include the move itself
	}
	return n
}

// PatternOf returns the cells of the shape of the given size around move on b, for the player toPlay, as
// an Explanation shows them.
func PatternOf(b *board.Board, toPlay board.Color, move board.Point, size int) []PatternCell {
	cells := pattern.Cells(b, toPlay, move, size)
	out := make([]PatternCell, len(cells))
	for i, c := range cells {
		out[i] = PatternCell{DX: c.DX, DY: c.DY, State: cellStates[c.State]}
	}
	return out
}

// cellStates names pattern states in an Explanation's words (pattern's own String is terser: "opp", "off").
var cellStates = [...]string{
	pattern.Empty: CellEmpty,
	pattern.Own:   CellOwn,
	pattern.Opp:   CellOpponent,
	pattern.Off:   CellEdge,
}

// Partners returns, for each factor of ex, the index in ex.Interactions of its largest and of its
// smallest interaction — what raises the move most together with it, and what lowers it most — or -1
// where it has none above (below) zero.
func (ex *Explanation) Partners() (up, down []int) {
	up, down = make([]int, len(ex.Factors)), make([]int, len(ex.Factors))
	for i := range up {
		up[i], down[i] = -1, -1
	}
	for k, in := range ex.Interactions {
		for _, f := range [2]int{in.A, in.B} {
			if in.Value > 0 && (up[f] < 0 || in.Value > ex.Interactions[up[f]].Value) {
				up[f] = k
			}
			if in.Value < 0 && (down[f] < 0 || in.Value < ex.Interactions[down[f]].Value) {
				down[f] = k
			}
		}
	}
	return up, down
}

// InteractionText is "shape … × atari: +1.30", the pair of interaction k named; seen from factor f (≥ 0)
// of the pair, only its partner is named: "× atari: +1.30".
func (ex *Explanation) InteractionText(k, f int) string {
	in := ex.Interactions[k]
	switch f {
	case in.A:
		return fmt.Sprintf("× %s: %+.2f", ex.Factors[in.B].Name, in.Value)
	case in.B:
		return fmt.Sprintf("× %s: %+.2f", ex.Factors[in.A].Name, in.Value)
	}
	return fmt.Sprintf("%s × %s: %+.2f", ex.Factors[in.A].Name, ex.Factors[in.B].Name, in.Value)
}
