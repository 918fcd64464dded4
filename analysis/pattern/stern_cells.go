package pattern

import "aji/analysis/board"

// SternCells returns the template points of Stern's template T_template (1..NumStern) around p, as
// the board shows them, for an explanation to draw; like Cells, the centre, where the move is, is not
// one of them, and points off the board are Off:
//
//	T1        no point: the move's point alone (its key holds only the local features)
//	T2        the four orthogonal neighbours
//	T3..T12   Cells of that size
//	T13       Cells of size 12 and the 16 points at Coulom distance 13
//	T14       the whole board: every point of it but p, and the ring of Off points around it, so that a
//	          drawing shows where the board ends; row by row, where the others are nearest first
//
// It returns nil for another template number or an off-board p, and an empty, non-nil slice for T1.
func SternCells(b *board.Board, toPlay board.Color, p board.Point, template int) []Cell {
	if template < 1 || template > NumStern || !b.OnBoard(p) {
		return nil
	}
	rel := &relative[perspective(toPlay)]
	n := b.Size()
	x, y := p.XY()
	at := func(dx, dy int) Cell {
		qx, qy := x+dx, y+dy
		st := Off
		if qx >= 0 && qy >= 0 && qx < n && qy < n {
			st = rel[b.At(board.At(qx, qy))&3]
		}
		return Cell{dx, dy, st}
	}
	switch {
	case template == 1:
		return []Cell{}
	case template == 2:
		cells := make([]Cell, 4)
		for i, o := range offsets[:4] { // the points at distance 2 come first
			cells[i] = at(int(o.dx), int(o.dy))
		}
		return cells
	case template <= MaxSize:
		return Cells(b, toPlay, p, template)
	case template == MaxSize+1:
		cells := Cells(b, toPlay, p, MaxSize)
		for _, e := range extra {
			cells = append(cells, at(int(e.dx), int(e.dy)))
		}
		return cells
	}
	// T14: the board and its rim, row by row.
	cells := make([]Cell, 0, (n+2)*(n+2)-1)
	for qy := -1; qy <= n; qy++ {
		for qx := -1; qx <= n; qx++ {
			if qx != x || qy != y {
				cells = append(cells, at(qx-x, qy-y))
			}
		}
	}
	return cells
}
