package territory

import "math"

// LBP runs damped loopy belief propagation on the grid (Stern §5.3.2). Messages are stored as their
// field u and as t = tanh u = m(+1) − m(−1) for a normalised message, so Stern's damping of the message
// m_new = (1−λ) m_full + λ m_old is the same mix of t values. Sweeps are asynchronous, point by point.
// Messages whose t would round to ±1 (huge couplings or fields, see lbpSaturate) are kept and damped
// as fields instead, so that no message, marginal or pair expectation is ever NaN or ±Inf.
//
// An LBP holds its scratch; reuse it across positions. It is not safe for concurrent use.
type LBP struct {
	Damping float64 // λ; Stern uses 0.5
	Tol     float64 // converged when no message's t moves by more than Tol in a sweep
	MaxIter int     // sweeps at most

	g     graph
	t, u  [][4]float64 // incoming messages per point and direction: t = tanh(u)
	tw    [][4]float64 // tanh of the couplings
	mean  []float64
	pair  []float64
	Iters int  // sweeps used by the last Run
	Conv  bool // whether the last Run converged
}

// lbpSaturate is the field beyond which LBP leaves the tanh form: while the message's |tanh w · tanh x|
// and the old message's |t| stay below tanh 9 = 1 − 3e-8, atanh of their damped mix is finite and
// accurate to ~1e-9. Trained models stay far below it (|w| < 4); a badly trained one may not.
const lbpSaturate = 9

// NewLBP returns an LBP with Stern's damping 0.5, tolerance 1e-4 and at most 1000 sweeps.
func NewLBP() *LBP { return &LBP{Damping: 0.5, Tol: 1e-4, MaxIter: 1000} }

// Run computes approximate marginals of f into m and reports whether the messages converged.
func (l *LBP) Run(f *Field, m *Marginals) (converged bool) {
	g := &l.g
	g.load(f)
	if len(l.t) < g.N {
		l.t = make([][4]float64, len(g.h[:cap(g.h)]))
		l.u = make([][4]float64, len(l.t))
		l.tw = make([][4]float64, len(l.t))
		l.mean = make([]float64, len(l.t))
		l.pair = make([]float64, 2*len(l.t))
	}
	for i := range g.N {
		l.t[i], l.u[i] = [4]float64{}, [4]float64{}
		for d := range 4 {
			l.tw[i][d] = math.Tanh(g.w[i][d])
		}
	}
	lam := l.Damping
	l.Conv = false
	for l.Iters = 1; l.Iters <= l.MaxIter; l.Iters++ {
		var delta float64
		for i := range g.N {
			H := g.h[i] + l.u[i][0] + l.u[i][1] + l.u[i][2] + l.u[i][3]
			for d, j := range g.nb[i] {
				if j < 0 {
					continue
				}
				// Sum-product message i→j (Stern eqs. 2.11–2.12) for a pairwise Ising factor, as a field
				// atanh(tanh w · tanh x) with x the cavity field of i.
				x, w := H-l.u[i][d], g.w[i][d]
				in, uo := &l.t[j][3-d], &l.u[j][3-d]
				if min(math.Abs(x), math.Abs(w)) < lbpSaturate && math.Abs(*uo) < lbpSaturate {
					full := l.tw[i][d] * math.Tanh(x)
					nt := (1-lam)*full + lam*(*in)
					delta = max(delta, math.Abs(nt-*in))
					*in, *uo = nt, math.Atanh(nt)
					continue
				}
				// Saturated: tanh w · tanh x and the damped mix round to ±1, whose atanh is ±Inf (and
				// then Inf − Inf = NaN in the next cavity field). The message is computed in log space
				// and damped there; both dampings have the same fixed points.
				nu := (1-lam)*(logCosh(w+x)-logCosh(w-x))/2 + lam*(*uo)
				delta = max(delta, math.Abs(nu-*uo))
				*in, *uo = math.Tanh(nu), nu
			}
		}
		if delta < l.Tol {
			l.Conv = true
			break
		}
	}
	l.Iters = min(l.Iters, l.MaxIter)
	for i := range g.N {
		l.mean[i] = math.Tanh(g.h[i] + l.u[i][0] + l.u[i][1] + l.u[i][2] + l.u[i][3])
	}
	for e, ed := range g.edges {
		i, j := int(ed.i), int(ed.j)
		d := 2 // right
		if ed.dir == Down {
			d = 3
		}
		// Cavity fields exclude the message along the pair itself.
		a := g.h[i] + l.u[i][0] + l.u[i][1] + l.u[i][2] + l.u[i][3] - l.u[i][d]
		b := g.h[j] + l.u[j][0] + l.u[j][1] + l.u[j][2] + l.u[j][3] - l.u[j][3-d]
		l.pair[e] = pairMean(a, b, ed.w)
	}
	g.store(m, l.mean, l.pair)
	return l.Conv
}
