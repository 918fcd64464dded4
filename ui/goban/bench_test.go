package goban

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// BenchmarkPaint19 measures the board raster at 800 px, what a window of
// about that size repaints (figures in the package README of the report).
func BenchmarkPaint19(b *testing.B) {
	open := parseRows(b, opening)
	// A full board: what the end of a game costs.
	full := NewPosition(19)
	for i := range full.Stones {
		full.Stones[i] = Stone(1 + (i*7/3)%2)
	}
	// New painter: what a resize costs.
	b.Run("resize/800px", func(b *testing.B) {
		for b.Loop() {
			newPainter(800, 19)
		}
	})
	// A move: the stones change, so the stone cache is repainted. Two
	// positions alternate to defeat the cache.
	for _, tc := range []struct {
		name string
		pos  Position
	}{{"opening", open}, {"full", full}} {
		b.Run("move/800px/"+tc.name, func(b *testing.B) {
			pt := newPainter(800, 19)
			other := tc.pos.clone()
			other.Stones[0] = 3 - max(other.Stones[0], 1)
			ps := [2]Position{tc.pos, other}
			i := 0
			for b.Loop() {
				pt.paint(ps[i&1], nil)
				i++
			}
		})
	}
}

// BenchmarkSetHeat19 is the cost of a new analysis result: SetHeat and
// SetLabels on a 19x19 mid-game board, then the raster repaint, at 800 px,
// through the widget's own raster generator.
func BenchmarkSetHeat19(b *testing.B) {
	test.NewTempApp(b)
	for _, tc := range []struct {
		name  string
		scale Scale
		hide  float64
	}{{"log", ScaleLog, 0}, {"linear", ScaleLinear, 0}, {"hide1%", ScaleLog, 0.01}} {
		b.Run(tc.name+"/800px", func(b *testing.B) {
			bd := NewBoard()
			pos := midgamePosition(b)
			if err := bd.SetPosition(pos); err != nil {
				b.Fatal(err)
			}
			r := test.WidgetRenderer(bd).(*renderer)
			r.paint(800, 800)
			// Two heat maps in turn, as when stepping between moves.
			var heats [2]*Heat
			var labels [2][]Label
			for k := range heats {
				h := midgameHeat(pos)
				for i := range h.P {
					if h.P[i] > 0 && k == 1 {
						h.P[i] *= 0.9 + 0.2*float64(i%7)/7
					}
				}
				h.Scale, h.HideBelow = tc.scale, tc.hide
				heats[k], labels[k] = h, topLabels(h, 5, midgameNext)
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				bd.SetHeat(heats[i&1])
				bd.SetLabels(labels[i&1])
				r.paint(800, 800)
				i++
			}
		})
	}
}

// BenchmarkMoveNumbers19 is a full board with every stone numbered.
func BenchmarkMoveNumbers19(b *testing.B) {
	full := NewPosition(19)
	nums := make([]int, 361)
	for i := range full.Stones {
		full.Stones[i] = Stone(1 + (i*7/3)%2)
		nums[i] = i + 1
	}
	pt := newPainter(800, 19)
	ov := &overlays{numbers: nums, numbersOn: true}
	b.ReportAllocs()
	for b.Loop() {
		pt.paint(full, ov)
	}
}
