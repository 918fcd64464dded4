package territory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"aji/analysis/board"
)

// Training (Stern §5.4). Every model here is log-linear in its parameters: log f_ij(s_i, s_j) =
// Σ_k J(c, s_i, s_j, k) θ_k, where the edge class c = x_i·K + x_j is the pair of point states (K = 3
// colours for Boltzmann5 and Boltzmann12, K = 9 colour × liberty classes for BoltzmannLiberties). So
// log p(s|c) = θ·φ(s, c) − log Z with the sufficient statistics φ = Jᵀ T, where T counts the edges of
// each (class, s_i, s_j). The gradient of the log-likelihood (eq. 5.12) is Jᵀ(T(ŝ) − E[T]); E[T] needs
// only the pair marginals, P(s_i = a, s_j = b) = (1 + a E[s_i] + b E[s_j] + ab E[s_i s_j])/4.
//
// Neutral points (label 0). Stern: "Neutral territory is ignored." We read that as "unobserved": the
// likelihood of a position is that of its labelled points, p(ŝ_L|c) = Σ_{s_D} p(ŝ_L, s_D|c), so the data
// term of the gradient is E[T | ŝ_L] instead of T(ŝ). Given every labelled spin, the neutral points split
// into connected components (dame are mostly single points) that are independent; each is enumerated.
// Examples with a component larger than maxDame points are dropped (4 of 649 training games).
//
// Model expectations E[T]: exact (Exact, ~1 s a 19x19 position), loopy BP, or — what makes training on
// hundreds of positions affordable — one persistent Swendsen-Wang chain per position, advanced a few
// sweeps per gradient step (stochastic approximation, as Stern's SW-based MAP) with Rao-Blackwellised
// averages, plus heat-bath flips of stone chains and groups, without which the chain sticks once the
// fields are strong (see flipBlocks). Contrastive divergence (eq. 5.15) takes E under q_1: one SW step
// from the labels. Tests check the gradient against finite differences of brute-force likelihoods and
// that training on samples of a known Boltzmann5 recovers it.

// maxDame is the largest component of neutral points that is enumerated (2^maxDame states).
const maxDame = 20

// Example is one training position: the state of every point and its final owner, row-major from the
// top left (SGF order, as in label files).
type Example struct {
	Size  int
	Move  int    // the position is the one before this move
	State []int8 // 0 empty, 1..4 black stone whose chain has 1, 2, 3, ≥4 liberties, 5..8 white
	Label []int8 // +1 Black, −1 White, 0 neutral (marginalised out)
}

// NewExample makes an example from a position and its final-owner labels (Size×Size, SGF order).
func NewExample(b *board.Board, move int, labels []int8) (Example, error) {
	n := b.Size()
	if len(labels) != n*n {
		return Example{}, fmt.Errorf("territory: %d labels for a %dx%d board", len(labels), n, n)
	}
	var st [board.NumCells]int8
	libertyStates(b, &st)
	ex := Example{Size: n, Move: move, State: make([]int8, n*n), Label: make([]int8, n*n)}
	for i, p := range board.PointsOf(n) {
		ex.State[i] = st[p]
		if v := labels[i]; v < -1 || v > 1 {
			return Example{}, fmt.Errorf("territory: label %d at point %d", v, i)
		}
		ex.Label[i] = labels[i]
	}
	return ex, nil
}

// design is the linear form of one model kind.
type design struct {
	kind string
	k    int         // point states
	n    int         // parameters
	jac  [][]float64 // [(c·4 + a·2 + b)][k]: ∂ log f(s_i, s_j)/∂θ_k for class c, spins a, b ∈ {0: −1, 1: +1}
}

func newDesign(kind string) (*design, error) {
	n, err := ParamLen(kind)
	if err != nil {
		return nil, err
	}
	d := &design{kind: kind, k: 3, n: n}
	if kind == KindLiberties {
		d.k = 9
	}
	d.jac = make([][]float64, d.k*d.k*4)
	for r := range d.jac {
		d.jac[r] = make([]float64, n)
	}
	for x := range d.k {
		for y := range d.k {
			for a := range 2 {
				for b := range 2 {
					row := d.jac[((x*d.k+y)*2+a)*2+b]
					switch kind {
					case KindBoltzmann5:
						// f = exp(w(c_i,c_j) s_i s_j + h(c_i) s_i + h(c_j) s_j), h(B) = −h(W) = h_stones.
						sa, sb := float64(2*a-1), float64(2*b-1)
						sigma := [3]float64{0, 1, -1}
						var wk int
						switch {
						case x == 0 && y == 0:
							wk = B5WEmpty
						case x == 0 || y == 0:
							wk = B5WChainEmpty
						case x == y:
							wk = B5WChains
						default:
							wk = B5WInterChain
						}
						row[wk] = sa * sb
						row[B5HStones] = sigma[x]*sa + sigma[y]*sb
					case KindBoltzmann12:
						row[table12.idx[x][y][a][b]] = 1
					default:
						if i := tableLib.idx[x][y][a][b]; i >= 0 {
							row[i] = 1
						}
					}
				}
			}
		}
	}
	return d, nil
}

