package territory

import (
	"context"
	"fmt"
)

// Trace is how a sampler's estimates converge, the data of Stern's Figure 5.5: its running averages of
// E[s_p] after each of a list of sweep counts.
type Trace struct {
	Size  int
	At    []int       // sweeps averaged (after the burn-in), ascending
	Means [][]float64 // Means[k][i]: the estimate of point board.PointsOf(Size)[i] after At[k] sweeps
}

// RunTrace runs the sampler of method (MethodGibbs or MethodSW) on f as Run does with o, for as many
// sweeps as the last entry of at (o.Sweeps is ignored), and records its running estimates of E[s] after
// each sweep count in at (ascending, from 1). The last row equals what Run gives for that many sweeps.
// It returns ctx.Err() once ctx is done.
func RunTrace(ctx context.Context, f *Field, method Method, o SampleOptions, at []int) (*Trace, error) {
	for k, n := range at {
		if n < 1 || (k > 0 && n <= at[k-1]) {
			return nil, fmt.Errorf("territory: trace sweep counts must ascend from 1: %v", at)
		}
	}
	var step func(avg bool)
	var c *chain
	per := 1.0 // estimates added per point and sweep
	switch method {
	case MethodGibbs:
		gs := &Gibbs{}
		gs.init(f, o.Seed, o.Start)
		step, c = func(avg bool) { gs.step(avg, o) }, &gs.chain
	case MethodSW:
		sw := &SW{}
		sw.setup(f, o.Seed, o.Start)
		step, c = func(avg bool) { sw.step(avg, o) }, &sw.chain
		if o.RaoBlack {
			per = 2
		}
	default:
		return nil, fmt.Errorf("territory: no trace for method %v (gibbs, sw)", method)
	}
	tr := &Trace{Size: f.Size, At: append([]int(nil), at...)}
	for it := range o.Burnin {
		if it&31 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		step(false)
	}
	n := 0
	for _, next := range at {
		for ; n < next; n++ {
			if n&31 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			step(true)
		}
		row := make([]float64, c.g.N)
		inv := 1 / (per * float64(n))
		for i := range row {
			row[i] = c.mean[i] * inv
		}
		tr.Means = append(tr.Means, row)
	}
	return tr, nil
}
