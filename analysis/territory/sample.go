package territory

import (
	"math"
	"math/rand/v2"

	"aji/analysis/board"
)

// SampleOptions control the samplers. A sweep updates every point once (Gibbs) or draws all bonds and
// flips every cluster once (Swendsen-Wang).
type SampleOptions struct {
	Burnin   int    // sweeps discarded before averaging
	Sweeps   int    // sweeps averaged
	Seed     uint64 // seed of the PCG generator
	RaoBlack bool   // average conditional expectations (Stern §5.3.3) instead of the sampled spins
}

// chain is the state shared by both samplers.
type chain struct {
	g    graph
	pcg  rand.PCG
	rng  *rand.Rand
	s    []float64 // spins ±1
	mean []float64
	pair []float64
	mag  []float64 // magnetisation Σ s_i after each averaged sweep, for mixing diagnostics
}

func (c *chain) init(f *Field, seed uint64) {
	c.g.load(f)
	if c.rng == nil {
		c.rng = rand.New(&c.pcg)
		c.s = make([]float64, board.MaxPoints)
		c.mean = make([]float64, board.MaxPoints)
		c.pair = make([]float64, 2*board.MaxPoints)
	}
	c.pcg.Seed(seed, 0x9e3779b97f4a7c15)
	for i := range c.g.N {
		c.s[i] = 1
		if c.rng.Uint64()&1 == 0 {
			c.s[i] = -1
		}
	}
	clear(c.mean)
	clear(c.pair)
	c.mag = c.mag[:0]
}

func (c *chain) finish(m *Marginals, n int) {
	inv := 1 / float64(max(n, 1))
	for i := range c.g.N {
		c.mean[i] *= inv
	}
	for e := range c.g.edges {
		c.pair[e] *= inv
	}
	c.g.store(m, c.mean, c.pair)
}

// Magnetisation returns Σ_i s_i after each averaged sweep of the last run (kept only when asked for by
// TraceMagnetisation); it is the statistic of Stern's Figure 5.5-style mixing comparison.
func (c *chain) Magnetisation() []float64 { return c.mag }

// traceMagnetisation records Σ s_i of the current state of the first n spins.
func (c *chain) traceMagnetisation(n int) {
	var m float64
	for _, v := range c.s[:n] {
		m += v
	}
	c.mag = append(c.mag, m)
}

// Gibbs is a systematic-scan Gibbs sampler (Stern §5.3.3, eq. 5.1). Stern picks points uniformly at
// random; a row-major sweep leaves the same distribution invariant and is cheaper.
//
// A Gibbs holds its scratch; reuse it across positions. It is not safe for concurrent use.
type Gibbs struct {
	chain
	TraceMagnetisation bool
}

// local is h_i + Σ_j w_ij s_j, so p(s_i = +1 | rest) = 1/(1+exp(−2·local)) (eq. 5.1).
func (c *chain) local(i int) float64 {
	g := &c.g
	v := g.h[i]
	for d, j := range g.nb[i] {
		if j >= 0 {
			v += g.w[i][d] * c.s[j]
		}
	}
	return v
}

// Run estimates the marginals of f into m.
func (gs *Gibbs) Run(f *Field, m *Marginals, o SampleOptions) {
	c := &gs.chain
	c.init(f, o.Seed)
	g := &c.g
	for it := range o.Burnin + o.Sweeps {
		for i := range g.N {
			if c.rng.Float64()*(1+math.Exp(-2*c.local(i))) < 1 {
				c.s[i] = 1
			} else {
				c.s[i] = -1
			}
		}
		if it < o.Burnin {
			continue
		}
		if gs.TraceMagnetisation {
			c.traceMagnetisation(g.N)
		}
		if !o.RaoBlack {
			c.addPlain()
			continue
		}
		// Rao-Blackwellised: E[s_i | rest] = tanh(local), and for a pair the exact 2x2 expectation given
		// every other spin.
		for i := range g.N {
			c.mean[i] += math.Tanh(c.local(i))
		}
		for e, ed := range g.edges {
			i, j := int(ed.i), int(ed.j)
			a := c.local(i) - ed.w*c.s[j]
			b := c.local(j) - ed.w*c.s[i]
			c.pair[e] += pairMean(a, b, ed.w)
		}
	}
	c.finish(m, o.Sweeps)
}

func (c *chain) addPlain() {
	for i := range c.g.N {
		c.mean[i] += c.s[i]
	}
	for e, ed := range c.g.edges {
		c.pair[e] += c.s[ed.i] * c.s[ed.j]
	}
}

// SW is the generalised Swendsen-Wang sampler of Stern §5.3.4 (Edwards and Sokal's bonds): given s, each
// pair whose spins satisfy its coupling's sign (equal for w > 0, opposite for w < 0) is bonded with
// probability 1 − x_ij = 1 − exp(−2|w_ij|) (eq. 5.3 with the Ising factor, where the fields cancel);
// given the bonds, each cluster has two states, s_i = τ σ_i, and τ = ±1 is drawn from its total field
// H_c = Σ_i h_i σ_i.
//
// An SW holds its scratch; reuse it across positions. It is not safe for concurrent use.
type SW struct {
	chain
	TraceMagnetisation bool

	pbond  []float64 // per edge
	bond   []bool    // per edge, the last sweep's bonds
	parent []int32
	parity []uint8 // parity to the parent: 1 if the spins are opposite
	size   []int32
	root   []int32
	sig    []float64 // σ_i relative to the root
	hc     []float64 // cluster field H_c at roots, then the drawn τ
	th     []float64 // tanh(H_c), at roots
}