// state maps an Example state to the design's point state.
func (d *design) state(x int8) int {
	if d.k == 9 {
		return int(x)
	}
	return [9]int{0, 1, 1, 1, 1, 2, 2, 2, 2}[x]
}

// ising converts θ into the Ising form of each class's factor: log f(s_i, s_j) = c + hi s_i + hj s_j +
// w s_i s_j (the conversion of table.field).
func (d *design) ising(theta []float64, out [][4]float64) {
	for c := range d.k * d.k {
		var l [4]float64 // −−, −+, +−, ++
		for ab := range 4 {
			for k, j := range d.jac[c*4+ab] {
				l[ab] += j * theta[k]
			}
		}
		mm, mp, pm, pp := l[0], l[1], l[2], l[3]
		out[c] = [4]float64{(pp + mm - pm - mp) / 4, (pp + pm - mp - mm) / 4, (pp + mp - pm - mm) / 4, (pp + mm + pm + mp) / 4}
	}
}

// params folds class counts T into sufficient statistics: φ = Jᵀ T, added to out.
func (d *design) params(t []float64, out []float64) {
	for r, v := range t {
		if v == 0 {
			continue
		}
		for k, j := range d.jac[r] {
			out[k] += j * v
		}
	}
}

// SufficientStats returns φ(s, c) of a model kind for owners s on board b (indexed by board.Point, ±1 on
// the board), so that log p(s|c) = θ·φ(s, c) − log Z(c, θ) with Z as Exact computes it (Field.Const
// included). For Boltzmann5 these are Σ s_i s_j over the neighbouring pairs of each coupling type and
// Σ_pairs h-coefficients (σ(c_i) s_i + σ(c_j) s_j); for the table models, how many pairs fall in each orbit.
func SufficientStats(kind string, b *board.Board, s *[board.NumCells]int8) ([]float64, error) {
	d, err := newDesign(kind)
	if err != nil {
		return nil, err
	}
	var st [board.NumCells]int8
	libertyStates(b, &st)
	t := make([]float64, d.k*d.k*4)
	for _, p := range b.Points() {
		for _, r := range [2]board.Point{p + 1, p + board.Stride} {
			if b.At(r) == board.Edge {
				continue
			}
			c := d.state(st[p])*d.k + d.state(st[r])
			t[(c*2+int(s[p]+1)/2)*2+int(s[r]+1)/2]++
		}
	}
	phi := make([]float64, d.n)
	d.params(t, phi)
	return phi, nil
}

// ParamName names parameter k of a model kind: "w_chains", …, "h_stones" for Boltzmann5 (Table 5.1's
// names), the table entry (Boltzmann12Name, LibertiesName) otherwise.
func ParamName(kind string, k int) string {
	switch kind {
	case KindBoltzmann5:
		return [...]string{"w_chains", "w_inter-chain", "w_chain-empty", "w_empty", "h_stones"}[k]
	case KindBoltzmann12:
		return Boltzmann12Name(k)
	}
	return LibertiesName(k)
}

// Embed converts parameters of one kind into a richer kind with the same factors: Boltzmann5 into
// Boltzmann12 (each table entry is w(c_i,c_j) s_i s_j + h(c_i) s_i + h(c_j) s_j at its spins), either of
// those into BoltzmannLiberties (liberty classes ignored), or a kind into itself. A richer model trained
// from the embedded vector starts at the simpler model's optimum, so it needs fewer steps.
func Embed(from string, theta []float64, to string) ([]float64, error) {
	src, err := newDesign(from)
	if err != nil {
		return nil, err
	}
	dst, err := newDesign(to)
	if err != nil {
		return nil, err
	}
	if len(theta) != src.n {
		return nil, fmt.Errorf("territory: %s has %d parameters, got %d", from, src.n, len(theta))
	}
	if from == to {
		return slices.Clone(theta), nil
	}
	if to == KindBoltzmann5 || from == KindLiberties {
		return nil, fmt.Errorf("territory: cannot embed %s into %s", from, to)
	}
	out := make([]float64, dst.n)
	colour := [9]int{0, 1, 1, 1, 1, 2, 2, 2, 2}
	for x := range dst.k {
		for y := range dst.k {
			for ab := range 4 {
				row := dst.jac[(x*dst.k+y)*4+ab]
				k := slices.Index(row, 1)
				if k < 0 {
					continue // impossible state pair
				}
				sx, sy := x, y
				if dst.k == 9 && src.k == 3 {
					sx, sy = colour[x], colour[y]
				}
				var v float64
				for j, c := range src.jac[(sx*src.k+sy)*4+ab] {
					v += c * theta[j]
				}
				out[k] = v
			}
		}
	}
	return out, nil
}

