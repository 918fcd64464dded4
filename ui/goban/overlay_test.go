package goban

import (
	"errors"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// midgame is a professional game after move 70 (Tono Hiroaki – Tei Meiko,
// 1st ACOM Cup 1994, assets/games/Agon-01-8.sgf), as `aji replay --move 70`
// prints it. White's last move was R15; Black answered at R14.
const midgame = `
...................
...O...XOO.........
.....X..XO..O.X..X.
...O....XO.....OXO.
........XXOO..X.XO.
..O.......X....XO..
...............X...
...................
..O.............O..
...................
..X................
...............O...
....XXX.O.....XO...
....XO........XO...
..X.O.O.O.....X.O..
.....OOO.....O.XO..
..X..OXXOXX.XXOOO..
........X.....XX...
...................`

var (
	midgameLast = Point{X: 17, Y: 4} // W R15
	midgameNext = Point{X: 17, Y: 5} // B R14, the record's next move
)

func midgamePosition(t testing.TB) Position {
	p := parseRows(t, midgame)
	p.Last, p.HasLast = midgameLast, true
	return p
}

// parseRows is parse for benchmarks too.
func parseRows(t testing.TB, rows string) Position {
	t.Helper()
	lines := strings.Fields(rows)
	p := NewPosition(len(lines))
	for y, line := range lines {
		if len(line) != p.Size {
			t.Fatalf("row %d has %d points, want %d", y, len(line), p.Size)
		}
		for x, c := range line {
			switch c {
			case 'X':
				p.Set(Point{X: x, Y: y}, Black)
			case 'O':
				p.Set(Point{X: x, Y: y}, White)
			}
		}
	}
	return p
}

// midgameHeat is a deterministic move distribution for midgame: a few
// candidates around the fight in the upper right, the rest a smooth
// background that fades with the distance from the last move, like a
// pattern predictor's output. Occupied points and one point treated as
// illegal (as a ko would be) are -1.
func midgameHeat(pos Position) *Heat {
	n := pos.Size
	peaks := map[Point]float64{
		{X: 16, Y: 6}:  0.29, // the best candidate
		{X: 17, Y: 5}:  0.21, // the move played
		{X: 14, Y: 5}:  0.11,
		{X: 18, Y: 4}:  0.07,
		{X: 13, Y: 3}:  0.045,
		{X: 16, Y: 2}:  0.03,
		{X: 12, Y: 12}: 0.02,
	}
	illegal := Point{X: 18, Y: 0}
	h := &Heat{Size: n, P: make([]float64, n*n)}
	var peakSum, bgSum float64
	for _, v := range peaks {
		peakSum += v
	}
	for i := range h.P {
		pt := Point{X: i % n, Y: i / n}
		if pos.Stones[i] != Empty || pt == illegal {
			h.P[i] = -1
			continue
		}
		if _, ok := peaks[pt]; ok {
			continue
		}
		dx, dy := float64(pt.X-midgameLast.X), float64(pt.Y-midgameLast.Y)
		w := 0.02 + math.Exp(-(dx*dx+dy*dy)/30) + 0.3*math.Exp(-float64((pt.X-9)*(pt.X-9)+(pt.Y-9)*(pt.Y-9))/20)
		// First-line moves are rarely right.
		if pt.X == 0 || pt.Y == 0 || pt.X == n-1 || pt.Y == n-1 {
			w *= 0.05
		}
		h.P[i] = w
		bgSum += w
	}
	for i, v := range h.P {
		if v > 0 {
			h.P[i] = v / bgSum * (1 - peakSum)
		}
	}
	for pt, v := range peaks {
		h.P[pt.Y*n+pt.X] = v
	}
	return h
}

// topLabels labels the k most likely moves with their percentages, the
// first as Best, and rings the record's next move: what the app shows.
func topLabels(h *Heat, k int, next Point) []Label {
	idx := make([]int, 0, len(h.P))
	for i, v := range h.P {
		if v >= 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return h.P[idx[a]] > h.P[idx[b]] })
	var ls []Label
	for r, i := range idx[:k] {
		pt := Point{X: i % h.Size, Y: i / h.Size}
		l := Label{Point: pt, Text: strconv.Itoa(int(math.Round(h.P[i] * 100))), Best: r == 0}
		if pt == next {
			l.Mark = MarkRing
		}
		ls = append(ls, l)
	}
	return ls
}

