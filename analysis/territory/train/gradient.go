package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// Gradient returns the mean over the examples idx (all when nil) of the gradient of the log posterior
// (eq. 5.12 plus the share of the prior eq. 5.14, −α θ / |data|) and, with exact inference, the mean
// log-likelihood (NaN otherwise). Method and inference are as in o. Sampled gradients advance each
// example's own random stream (and, for MAP, its persistent chain), so repeated calls differ.
func (t *Trainer) Gradient(ctx context.Context, theta []float64, idx []int, o Options) (grad []float64, logLik float64, err error) {
	if err := o.defaults(); err != nil {
		return nil, 0, err
	}
	if len(theta) != t.d.n {
		return nil, 0, fmt.Errorf("train: %s has %d parameters, got %d", t.d.kind, t.d.n, len(theta))
	}
	if idx == nil {
		idx = make([]int, len(t.data))
		for i := range idx {
			idx[i] = i
		}
	}
	t.d.ising(theta, t.ising)
	ws := t.workers(o.Workers)
	var wg sync.WaitGroup
	var failed error
	var mu sync.Mutex
	for wi, w := range ws {
		clear(w.acc)
		w.logLik = 0
		lo, hi := wi*len(idx)/len(ws), (wi+1)*len(idx)/len(ws)
		wg.Go(func() {
			for _, i := range idx[lo:hi] {
				if ctx.Err() != nil {
					mu.Lock()
					failed = ctx.Err()
					mu.Unlock()
					return
				}
				t.example(w, t.data[i], o)
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return nil, 0, failed
	}
	acc := ws[0].acc
	logLik = ws[0].logLik
	for _, w := range ws[1:] {
		for r, v := range w.acc {
			acc[r] += v
		}
		logLik += w.logLik
	}
	grad = make([]float64, t.d.n)
	t.d.params(acc, grad)
	nb := float64(len(idx))
	for k := range grad {
		grad[k] = grad[k]/nb - o.Alpha*theta[k]/float64(len(t.data))
	}
	if o.Method != MAP || o.Inference != territory.MethodExact {
		return grad, math.NaN(), nil
	}
	return grad, logLik / nb, nil
}

// example adds T(data) − T(model) of one example to w.acc.
func (t *Trainer) example(w *work, p *prepared, o Options) {
	w.load(p, t.ising)
	mean, pair := w.mean[:p.N], w.pair[:len(p.edges)]
	switch {
	case o.Method == CD:
		// q_1 (eq. 5.15): one sweep of the sampler from the labels (neutral spins drawn given them), its
		// Rao-Blackwellised expectations.
		w.dataTerm(p, w.s, p.rng)
		w.sample(p, 1, w.s[:p.N])
	case o.Inference == territory.MethodSW:
		w.dataTerm(p, nil, nil)
		if p.chain == nil {
			// A fresh chain starts at the labels (neutral points at random), close to where the model
			// puts its mass once trained; the first steps then serve as its burn-in.
			p.chain = make([]int8, p.N)
			for i, l := range p.label {
				p.chain[i] = l
				if l == 0 {
					p.chain[i] = int8(2*p.rng.IntN(2) - 1)
				}
			}
		}
		w.sample(p, o.Sweeps, p.chain)
		flipBlocks(p, w.h, w.w, p.chain, p.rng)
	default:
		num := w.dataTerm(p, nil, nil)
		w.field(p)
		if o.Inference == territory.MethodExact {
			logZ := w.exact.Run(&w.f, &w.m)
			w.logLik += num - logZ
		} else {
			w.lbp.Run(&w.f, &w.m)
		}
		w.fromMarginals(p)
	}
	addPairs(w.acc, p, mean, pair, -1)
}

// work is one goroutine's scratch.
type work struct {
	h, w   []float64 // compact field and couplings of the current example
	konst  float64
	f      territory.Field
	m      territory.Marginals
	exact  territory.Exact
	lbp    *territory.LBP
	sw     territory.SW
	mean   []float64 // compact marginals
	pair   []float64 // per edge
	s      []int8    // CD start state
	dm     dameScratch
	acc    []float64 // Σ (T_data − T_model)
	logLik float64
}

func newWork(d *design, maxN int) *work {
	w := &work{lbp: territory.NewLBP(), acc: make([]float64, d.k*d.k*4)}
	w.h = make([]float64, maxN)
	w.w = make([]float64, 2*maxN)
	w.mean = make([]float64, maxN)
	w.pair = make([]float64, 2*maxN)
	w.s = make([]int8, maxN)
	return w
}

// load computes the compact field of p under the class table ising.
func (w *work) load(p *prepared, ising [][4]float64) {
	h := w.h[:p.N]
	clear(h)
	w.konst = 0
	for e, ed := range p.edges {
		c := &ising[ed.cls]
		w.w[e] = c[0]
		h[ed.i] += c[1]
		h[ed.j] += c[2]
		w.konst += c[3]
	}
}

// field writes the compact field into w.f for the board-indexed inference methods.
func (w *work) field(p *prepared) {
	w.f = territory.Field{Size: p.n, Const: w.konst}
	pts := board.PointsOf(p.n)
	for i := range p.N {
		w.f.H[pts[i]] = w.h[i]
	}
	for e, ed := range p.edges {
		w.f.W[pts[ed.i]][ed.dir] = w.w[e]
	}
}

// sample advances the chain in start (left in its last state) by sweeps Swendsen-Wang sweeps (SW, Stern
// §5.3.4) on p's field, seeded from p's own stream, and leaves their Rao-Blackwellised averages in the
// compact marginals.
func (w *work) sample(p *prepared, sweeps int, start []int8) {
	w.field(p)
	w.sw.Run(&w.f, &w.m, territory.SampleOptions{Sweeps: sweeps, Seed: p.rng.Uint64(), RaoBlack: true, Start: start})
	w.fromMarginals(p)
}

// fromMarginals copies board-indexed marginals into the compact arrays.
func (w *work) fromMarginals(p *prepared) {
	pts := board.PointsOf(p.n)
	for i := range p.N {
		w.mean[i] = w.m.Mean[pts[i]]
	}
	for e, ed := range p.edges {
		w.pair[e] = w.m.Pair[pts[ed.i]][ed.dir]
	}
}

// addPairs adds sign·P(s_i, s_j) of every edge, from the compact marginals, to the class counts.
func addPairs(acc []float64, p *prepared, mean, pair []float64, sign float64) {
	for e, ed := range p.edges {
		mi, mj, mij := mean[ed.i], mean[ed.j], pair[e]
		r := acc[ed.cls*4 : ed.cls*4+4]
		r[0] += sign * (1 - mi - mj + mij) / 4 // −−
		r[1] += sign * (1 - mi + mj - mij) / 4 // −+
		r[2] += sign * (1 + mi - mj - mij) / 4 // +−
		r[3] += sign * (1 + mi + mj + mij) / 4 // ++
	}
}

// dataTerm adds E[T | ŝ_L] of p to w.acc and returns log Σ_{s_D} exp(energy) of the clamped model, the
// numerator of p(ŝ_L|c). With start non-nil it also draws the neutral spins from their conditional
// distribution into start (labelled spins copied), the start of a contrastive-divergence step.
func (w *work) dataTerm(p *prepared, start []int8, rng *rand.Rand) float64 {
	acc := w.acc
	for r, v := range p.fixed {
		acc[r] += v
	}
	logNum := w.konst
	for i, l := range p.label {
		logNum += w.h[i] * float64(l)
		if start != nil {
			start[i] = l
		}
	}
	for e, ed := range p.edges {
		if li, lj := p.label[ed.i], p.label[ed.j]; li != 0 && lj != 0 {
			logNum += w.w[e] * float64(li) * float64(lj)
		}
	}
	for k := range p.dames {
		logNum += w.dm.run(p, &p.dames[k], w.h, w.w, acc, start, rng)
	}
	return logNum
}

// dameScratch enumerates one neutral component given its labelled neighbours.
type dameScratch struct {
	local []float64 // h_i + Σ w_ij ŝ_j over labelled neighbours j
	pos   []int32   // compact point → index in the component (valid for its points)
	mean  []float64
	pair  []float64
}

func (ds *dameScratch) run(p *prepared, dm *dame, h, w []float64, acc []float64, start []int8, rng *rand.Rand) float64 {
	k := len(dm.pts)
	if len(ds.pos) < p.N {
		ds.pos = make([]int32, board.MaxPoints)
		ds.local = make([]float64, maxDame)
		ds.mean = make([]float64, maxDame)
		ds.pair = make([]float64, 4*maxDame)
	}
	for a, q := range dm.pts {
		ds.pos[q] = int32(a)
		ds.local[a] = h[q]
	}
	for _, e := range dm.outer {
		ed := p.edges[e]
		if p.label[ed.i] == 0 {
			ds.local[ds.pos[ed.i]] += w[e] * float64(p.label[ed.j])
		} else {
			ds.local[ds.pos[ed.j]] += w[e] * float64(p.label[ed.i])
		}
	}
	energy := func(mask int) float64 {
		var v float64
		for a := range k {
			v += ds.local[a] * float64(2*((mask>>a)&1)-1)
		}
		for _, e := range dm.inner {
			ed := p.edges[e]
			a, b := ds.pos[ed.i], ds.pos[ed.j]
			v += w[e] * float64(2*((mask>>a)&1)-1) * float64(2*((mask>>b)&1)-1)
		}
		return v
	}
	mx := math.Inf(-1)
	for mask := range 1 << k {
		mx = max(mx, energy(mask))
	}
	var z float64
	clear(ds.mean[:k])
	clear(ds.pair[:len(dm.inner)])
	for mask := range 1 << k {
		pr := math.Exp(energy(mask) - mx)
		z += pr
		for a := range k {
			ds.mean[a] += pr * float64(2*((mask>>a)&1)-1)
		}
		for t, e := range dm.inner {
			ed := p.edges[e]
			a, b := ds.pos[ed.i], ds.pos[ed.j]
			ds.pair[t] += pr * float64(2*((mask>>a)&1)-1) * float64(2*((mask>>b)&1)-1)
		}
	}
	for a := range k {
		ds.mean[a] /= z
	}
	for t := range dm.inner {
		ds.pair[t] /= z
	}
	// E[T | ŝ_L] of the edges touching the component.
	for t, e := range dm.inner {
		ed := p.edges[e]
		mi, mj, mij := ds.mean[ds.pos[ed.i]], ds.mean[ds.pos[ed.j]], ds.pair[t]
		r := acc[ed.cls*4 : ed.cls*4+4]
		r[0] += (1 - mi - mj + mij) / 4
		r[1] += (1 - mi + mj - mij) / 4
		r[2] += (1 + mi - mj - mij) / 4
		r[3] += (1 + mi + mj + mij) / 4
	}
	for _, e := range dm.outer {
		ed := p.edges[e]
		r := acc[ed.cls*4 : ed.cls*4+4]
		if p.label[ed.i] == 0 { // s_j = ŝ_j fixed
			pi := (1 + ds.mean[ds.pos[ed.i]]) / 2
			b := (int(p.label[ed.j]) + 1) / 2
			r[b] += 1 - pi
			r[2+b] += pi
		} else {
			pj := (1 + ds.mean[ds.pos[ed.j]]) / 2
			a := (int(p.label[ed.i]) + 1) / 2
			r[2*a] += 1 - pj
			r[2*a+1] += pj
		}
	}
	if start != nil {
		u := rng.Float64() * z
		for mask := range 1 << k {
			u -= math.Exp(energy(mask) - mx)
			if u <= 0 || mask == 1<<k-1 {
				for a, q := range dm.pts {
					start[q] = int8(2*((mask>>a)&1) - 1)
				}
				break
			}
		}
	}
	return math.Log(z) + mx
}