// pedge is one neighbouring pair of a prepared example: compact points i < j, class, direction.
type pedge struct {
	i, j int32
	cls  int32
	dir  int8
}

// dame is a connected component of neutral points and the edges that touch it.
type dame struct {
	pts   []int32
	inner []int32 // edges with both ends in the component
	outer []int32 // edges with one end in it; the other end is labelled
}

// prepared is an Example in the design's terms.
type prepared struct {
	n, N  int
	move  int
	edges []pedge
	label []int8
	fixed []float64 // T over the edges whose ends are both labelled
	dames []dame
	// Chains, chains with liberties and groups, for the block flips that help the persistent chains
	// mix (see flipBlocks).
	blocks []block
	// Persistent Swendsen-Wang chain (MAP with sampled expectations).
	chain []int8
	pcg   rand.PCG
	rng   *rand.Rand // on pcg: each example has its own stream, whatever goroutine serves it
}

func (d *design) prepare(ex *Example, seed uint64, idx int) (*prepared, error) {
	n := ex.Size
	N := n * n
	if len(ex.State) != N || len(ex.Label) != N {
		return nil, fmt.Errorf("territory: example of size %d has %d states and %d labels", n, len(ex.State), len(ex.Label))
	}
	p := &prepared{n: n, N: N, move: ex.Move, label: ex.Label, fixed: make([]float64, d.k*d.k*4)}
	for i := range N {
		x, y := i%n, i/n
		for dir, j := range [2]int{i + 1, i + n} {
			if (dir == Right && x == n-1) || (dir == Down && y == n-1) {
				continue
			}
			c := d.state(ex.State[i])*d.k + d.state(ex.State[j])
			p.edges = append(p.edges, pedge{int32(i), int32(j), int32(c), int8(dir)})
			if ex.Label[i] != 0 && ex.Label[j] != 0 {
				p.fixed[(c*2+int(ex.Label[i]+1)/2)*2+int(ex.Label[j]+1)/2]++
			}
		}
	}
	// Neutral components, by flood fill.
	comp := make([]int32, N)
	for i := range comp {
		comp[i] = -1
	}
	for i := range N {
		if ex.Label[i] != 0 || comp[i] >= 0 {
			continue
		}
		id := int32(len(p.dames))
		var dm dame
		stack := []int32{int32(i)}
		comp[i] = id
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			dm.pts = append(dm.pts, q)
			x := int(q) % n
			for _, r := range [4]int{int(q) - n, int(q) - 1, int(q) + 1, int(q) + n} {
				if r < 0 || r >= N || (r == int(q)-1 && x == 0) || (r == int(q)+1 && x == n-1) {
					continue
				}
				if ex.Label[r] == 0 && comp[r] < 0 {
					comp[r] = id
					stack = append(stack, int32(r))
				}
			}
		}
		if len(dm.pts) > maxDame {
			return nil, fmt.Errorf("%w: %d points", errBigDame, len(dm.pts))
		}
		p.dames = append(p.dames, dm)
	}
	for e, ed := range p.edges {
		ci, cj := comp[ed.i], comp[ed.j]
		switch {
		case ci >= 0 && ci == cj:
			p.dames[ci].inner = append(p.dames[ci].inner, int32(e))
		case ci >= 0:
			p.dames[ci].outer = append(p.dames[ci].outer, int32(e))
		case cj >= 0:
			p.dames[cj].outer = append(p.dames[cj].outer, int32(e))
		}
	}
	p.blocks = stoneBlocks(ex, p.edges)
	p.pcg.Seed(seed, uint64(idx)*0x9e3779b97f4a7c15+1)
	p.rng = rand.New(&p.pcg)
	return p, nil
}

var errBigDame = errors.New("territory: neutral component too large to enumerate")

// block is a set of points fixed by the position, flipped together by flipBlocks: its points and the
// edges that leave it.
type block struct {
	pts, out []int32
}