// showBoard puts b alone in a window of the given size.
func showBoard(t *testing.T, b fyne.CanvasObject, w, h float32) fyne.Window {
	t.Helper()
	win := test.NewWindow(b)
	t.Cleanup(win.Close)
	win.SetPadded(false)
	win.Resize(fyne.NewSize(w, h))
	return win
}

func TestHeatGolden(t *testing.T) {
	for _, tc := range []struct {
		name    string
		scale   Scale
		palette Palette
		hide    float64
	}{
		{"heat19_log.png", ScaleLog, PaletteViridis, 0},
		{"heat19_linear_cividis.png", ScaleLinear, PaletteCividis, 0},
		{"heat19_log_hot_hide.png", ScaleLog, PaletteHot, 0.005},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			b := NewBoard()
			pos := midgamePosition(t)
			if err := b.SetPosition(pos); err != nil {
				t.Fatal(err)
			}
			h := midgameHeat(pos)
			h.Scale, h.Palette, h.HideBelow = tc.scale, tc.palette, tc.hide
			b.SetHeat(h)
			b.SetLabels(topLabels(h, 5, midgameNext))
			w := showBoard(t, b, 600, 600)
			test.AssertImageMatches(t, tc.name, w.Canvas().Capture())
		})
	}
}

// squares is a territory-like Layer: a small square on every point of one
// column, so the golden image shows where slot layers paint.
type squares struct{ col int }

func (s squares) Paint(img *image.RGBA, g Grid) {
	for y := range g.Size {
		if y == 8 {
			continue // a stone there
		}
		cx, cy := g.Center(Point{X: s.col, Y: y})
		h := float64(g.Cell) * 0.18
		for py := int(cy - h); py < int(cy+h); py++ {
			for px := int(cx - h); px < int(cx+h); px++ {
				img.SetRGBA(px, py, color.RGBA{40, 90, 200, 255})
			}
		}
	}
}

func TestMarksGolden(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	pos := parseRows(t, `
.........
..O...X..
..OX..X..
...X.O...
....X....
.....O...
..X.XO...
.........
X.......O`)
	pos.Last, pos.HasLast = Point{X: 5, Y: 6}, true
	if err := b.SetPosition(pos); err != nil {
		t.Fatal(err)
	}
	// The stones in the order they were played; the last is the last move.
	order := []Point{{X: 6, Y: 1}, {X: 2, Y: 2}, {X: 3, Y: 2}, {X: 2, Y: 1}, {X: 3, Y: 3}, {X: 5, Y: 3}, {X: 4, Y: 4}, {X: 6, Y: 2}, {X: 2, Y: 6}, {X: 5, Y: 5}, {X: 4, Y: 6}, {X: 0, Y: 8}, {X: 8, Y: 8}, {X: 5, Y: 6}}
	nums := make([]int, 81)
	for i, p := range order {
		nums[p.Y*9+p.X] = i + 1
	}
	b.SetMoveNumbers(nums)
	b.SetLabels([]Label{
		{Point: Point{X: 1, Y: 1}, Mark: MarkCircle},
		{Point: Point{X: 2, Y: 2}, Mark: MarkTriangle}, // on a white stone
		{Point: Point{X: 7, Y: 2}, Mark: MarkSquare},
		{Point: Point{X: 7, Y: 4}, Mark: MarkCross},
		{Point: Point{X: 1, Y: 4}, Text: "A"},
		{Point: Point{X: 2, Y: 4}, Text: "B", Color: color.NRGBA{R: 200, A: 255}},
		{Point: Point{X: 6, Y: 7}, Mark: MarkRing},
		{Point: Point{X: 3, Y: 3}, Mark: MarkSquare}, // on a black stone
	})
	b.SetLayers([]Layer{squares{col: 0}}, nil)
	b.SetHoverStone(Black)
	w := showBoard(t, b, 300, 300)
	// Hover over D2 (3, 7), an empty point.
	test.MoveMouse(w.Canvas(), pixelOf(b, Point{X: 3, Y: 7}))
	test.AssertImageMatches(t, "marks9.png", w.Canvas().Capture())
}

