package feature

import (
	"aji/analysis/board"
	"aji/analysis/game"
)

// AddOwner adds the Monte Carlo owner feature (Coulom 2007, §3.2) to set, which Extract filled from
// pos: it plays OwnerPlayouts light random games from pos (board.Playout, the player to move first)
// and gives each legal move the bin of the number of games whose final position the player to move
// owns at that point. The playouts are seeded from the position, so a position always gets the same
// levels.
func (e *Extractor) AddOwner(pos *game.Position, set *Set) {
	b := &pos.Board
	me := pos.ToPlay
	e.rng.Seed(b.Hash(), uint64(me))
	clear(e.owned[:])
	pts := b.Points()
	maxMoves := 3 * len(pts)
	for range OwnerPlayouts {
		e.playout = *b
		e.playout.Playout(&e.rng, me, maxMoves)
		for _, p := range pts {
			if owns(&e.playout, p, me) {
				e.owned[p]++
			}
		}
	}
	perBin := (OwnerPlayouts + 1) / OwnerBins
	for _, p := range set.Moves() {
		if p != board.Pass {
			set.At[p][MCOwner] = e.owned[p]/uint8(perBin) + 1
		}
	}
}

// owns reports whether c owns p at the end of a playout: a stone of c, or an empty point whose
// neighbours on the board are all c (the playouts leave only such eyes empty, apart from seki).
func owns(b *board.Board, p board.Point, c board.Color) bool {
	switch b.At(p) {
	case c:
		return true
	case board.Empty:
		for _, q := range p.Neighbours() {
			if n := b.At(q); n != c && n != board.Edge {
				return false
			}
		}
		return true
	}
	return false
}
