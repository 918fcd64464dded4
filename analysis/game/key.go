package game

import (
	"math"

	"aji/analysis/board"
)

// Key identifies a position for every cache and reuse check above the board: the stones (by Zobrist hash,
// with the board size, since an empty board hashes to 0 at every size), the side to move, the last two
// moves (move features and playout contexts read them), the ko point and the colour it forbids, and the
// komi (searches and territory scores read it). Keys are comparable, so they serve as map keys.
type Key struct {
	hash       uint64
	size       int
	toPlay     board.Color
	last, prev board.Point
	ko         board.Point
	koColor    board.Color
	komi       uint64 // the bits, so that equal komi give equal keys (NaN included)
}

// Key returns p's Key.
func (p *Position) Key() Key {
	ko, koColor := p.Board.Ko()
	if ko == board.NoPoint {
		koColor = board.Empty // the board keeps the last ko's colour after the ko ends
	}
	return Key{p.Board.Hash(), p.Board.Size(), p.ToPlay, p.Last, p.Prev, ko, koColor, math.Float64bits(p.Komi)}
}