// pixelOf returns the widget position of the centre of p on b.
func pixelOf(b *Board, p Point) fyne.Position {
	scale := canvasScale(b)
	origin, side := square(b.Size(), scale)
	g := newGeometry(int(math.Round(float64(side*scale))), b.pos.Size)
	return fyne.NewPos(origin.X+float32(g.center(p.X))/scale, origin.Y+float32(g.center(p.Y))/scale)
}

func TestTapMapsToNearestPoint(t *testing.T) {
	for _, scale := range []float32{1, 2, 1.25} {
		test.NewTempApp(t)
		b := NewBoard()
		var got []Point
		b.OnTapped = func(p Point) { got = append(got, p) }
		w := showBoard(t, b, 440, 400)
		w.Canvas().(test.WindowlessCanvas).SetScale(scale)
		g := newGeometry(int(400*scale), 19)
		half := float32(g.cell) / 2 / scale

		at := pixelOf(b, Point{X: 3, Y: 15})
		test.TapAt(b, at)
		// Just under half a cell off still means the same point.
		test.TapAt(b, at.Add(fyne.NewPos(half-1, -(half-1))))
		// A tap through the widget's Tapped method, as the driver delivers it.
		b.Tapped(&fyne.PointEvent{Position: pixelOf(b, Point{X: 18, Y: 0})})
		// Outside the grid: left of the first line by more than half a
		// cell, and in the margin left of the square.
		test.TapAt(b, pixelOf(b, Point{X: 0, Y: 5}).Subtract(fyne.NewPos(half+1, 0)))
		test.TapAt(b, fyne.NewPos(5, 200))

		want := []Point{{X: 3, Y: 15}, {X: 3, Y: 15}, {X: 18, Y: 0}}
		if !slices.Equal(got, want) {
			t.Errorf("scale %g: taps gave %v, want %v", scale, got, want)
		}
	}
}

type hoverEvent struct {
	p      Point
	inside bool
}

func TestHover(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	var got []hoverEvent
	b.OnHover = func(p Point, inside bool) { got = append(got, hoverEvent{p, inside}) }
	b.SetHoverStone(White)
	w := showBoard(t, b, 400, 400)
	c := w.Canvas()
	test.MoveMouse(c, pixelOf(b, Point{X: 4, Y: 4}))
	test.MoveMouse(c, pixelOf(b, Point{X: 4, Y: 4}).Add(fyne.NewPos(2, 2))) // same point: no event
	test.MoveMouse(c, pixelOf(b, Point{X: 5, Y: 4}))
	if !b.ov.hovering || b.ov.hover != (Point{X: 5, Y: 4}) {
		t.Errorf("hover state %v %v, want (5,4)", b.ov.hovering, b.ov.hover)
	}
	test.MoveMouse(c, fyne.NewPos(2, 2)) // the wood margin: off the grid
	test.MoveMouse(c, pixelOf(b, Point{X: 9, Y: 9}))
	b.MouseOut()
	want := []hoverEvent{{Point{X: 4, Y: 4}, true}, {Point{X: 5, Y: 4}, true}, {Point{X: 5, Y: 4}, false}, {Point{X: 9, Y: 9}, true}, {Point{X: 9, Y: 9}, false}}
	if !slices.Equal(got, want) {
		t.Errorf("hover events %v, want %v", got, want)
	}
}

func TestHoverStonePainted(t *testing.T) {
	pos := NewPosition(9)
	pt := newPainter(300, 9)
	ov := &overlays{hoverStone: Black, hover: Point{X: 4, Y: 4}, hovering: true}
	cx := pt.g.center(4) + pt.g.radius/2
	img := pt.paint(pos, ov)
	hovered := img.RGBAAt(int(cx), int(cx))
	bare := pt.paint(pos, nil).RGBAAt(int(cx), int(cx))
	// Translucent: darker than the wood, lighter than a real stone.
	if !(hovered.R < bare.R-60 && hovered.R > 60) {
		t.Errorf("hover stone pixel %v over wood %v", hovered, bare)
	}
}

