package guess

import (
	"testing"

	"aji/analysis/board"
)

func TestHintRegionsOn19x19(t *testing.T) {
	for _, c := range []struct {
		x, y, level int
		want        Region
	}{
		{15, 3, 0, Region{0, 0, 19, 19}},  // Q16
		{15, 3, 1, Region{9, 0, 19, 10}},  // the upper right quarter, tengen's lines included
		{15, 3, 2, Region{14, 0, 19, 5}},  // its upper right sixteenth
		{9, 9, 1, Region{0, 0, 10, 10}},   // tengen goes with the first halves
		{9, 9, 2, Region{5, 5, 10, 10}},   //
		{3, 15, 2, Region{0, 14, 5, 19}},  // D4
		{9, 15, 2, Region{5, 14, 10, 19}}, // K4
		{15, 3, 7, Region{14, 0, 19, 5}},  // no more than MaxHints
	} {
		if got := HintRegion(19, board.At(c.x, c.y), c.level); got != c.want {
			t.Errorf("(%d,%d) level %d: %+v, want %+v", c.x, c.y, c.level, got, c.want)
		}
	}
	if got := HintRegion(19, board.Pass, 2); got != Whole(19) {
		t.Errorf("a pass narrows to %+v", got)
	}
}

// TestHintRegionsNest checks every point of every board size: each hint's region holds the move, lies
// inside the previous one, and is the previous one halved (rounded up) or, below minHalved lines,
// the previous one again.
func TestHintRegionsNest(t *testing.T) {
	for size := 2; size <= board.MaxSize; size++ {
		for _, p := range board.PointsOf(size) {
			prev := Whole(size)
			for level := 1; level <= MaxHints; level++ {
				r := HintRegion(size, p, level)
				if !r.Contains(p) {
					t.Fatalf("%dx%d %s level %d: %+v does not hold the move", size, size, p.GTP(size), level, r)
				}
				if r.X0 < prev.X0 || r.X1 > prev.X1 || r.Y0 < prev.Y0 || r.Y1 > prev.Y1 {
					t.Fatalf("%dx%d %s level %d: %+v outside %+v", size, size, p.GTP(size), level, r, prev)
				}
				for _, d := range [][2]int{{prev.Width(), r.Width()}, {prev.Height(), r.Height()}} {
					want := (d[0] + 1) / 2
					if d[0] < minHalved {
						want = d[0]
					}
					if d[1] != want {
						t.Fatalf("%dx%d %s level %d: %+v from %+v: %d lines, want %d", size, size, p.GTP(size), level, r, prev, d[1], want)
					}
				}
				prev = r
			}
		}
	}
	// The sizes people play: the second hint leaves 5x5, 4x4 and 3x3.
	for size, want := range map[int]int{19: 5, 13: 4, 9: 3} {
		if r := HintRegion(size, board.At(0, 0), 2); r.Width() != want || r.Height() != want {
			t.Errorf("%dx%d: second hint %+v, want %dx%d", size, size, r, want, want)
		}
	}
}
