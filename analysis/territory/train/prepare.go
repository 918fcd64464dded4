package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"aji/analysis/board"
	"aji/analysis/territory"
)

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
		return Example{}, fmt.Errorf("train: %d labels for a %dx%d board", len(labels), n, n)
	}
	var st [board.NumCells]int8
	territory.LibertyStates(b, &st)
	ex := Example{Size: n, Move: move, State: make([]int8, n*n), Label: make([]int8, n*n)}
	for i, p := range board.PointsOf(n) {
		ex.State[i] = st[p]
		if v := labels[i]; v < -1 || v > 1 {
			return Example{}, fmt.Errorf("train: label %d at point %d", v, i)
		}
		ex.Label[i] = labels[i]
	}
	return ex, nil
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
		return nil, fmt.Errorf("train: example of size %d has %d states and %d labels", n, len(ex.State), len(ex.Label))
	}
	p := &prepared{n: n, N: N, move: ex.Move, label: ex.Label, fixed: make([]float64, d.k*d.k*4)}
	for i := range N {
		x, y := i%n, i/n
		for dir, j := range [2]int{i + 1, i + n} {
			if (dir == territory.Right && x == n-1) || (dir == territory.Down && y == n-1) {
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

var errBigDame = errors.New("train: neutral component too large to enumerate")

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
// advance. The Swendsen-Wang move alone mixes badly once the fields are strong: a chain's cluster flips
// by its own field only (an unsatisfied coupling never bonds), so a chain that should follow its
// neighbours against its field — a dead chain — stays put, and a persistent chain stuck so biases the
// gradient without limit. SW's own block move flips lone chains against their neighbours; these blocks
// add a chain with its liberties and whole groups with theirs.
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

// prepareForField is prepare without the neutral components: evaluation needs only the edges.
func (d *design) prepareForField(ex *Example) (*prepared, error) {
	n := ex.Size
	N := n * n
	if len(ex.State) != N || len(ex.Label) != N {
		return nil, fmt.Errorf("train: example of size %d has %d states and %d labels", n, len(ex.State), len(ex.Label))
	}
	p := &prepared{n: n, N: N, move: ex.Move, label: ex.Label}
	for i := range N {
		x, y := i%n, i/n
		if x < n-1 {
			p.edges = append(p.edges, pedge{int32(i), int32(i + 1), int32(d.state(ex.State[i])*d.k + d.state(ex.State[i+1])), territory.Right})
		}
		if y < n-1 {
			p.edges = append(p.edges, pedge{int32(i), int32(i + n), int32(d.state(ex.State[i])*d.k + d.state(ex.State[i+n])), territory.Down})
		}
	}
	return p, nil
}