func TestScroll(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	var got []int
	b.OnScrolled = func(s int) { got = append(got, s) }
	w := showBoard(t, b, 300, 300)
	at := fyne.NewPos(150, 150)
	test.Scroll(w.Canvas(), at, 0, -25) // wheel towards the user: forward
	test.Scroll(w.Canvas(), at, 0, 25)  // away: back
	for range 4 {
		test.Scroll(w.Canvas(), at, 0, -3) // a trackpad: 12 units, one step
	}
	test.Scroll(w.Canvas(), at, 5, 0) // sideways: nothing
	if want := []int{1, -1, 1}; !slices.Equal(got, want) {
		t.Errorf("scroll steps %v, want %v", got, want)
	}
}

func TestHeatColor(t *testing.T) {
	// The ends of the real colour maps.
	for _, tc := range []struct {
		p    float64
		s    Scale
		pal  Palette
		want color.NRGBA
	}{
		{0, ScaleLinear, PaletteViridis, color.NRGBA{68, 1, 84, 255}},
		{1, ScaleLinear, PaletteViridis, color.NRGBA{253, 231, 37, 255}},
		{0.5, ScaleLinear, PaletteViridis, color.NRGBA{33, 145, 140, 255}}, // #21918c
		{LogFloor, ScaleLog, PaletteViridis, color.NRGBA{68, 1, 84, 255}},
		{1e-7, ScaleLog, PaletteViridis, color.NRGBA{68, 1, 84, 255}},
		{1, ScaleLog, PaletteCividis, color.NRGBA{254, 232, 56, 255}},
		{0, ScaleLinear, PaletteCividis, color.NRGBA{0, 34, 78, 255}},
		{-1, ScaleLinear, PaletteViridis, color.NRGBA{}},
		{math.NaN(), ScaleLog, PaletteViridis, color.NRGBA{}},
	} {
		if got := HeatColor(tc.p, tc.s, tc.pal); got != tc.want {
			t.Errorf("HeatColor(%g, %d, %d) = %v, want %v", tc.p, tc.s, tc.pal, got, tc.want)
		}
	}
	// The log scale puts 1% in the middle.
	if got, want := HeatColor(0.01, ScaleLog, PaletteViridis), HeatColor(0.5, ScaleLinear, PaletteViridis); got != want {
		t.Errorf("1%% on the log scale = %v, want the middle colour %v", got, want)
	}
}

// TestHeatColorMonotoneLightness checks the property that makes the
// palettes readable in greyscale and with colour blindness: CIE L* never
// falls as the probability rises, and rises by a useful amount overall.
func TestHeatColorMonotoneLightness(t *testing.T) {
	for _, pal := range []Palette{PaletteViridis, PaletteCividis, PaletteHot} {
		prev := -1.0
		const steps = 2000
		for i := 0; i <= steps; i++ {
			l := lightness(HeatColor(float64(i)/steps, ScaleLinear, pal))
			// 8-bit rounding may wobble by a hair.
			if l < prev-0.2 {
				t.Fatalf("palette %d: L* falls from %.2f to %.2f at p=%.4f", pal, prev, l, float64(i)/steps)
			}
			prev = max(prev, l)
		}
		lo := lightness(HeatColor(0, ScaleLinear, pal))
		hi := lightness(HeatColor(1, ScaleLinear, pal))
		if hi-lo < 50 {
			t.Errorf("palette %d: L* spans only %.1f..%.1f", pal, lo, hi)
		}
	}
	// Viridis is the default and close to perceptually uniform: its L*
	// rises steadily, not in a lump.
	for i := 0; i < 10; i++ {
		a := lightness(HeatColor(float64(i)/10, ScaleLinear, PaletteViridis))
		b := lightness(HeatColor(float64(i+1)/10, ScaleLinear, PaletteViridis))
		if d := b - a; d < 3 || d > 12 {
			t.Errorf("viridis L* step %d..%d is %.1f", i, i+1, d)
		}
	}
}

