package board

import (
	"fmt"
	"math/rand/v2"
)

// check recomputes everything the board keeps incrementally from the colours alone — chains by flood
// fill, exact liberties, pseudo-liberties, empty list, hash — and reports the first disagreement.
func (b *Board) check() error {
	var hash uint64
	empties := 0
	var seen PointSet
	for _, p := range b.Points() {
		c := b.color[p]
		if c == Empty {
			empties++
			if i := b.emptyAt[p]; int(i) >= b.numEmpty || b.empty[i] != p {
				return fmt.Errorf("empty list misses %s", p.GTP(b.size))
			}
			if b.head[p] != noChain {
				return fmt.Errorf("empty %s has a chain head", p.GTP(b.size))
			}
			continue
		}
		hash ^= zobrist[c][p]
		if seen.Has(p) {
			continue
		}
		// Flood the chain of p.
		var stones, libs PointSet
		stack := []Point{p}
		stones.Add(p)
		pseudo := 0
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range neighbours {
				n := s + d
				switch {
				case b.color[n] == Empty:
					libs.Add(n)
					pseudo++
				case b.color[n] == c && !stones.Has(n):
					stones.Add(n)
					stack = append(stack, n)
				}
			}
		}
		h := b.head[p]
		for _, s := range b.Points() {
			if stones.Has(s) != (b.color[s] == c && b.head[s] == h) {
				return fmt.Errorf("chain of %s: membership of %s wrong\n%s", p.GTP(b.size), s.GTP(b.size), b)
			}
		}
		// The circular list visits exactly the chain's stones.
		n, s := 0, h
		for {
			if !stones.Has(s) {
				return fmt.Errorf("chain list of %s reaches %s", p.GTP(b.size), s.GTP(b.size))
			}
			n++
			if s = b.next[s]; s == h || n > MaxPoints {
				break
			}
		}
		if n != stones.Len() || int(b.chains[h].size) != n {
			return fmt.Errorf("chain of %s: list %d, size %d, want %d", p.GTP(b.size), n, b.chains[h].size, stones.Len())
		}
		if int(b.chains[h].libs) != pseudo {
			return fmt.Errorf("chain of %s: pseudo-liberties %d, want %d", p.GTP(b.size), b.chains[h].libs, pseudo)
		}
		if got, want := b.Liberties(p, MaxPoints), libs.Len(); got != want {
			return fmt.Errorf("chain of %s: %d liberties, want %d\n%s", p.GTP(b.size), got, want, b)
		}
		if want := libs.Len() == 1; b.InAtari(p) != want {
			return fmt.Errorf("chain of %s: InAtari %v, want %v", p.GTP(b.size), !want, want)
		}
		if libs.Len() == 1 && !libs.Has(b.AtariLiberty(p)) {
			return fmt.Errorf("chain of %s: atari liberty %s is not its liberty", p.GTP(b.size), b.AtariLiberty(p).GTP(b.size))
		}
		if libs.Len() == 0 {
			return fmt.Errorf("chain of %s has no liberty on the board\n%s", p.GTP(b.size), b)
		}
		listed := b.LibertyPoints(p, nil)
		var set PointSet
		for _, l := range listed {
			set.Add(l)
		}
		if set != libs || len(listed) != libs.Len() {
			return fmt.Errorf("chain of %s: LibertyPoints %v\n%s", p.GTP(b.size), listed, b)
		}
		if libs.Len() == 2 {
			for _, l := range listed {
				if o := b.OtherLiberty(p, l); o == l || !libs.Has(o) {
					return fmt.Errorf("chain of %s: OtherLiberty(%s) = %s\n%s", p.GTP(b.size), l.GTP(b.size), o.GTP(b.size), b)
				}
			}
		}
		for i := range seen {
			seen[i] |= stones[i]
		}
	}
	if empties != b.numEmpty {
		return fmt.Errorf("%d empty points, list has %d", empties, b.numEmpty)
	}
	if hash != b.hash {
		return fmt.Errorf("hash %x, want %x", b.hash, hash)
	}
	for _, p := range b.Points() {
		var want uint32
		for i, d := range [8]Point{-Stride - 1, -Stride, -Stride + 1, -1, 1, Stride - 1, Stride, Stride + 1} {
			want |= uint32(b.At(p+d)) << (2 * i)
		}
		for j, d := range neighbours {
			if q := p + d; (b.At(q) == Black || b.At(q) == White) && b.Liberties(q, 2) == 1 {
				want |= 1 << (16 + j)
			}
		}
		if got := b.Around(p); got != want {
			return fmt.Errorf("Around(%s) = %#x, want %#x", p.GTP(b.size), got, want)
		}
	}
	return nil
}

// legalNaive decides legality by trying the move on a copy and looking at the result from scratch.
func (b *Board) legalNaive(p Point, c Color) bool {
	if p == Pass {
		return true
	}
	if !b.OnBoard(p) || b.color[p] != Empty || (p == b.ko && c == b.koColor) {
		return false
	}
	t := *b
	t.PlayLegal(p, c)
	return t.color[p] == c && t.Liberties(p, 1) > 0
}

// randomGame plays up to n random legal moves (eyes allowed, so that big captures happen) and calls fn
// after each.
func randomGame(b *Board, rng *rand.Rand, n int, fn func(p Point, c Color) error) error {
	c := Black
	for range n {
		var moves []Point
		for _, p := range b.Points() {
			if b.Legal(p, c) {
				moves = append(moves, p)
			}
		}
		p := Pass
		if len(moves) > 0 && rng.IntN(20) > 0 {
			p = moves[rng.IntN(len(moves))]
		}
		if err := b.Play(p, c); err != nil {
			return err
		}
		if err := fn(p, c); err != nil {
			return err
		}
		c = c.Opponent()
	}
	return nil
}
