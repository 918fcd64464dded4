package board

import "math/bits"

// PointSet is a set of points as a fixed-size bit set: no allocation, cheap to copy and clear.
type PointSet [(NumCells + 63) / 64]uint64

// Add puts p in the set.
func (s *PointSet) Add(p Point) { s[p>>6] |= 1 << (uint(p) & 63) }

// Remove takes p out of the set.
func (s *PointSet) Remove(p Point) { s[p>>6] &^= 1 << (uint(p) & 63) }

// Has reports whether p is in the set.
func (s *PointSet) Has(p Point) bool { return s[p>>6]&(1<<(uint(p)&63)) != 0 }

// Len returns the number of points in the set.
func (s *PointSet) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Clear empties the set.
func (s *PointSet) Clear() { *s = PointSet{} }
