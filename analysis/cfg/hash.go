package cfg

import (
	"fmt"
	"math/bits"

	"aji/analysis/board"
)

// Initial labels of Algorithm 1 ("random (but fixed)" 32-bit values) and CONST_4_LIBERTIES. They were
// drawn once from math/rand/v2's PCG seeded (0x616a69, 0x636667), high 32 bits of each output, and are
// written out so that trained models never depend on a generator's implementation.
const (
	LabelEmpty      uint32 = 0xf2319660
	LabelOwn        uint32 = 0x4adf8ca0 // a chain of the player to move
	LabelOpp        uint32 = 0xecf7aed0 // a chain of the opponent
	Const4Libs      uint32 = 0xeec02fc4 // replaces the neighbourhood sum of a vertex with 4 or more liberties
	labelBits              = 8          // bits of a vertex label kept in a path label (§III-A.3)
	labelMask              = 1<<labelBits - 1
	NumPathFeatures        = 1 << (3 * labelBits) // 2^24 path labels
)

// DefaultIterations is the number of neighbourhood-hash iterations of the paper's features: Figure 4(c)
// shows the labels "after 1 iteration", and §V names more iterations as future work.
const DefaultIterations = 1

// manyLibs is the liberty count from which a vertex ignores its neighbourhood (Algorithm 1:
// "v.liberties ≥ 4"; the text's "(i.e. more than four liberties)" contradicts its own "at least four
// empty intersections" and the pseudocode, so ≥ 4 it is). It applies to every vertex: for an empty
// point its liberties are its empty neighbours, so an empty point in open space gets one fixed label.
const manyLibs = 4

// Mix32 is the integer mix of Algorithm 1 (MIX32BIT), after Thomas Wang. It is the paper's version
// exactly: Wang's original "32 bit Mix Function" complements two of the shifted terms (key += ~(key <<
// 15)), the paper's does not, so Mix32(0) = 0.
func Mix32(a uint32) uint32 {
	a += a << 15
	a ^= a >> 10
	a += a << 3
	a ^= a >> 6
	a += a << 11
	a ^= a >> 16
	return a
}

// nextLabel is one step of Algorithm 1 for a vertex with label self, libs liberties, and sum the sum of
// its neighbours' labels (ignored when libs ≥ 4): BIT-ROTATE is a rotation left by one bit, as in the
// neighbourhood hash of Hido & Kashima; sums wrap modulo 2^32. Every vertex's iteration k reads only
// iteration k-1 (synchronous, as in Hido & Kashima: ITERATE applied in place, one vertex after another,
// would make labels depend on the order of the vertices and break the board's symmetries).
func nextLabel(self uint32, libs int, sum uint32) uint32 {
	l := bits.RotateLeft32(self, 1)
	if libs >= manyLibs {
		l += Const4Libs
	} else {
		l += sum
	}
	return Mix32(l)
}

// initialLabel is the iteration-0 label of a vertex of colour c (Empty, Black or White) seen by toPlay.
func initialLabel(c, toPlay board.Color) uint32 {
	switch c {
	case board.Empty:
		return LabelEmpty
	case toPlay:
		return LabelOwn
	}
	return LabelOpp
}

// PathLabel is the feature of a walk whose vertices have labels l0, l1, l2 (l0 the empty start): the
// concatenation of their lower 8 bits, l0 in the high byte.
func PathLabel(l0, l1, l2 uint32) uint32 {
	return (l0&labelMask)<<(2*labelBits) | (l1&labelMask)<<labelBits | l2&labelMask
}

// FeatureString writes a path feature as its three vertex bytes, start first ("60-a0-d0"), the way the
// CFG view shows labels.
func FeatureString(f uint32) string {
	return fmt.Sprintf("%02x-%02x-%02x", f>>(2*labelBits)&labelMask, f>>labelBits&labelMask, f&labelMask)
}
