package planning

import (
	"fmt"
	"math"
)

// Kind is the way a synthetic tree values its leaves (Stern §6.2).
type Kind int

const (
	// Random values each leaf a win for MAX independently with probability π_c (§6.2.1).
	Random Kind = iota
	// PGame gives each MAX move a value uniform on [0, 1] and each MIN move one on [-1, 0]; a leaf
	// is a win for MAX when the sum of the move values along its path is positive (§6.2.2).
	PGame
)

func (k Kind) String() string {
	if k == PGame {
		return "pgame"
	}
	return "random"
}

// ParseKind reads "random" or "pgame".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "random":
		return Random, nil
	case "pgame", "p-game":
		return PGame, nil
	}
	return 0, fmt.Errorf("planning: unknown tree kind %q (random, pgame)", s)
}

// Tree is one synthetic game tree of branching B and depth D: every path from the root makes D moves,
// MAX moving first, and every inner node has B children. Nothing is stored: a node is the hash of its
// path, and a move's value and a leaf's outcome are derived from hashes, so a tree of 7^7 or 2^20
// leaves costs no memory and the same seed always gives the same tree.
type Tree struct {
	Kind Kind
	B, D int
	// PiW is a Random tree's probability that a leaf is a win for MAX: CriticalWin(B) by default.
	PiW  float64
	root uint64
}

// NewTree is the tree of the given kind and shape drawn from seed.
func NewTree(kind Kind, b, d int, seed uint64) *Tree {
	return &Tree{Kind: kind, B: b, D: d, PiW: CriticalWin(b), root: mix(seed ^ 0x6a09e667f3bcc909)}
}

// CriticalWin is π_c, the positive root of x^B + x − 1 = 0 (Pearl 1984), at which a Random tree's root
// is a win with probability π_c whatever its depth: (√5 − 1)/2 for B = 2. (The thesis prints the
// equation as x^B + x + 1 = 0, which has no positive root; its golden ratio for B = 2 fixes the sign.)
func CriticalWin(b int) float64 {
	lo, hi := 0.0, 1.0
	for range 100 {
		m := (lo + hi) / 2
		if math.Pow(m, float64(b))+m-1 > 0 {
			hi = m
		} else {
			lo = m
		}
	}
	return (lo + hi) / 2
}

// Root is the root node.
func (t *Tree) Root() uint64 { return t.root }

// Child is node h's child after move a (0 ≤ a < B).
func (t *Tree) Child(h uint64, a int) uint64 {
	return mix(h ^ (uint64(a)+1)*0x9e3779b97f4a7c15)
}

// MoveValue is the P-Game value of the move that led to node h, made at depth depth (0 for the root's
// moves, MAX's): uniform on [0, 1] for MAX, on [−1, 0] for MIN.
func (t *Tree) MoveValue(h uint64, depth int) float64 {
	u := unit(h ^ 0xbb67ae8584caa73b)
	if depth%2 == 1 {
		return -u
	}
	return u
}

// LeafWin reports whether leaf h, reached with P-Game sum sum, is a win for MAX.
func (t *Tree) LeafWin(h uint64, sum float64) bool {
	if t.Kind == PGame {
		return sum > 0
	}
	return unit(h^0x3c6ef372fe94f82b) < t.PiW
}

// mix is splitmix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// unit is a number in [0, 1) drawn from h.
func unit(h uint64) float64 { return float64(mix(h)>>11) / (1 << 53) }