func TestSetHeatInvalid(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	pos := midgamePosition(t)
	if err := b.SetPosition(pos); err != nil {
		t.Fatal(err)
	}
	showBoard(t, b, 300, 300)
	good := midgameHeat(pos)
	b.SetHeat(good)
	bad := []*Heat{
		{Size: 19, P: make([]float64, 360)},
		{Size: 19},
		{Size: 1, P: []float64{1}},
		{Size: 30, P: make([]float64, 900)},
		{Size: 19, P: make([]float64, 361), Palette: 9},
		{Size: 19, P: make([]float64, 361), Scale: 7},
		{Size: 19, P: make([]float64, 361), HideBelow: math.NaN()},
	}
	for _, h := range bad {
		if err := h.Validate(); !errors.Is(err, ErrHeat) {
			t.Errorf("Validate(size %d, %d values) = %v, want ErrHeat", h.Size, len(h.P), err)
		}
		b.SetHeat(h) // ignored, no panic
	}
	if !b.ov.heatOn || len(b.ov.heat.P) != 361 || b.ov.heatMax != good.Max() {
		t.Error("an invalid heat map replaced the valid one")
	}
	// The board copies the heat map.
	good.P[0] = 0.9
	if b.ov.heat.P[0] == 0.9 {
		t.Error("board shares the caller's slice")
	}
	// A valid heat map of another size than the position is kept but not
	// drawn; NaN and infinite values are not drawn either.
	odd := &Heat{Size: 9, P: make([]float64, 81)}
	odd.P[3] = math.NaN()
	odd.P[4] = math.Inf(1)
	b.SetHeat(odd)
	r := test.WidgetRenderer(b).(*renderer)
	img := r.paint(300, 300)
	if r.painter == nil || img.Bounds().Dx() != 300 {
		t.Fatal("no image")
	}
	// A 9x9 position shows it, NaN skipped, +Inf at the top.
	if err := b.SetPosition(NewPosition(9)); err != nil {
		t.Fatal(err)
	}
	r.paint(300, 300)
	b.SetHeat(nil)
	if b.ov.heatOn {
		t.Error("SetHeat(nil) left the heat on")
	}
}

// TestOverlaysKeepCaches checks that changing overlays repaints neither the
// wood and grid nor the stones: only the overlay pass runs.
func TestOverlaysKeepCaches(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	pos := midgamePosition(t)
	if err := b.SetPosition(pos); err != nil {
		t.Fatal(err)
	}
	var stats []PaintStats
	b.OnPainted = func(s PaintStats) { stats = append(stats, s) }
	r := test.WidgetRenderer(b).(*renderer)
	r.paint(800, 800)
	pt, base, stones := r.painter, &r.painter.base.Pix[0], &r.painter.stones.Pix[0]
	stoneRuns := pt.stoneRuns
	h := midgameHeat(pos)
	for _, s := range []Scale{ScaleLinear, ScaleLog} {
		h.Scale = s
		b.SetHeat(h)
		b.SetLabels(topLabels(h, 5, midgameNext))
		b.SetMoveNumbers(make([]int, 361))
		r.paint(800, 800)
	}
	if r.painter != pt || &pt.base.Pix[0] != base || &pt.stones.Pix[0] != stones || pt.stoneRuns != stoneRuns {
		t.Error("overlay changes repainted the cached board or stones")
	}
	for _, s := range stats[1:] {
		if s.Resized {
			t.Errorf("overlay repaint reported a resize: %+v", s)
		}
	}
	// A new move repaints the stones, not the board.
	pos.Set(Point{X: 17, Y: 5}, Black)
	if err := b.SetPosition(pos); err != nil {
		t.Fatal(err)
	}
	r.paint(800, 800)
	if r.painter != pt || pt.stoneRuns != stoneRuns+1 {
		t.Errorf("a move: painter kept %v, stone repaints %d, want %d", r.painter == pt, pt.stoneRuns, stoneRuns+1)
	}
}

