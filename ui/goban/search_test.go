package goban

import (
	"image"
	"testing"
)

// paintSearch paints the midgame position bare, and with l in the search
// slot above a heat map and a label on the record's next move, as the app
// stacks them.
func paintSearch(t testing.TB, l *Search) (*painter, *image.RGBA, *image.RGBA) {
	t.Helper()
	pos := midgamePosition(t)
	pt := newPainter(570, pos.Size)
	ov := &overlays{}
	ov.heat, ov.heatOn = *midgameHeat(pos), true
	ov.heatMax = ov.heat.Max()
	ov.labels = []Label{{Point: midgameNext, Text: "23", Best: true}}
	bare := image.NewRGBA(pt.base.Rect)
	copy(bare.Pix, pt.paint(pos, ov).Pix)
	ov.over = []Layer{l}
	return pt, bare, pt.paint(pos, ov)
}

// near counts the pixels within r of p's centre whose colour is within tol
// of c in every channel.
func near(pt *painter, img *image.RGBA, p Point, r float64, c [3]uint8, tol int) int {
	cx, cy := pt.grid.Center(p)
	n := 0
	forEachPixel(img, cx, cy, r, func(x, y int, _ float64) {
		q := img.RGBAAt(x, y)
		if abs(int(q.R)-int(c[0])) <= tol && abs(int(q.G)-int(c[1])) <= tol && abs(int(q.B)-int(c[2])) <= tol {
			n++
		}
	})
	return n
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Three candidates on empty points of the midgame position, the best
// first as the search sorts them.
var (
	searchBest   = midgameNext        // R14
	searchSecond = Point{X: 17, Y: 6} // R13
	searchThird  = Point{X: 3, Y: 15} // D4
	searchMoves  = []SearchMove{{Point: searchBest, Visits: 900, WinRate: 0.56, Best: true}, {Point: searchSecond, Visits: 225, WinRate: 0.49}, {Point: searchThird, Visits: 9, WinRate: 0.3}}
	bestRGB      = [3]uint8{BestColor.R, BestColor.G, BestColor.B}
)

func TestSearchLayerCandidates(t *testing.T) {
	pos := midgamePosition(t)
	for _, m := range searchMoves {
		if pos.At(m.Point) != Empty {
			t.Fatalf("%v is not empty", m.Point)
		}
	}
	pt, bare, img := paintSearch(t, &Search{Size: 19, Moves: searchMoves})
	cell := float64(pt.grid.Cell)
	// Only the best move is ringed in BestColor. The label's own best ring
	// on R14 lies under the search disc: the layer is on top.
	for _, m := range searchMoves {
		ring := near(pt, img, m.Point, cell*0.5, bestRGB, 40)
		if m.Best && ring < int(cell) {
			t.Errorf("best move %v: %d BestColor pixels, want a ring", m.Point, ring)
		}
		if !m.Best && ring > 0 {
			t.Errorf("%v is not the best move but has %d BestColor pixels", m.Point, ring)
		}
	}
	// Discs grow with the visits: more of the cell is repainted.
	a1, a2, a3 := changed(pt, img, bare, searchBest), changed(pt, img, bare, searchSecond), changed(pt, img, bare, searchThird)
	if !(a1 > a2 && a2 > a3 && a3 > 0) {
		t.Errorf("painted pixels %d, %d, %d: want decreasing with visits", a1, a2, a3)
	}
	// Each disc carries dark text (the win rate and visits): dark pixels
	// in the middle of a light disc.
	for _, m := range searchMoves {
		if n := near(pt, img, m.Point, cell*0.3, inkDark, 60); n < 5 {
			t.Errorf("%v: %d dark text pixels", m.Point, n)
		}
	}
	// The ramp goes from salmon (few visits) to green (most): compare the
	// discs above their text, inside the smallest disc.
	rim := func(p Point) [3]int {
		cx, cy := pt.grid.Center(p)
		c := img.RGBAAt(int(cx), int(cy-cell*0.28))
		return [3]int{int(c.R), int(c.G), int(c.B)}
	}
	if g, s := rim(searchBest), rim(searchThird); !(g[1] > g[0] && s[0] > s[1]) {
		t.Errorf("best disc %v should be green, least visited %v salmon", g, s)
	}
	// A layer for another board size draws nothing.
	_, bare2, img2 := paintSearch(t, &Search{Size: 13, Moves: searchMoves})
	if n := changed(pt, img2, bare2, searchBest); n != 0 {
		t.Errorf("a 13x13 layer changed %d pixels of a 19x19 board", n)
	}
}

func TestSearchLayerVariation(t *testing.T) {
	pass := Point{X: -1, Y: -1}
	a, b, c := Point{X: 17, Y: 5}, Point{X: 17, Y: 6}, Point{X: 18, Y: 6} // R14, R13, S13
	l := &Search{Size: 19, Moves: searchMoves, ToPlay: Black, PV: []Point{a, b, pass, c}}
	pt, bare, img := paintSearch(t, l)
	cell := float64(pt.grid.Cell)
	r := pt.grid.Radius * 0.9
	// R14 is Black's (move 1), R13 White's (2); move 3 is Black's pass,
	// so S13 (4) is White's again.
	dark := func(p Point) int { return near(pt, img, p, r, [3]uint8{60, 58, 58}, 45) }
	light := func(p Point) int { return near(pt, img, p, r, [3]uint8{235, 233, 228}, 30) }
	area := int(3.14 * r * r)
	if n := dark(a); n < area/2 {
		t.Errorf("move 1 (Black) at R14: %d dark pixels of %d", n, area)
	}
	if n := light(b); n < area/2 {
		t.Errorf("move 2 (White) at R13: %d light pixels of %d", n, area)
	}
	if n := light(c); n < area/2 {
		t.Errorf("move 4 (White, after Black's pass) at S13: %d light pixels of %d", n, area)
	}
	// Numbers: light ink on the black stone, dark on the white ones.
	if n := near(pt, img, a, cell*0.2, inkLight, 20); n < 3 {
		t.Errorf("no number on move 1: %d light pixels", n)
	}
	if n := near(pt, img, b, cell*0.2, inkDark, 40); n < 3 {
		t.Errorf("no number on move 2: %d dark pixels", n)
	}
	// The candidates give way to the variation: no best ring, and the third
	// candidate's disc is gone.
	if n := near(pt, img, searchBest, cell*0.5, bestRGB, 40); n > 0 {
		t.Errorf("best ring drawn over the variation: %d pixels", n)
	}
	if n := changed(pt, img, bare, searchThird); n != 0 {
		t.Errorf("candidate D4 still drawn with a variation shown: %d pixels", n)
	}
	// Only MaxPV moves are drawn.
	long := make([]Point, MaxPV+1)
	for i := range long {
		long[i] = Point{X: i, Y: 18} // the empty first line
	}
	for i := range long {
		if midgamePosition(t).At(long[i]) != Empty {
			t.Fatalf("%v not empty", long[i])
		}
	}
	pt, bare, img = paintSearch(t, &Search{Size: 19, ToPlay: White, PV: long})
	if n := changed(pt, img, bare, long[MaxPV-1]); n == 0 {
		t.Error("move MaxPV not drawn")
	}
	if n := changed(pt, img, bare, long[MaxPV]); n != 0 {
		t.Errorf("move MaxPV+1 drawn: %d pixels", n)
	}
}

// BenchmarkSearchLayer measures a repaint of an 800 px board with ten
// candidates on it, and with a variation shown instead.
func BenchmarkSearchLayer(b *testing.B) {
	pos := midgamePosition(b)
	var moves []SearchMove
	for i, p := 0, 0; i < 10; p++ {
		pt := Point{X: p % 19, Y: p / 19}
		if pos.At(pt) == Empty {
			moves = append(moves, SearchMove{Point: pt, Visits: 5000 / (i + 1), WinRate: 0.5 - float64(i)/100, Best: i == 0})
			i++
		}
	}
	for _, tc := range []struct {
		name string
		l    *Search
	}{{"candidates", &Search{Size: 19, Moves: moves}}, {"variation", &Search{Size: 19, Moves: moves, ToPlay: White, PV: []Point{moves[0].Point, moves[1].Point, moves[2].Point, moves[3].Point}}}} {
		b.Run(tc.name, func(b *testing.B) {
			pt := newPainter(800, 19)
			ov := &overlays{}
			ov.over = []Layer{tc.l}
			b.ReportAllocs()
			for b.Loop() {
				pt.paint(pos, ov)
			}
		})
	}
}
