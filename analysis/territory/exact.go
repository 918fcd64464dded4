package territory

import (
	"context"
	"math"
)

// Exact computes marginals and log Z by variable elimination along rows (Stern §5.3.1): points are added
// one at a time in row-major order, and the frontier — the last Size points added — carries 2^Size states.
// Each step costs O(2^Size), so 19x19 is 361 steps over 524,288 states. Stern eliminates diagonal by
// diagonal; a row frontier has the same width (Size) and a simpler sliding update.
//
// Marginals need the forward message α before a point and the backward message β after it. Keeping all 361
// α vectors would take 1.5 GB on 19x19, so the forward pass keeps one checkpoint per row and the backward
// pass recomputes the row's α vectors from it: memory 2·Size·2^Size values, time three sweeps.
//
// With huge parameters (|w| or |h| of tens, as a badly trained model may have) the forward and backward
// vectors can disagree by more than float64's range, so that α·φ·β underflows to 0/0; when any rescaled
// sum comes near underflow the run is redone in log space (runLog, ~15 times slower).
//
// An Exact holds its scratch; reuse it across positions. It is not safe for concurrent use.
type Exact struct {
	n         int
	phi       [][8]float64 // per point: φ(b, l, u) = exp(h s_b + w_left s_b s_l + w_up s_b s_u − shift)
	shift     []float64
	check     [][]float64 // α at the start of each row
	csum      []float64   // and its sum
	row       [][]float64 // α before each point of the current row
	beta, tmp []float64
	mean      []float64
	pair      []float64 // per point: E[s_k s_left], E[s_k s_up]
	out       []float64
	g         graph
	// under is set when a rescaled sum of the float pass came near underflow (see RunContext).
	under bool
}

// underflow is the size of a rescaled sum below which the float pass is not trusted. The three default
// models never come near it on real positions (none of 27 validation fields took the log path).
const underflow = 1e-200

// Spins in the frontier: bit i of a state is the point added i steps ago; bit 1 means s = +1.
func spin(bit int) float64 { return float64(2*bit - 1) }

// Run computes exact marginals of f into m and returns log Z, with Z = Σ_s exp(Const + Σ h s + Σ w s s).
func (e *Exact) Run(f *Field, m *Marginals) (logZ float64) {
	logZ, _ = e.RunContext(context.Background(), f, m)
	return logZ
}

// RunContext is Run that checks ctx once per row of each pass (about every 20 ms on 19x19) and stops
// with ctx.Err(), leaving m unchanged, once it is done.
func (e *Exact) RunContext(ctx context.Context, f *Field, m *Marginals) (logZ float64, err error) {
	e.g.load(f)
	n, N := e.g.n, e.g.N
	M := 1 << n
	if e.n != n {
		e.n = n
		e.phi = make([][8]float64, N)
		e.shift = make([]float64, N)
		e.check = make([][]float64, n)
		e.csum = make([]float64, n)
		e.row = make([][]float64, n)
		for i := range n {
			e.check[i] = make([]float64, M)
			e.row[i] = make([]float64, M)
		}
		e.beta = make([]float64, M)
		e.tmp = make([]float64, M)
		e.mean = make([]float64, N)
		e.pair = make([]float64, 2*N)
		e.out = make([]float64, 2*N)
	}
	for k := range N {
		h := e.g.h[k]
		wl, wu := e.g.w[k][1], e.g.w[k][0] // zero on the first column and row: the frontier bits are padding
		var ex [8]float64
		mx := math.Inf(-1)
		for j := range 8 {
			b, l, u := j>>2, (j>>1)&1, j&1
			ex[j] = h*spin(b) + wl*spin(b)*spin(l) + wu*spin(b)*spin(u)
			mx = max(mx, ex[j])
		}
		for j := range 8 {
			e.phi[k][j] = math.Exp(ex[j] - mx)
		}
		e.shift[k] = mx
	}

	e.under = false

	// Forward pass. The initial frontier is n padding variables fixed at bit 0; their couplings are zero.
	// Vectors are kept unnormalised; each step rescales its input by 1/sum, folded into φ so that no extra
	// pass over 2^n values is needed, and log Z collects the log of every rescaling.
	cur := e.check[0]
	clear(cur)
	cur[0] = 1
	sum := 1.0
	for r := range n {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if r > 0 {
			copy(e.check[r], cur)
			e.csum[r] = sum
		}
		for c := range n {
			k := r*n + c
			dst := e.tmp
			if &cur[0] == &e.tmp[0] {
				dst = e.beta // free until the backward pass
			}
			logZ += math.Log(sum) + e.shift[k]
			sum = e.forward(cur, dst, k, 1/sum)
			cur = dst
			if !(sum > underflow) { // NaN too
				e.under = true
			}
		}
	}
	logZ += math.Log(sum) + f.Const
	if e.under {
		return e.runLog(ctx, f, m)
	}

	// Backward pass: β_{N−1} = 1.
	beta := e.beta
	for i := range beta {
		beta[i] = 1
	}
	bsum := float64(M)
	e.csum[0] = 1
	for r := n - 1; r >= 0; r-- {
		if err := ctx.Err(); err != nil {
			e.beta = beta // beta and e.tmp stay the two distinct buffers the next run expects
			return 0, err
		}
		e.row[0], e.check[r] = e.check[r], e.row[0] // row[j] holds α before point r*n+j, up to scale
		asum := e.csum[r]
		for c := 1; c < n; c++ {
			asum = e.forward(e.row[c-1], e.row[c], r*n+c-1, 1/asum)
		}
		for c := n - 1; c >= 0; c-- {
			bsum = e.backward(e.row[c], beta, e.tmp, r*n+c, 1/bsum)
			beta, e.tmp = e.tmp, beta
		}
		e.row[0], e.check[r] = e.check[r], e.row[0]
	}
	e.beta = beta
	if e.under || math.IsNaN(logZ) || math.IsInf(logZ, 0) {
		return e.runLog(ctx, f, m)
	}
	e.store(m)
	return logZ, nil
}