// shade is a Layer that darkens the cell around one point.
type shade struct{ p Point }

func (s shade) Paint(img *image.RGBA, g Grid) {
	cx, cy := g.Center(s.p)
	h := g.Cell / 2
	for y := int(cy) - h; y < int(cy)+h; y++ {
		for x := int(cx) - h; x < int(cx)+h; x++ {
			img.SetRGBA(x, y, color.RGBA{30, 30, 60, 255})
		}
	}
}

// TestLabelContrast checks automatic text colour: light on black stones
// and on dark layers, dark on white stones and on the wood.
func TestLabelContrast(t *testing.T) {
	pos := parseRows(t, `
.....
.X.O.
.....
.....
.....`)
	pt := newPainter(400, 5)
	ov := &overlays{labels: []Label{
		{Point: Point{X: 1, Y: 1}, Text: "88"},
		{Point: Point{X: 3, Y: 1}, Text: "88"},
		{Point: Point{X: 1, Y: 3}, Text: "88"},
		{Point: Point{X: 3, Y: 3}, Text: "88"},
	}}
	// A territory layer shades (3,3) dark, as a strong white area would.
	ov.under = []Layer{shade{Point{X: 3, Y: 3}}}
	img := pt.paint(pos, ov)
	// The text's ink is the extreme pixel in a small box at the centre.
	extreme := func(p Point) (darkest, lightest int) {
		darkest, lightest = 255, 0
		c := pt.g.center(p.X)
		cy := pt.g.center(p.Y)
		for y := int(cy) - 4; y <= int(cy)+4; y++ {
			for x := int(c) - 8; x <= int(c)+8; x++ {
				px := img.RGBAAt(x, y)
				l := (int(px.R) + int(px.G) + int(px.B)) / 3
				darkest, lightest = min(darkest, l), max(lightest, l)
			}
		}
		return
	}
	if _, hi := extreme(Point{X: 1, Y: 1}); hi < 230 {
		t.Errorf("text on a black stone: lightest pixel %d, want white text", hi)
	}
	if lo, _ := extreme(Point{X: 3, Y: 1}); lo > 40 {
		t.Errorf("text on a white stone: darkest pixel %d, want black text", lo)
	}
	if lo, _ := extreme(Point{X: 1, Y: 3}); lo > 40 {
		t.Errorf("text on the wood: darkest pixel %d, want black text", lo)
	}
	if _, hi := extreme(Point{X: 3, Y: 3}); hi < 230 {
		t.Errorf("text on a dark layer: lightest pixel %d, want white text", hi)
	}
}

func TestGridCenterMatchesGeometry(t *testing.T) {
	for _, side := range []int{200, 555, 800, 2400} {
		pt := newPainter(side, 19)
		for _, p := range []Point{{X: 0, Y: 0}, {X: 3, Y: 15}, {X: 18, Y: 18}} {
			x, y := pt.grid.Center(p)
			if x != pt.g.center(p.X) || y != pt.g.center(p.Y) {
				t.Errorf("side %d: Grid.Center(%v) = %.1f,%.1f, want %.1f,%.1f", side, p, x, y, pt.g.center(p.X), pt.g.center(p.Y))
			}
		}
	}
}

func TestLegendTicks(t *testing.T) {
	texts := func(ts []tick) (s []string) {
		for _, t := range ts {
			s = append(s, t.text)
		}
		return s
	}
	for _, tc := range []struct {
		s    Scale
		max  float64
		want []string
	}{
		{ScaleLog, 0.3, []string{"0.01%", "0.1%", "1%", "10%", "100%"}},
		{ScaleLinear, 1, []string{"0%", "50%", "100%"}},
		{ScaleLinear, 0.37, []string{"0%", "10%", "20%", "30%", "37%"}},
		{ScaleLinear, 0.31, []string{"0%", "10%", "20%", "30%"}},
		{ScaleLinear, 0.29, []string{"0%", "10%", "20%", "29%"}},
		{ScaleLinear, 0.045, []string{"0%", "2%", "4%"}},
		{ScaleLinear, 0.004, []string{"0%", "0.1%", "0.2%", "0.3%", "0.4%"}},
		{ScaleLinear, 0, []string{"0%", "50%", "100%"}},
	} {
		ts := legendTicks(tc.s, tc.max)
		if got := texts(ts); !slices.Equal(got, tc.want) {
			t.Errorf("legendTicks(%d, %g) = %v, want %v", tc.s, tc.max, got, tc.want)
		}
		for _, tk := range ts {
			if tk.t < 0 || tk.t > 1 {
				t.Errorf("tick %q at %g off the bar", tk.text, tk.t)
			}
		}
	}
}

