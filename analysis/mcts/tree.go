package mcts

import (
	"sync"
	"sync/atomic"

	"aji/analysis/board"
)

// node is one position of the tree, reached by move from its parent. Its statistics are atomics so
// that goroutines share the tree without locks (tree parallelism, Chaslot et al. 2008); wins count
// half-points (a win 2, a jigo 1) for the player who played move.
type node struct {
	move   board.Point
	nkids  uint16
	state  atomic.Uint32 // leaf, expanding or expanded
	kids   uint32        // index of the first child; written before state becomes expanded
	prior  float32
	visits atomic.Int32 // incremented on the way down (the virtual loss), so a visit in flight counts as a loss
	wins   atomic.Int32
	// AMAF ("all moves as first") statistics for RAVE, from the same player's point of view: half-point
	// wins in the high 32 bits, visits in the low, so that one atomic add counts a result.
	rave atomic.Uint64
}

const (
	leaf = iota
	expanding
	expanded
)

// raveStats returns n's AMAF statistics: the wins in half-points and the visits.
func (n *node) raveStats() (wins, visits int32) {
	r := n.rave.Load()
	return int32(r >> 32), int32(uint32(r))
}

// addRave counts an AMAF result of res half-points.
func (n *node) addRave(res int32) { n.rave.Add(uint64(res)<<32 | 1) }

// value returns the mean result of n for the player who played its move, and its visits.
func (n *node) value() (q float64, visits int32) {
	v := n.visits.Load()
	if v == 0 {
		return 0, 0
	}
	return float64(n.wins.Load()) / (2 * float64(v)), v
}

// arena holds the nodes in fixed slabs addressed by index: no pointers for the garbage collector to
// scan, and a node count that is the memory limit. Siblings are contiguous. The slab directory has a
// fixed length, so readers index it without locks; a slab is written (under mu) before any index in it
// is published through a node's state.
type arena struct {
	mu    sync.Mutex
	slabs []*[slabSize]node
	used  atomic.Uint32
	max   uint32
}

const (
	slabBits = 12
	slabSize = 1 << slabBits
	slabMask = slabSize - 1
)

func newArena(maxNodes int) *arena {
	return &arena{slabs: make([]*[slabSize]node, maxNodes/slabSize+2), max: uint32(maxNodes)}
}

func (a *arena) node(i uint32) *node { return &a.slabs[i>>slabBits][i&slabMask] }

// alloc reserves k contiguous zeroed nodes, or reports false when the arena is full.
func (a *arena) alloc(k int) (uint32, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	first := a.used.Load()
	if first&slabMask+uint32(k) > slabSize { // siblings never straddle two slabs
		first = (first | slabMask) + 1
	}
	end := first + uint32(k)
	if end > a.max || int(end>>slabBits) >= len(a.slabs) {
		return 0, false
	}
	slab := a.slabs[first>>slabBits]
	if slab == nil {
		slab = new([slabSize]node)
		a.slabs[first>>slabBits] = slab
	}
	// No goroutine reads these nodes until a parent's state publishes them; zero is a leaf.
	clear(slab[first&slabMask : first&slabMask+uint32(k)])
	a.used.Store(end)
	return first, true
}

// reset forgets every node, keeping the slabs.
func (a *arena) reset() { a.used.Store(0) }

// release forgets every node and frees the slabs.
func (a *arena) release() {
	a.used.Store(0)
	clear(a.slabs)
}

// children returns the index of n's first child and their number, or 0, 0 while n is not expanded.
func (a *arena) children(n *node) (uint32, int) {
	if n.state.Load() != expanded {
		return 0, 0
	}
	return n.kids, int(n.nkids)
}

// copySubtree copies the subtree of src's node i into a (reset), returning the index of its root there.
// Nodes that do not fit are left out (their parent becomes a leaf again).
func (a *arena) copySubtree(src *arena, i uint32) uint32 {
	a.reset()
	root, _ := a.alloc(1)
	copyNode(a.node(root), src.node(i))
	type pair struct{ dst, src uint32 }
	stack := []pair{{root, i}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s := src.node(p.src)
		first, k := src.children(s)
		if k == 0 {
			continue
		}
		d := a.node(p.dst)
		nf, ok := a.alloc(k)
		if !ok {
			continue
		}
		for j := range uint32(k) {
			copyNode(a.node(nf+j), src.node(first+j))
			stack = append(stack, pair{nf + j, first + j})
		}
		d.kids, d.nkids = nf, uint16(k)
		d.state.Store(expanded)
	}
	return root
}

// copyNode copies the move and statistics of s into d (a leaf).
func copyNode(d, s *node) {
	d.move, d.prior = s.move, s.prior
	d.visits.Store(s.visits.Load())
	d.wins.Store(s.wins.Load())
	d.rave.Store(s.rave.Load())
}
