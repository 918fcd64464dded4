package cfg

import "aji/analysis/board"

// Centre returns the point where a drawing of the graph puts vertex v: an empty vertex's own point, or
// the stone of a chain nearest the mean of its stones' coordinates (the first in row-major order on a
// tie). Unlike the mean itself it always lies on one of the chain's stones, also for an L- or ring-shaped
// chain whose mean falls on another chain or an empty point.
func (g *Graph) Centre(v Vertex) board.Point {
	pts := g.Points(v)
	if len(pts) == 1 {
		return pts[0]
	}
	// Distances are compared scaled by n² so that everything stays in integers: |n·q − Σp|².
	var sx, sy int
	for _, p := range pts {
		x, y := p.XY()
		sx += x
		sy += y
	}
	n := len(pts)
	best, bestD := pts[0], -1
	for _, p := range pts {
		x, y := p.XY()
		dx, dy := n*x-sx, n*y-sy
		if d := dx*dx + dy*dy; bestD < 0 || d < bestD {
			best, bestD = p, d
		}
	}
	return best
}