// forward computes dst = scale·α ⊗ φ_k, the message after adding point k from a = α before it, and
// returns its sum. A new state y = (x<<1 | b) & mask sums out the oldest bit t of x, the point above k.
func (e *Exact) forward(a, dst []float64, k int, scale float64) float64 {
	half := len(a) / 2
	var phi [8]float64
	for j, v := range e.phi[k] {
		phi[j] = v * scale
	}
	var sum float64
	for x0 := range half {
		l := (x0 & 1) << 1
		a0, a1 := a[x0], a[x0|half]
		v0 := a0*phi[l] + a1*phi[l|1]
		v1 := a0*phi[4|l] + a1*phi[4|l|1]
		dst[2*x0], dst[2*x0+1] = v0, v1
		sum += v0 + v1
	}
	return sum
}

// backward reads the marginals of point k from α_{k−1}·φ_k·β_k, writes β_{k−1} = scale·φ_k ⊗ β_k into
// dst and returns its sum.
func (e *Exact) backward(a, beta, dst []float64, k int, scale float64) float64 {
	half := len(a) / 2
	var phi [8]float64
	for j, v := range e.phi[k] {
		phi[j] = v * scale
	}
	var z, sb, sbl, sbu, sum float64
	for x0 := range half {
		l := (x0 & 1) << 1
		b0, b1 := beta[2*x0], beta[2*x0+1]
		// t = 0 (up spin −1) and t = 1 (up spin +1); b = 0, 1.
		m00, m10 := phi[l]*b0, phi[4|l]*b1
		m01, m11 := phi[l|1]*b0, phi[4|l|1]*b1
		dst[x0], dst[x0|half] = m00+m10, m01+m11
		sum += m00 + m10 + m01 + m11
		a0, a1 := a[x0], a[x0|half]
		p00, p10, p01, p11 := a0*m00, a0*m10, a1*m01, a1*m11 // p_{b t}
		tot := p00 + p10 + p01 + p11
		z += tot
		bs := p10 + p11 - p00 - p01 // E[s_k]
		sb += bs
		if l != 0 {
			sbl += bs
		} else {
			sbl -= bs
		}
		sbu += p11 + p00 - p10 - p01
	}
	if !(z > underflow) || !(sum > underflow) {
		e.under = true
	}
	e.mean[k] = sb / z
	e.pair[2*k] = sbl / z
	e.pair[2*k+1] = sbu / z
	return sum
}

func (e *Exact) store(m *Marginals) {
	pair := e.out[:len(e.g.edges)]
	for i, ed := range e.g.edges {
		if ed.dir == Right {
			pair[i] = e.pair[2*int(ed.j)] // E[s_j s_left(j)]
		} else {
			pair[i] = e.pair[2*int(ed.j)+1] // E[s_j s_up(j)]
		}
	}
	e.g.store(m, e.mean, pair)
}
