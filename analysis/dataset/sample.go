package dataset

import "math/rand/v2"

// SamplePositions marks which of a game's n positions to train on: k of them drawn without replacement
// by a generator seeded with (seed, game index), so a run is repeatable; all of them when k <= 0. It
// reuses dst.
func SamplePositions(dst []bool, n, k int, seed uint64, index int) []bool {
	dst = dst[:0]
	for range n {
		dst = append(dst, k <= 0)
	}
	if k > 0 {
		rng := rand.New(rand.NewPCG(seed, uint64(index)))
		for _, i := range rng.Perm(n)[:min(k, n)] {
			dst[i] = true
		}
	}
	return dst
}
