package territory

import (
	"context"
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
	// MeansOnly skips the pair expectations (Marginals.Pair is left 0): they cost about as much as the
	// point means.
	MeansOnly bool
	// Start, when set, is the state the chain starts from (±1 per point in board.PointsOf order) instead
	// of the default start (see chain.init), and the run leaves its last state there: a persistent chain,
	// as training keeps one per position (Stern §5.4.2), is the same Start passed again.
	Start []int8
}

// chain is the state shared by both samplers.
type chain struct {
	g     graph
	start []int8 // SampleOptions.Start of the run
	pcg   rand.PCG
	rng   *rand.Rand
	s     []float64 // spins ±1
	mean  []float64
	pair  []float64
	mag   []float64 // magnetisation Σ s_i after each averaged sweep, for mixing diagnostics
}

func (c *chain) init(f *Field, seed uint64, start []int8) {
	c.g.load(f)
	if c.rng == nil {
		c.rng = rand.New(&c.pcg)
		c.s = make([]float64, board.MaxPoints+1) // SW keeps a spin fixed at −1 after the last point
		c.mean = make([]float64, board.MaxPoints)
		c.pair = make([]float64, 2*board.MaxPoints)
	}
	c.pcg.Seed(seed, 0x9e3779b97f4a7c15)
	c.start = start
	clear(c.mean)
	clear(c.pair)
	c.mag = c.mag[:0]
	if start != nil {
		for i, v := range start[:c.g.N] {
			c.s[i] = float64(v)
		}
		return
	}
	// Start each point at the sign of its own field (a stone at its colour: alive), the others at
	// random: a chain started dead may take thousands of sweeps to come alive (see SW).
	for i := range c.g.N {
		c.s[i] = 1
		if h := c.g.h[i]; h != 0 {
			c.s[i] = math.Copysign(1, h)
		} else if c.rng.Uint64()&1 == 0 {
			c.s[i] = -1
		}
	}
}

func (c *chain) finish(m *Marginals, n int) {
	for i := range c.start[:min(len(c.start), c.g.N)] {
		c.start[i] = int8(c.s[i])
	}
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
	Options            SampleOptions // of Infer
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
	gs.RunContext(context.Background(), f, m, o)
}

// RunContext is Run that stops early, returning ctx.Err() and leaving m unchanged, once ctx is done.
func (gs *Gibbs) RunContext(ctx context.Context, f *Field, m *Marginals, o SampleOptions) error {
	gs.init(f, o.Seed, o.Start)
	for it := range o.Burnin + o.Sweeps {
		if it&31 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		gs.step(it >= o.Burnin, o)
	}
	gs.finish(m, o.Sweeps)
	return nil
}

