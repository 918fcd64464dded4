package bayes

import (
	"context"
	"math"
	"runtime"

	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// BetaEstimate is Stern's Figure 3.19: the hierarchical model's β_i, estimated from a flat ranking
// model (one trained on the largest match only, §3.2.3) as
//
//	β_i² = Σ_k (μ_{i+1,k} − μ_{i,pa(k)})² / Σ_k 1
//
// over the patterns k of template T_{i+1} whose parent pa(k) — the T_i pattern matching at the same
// move — is in the dictionary too (§3.3.3). Both patterns must have been some legal move's largest
// match in training: a pattern never the largest keeps its prior mean, which says nothing about it.
type BetaEstimate struct {
	Beta  [pattern.NumStern - 1]float64 // β_i, between T_i and T_{i+1} (index i − 1); NaN where no pair was found
	Pairs [pattern.NumStern - 1]int     // how many patterns k of T_{i+1} the mean is over
}

// EstimateBetas finds the parent of every pattern of flat's dictionary that matches a legal move of
// the games at path (maxGames of them, 0: all) and estimates the β_i. A pattern matching with
// different parents (the local-feature bits of the small templates can differ under one larger
// shape) keeps the first found.
func EstimateBetas(ctx context.Context, path string, flat *Model, maxGames, workers int, progress func()) (*BetaEstimate, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	d := flat.Patterns
	trained := func(id int) bool { return flat.Seen[id] > 0 }
	parents := make([]map[int32]int32, workers) // per worker: child id → parent id
	matchers := make([]pattern.SternMatcher, workers)
	for w := range parents {
		parents[w] = map[int32]int32{}
	}
	_, err := dataset.Games(ctx, path, dataset.Filter{}, maxGames, workers, func(w, _ int, _ string, g *game.Game) {
		pa, m := parents[w], &matchers[w]
		_ = g.WalkMainLine(func(pos *game.Position, _ game.Move) error {
			b := &pos.Board
			m.Sync(b)
			for _, p := range b.Points() {
				if !b.Legal(p, pos.ToPlay) {
					continue
				}
				keys := m.Keys(b, p, pos.ToPlay)
				parent := -1
				for t := range pattern.NumStern {
					id, ok := d.Lookup(keys[t])
					if !ok || d.Entry(id).Size != t+1 || !trained(id) {
						parent = -1
						continue
					}
					if _, seen := pa[int32(id)]; !seen && parent >= 0 {
						pa[int32(id)] = int32(parent)
					}
					parent = id
				}
			}
			return ctx.Err()
		})
		if progress != nil {
			progress()
		}
	})
	if err != nil {
		return nil, err
	}
	all := parents[0]
	for _, pa := range parents[1:] {
		for c, p := range pa {
			if _, ok := all[c]; !ok {
				all[c] = p
			}
		}
	}
	var est BetaEstimate
	var sum [pattern.NumStern - 1]float64
	for c, p := range all {
		i := d.Entry(int(p)).Size - 1 // the pair's β index: between T_{size(p)} and T_{size(p)+1}
		diff := flat.Mu[c] - flat.Mu[p]
		sum[i] += diff * diff
		est.Pairs[i]++
	}
	for i := range est.Beta {
		est.Beta[i] = math.Sqrt(sum[i] / float64(est.Pairs[i])) // NaN for no pairs
	}
	return &est, nil
}
