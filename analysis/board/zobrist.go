package board

// zobrist holds one random key per colour and point; the hash of a position is the XOR of the keys of its
// stones. The keys come from a fixed-seed SplitMix64 sequence so hashes are the same in every run.
var zobrist [3][NumCells]uint64

func init() {
	state := uint64(0x416A695A6F627269) // "AjiZobri"
	for c := Black; c <= White; c++ {
		for p := range zobrist[c] {
			state += 0x9E3779B97F4A7C15
			zobrist[c][p] = Mix64(state)
		}
	}
}

// Mix64 is the SplitMix64 finalizer (Vigna): a bijective 64-bit mix with good avalanche.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// StoneKey returns the Zobrist key of a stone of colour c (Black or White) at p.
func StoneKey(c Color, p Point) uint64 { return zobrist[c][p] }