// stoneBlocks makes the blocks of ex: every chain of stones; every chain with its liberties; and every
// group — the chains of one colour linked through shared liberties — with its liberties. A dead group is
// a chain (or several) and its eye space that must change owner together against the stones' fields.
func stoneBlocks(ex *Example, edges []pedge) []block {
	n, N := ex.Size, len(ex.State)
	colour := func(i int32) int8 { return [9]int8{0, 1, 1, 1, 1, 2, 2, 2, 2}[ex.State[i]] }
	nbrs := func(q int32, fn func(r int32)) {
		x := int(q) % n
		for _, r := range [4]int32{q - int32(n), q - 1, q + 1, q + int32(n)} {
			if r < 0 || int(r) >= N || (r == q-1 && x == 0) || (r == q+1 && x == n-1) {
				continue
			}
			fn(r)
		}
	}
	// Chains and groups by flood fill: chains step to neighbouring stones of their colour; groups also
	// step through an empty point to the stones of that colour around it.
	fill := func(linked bool) [][]int32 {
		id := make([]int32, N)
		for i := range id {
			id[i] = -1
		}
		var sets [][]int32
		for i := range int32(N) {
			c := colour(i)
			if c == 0 || id[i] >= 0 {
				continue
			}
			k := int32(len(sets))
			set := []int32{}
			stack := []int32{i}
			id[i] = k
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				set = append(set, q)
				nbrs(q, func(r int32) {
					if colour(r) == c && id[r] < 0 {
						id[r] = k
						stack = append(stack, r)
					}
					if linked && colour(r) == 0 {
						nbrs(r, func(u int32) {
							if colour(u) == c && id[u] < 0 {
								id[u] = k
								stack = append(stack, u)
							}
						})
					}
				})
			}
			sets = append(sets, set)
		}
		return sets
	}
	mark := make([]int32, N) // stamp of the block a point was last added to
	stamp := int32(0)
	var blocks []block
	add := func(stones []int32, libs bool) {
		stamp++
		var b block
		for _, q := range stones {
			mark[q] = stamp
			b.pts = append(b.pts, q)
		}
		if libs {
			for _, q := range stones {
				nbrs(q, func(r int32) {
					if colour(r) == 0 && mark[r] != stamp {
						mark[r] = stamp
						b.pts = append(b.pts, r)
					}
				})
			}
		}
		for e, ed := range edges {
			if (mark[ed.i] == stamp) != (mark[ed.j] == stamp) {
				b.out = append(b.out, int32(e))
			}
		}
		blocks = append(blocks, b)
	}
	for _, set := range fill(false) {
		add(set, false)
		add(set, true)
	}
	for _, set := range fill(true) {
		add(set, true)
	}
	return blocks
}

// flipBlocks offers every block a flip of all its spins, accepted with the heat-bath probability
// 1/(1 + exp(−ΔE)) given every other spin: a valid Metropolis-Hastings move for a block fixed in
// advance. Swendsen-Wang alone mixes badly once the fields are strong: a chain's cluster flips by its
// own field only (an unsatisfied coupling never bonds), so a chain that should follow its neighbours
// against its field — a dead chain — stays put for ever, and a persistent chain stuck so biases the
// gradient without limit. The block move weighs the couplings to the neighbours too.
func flipBlocks(p *prepared, h, w []float64, s []int8, rng *rand.Rand) {
	for k := range p.blocks {
		b := &p.blocks[k]
		var de float64 // E(flipped) − E(s), with E = Σ h s + Σ w s s
		for _, i := range b.pts {
			de -= 2 * h[i] * float64(s[i])
		}
		for _, e := range b.out {
			ed := p.edges[e]
			de -= 2 * w[e] * float64(s[ed.i]) * float64(s[ed.j])
		}
		if rng.Float64()*(1+math.Exp(-de)) < 1 {
			for _, i := range b.pts {
				s[i] = -s[i]
			}
		}
	}
}

// work is one goroutine's scratch.
type work struct {
	h, w   []float64 // compact field and couplings of the current example
	konst  float64
	f      Field
	m      Marginals
	exact  Exact
	lbp    *LBP
	sw     swScratch
	mean   []float64 // compact marginals
	pair   []float64 // per edge
	s      []int8    // CD start state
	dm     dameScratch
	acc    []float64 // Σ (T_data − T_model)
	logLik float64
}