// step is one sweep of Run: every point drawn by eq. 5.1 in turn, then, with avg, the sweep's
// estimates added to the averages (one per point and pair, whatever o.RaoBlack).
func (gs *Gibbs) step(avg bool, o SampleOptions) {
	c := &gs.chain
	g := &c.g
	for i := range g.N {
		if c.rng.Float64()*(1+math.Exp(-2*c.local(i))) < 1 {
			c.s[i] = 1
		} else {
			c.s[i] = -1
		}
	}
	if !avg {
		return
	}
	if gs.TraceMagnetisation {
		c.traceMagnetisation(g.N)
	}
	if !o.RaoBlack {
		c.addPlain()
		return
	}
	// Rao-Blackwellised: E[s_i | rest] = tanh(local), and for a pair the exact 2x2 expectation given
	// every other spin.
	for i := range g.N {
		c.mean[i] += math.Tanh(c.local(i))
	}
	if o.MeansOnly {
		return
	}
	for e, ed := range g.edges {
		i, j := int(ed.i), int(ed.j)
		a := c.local(i) - ed.w*c.s[j]
		b := c.local(j) - ed.w*c.s[i]
		c.pair[e] += pairMean(a, b, ed.w)
	}
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
// given the bonds, each cluster keeps its spins or flips them all, s_i ← f s_i, and f = ±1 is drawn
// from the cluster's field H_c = Σ_i h_i s_i. Bonds join only spins that satisfy their couplings, so a
// cluster's two states are its current one and its flip, and no parity needs tracking.
//
// Each sweep of Run is that move preceded by a block move, because the plain move alone is trapped on
// Go positions: a chain's stones are bonded to the opposing chains around it whenever they share an
// owner (w_inter-chain > 0), so a dead-looking chain and its captors form one cluster whose field
// favours the captors, and the chain can live only in a sweep that draws none of those bonds
// (probability 0.42^k for k contacts). On real 19x19 positions this left points at the wrong sign for
// thousands of sweeps. The block move (Higdon's partial decoupling, JASA 1998) offers bonds only to the
// strong pairs, |w| ≥ StrongCoupling — the stones of a chain — and keeps every other pair's factor whole;
// the clusters — chains in practice, and single points elsewhere — are then drawn one at a time from
// their field plus the spins of their neighbours (for a single point, a Gibbs update, eq. 5.1). A chain
// so lives or dies on its own against its surroundings, and its captors follow in the next
// Swendsen-Wang move. Both moves leave p(s|c) invariant, so their product does, and the
// Rao-Blackwellised averages take the conditional expectation of every point from both.
//
// Why the block move, and the variance-reduction experiments that did not pay: docs/notes/territory-sw.md.
//
// An SW holds its scratch; reuse it across positions. It is not safe for concurrent use.
type SW struct {
	chain
	Options            SampleOptions // of Infer
	TraceMagnetisation bool

	pb     []uint32 // per edge: a bond is drawn when a uniform 32-bit number is below pb (p quantised to 2^−32)
	bond   []bool   // per edge, the last sweep's bonds
	blist  []int32  // the edges bonded in this sweep
	parent []int32
	size   []int32 // block sizes, in setup
	root   []int32
	hc     []float64 // cluster field H_c at roots, then the drawn flip f
	th     []float64 // tanh(H_c), at roots

	// Blocks of the block move: the components of the strong pairs. Block b has the points
	// bpts[bstart[b]:bstart[b+1]] and the strong edges bedges[estart[b]:estart[b+1]]; rest lists the
	// points in no block.
	bpts, bstart, bedges, estart, rest []int32
	blockOf                            []int32      // per point, its block or −1
	resid                              [][4]float64 // couplings kept whole by the block move (0 for strong pairs)
	// tabs[restTab[k]][x] is p(s = +1) and tanh of the local field of rest[k] when its neighbours' spins
	// are the bits of x (bit d set: neighbour d is +1): a Gibbs update is then a table look-up, exactly.
	// Points with the same field and couplings share a table: 35 on a move-80 position under Boltzmann5
	// (one per point under boltzmann5+mc). One table per point, 92 KB, spilled out of the L1 cache;
	// sharing them made a sweep 7% faster. Tables outlive a run (see setup).
	tabs    [][16][2]float64
	tabOf   map[[5]float64]int32 // the table of a field and four couplings (0 off the board)
	restTab []int32
	restNb  [][4]int32 // neighbours of rest[k], N (a spin fixed at −1) off the board

	bits  uint64 // unused random bits, nbits of them in 32-bit halves
	nbits int
}

// StrongCoupling is the |w| from which the block move of SW treats a pair as part of a block. Stern's
// Table 5.1 has w_chains 1.87–2.98 and every other coupling below 0.53; a pair at |w| = 1 is bonded with
// probability 0.86, at which single-point and cluster updates already flip it only rarely.
const StrongCoupling = 1.0

func (sw *SW) setup(f *Field, seed uint64, start []int8) {
	sw.init(f, seed, start)
	n := board.MaxPoints
	if sw.parent == nil {
		sw.pb = make([]uint32, 2*n)
		sw.bond, sw.blist = make([]bool, 2*n), make([]int32, 2*n)
		sw.restNb = make([][4]int32, n)
		sw.parent, sw.size, sw.root = make([]int32, n), make([]int32, n), make([]int32, n)
		sw.hc, sw.th = make([]float64, n), make([]float64, n)
		sw.bpts, sw.bstart, sw.rest = make([]int32, n), make([]int32, n+1), make([]int32, n)
		sw.bedges, sw.estart = make([]int32, 2*n), make([]int32, n+1)
		sw.blockOf, sw.resid = make([]int32, n), make([][4]float64, n)
		sw.tabs, sw.tabOf, sw.restTab = make([][16][2]float64, 0, n), make(map[[5]float64]int32), make([]int32, n)
	}
	sw.bits, sw.nbits = 0, 0
	g := &sw.g
	for e, ed := range g.edges {
		sw.pb[e] = uint32(min(-math.Expm1(-2*math.Abs(ed.w))*(1<<32), 1<<32-1))
	}
	// Blocks: union the strong pairs, number the components of two or more points in order of their
	// roots, then list their points and edges in that order.
	for i := range int32(g.N) {
		sw.parent[i] = i
		sw.blockOf[i] = -1
		for d, j := range g.nb[i] {
			sw.resid[i][d] = 0
			if j >= 0 && math.Abs(g.w[i][d]) < StrongCoupling {
				sw.resid[i][d] = g.w[i][d]
			}
		}
	}
	for _, ed := range g.edges {
		if math.Abs(ed.w) >= StrongCoupling {
			sw.union(ed.i, ed.j)
		}
	}
	clear(sw.size[:g.N])
	for i := range int32(g.N) {
		sw.size[sw.find(i)]++
	}
	nb := int32(0)
	for i := range int32(g.N) {
		if sw.parent[i] == i && sw.size[i] > 1 {
			sw.root[i] = nb // scratch: the block number of each root
			nb++
		}
	}
	sw.bstart, sw.estart = sw.bstart[:nb+1], sw.estart[:nb+1]
	clear(sw.bstart)
	clear(sw.estart)
	sw.rest = sw.rest[:0]
	for i := range int32(g.N) {
		if r := sw.find(i); sw.size[r] > 1 {
			sw.blockOf[i] = sw.root[r]
			sw.bstart[sw.blockOf[i]+1]++
		}
	}
	// The rest in checkerboard order, one colour of square and then the other: no point then follows a
	// neighbour it reads, so successive Gibbs updates do not wait on each other's stores (a sweep 11%
	// faster than in row-major order).
	for parity := range int32(2) {
		for i := range int32(g.N) {
			if sw.blockOf[i] < 0 && (i/int32(g.n)+i%int32(g.n))&1 == parity {
				sw.rest = append(sw.rest, i)
			}
		}
	}
	for _, ed := range g.edges {
		if b := sw.blockOf[ed.i]; b >= 0 && math.Abs(ed.w) >= StrongCoupling {
			sw.estart[b+1]++
		}
	}
	for b := range nb {
		sw.bstart[b+1] += sw.bstart[b]
		sw.estart[b+1] += sw.estart[b]
	}
	sw.bpts, sw.bedges = sw.bpts[:sw.bstart[nb]], sw.bedges[:sw.estart[nb]]
	for i := range int32(g.N) { // bstart[b] and estart[b] serve as fill cursors, then are restored
		if b := sw.blockOf[i]; b >= 0 {
			sw.bpts[sw.bstart[b]] = i
			sw.bstart[b]++
		}
	}
	for e, ed := range g.edges {
		if b := sw.blockOf[ed.i]; b >= 0 && math.Abs(ed.w) >= StrongCoupling {
			sw.bedges[sw.estart[b]] = int32(e)
			sw.estart[b]++
		}
	}
	sw.s[g.N] = -1
	// Tables are kept from run to run: training sets up thousands of positions whose fields come from
	// a few classes, and making tables (an Exp and a Tanh per entry) was most of a setup.
	if len(sw.tabs) > board.MaxPoints {
		sw.tabs = sw.tabs[:0]
		clear(sw.tabOf)
	}
	for k, i := range sw.rest {
		key := [5]float64{g.h[i]}
		for d, j := range g.nb[i] {
			sw.restNb[k][d] = j
			if j < 0 {
				sw.restNb[k][d] = int32(g.N)
			} else {
				key[1+d] = g.w[i][d]
			}
		}
		t, ok := sw.tabOf[key]
		if !ok {
			t = int32(len(sw.tabs))
			sw.tabOf[key] = t
			var tab [16][2]float64
			for x := range 16 {
				v := key[0]
				for d := range 4 {
					v += key[1+d] * float64(2*(x>>d&1)-1)
				}
				tab[x] = [2]float64{1 / (1 + math.Exp(-2*v)), math.Tanh(v)}
			}
			sw.tabs = append(sw.tabs, tab)
		}
		sw.restTab[k] = t
	}
	copy(sw.bstart[1:], sw.bstart[:nb])
	copy(sw.estart[1:], sw.estart[:nb])
	sw.bstart[0], sw.estart[0] = 0, 0
}

// u32 returns 32 uniform random bits, two per PCG output.
func (sw *SW) u32() uint32 {
	if sw.nbits == 0 {
		sw.bits, sw.nbits = sw.pcg.Uint64(), 2
	}
	r := uint32(sw.bits)
	sw.bits >>= 32
	sw.nbits--
	return r
}

// draw returns f = ±1 with p(f = +1) = e^H/(e^H + e^−H), and tanh H, with one Exp.
func (sw *SW) draw(H float64) (f, th float64) {
	if H == 0 { // an empty point alone in its cluster, under a colour-symmetric model
		return float64(int(sw.u32()>>31)*2 - 1), 0
	}
	x := math.Exp(-2 * math.Abs(H))
	th = (1 - x) / (1 + x)
	f = 1 // p(f = sign H) = 1/(1+x)
	if float64(sw.pcg.Uint64()>>11)*0x1p-53*(1+x) >= 1 {
		f = -1
	}
	if H < 0 {
		return -f, -th
	}
	return f, th
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// find returns the root of i's cluster, halving the path.
func (sw *SW) find(i int32) int32 {
	for sw.parent[i] != i {
		sw.parent[i] = sw.parent[sw.parent[i]]
		i = sw.parent[i]
	}
	return i
}

// union joins the clusters of i and j under the lower-numbered root: bonds arrive in row-major order,
// so this keeps the trees shallow without a size per cluster.
func (sw *SW) union(i, j int32) {
	ri, rj := sw.find(i), sw.find(j)
	sw.parent[max(ri, rj)] = min(ri, rj)
}

// tryBond draws the bond of edge e given s and joins its ends when it is set.
func (sw *SW) tryBond(e int) bool {
	ed := &sw.g.edges[e]
	if sw.s[ed.i]*sw.s[ed.j]*ed.w <= 0 || sw.u32() >= sw.pb[e] {
		return false // w = 0, spins that break the coupling's sign, or no bond drawn
	}
	sw.union(ed.i, ed.j)
	return true
}

// blockMove is the block move (see SW): bonds on the strong pairs only, then each resulting cluster
// drawn in turn from its field and the current spins across its other pairs. With rb it adds each
// point's conditional expectation to the averages.
func (sw *SW) blockMove(rb bool) {
	g := &sw.g
	for b := range len(sw.bstart) - 1 {
		pts := sw.bpts[sw.bstart[b]:sw.bstart[b+1]]
		for _, i := range pts {
			sw.parent[i] = i
		}
		for _, e := range sw.bedges[sw.estart[b]:sw.estart[b+1]] {
			sw.tryBond(int(e))
		}
		for _, i := range pts {
			sw.root[i] = sw.find(i)
		}
		for _, r := range pts {
			if sw.parent[r] != r {
				continue
			}
			// Usually the whole block is one cluster; a block split by an undrawn bond is scanned once
			// per part.
			var H float64
			for _, i := range pts {
				if sw.root[i] != r {
					continue
				}
				v := g.h[i]
				for d, j := range g.nb[i] {
					if w := sw.resid[i][d]; w != 0 && !(sw.blockOf[j] == int32(b) && sw.root[j] == r) {
						v += w * sw.s[j]
					}
				}
				H += v * sw.s[i]
			}
			f, th := sw.draw(H)
			for _, i := range pts {
				if sw.root[i] == r {
					if rb {
						sw.mean[i] += sw.s[i] * th
					}
					sw.s[i] *= f
				}
			}
		}
	}
	s := sw.s
	for k, i := range sw.rest {
		nb := &sw.restNb[k]
		x := b2i(s[nb[0]] > 0) | b2i(s[nb[1]] > 0)<<1 | b2i(s[nb[2]] > 0)<<2 | b2i(s[nb[3]] > 0)<<3
		t := &sw.tabs[sw.restTab[k]][x]
		if rb {
			sw.mean[i] += t[1]
		}
		s[i] = float64(2*b2i(float64(sw.pcg.Uint64()>>11)*0x1p-53 < t[0]) - 1)
	}
}

// sweep is one sweep of Run, the block move then the Swendsen-Wang move, without averaging.
func (sw *SW) sweep() {
	sw.blockMove(false)
	sw.swMove(false)
}

// swMove is the Swendsen-Wang move: bonds given s, then new spins given the bonds. It leaves in root,
// hc and th each point's cluster, each cluster's flip and tanh of its field; with rb it adds each point's
// conditional expectation s_i tanh(H_c) to the averages.
func (sw *SW) swMove(rb bool) {
	g := &sw.g
	for i := range int32(g.N) {
		sw.parent[i] = i
	}
	// Bonds are drawn without branches, two per 64 random bits, then joined: the draws are coin flips
	// that a branch would mispredict half the time.
	n, s := 0, sw.s
	var bits uint64
	for e := range g.edges {
		if e&1 == 0 {
			bits = sw.pcg.Uint64()
		} else {
			bits >>= 32
		}
		ed := &g.edges[e]
		ok := b2i(s[ed.i]*s[ed.j]*ed.w > 0) & b2i(uint32(bits) < sw.pb[e])
		sw.bond[e] = ok != 0
		sw.blist[n] = int32(e)
		n += ok
	}
	for _, e := range sw.blist[:n] {
		sw.union(g.edges[e].i, g.edges[e].j)
	}
	clear(sw.hc[:g.N])
	for i := range int32(g.N) {
		r := sw.find(i)
		sw.root[i] = r
		sw.hc[r] += g.h[i] * sw.s[i]
	}
	for i := range int32(g.N) {
		if sw.parent[i] == i {
			sw.hc[i], sw.th[i] = sw.draw(sw.hc[i])
		}
	}
	for i := range g.N {
		r := sw.root[i]
		if rb {
			sw.mean[i] += sw.s[i] * sw.th[r]
		}
		sw.s[i] *= sw.hc[r]
	}
}

// Run estimates the marginals of f into m. With o.RaoBlack the point averages are the conditional
// expectations from both moves (each point's given the rest in the block move, s_i tanh(H_c) given the
// bonds in the Swendsen-Wang move) and the pair averages E[s_i s_j | bonds]: s_i s_j within a cluster,
// s_i s_j tanh(H_a) tanh(H_b) across two (spins before the flip).
func (sw *SW) Run(f *Field, m *Marginals, o SampleOptions) {
	sw.RunContext(context.Background(), f, m, o)
}

// RunContext is Run that stops early, returning ctx.Err() and leaving m unchanged, once ctx is done.
func (sw *SW) RunContext(ctx context.Context, f *Field, m *Marginals, o SampleOptions) error {
	sw.setup(f, o.Seed, o.Start)
	for it := range o.Burnin + o.Sweeps {
		if it&31 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		sw.step(it >= o.Burnin, o)
	}
	if o.RaoBlack {
		for i := range sw.g.N {
			sw.mean[i] /= 2 // one conditional expectation from each move
		}
	}
	sw.finish(m, o.Sweeps)
	return nil
}

// step is one sweep of Run, the block move then the Swendsen-Wang move; with avg the sweep's
// estimates are added to the averages: two per point (one from each move) with o.RaoBlack, else one.
func (sw *SW) step(avg bool, o SampleOptions) {
	rb := o.RaoBlack && avg
	sw.blockMove(rb)
	sw.swMove(rb)
	if rb && !o.MeansOnly {
		sw.addBondPairs()
	}
	if !avg {
		return
	}
	if sw.TraceMagnetisation {
		sw.traceMagnetisation(sw.g.N)
	}
	if !o.RaoBlack {
		sw.addPlain()
	}
}

// addBondPairs adds E[s_i s_j | bonds] per pair after a sweep: the flip f_c of each cluster is in hc,
// and the spins before it are s_i f_c.
func (sw *SW) addBondPairs() {
	for e, ed := range sw.g.edges {
		ri, rj := sw.root[ed.i], sw.root[ed.j]
		v := sw.s[ed.i] * sw.s[ed.j] * sw.hc[ri] * sw.hc[rj]
		if ri != rj {
			v *= sw.th[ri] * sw.th[rj]
		}
		sw.pair[e] += v
	}
}

// Sample is one Swendsen-Wang state: owners and the bonds that produced it (Stern Fig. 5.6).
type Sample struct {
	Size int
	S    [board.NumCells]int8    // ±1 on the board
	Bond [board.NumCells][2]bool // Bond[p][Right] joins p and p+1, Bond[p][Down] joins p and p+Stride
}

// Sample runs burnin sweeps from a seeded start and writes the last state and the bonds of its
// Swendsen-Wang move to out.
func (sw *SW) Sample(f *Field, burnin int, seed uint64, out *Sample) {
	sw.setup(f, seed, nil)
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
