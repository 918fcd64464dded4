package eval

import (
	"cmp"
	"math"
	"sort"

	"aji/analysis/board"
	"aji/analysis/game"
)

// Worst is a position where a predictor ranked the expert's move badly, kept for a report to show.
type Worst struct {
	Game        string      `json:"game"`  // the record's file name in the collection
	Index       int         `json:"index"` // the game's number in the collection, from 0 (dataset.Games's)
	Move        int         `json:"move"`  // the expert's move number, 1 for the first: the position is before it
	Point       board.Point `json:"-"`
	Coord       string      `json:"point"` // the expert's move in GTP coordinates
	Rank        int         `json:"rank"`
	Probability float64     `json:"probability"`
	// Record is the game, to replay the position from; it keeps at most a few games alive per predictor.
	Record *game.Game `json:"-"`
}

// worse orders Worst entries worst first: the larger rank, then the smaller probability, then the
// earlier game and move, so that the list kept does not depend on which worker scored which game.
func worse(a, b *Worst) int {
	if c := cmp.Compare(b.Rank, a.Rank); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Probability, b.Probability); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Index, b.Index); c != 0 {
		return c
	}
	return cmp.Compare(a.Move, b.Move)
}

// worstList keeps the n worst entries added, worst first: a bounded sorted list, constant memory
// whatever the collection's size. With n ≈ 25 a sorted insert is cheaper than a heap's bookkeeping,
// and most positions are rejected by one comparison with the last entry.
type worstList struct {
	n     int
	items []Worst
}

func newWorstList(n int) worstList { return worstList{n: n, items: make([]Worst, 0, n)} }

// add keeps w if it is among the n worst so far.
func (l *worstList) add(w Worst) {
	if l.n <= 0 || len(l.items) == l.n && worse(&w, &l.items[l.n-1]) >= 0 {
		return
	}
	i := sort.Search(len(l.items), func(k int) bool { return worse(&w, &l.items[k]) < 0 })
	if len(l.items) < l.n {
		l.items = append(l.items, Worst{})
	}
	copy(l.items[i+1:], l.items[i:len(l.items)-1])
	l.items[i] = w
}

func (l *worstList) merge(o *worstList) {
	for _, w := range o.items {
		l.add(w)
	}
}

func (l *worstList) reset() { l.items = l.items[:0] }

// NoPattern is the PatternSize of a position where no pattern of the predictor matched the expert's move.
const NoPattern = 0

// maxPatternSize bounds the pattern sizes counted: Stern's templates go to T14, Coulom's sizes to 12.
const maxPatternSize = 14

// sizeScore counts the expert moves by the size of the largest pattern matched at them.
type sizeScore [maxPatternSize + 1]struct {
	positions, top1 int
	logSum, rankSum float64
}

func (s *sizeScore) add(size, rank int, p float64) {
	size = min(max(size, 0), maxPatternSize)
	s[size].positions++
	s[size].logSum += math.Log(max(p, minProbability))
	s[size].rankSum += float64(rank)
	if rank == 1 {
		s[size].top1++
	}
}

func (s *sizeScore) merge(o *sizeScore) {
	for i := range s {
		s[i].positions += o[i].positions
		s[i].top1 += o[i].top1
		s[i].logSum += o[i].logSum
		s[i].rankSum += o[i].rankSum
	}
}

// rows are the sizes with positions, smallest first.
func (s *sizeScore) rows(total int) []SizeRow {
	var out []SizeRow
	for size, c := range s {
		if c.positions == 0 {
			continue
		}
		out = append(out, SizeRow{
			Size:            size,
			Positions:       c.positions,
			Share:           ratio(c.positions, total),
			Top1:            ratio(c.top1, c.positions),
			MeanRank:        ratioF(c.rankSum, c.positions),
			MeanLogEvidence: ratioF(c.logSum, c.positions),
		})
	}
	return out
}

// SizeRow is one row of the by-pattern-size table: the positions whose expert move's largest matching
// pattern has this size (Explanation.PatternSize: Coulom's size 3..12, or Stern's template T1..T14;
// NoPattern when none matched).
type SizeRow struct {
	Size            int     `json:"size"`
	Positions       int     `json:"positions"`
	Share           float64 `json:"share"` // of all the predictor's positions
	Top1            float64 `json:"top1"`
	MeanRank        float64 `json:"mean_rank"`
	MeanLogEvidence float64 `json:"mean_log_evidence"`
}

// Wilson is the Wilson score interval at 95% for a proportion p observed in n trials (Wilson 1927),
// which unlike the normal approximation stays inside [0, 1] and is sound for small n and p near 0 or 1.
func Wilson(p float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	nf := float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