func newWork(d *design, maxN int) *work {
	w := &work{lbp: NewLBP(), acc: make([]float64, d.k*d.k*4)}
	w.h = make([]float64, maxN)
	w.w = make([]float64, 2*maxN)
	w.mean = make([]float64, maxN)
	w.pair = make([]float64, 2*maxN)
	w.s = make([]int8, maxN)
	w.sw.alloc(maxN)
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
	w.f.reset(p.n)
	w.f.Const = w.konst
	pts := board.PointsOf(p.n)
	for i := range p.N {
		w.f.H[pts[i]] = w.h[i]
	}
	for e, ed := range p.edges {
		w.f.W[pts[ed.i]][ed.dir] = w.w[e]
	}
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

// swScratch is a Swendsen-Wang step on a prepared example (the sampler of Stern §5.3.4, eq. 5.3, as in
// SW.sweep) that can start from a given state: contrastive divergence starts at the labels and MAP keeps
// one persistent chain per example.
type swScratch struct {
	parent []int32
	parity []uint8
	size   []int32
	root   []int32
	sig    []float64
	hc     []float64
	th     []float64
}

func (sc *swScratch) alloc(n int) {
	sc.parent, sc.parity, sc.size = make([]int32, n), make([]uint8, n), make([]int32, n)
	sc.root, sc.sig, sc.hc, sc.th = make([]int32, n), make([]float64, n), make([]float64, n), make([]float64, n)
}

func (sc *swScratch) find(i int32) (int32, uint8) {
	r, par := i, uint8(0)
	for sc.parent[r] != r {
		par ^= sc.parity[r]
		r = sc.parent[r]
	}
	q := par
	for i != r && sc.parent[i] != r {
		next, np := sc.parent[i], q^sc.parity[i]
		sc.parent[i], sc.parity[i] = r, q
		i, q = next, np
	}
	return r, par
}

// step draws bonds given s (bond probability 1 − exp(−2|w|) on pairs that satisfy their coupling), the
// clusters, and each cluster's tanh(H_c). With draw it also replaces s by a new state given the bonds.
func (sc *swScratch) step(p *prepared, h, w []float64, s []int8, rng *rand.Rand, draw bool) {
	N := int32(p.N)
	for i := range N {
		sc.parent[i], sc.parity[i], sc.size[i] = i, 0, 1
	}
	for e, ed := range p.edges {
		we := w[e]
		same := s[ed.i] == s[ed.j]
		if we == 0 || same != (we > 0) || rng.Float64() >= -math.Expm1(-2*math.Abs(we)) {
			continue
		}
		ri, pi := sc.find(ed.i)
		rj, pj := sc.find(ed.j)
		if ri == rj {
			continue
		}
		if sc.size[ri] > sc.size[rj] {
			ri, rj = rj, ri
		}
		rel := uint8(0)
		if !same {
			rel = 1
		}
		sc.parent[ri], sc.parity[ri] = rj, pi^pj^rel
		sc.size[rj] += sc.size[ri]
	}
	clear(sc.hc[:N])
	for i := range N {
		r, par := sc.find(i)
		sc.root[i] = r
		sc.sig[i] = 1 - 2*float64(par)
		sc.hc[r] += h[i] * sc.sig[i]
	}
	for i := range N {
		if sc.parent[i] != i {
			continue
		}
		sc.th[i] = math.Tanh(sc.hc[i])
		if draw {
			if rng.Float64()*(1+math.Exp(-2*sc.hc[i])) < 1 {
				sc.hc[i] = 1
			} else {
				sc.hc[i] = -1
			}
		}
	}
	if draw {
		for i := range N {
			s[i] = int8(sc.hc[sc.root[i]] * sc.sig[i])
		}
	}
}

// addRB adds the Rao-Blackwellised expectations given the last bonds, E[s_i | bonds] = σ_i tanh(H_c) and
// E[s_i s_j | bonds] (σ_i σ_j within a cluster, times tanh(H_a) tanh(H_b) across two), to mean and pair.
func (sc *swScratch) addRB(p *prepared, mean, pair []float64, scale float64) {
	for i := range p.N {
		mean[i] += scale * sc.sig[i] * sc.th[sc.root[i]]
	}
	for e, ed := range p.edges {
		ri, rj := sc.root[ed.i], sc.root[ed.j]
		v := sc.sig[ed.i] * sc.sig[ed.j]
		if ri != rj {
			v *= sc.th[ri] * sc.th[rj]
		}
		pair[e] += scale * v
	}
}

// Training methods and inference methods for the model term of the MAP gradient.
const (
	MethodMAP = "map" // maximum a posteriori, eq. 5.12 with the prior eq. 5.13
	MethodCD  = "cd"  // contrastive divergence, eq. 5.15, one Swendsen-Wang step from the labels

	InferExact = "exact"
	InferLBP   = "lbp"
	InferSW    = "sw" // persistent Swendsen-Wang chains, Rao-Blackwellised
)

// TrainOptions configure Train. Zero fields take the defaults named.
type TrainOptions struct {
	Method     string  // MethodMAP (default) or MethodCD
	Inference  string  // MAP only: InferSW (default), InferExact or InferLBP
	Iterations int     // gradient steps; 300
	Batch      int     // examples per step, cycling through the data in a fixed shuffled order; 0: all
	Sweeps     int     // MAP with InferSW: sweeps per example and step, averaged; 2
	Alpha      float64 // prior precision α of eq. 5.13 over the whole data set; Stern's CD value 0.001
	Step       float64 // first step of every parameter, in parameter units; 0.1
	Mu, Gamma  float64 // ALAP meta-parameters (§5.4.3); Stern's 0.9 and 0.01
	// Average is the fraction of the last steps whose parameters are averaged into the result; 0 gives
	// 0.25 with sampled gradients (sw, cd) and none with deterministic ones (exact, lbp); < 0 none.
	Average float64
	Seed    uint64
	Workers int // goroutines; 1 when < 1
	// Progress, when set, is called after every step; an error from it stops training.
	Progress func(Step) error
}

// Step reports one gradient step.
type Step struct {
	N        int       // 1-based
	Params   []float64 // after the step (not a copy: read it during the call)
	GradNorm float64   // Euclidean norm of the mean gradient per position
	// LogLik is the mean log-likelihood per position of the step's examples, log p(ŝ_L|c), with exact
	// inference; NaN with the other methods.
	LogLik float64
}

func (o *TrainOptions) defaults() error {
	if o.Method == "" {
		o.Method = MethodMAP
	}
	if o.Inference == "" {
		o.Inference = InferSW
	}
	switch o.Method {
	case MethodMAP:
		switch o.Inference {
		case InferExact, InferLBP, InferSW:
		default:
			return fmt.Errorf("territory: unknown inference %q (exact, lbp, sw)", o.Inference)
		}
	case MethodCD:
	default:
		return fmt.Errorf("territory: unknown training method %q (map, cd)", o.Method)
	}
	if o.Iterations <= 0 {
		o.Iterations = 300
	}
	if o.Sweeps <= 0 {
		o.Sweeps = 2
	}
	if o.Alpha == 0 {
		o.Alpha = 0.001
	}
	if o.Step <= 0 {
		o.Step = 0.1
	}
	if o.Mu == 0 {
		o.Mu = 0.9
	}
	if o.Gamma == 0 {
		o.Gamma = 0.01
	}
	if o.Average == 0 && (o.Method == MethodCD || o.Inference == InferSW) {
		o.Average = 0.25
	}
	o.Average = max(o.Average, 0)
	o.Workers = max(o.Workers, 1)
	return nil
}

// Trainer fits one parameter vector of a model kind to a set of examples.
type Trainer struct {
	d     *design
	data  []*prepared
	Drops int // examples dropped: a neutral component too large to enumerate
	works []*work
	ising [][4]float64
	maxN  int
}

// NewTrainer prepares the examples for a model kind.
func NewTrainer(kind string, data []Example, seed uint64) (*Trainer, error) {
	d, err := newDesign(kind)
	if err != nil {
		return nil, err
	}
	t := &Trainer{d: d, ising: make([][4]float64, d.k*d.k)}
	for i := range data {
		p, err := d.prepare(&data[i], seed, i)
		if errors.Is(err, errBigDame) {
			t.Drops++
			continue
		}
		if err != nil {
			return nil, err
		}
		t.data = append(t.data, p)
		t.maxN = max(t.maxN, p.N)
	}
	if len(t.data) == 0 {
		return nil, fmt.Errorf("territory: no training examples")
	}
	return t, nil
}

// Len is the number of examples kept.
func (t *Trainer) Len() int { return len(t.data) }

func (t *Trainer) workers(n int) []*work {
	for len(t.works) < n {
		t.works = append(t.works, newWork(t.d, t.maxN))
	}
	return t.works[:n]
}

// Gradient returns the mean over the examples idx (all when nil) of the gradient of the log posterior
// (eq. 5.12 plus the share of the prior eq. 5.14, −α θ / |data|) and, with exact inference, the mean
// log-likelihood (NaN otherwise). Method and inference are as in o. Sampled gradients advance each
// example's own random stream (and, for MAP, its persistent chain), so repeated calls differ.
func (t *Trainer) Gradient(ctx context.Context, theta []float64, idx []int, o TrainOptions) (grad []float64, logLik float64, err error) {
	if err := o.defaults(); err != nil {
		return nil, 0, err
	}
	if len(theta) != t.d.n {
		return nil, 0, fmt.Errorf("territory: %s has %d parameters, got %d", t.d.kind, t.d.n, len(theta))
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
	if o.Method != MethodMAP || o.Inference != InferExact {
		return grad, math.NaN(), nil
	}
	return grad, logLik / nb, nil
}

// example adds T(data) − T(model) of one example to w.acc.
func (t *Trainer) example(w *work, p *prepared, o TrainOptions) {
	w.load(p, t.ising)
	mean, pair := w.mean[:p.N], w.pair[:len(p.edges)]
	switch {
	case o.Method == MethodCD:
		// q_1 (eq. 5.15): start at the labels (neutral spins drawn given them), draw one set of bonds, and
		// average the new spins over the cluster flips given those bonds.
		rng := p.rng
		w.dataTerm(p, w.s, rng)
		w.sw.step(p, w.h, w.w, w.s, rng, false)
		clear(mean)
		clear(pair)
		w.sw.addRB(p, mean, pair, 1)
	case o.Inference == InferSW:
		w.dataTerm(p, nil, nil)
		rng := p.rng
		if p.chain == nil {
			// A fresh chain starts at the labels (neutral points at random), close to where the model
			// puts its mass once trained; the first steps then serve as its burn-in.
			p.chain = make([]int8, p.N)
			for i, l := range p.label {
				p.chain[i] = l
				if l == 0 {
					p.chain[i] = int8(2*rng.IntN(2) - 1)
				}
			}
		}
		clear(mean)
		clear(pair)
		for range o.Sweeps {
			w.sw.step(p, w.h, w.w, p.chain, rng, true)
			w.sw.addRB(p, mean, pair, 1/float64(o.Sweeps))
			flipBlocks(p, w.h, w.w, p.chain, rng)
		}
	default:
		num := w.dataTerm(p, nil, nil)
		w.field(p)
		if o.Inference == InferExact {
			logZ := w.exact.Run(&w.f, &w.m)
			w.logLik += num - logZ
		} else {
			w.lbp.Run(&w.f, &w.m)
		}
		w.fromMarginals(p)
	}
	addPairs(w.acc, p, mean, pair, -1)
}

// Train fits the parameters from init (zeros when nil) by gradient ascent with ALAP step sizes
// (Stern §5.4.3) and returns them.
//
// ALAP (Almeida et al. 1998) as used here: θ_i += δ_i ∇_i; δ_i ← δ_i·(1 + γ ∇_i^n ∇_i^{n−1} / τ_i) with
// τ_i ← μ τ_i + (1 − μ)(∇_i^n)², the running mean square of the gradient. Stern prints an additive δ
// update and τ as the running mean of ∇^n ∇^{n−1}; that τ can be zero or negative, and Almeida's
// multiplicative form with the mean square is the one that is scale-free, so we use it (the factor is
// kept in [0.5, 2]). The first step of every parameter is Step in parameter units, δ_i = Step/|∇_i^1|, and
// no step moves a parameter further than Step.
// The result is the mean of the parameters over the last Average of the steps (Polyak averaging), which
// removes most of the noise of sampled gradients.
func (t *Trainer) Train(ctx context.Context, init []float64, o TrainOptions) ([]float64, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	n := t.d.n
	theta := make([]float64, n)
	if init != nil {
		if len(init) != n {
			return nil, fmt.Errorf("territory: %s has %d parameters, got %d", t.d.kind, n, len(init))
		}
		copy(theta, init)
	}
	order := make([]int, len(t.data))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(o.Seed, 99))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	batch := o.Batch
	if batch <= 0 || batch > len(order) {
		batch = len(order)
	}
	delta := make([]float64, n)
	tau := make([]float64, n)
	prev := make([]float64, n)
	avg := make([]float64, n)
	avgFrom := o.Iterations - int(float64(o.Iterations)*o.Average)
	navg := 0
	pos := 0
	idx := make([]int, batch)
	for it := 1; it <= o.Iterations; it++ {
		for b := range idx {
			idx[b] = order[pos]
			pos = (pos + 1) % len(order)
		}
		grad, ll, err := t.Gradient(ctx, theta, idx, o)
		if err != nil {
			return nil, err
		}
		var norm float64
		for k, g := range grad {
			norm += g * g
			if it == 1 {
				tau[k] = g * g
				delta[k] = o.Step / max(math.Abs(g), 1e-9)
			} else {
				tau[k] = o.Mu*tau[k] + (1-o.Mu)*g*g
				if tau[k] > 0 {
					delta[k] *= min(2, max(0.5, 1+o.Gamma*g*prev[k]/tau[k]))
				}
			}
			// A trust region: no parameter moves more than Step at once, so that one unlucky sampled
			// gradient after the step sizes have grown cannot throw the parameters far. A capped step
			// also caps δ: otherwise δ, far above what the step used, would keep the step at the cap
			// while ALAP's slow (γ = 0.01) shrinking catches up, and a stiff direction — w_empty early
			// in the game, near the Ising critical coupling — would oscillate by ±Step for hundreds of
			// steps.
			if math.Abs(delta[k]*g) > o.Step {
				delta[k] = o.Step / math.Abs(g)
			}
			theta[k] += delta[k] * g
			prev[k] = g
		}
		if it > avgFrom {
			navg++
			for k, v := range theta {
				avg[k] += (v - avg[k]) / float64(navg)
			}
		}
		if o.Progress != nil {
			if err := o.Progress(Step{N: it, Params: theta, GradNorm: math.Sqrt(norm), LogLik: ll}); err != nil {
				return nil, err
			}
		}
	}
	if navg == 0 {
		return theta, nil
	}
	return avg, nil
}

// Evaluation of marginals against labels, the figure of Stern's Figs. 5.9–5.11 and of aji territory-eval.

// Score is the per-point cross-entropy −ln p(label) (natural log) and sign agreement of predicted owners
// over the labelled (non-neutral) points of some examples.
type Score struct {
	Positions    int
	Points       int
	CrossEntropy float64 // mean over points
	Agreement    float64 // share of points whose E[s] has the label's sign (0 counts as a miss)
}

// minProb bounds p(label) away from 0 in the cross-entropy: exact marginals of a chain with w_chains ≈ 3
// can be within 1e-9 of ±1.
const minProb = 1e-6

// add adds the points of one example to a running score (sums; finish divides).
func (s *Score) add(ex *Example, m *Marginals) {
	s.Positions++
	for i, p := range board.PointsOf(ex.Size) {
		l := ex.Label[i]
		if l == 0 {
			continue
		}
		v := m.Mean[p] * float64(l)
		s.CrossEntropy += -math.Log(max(minProb, (1+v)/2))
		if v > 0 {
			s.Agreement++
		}
		s.Points++
	}
}

func (s *Score) finish() {
	if s.Points > 0 {
		s.CrossEntropy /= float64(s.Points)
		s.Agreement /= float64(s.Points)
	}
}

// Evaluate scores a model kind with parameters theta on examples, with marginals from inference
// (InferExact, InferLBP or InferSW with opt's sweeps), spread over workers goroutines.
func Evaluate(ctx context.Context, kind string, theta []float64, data []Example, inference string, opt SampleOptions, workers int) (Score, error) {
	d, err := newDesign(kind)
	if err != nil {
		return Score{}, err
	}
	if len(theta) != d.n {
		return Score{}, fmt.Errorf("territory: %s has %d parameters, got %d", kind, d.n, len(theta))
	}
	switch inference {
	case InferExact, InferLBP, InferSW:
	default:
		return Score{}, fmt.Errorf("territory: unknown inference %q (exact, lbp, sw)", inference)
	}
	ising := make([][4]float64, d.k*d.k)
	d.ising(theta, ising)
	workers = max(workers, 1)
	scores := make([]Score, workers)
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Go(func() {
			w := newWork(d, board.MaxPoints)
			var sw SW
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
				switch inference {
				case InferExact:
					w.exact.Run(&w.f, &w.m)
				case InferLBP:
					w.lbp.Run(&w.f, &w.m)
				default:
					o := opt
					o.Seed += uint64(i)
					sw.Run(&w.f, &w.m, o)
				}
				scores[wi].add(&data[i], &w.m)
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return Score{}, ctx.Err()
	}
	var s Score
	for _, x := range scores {
		s.Positions += x.Positions
		s.Points += x.Points
		s.CrossEntropy += x.CrossEntropy
		s.Agreement += x.Agreement
	}
	s.finish()
	return s, nil
}

// prepareForField is prepare without the neutral components: evaluation needs only the edges.
func (d *design) prepareForField(ex *Example) (*prepared, error) {
	n := ex.Size
	N := n * n
	if len(ex.State) != N || len(ex.Label) != N {
		return nil, fmt.Errorf("territory: example of size %d has %d states and %d labels", n, len(ex.State), len(ex.Label))
	}
	p := &prepared{n: n, N: N, move: ex.Move, label: ex.Label}
	for i := range N {
		x, y := i%n, i/n
		if x < n-1 {
			p.edges = append(p.edges, pedge{int32(i), int32(i + 1), int32(d.state(ex.State[i])*d.k + d.state(ex.State[i+1])), Right})
		}
		if y < n-1 {
			p.edges = append(p.edges, pedge{int32(i), int32(i + n), int32(d.state(ex.State[i])*d.k + d.state(ex.State[i+n])), Down})
		}
	}
	return p, nil
}