func (sw *SW) setup(f *Field, seed uint64) {
	sw.init(f, seed)
	if sw.parent == nil {
		n := board.MaxPoints
		sw.pbond = make([]float64, 2*n)
		sw.bond = make([]bool, 2*n)
		sw.parent, sw.parity, sw.size = make([]int32, n), make([]uint8, n), make([]int32, n)
		sw.root, sw.sig, sw.hc, sw.th = make([]int32, n), make([]float64, n), make([]float64, n), make([]float64, n)
	}
	for e, ed := range sw.g.edges {
		sw.pbond[e] = -math.Expm1(-2 * math.Abs(ed.w))
	}
}

// find returns the root of i and the parity of i relative to it, compressing the path.
func (sw *SW) find(i int32) (int32, uint8) {
	r, p := i, uint8(0)
	for sw.parent[r] != r {
		p ^= sw.parity[r]
		r = sw.parent[r]
	}
	q := p
	for sw.parent[i] != r && i != r {
		next, np := sw.parent[i], q^sw.parity[i]
		sw.parent[i], sw.parity[i] = r, q
		i, q = next, np
	}
	return r, p
}

// sweep draws the bonds given s, then new spins given the bonds.
func (sw *SW) sweep() {
	g := &sw.g
	for i := range int32(g.N) {
		sw.parent[i], sw.parity[i], sw.size[i] = i, 0, 1
	}
	for e, ed := range g.edges {
		same := sw.s[ed.i] == sw.s[ed.j]
		sw.bond[e] = false
		if ed.w == 0 || same != (ed.w > 0) || sw.rng.Float64() >= sw.pbond[e] {
			continue
		}
		sw.bond[e] = true
		ri, pi := sw.find(ed.i)
		rj, pj := sw.find(ed.j)
		if ri == rj {
			continue // consistent: every bond agrees with the current s
		}
		if sw.size[ri] > sw.size[rj] {
			ri, rj = rj, ri
		}
		rel := uint8(0)
		if !same {
			rel = 1
		}
		sw.parent[ri], sw.parity[ri] = rj, pi^pj^rel
		sw.size[rj] += sw.size[ri]
	}
	for i := range g.N {
		sw.hc[i] = 0
	}
	for i := range int32(g.N) {
		r, p := sw.find(i)
		sw.root[i] = r
		sw.sig[i] = 1 - 2*float64(p)
		sw.hc[r] += g.h[i] * sw.sig[i]
	}
	for i := range int32(g.N) {
		if sw.parent[i] != i {
			continue
		}
		// p(τ = +1 | bonds) = e^H/(e^H + e^−H). th keeps tanh(H_c) for the Rao-Blackwellised averages; hc now
		// holds the drawn τ = ±1.
		sw.th[i] = math.Tanh(sw.hc[i])
		if sw.rng.Float64()*(1+math.Exp(-2*sw.hc[i])) < 1 {
			sw.hc[i] = 1
		} else {
			sw.hc[i] = -1
		}
	}
	for i := range g.N {
		sw.s[i] = sw.hc[sw.root[i]] * sw.sig[i]
	}
}

// Run estimates the marginals of f into m. With o.RaoBlack the averages are E[s | bonds]: σ_i tanh(H_c)
// per point and, per pair, σ_i σ_j within a cluster or σ_i σ_j tanh(H_a) tanh(H_b) across two.
func (sw *SW) Run(f *Field, m *Marginals, o SampleOptions) {
	sw.setup(f, o.Seed)
	g := &sw.g
	for it := range o.Burnin + o.Sweeps {
		sw.sweep()
		if it < o.Burnin {
			continue
		}
		if sw.TraceMagnetisation {
			sw.traceMagnetisation(g.N)
		}
		if !o.RaoBlack {
			sw.addPlain()
			continue
		}
		for i := range g.N {
			sw.mean[i] += sw.sig[i] * sw.th[sw.root[i]]
		}
		for e, ed := range g.edges {
			ri, rj := sw.root[ed.i], sw.root[ed.j]
			v := sw.sig[ed.i] * sw.sig[ed.j]
			if ri != rj {
				v *= sw.th[ri] * sw.th[rj]
			}
			sw.pair[e] += v
		}
	}
	sw.finish(m, o.Sweeps)
}

// Sample is one Swendsen-Wang state: owners and the bonds that produced it (Stern Fig. 5.6).
type Sample struct {
	Size int
	S    [board.NumCells]int8    // ±1 on the board
	Bond [board.NumCells][2]bool // Bond[p][Right] joins p and p+1, Bond[p][Down] joins p and p+Stride
}

// Sample runs burnin sweeps from a seeded random start and writes the last state and its bonds to out.
func (sw *SW) Sample(f *Field, burnin int, seed uint64, out *Sample) {
	sw.setup(f, seed)
	for range max(burnin, 1) {
		sw.sweep()
	}
	*out = Sample{Size: f.Size}
	pts := board.PointsOf(f.Size)
	for i := range sw.g.N {
		out.S[pts[i]] = int8(sw.s[i])
	}
	for e, ed := range sw.g.edges {
		out.Bond[pts[ed.i]][ed.dir] = sw.bond[e]
	}
}
