package goban

import "aji/analysis/board"

// FromBoard snapshots b for the widget. last is the last move played;
// board.Pass, board.NoPoint or a point off the board means there is no mark.
func FromBoard(b *board.Board, last board.Point) Position {
	p := NewPosition(b.Size())
	for _, pt := range b.Points() {
		x, y := pt.XY()
		switch b.At(pt) {
		case board.Black:
			p.Set(Point{X: x, Y: y}, Black)
		case board.White:
			p.Set(Point{X: x, Y: y}, White)
		}
	}
	if last != board.Pass && last != board.NoPoint && b.OnBoard(last) {
		x, y := last.XY()
		p.Last, p.HasLast = Point{X: x, Y: y}, true
	}
	return p
}
