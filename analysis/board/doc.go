// Package board is the Go rules engine: stones, chains, liberties, captures, ko, legality, Zobrist hashing
// and area scoring on square boards from 2x2 to 25x25, built so that playing a move allocates nothing.
//
// The board is a padded one-dimensional array with a fixed stride for every size, so a Point means the
// same intersection on every board and the four neighbours are the constant offsets ±1 and ±Stride.
// Chains are circular lists of stones; each chain keeps pseudo-liberties (the number of stone–empty-point
// adjacencies) with the sum and sum of squares of those empty points, which tells in O(1) whether a chain
// has no liberty, exactly one (and which), or more. Exact liberty counts are computed on demand.
package board