func TestLegendGolden(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		name string
		s    Scale
		pal  Palette
		max  float64
	}{
		{"legend_log_viridis.png", ScaleLog, PaletteViridis, 0},
		{"legend_linear_cividis.png", ScaleLinear, PaletteCividis, 0.29},
		{"legend_log_hot.png", ScaleLog, PaletteHot, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLegend()
			l.Set(tc.s, tc.pal)
			l.SetMax(tc.max)
			w := showBoard(t, l, 320, l.MinSize().Height)
			test.AssertImageMatches(t, tc.name, w.Canvas().Capture())
		})
	}
}

func TestLegendMinSizeFitsLabels(t *testing.T) {
	test.NewTempApp(t)
	for _, s := range []Scale{ScaleLog, ScaleLinear} {
		l := NewLegend()
		l.Set(s, PaletteViridis)
		l.SetMax(0.29)
		r := test.WidgetRenderer(l).(*legendRenderer)
		min := r.MinSize()
		if min.Width > 260 || min.Height > 40 {
			t.Errorf("scale %d: legend MinSize %v too large for a side panel", s, min)
		}
		l.Resize(min)
		for i := 1; i < len(r.texts); i++ {
			a, b := r.texts[i-1], r.texts[i]
			if a.Position().X+a.Size().Width > b.Position().X {
				t.Errorf("scale %d: labels %q and %q overlap at minimum size", s, a.Text, b.Text)
			}
		}
	}
}

// fill paints the centre pixel of one point in one colour.
type fill struct {
	p   Point
	col color.RGBA
}

func (f fill) Paint(img *image.RGBA, g Grid) {
	cx, cy := g.Center(f.p)
	img.SetRGBA(int(cx), int(cy), f.col)
}

// TestLayerOrder: layers paint bottom first within each list, those under
// below the heat map and those over above the labels.
func TestLayerOrder(t *testing.T) {
	pos := parseRows(t, `
.....
.....
.....
.....
.....`)
	red, blue := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}
	heat := make([]float64, 25)
	heat[2*5+2] = 1
	at := func(ov *overlays) color.RGBA {
		pt := newPainter(200, 5)
		img := pt.paint(pos, ov)
		return img.RGBAAt(int(pt.g.center(2)), int(pt.g.center(2)))
	}
	if got := at(&overlays{over: []Layer{fill{Point{X: 2, Y: 2}, red}, fill{Point{X: 2, Y: 2}, blue}}}); got != blue {
		t.Errorf("over [red, blue]: centre %v, want the last layer's blue", got)
	}
	if got := at(&overlays{over: []Layer{fill{Point{X: 2, Y: 2}, blue}, nil, fill{Point{X: 2, Y: 2}, red}}}); got != red {
		t.Errorf("over [blue, nil, red]: centre %v, want red", got)
	}
	withHeat := &overlays{heatOn: true, heat: Heat{Size: 5, P: heat}, heatMax: 1, under: []Layer{fill{Point{X: 2, Y: 2}, red}}}
	if got := at(withHeat); got == red {
		t.Errorf("a layer under the heat map shows through its disc")
	}
	withHeat.under, withHeat.over = nil, []Layer{fill{Point{X: 2, Y: 2}, red}}
	if got := at(withHeat); got != red {
		t.Errorf("a layer over the heat map: centre %v, want red", got)
	}
}
