package train

import (
	"context"
	"fmt"
	"sync"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/territory"
)

// Evaluate scores a model kind with parameters theta on examples by eval.OwnerScore, the figure of
// Stern's Figs. 5.9–5.11 and of `aji territory-eval`, with marginals from inference (MethodExact,
// MethodLBP, or MethodSW with opt's sweeps, seeded opt.Seed plus the example's index), spread over
// workers goroutines.
func Evaluate(ctx context.Context, kind territory.Kind, theta []float64, data []Example, inference territory.Method, opt territory.SampleOptions, workers int) (eval.OwnerScore, error) {
	d, err := newDesign(kind)
	if err != nil {
		return eval.OwnerScore{}, err
	}
	if len(theta) != d.n {
		return eval.OwnerScore{}, fmt.Errorf("train: %s has %d parameters, got %d", kind, d.n, len(theta))
	}
	switch inference {
	case territory.MethodExact, territory.MethodLBP, territory.MethodSW:
	default:
		return eval.OwnerScore{}, fmt.Errorf("train: no evaluation by %v (exact, lbp, sw)", inference)
	}
	ising := make([][4]float64, d.k*d.k)
	d.ising(theta, ising)
	workers = max(workers, 1)
	scores := make([]eval.OwnerScore, workers)
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Go(func() {
			w := newWork(d, board.MaxPoints)
			var sw territory.SW
			infer := [...]territory.Inferer{territory.MethodExact: &w.exact, territory.MethodLBP: w.lbp, territory.MethodSW: &sw}[inference]
			for i := wi; i < len(data); i += workers {
				if ctx.Err() != nil {
					return
				}
				p, err := d.prepareForField(&data[i])
				if err != nil {
					continue
				}
				w.load(p, ising)
				w.field(p)
				sw.Options = opt
				sw.Options.Seed += uint64(i)
				if infer.Infer(ctx, &w.f, &w.m) != nil {
					return
				}
				w.fromMarginals(p)
				scores[wi].Add(w.mean[:p.N], data[i].Label)
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return eval.OwnerScore{}, ctx.Err()
	}
	var s eval.OwnerScore
	for _, x := range scores {
		s.Merge(x)
	}
	return s, nil
}
