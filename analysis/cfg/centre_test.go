package cfg

import (
	"math"
	"testing"

	"aji/analysis/board"
)

// TestCentreByHand: the stone drawn for chains of known shapes.
func TestCentreByHand(t *testing.T) {
	b := mustParse(t, `
		XXX..
		X....
		X..OO
		...OO
		.O...`)
	g := Build(b, board.Black, 0)
	for _, c := range []struct{ member, want string }{
		// The L of five stones A5 B5 C5 A4 A3 has its mean at (0.6, 0.6) from the top left, on no stone:
		// B5 and A4 are equally near, and B5 comes first in row-major order.
		{"C5", "B5"},
		// A 2x2 square: all four stones are equally near; the first in row-major order wins.
		{"E2", "D3"},
		// A single stone and an empty point are their own centre.
		{"B1", "B1"},
		{"C1", "C1"},
	} {
		p, _ := board.ParseGTP(c.member, 5)
		want, _ := board.ParseGTP(c.want, 5)
		if got := g.Centre(g.VertexOf(p)); got != want {
			t.Errorf("centre of the vertex of %s: %s, want %s", c.member, got.GTP(5), c.want)
		}
	}
}

// TestCentreNearestMean: on a real mid-game position every vertex's centre is one of its own points and
// no other of its points lies nearer the mean of their coordinates (brute force in floating point).
func TestCentreNearestMean(t *testing.T) {
	pos := midGame(t)
	g := Build(&pos.Board, pos.ToPlay, 0)
	chains := 0
	for v := range Vertex(g.NumVertices()) {
		pts := g.Points(v)
		c := g.Centre(v)
		if g.VertexOf(c) != v {
			t.Fatalf("centre %s of vertex %d is not one of its points", c.GTP(19), v)
		}
		if len(pts) > 2 {
			chains++
		}
		var mx, my float64
		for _, p := range pts {
			x, y := p.XY()
			mx += float64(x) / float64(len(pts))
			my += float64(y) / float64(len(pts))
		}
		dist := func(p board.Point) float64 {
			x, y := p.XY()
			return math.Hypot(float64(x)-mx, float64(y)-my)
		}
		for _, p := range pts {
			if dist(p) < dist(c)-1e-9 {
				t.Errorf("vertex at %s: %s is nearer the mean than the centre %s", pts[0].GTP(19), p.GTP(19), c.GTP(19))
			}
		}
	}
	if chains < 5 {
		t.Fatalf("only %d chains of 3 or more stones at move 150: not a mid-game position", chains)
	}
}
