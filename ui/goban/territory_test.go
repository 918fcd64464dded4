package goban

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"

	"fyne.io/fyne/v2/test"
)

// ownerBoard is a 9x9 position with hand-made owners: Black owns the
// left four columns, White the right four, the middle column is
// undecided. A black stone on C7 lives in Black's area; the black stone on
// G7 stands in White's and is dead; the white stone on G3 lives.
func ownerBoard(t testing.TB) (Position, []float64) {
	pos := parseRows(t, `
.........
.........
..X...X..
.........
.........
.........
......O..
.........
.........`)
	owner := make([]float64, 81)
	for i := range owner {
		switch x := i % 9; {
		case x < 4:
			owner[i] = 1
		case x > 4:
			owner[i] = -1
		}
	}
	owner[5*9+1] = 0.25  // B4: a quarter of the area of B3's square
	owner[2*9+6] = -0.9  // G7: the dead black stone
	owner[6*9+6] = -0.95 // G3: White's own stone
	return pos, owner
}

func paintLayer(t testing.TB, pos Position, l Layer) (*painter, *image.RGBA, *image.RGBA) {
	t.Helper()
	pt := newPainter(360, pos.Size)
	bare := image.NewRGBA(pt.base.Rect)
	copy(bare.Pix, pt.paint(pos, nil).Pix)
	ov := &overlays{}
	ov.under = []Layer{l}
	return pt, bare, pt.paint(pos, ov)
}

// changed counts the pixels of the cell around p that differ from bare.
func changed(pt *painter, img, bare *image.RGBA, p Point) int {
	cx, cy := pt.grid.Center(p)
	h := pt.g.cell / 2
	n := 0
	for y := int(cy) - h; y < int(cy)+h; y++ {
		for x := int(cx) - h; x < int(cx)+h; x++ {
			if img.RGBAAt(x, y) != bare.RGBAAt(x, y) {
				n++
			}
		}
	}
	return n
}

func centre(pt *painter, img *image.RGBA, p Point) [3]int {
	cx, cy := pt.grid.Center(p)
	c := img.RGBAAt(int(cx), int(cy))
	return [3]int{int(c.R), int(c.G), int(c.B)}
}

func TestTerritorySquares(t *testing.T) {
	pos, owner := ownerBoard(t)
	l := &Territory{Size: 9, Owner: owner, Stones: pos.Stones, Style: TerritorySquares, MarkDead: true}
	pt, bare, img := paintLayer(t, pos, l)

	if c := centre(pt, img, Point{X: 1, Y: 6}); c[0] > 40 || c[2] > 40 {
		t.Errorf("Black's point B3 painted %v, want a black square", c)
	}
	if c := centre(pt, img, Point{X: 7, Y: 1}); c[0] < 235 || c[1] < 235 {
		t.Errorf("White's point H8 painted %v, want a white square", c)
	}
	if n := changed(pt, img, bare, Point{X: 4, Y: 4}); n != 0 {
		t.Errorf("an undecided point changed %d pixels", n)
	}
	// Area ∝ |E[s]| (Stern Fig. 5.13): B4 at 0.25 has a quarter of B3's.
	full, quarter := changed(pt, img, bare, Point{X: 1, Y: 6}), changed(pt, img, bare, Point{X: 1, Y: 5})
	if r := float64(quarter) / float64(full); full == 0 || r < 0.18 || r > 0.34 {
		t.Errorf("square areas %d and %d: ratio %.2f, want about 0.25", quarter, full, r)
	}
	// Live stones are left alone; the dead one fades and carries White's square.
	if n := changed(pt, img, bare, Point{X: 2, Y: 2}); n != 0 {
		t.Errorf("the live black stone C7 changed %d pixels", n)
	}
	if n := changed(pt, img, bare, Point{X: 6, Y: 6}); n != 0 {
		t.Errorf("the live white stone G3 changed %d pixels", n)
	}
	if c := centre(pt, img, Point{X: 6, Y: 2}); c[0] < 235 {
		t.Errorf("the dead black stone G7 has centre %v, want White's square", c)
	}
	cx, cy := pt.grid.Center(Point{X: 6, Y: 2})
	rim := int(cx + pt.g.radius*0.75)
	if a, b := img.RGBAAt(rim, int(cy)), bare.RGBAAt(rim, int(cy)); int(a.R) < int(b.R)+60 {
		t.Errorf("the dead stone's body %v is not faded from %v", a, b)
	}
	// Without MarkDead (a stale estimate), stones are left alone.
	l.MarkDead = false
	_, _, img = paintLayer(t, pos, l)
	if n := changed(pt, img, bare, Point{X: 6, Y: 2}); n != 0 {
		t.Errorf("with MarkDead off the black stone G7 changed %d pixels", n)
	}
}

func TestTerritoryShading(t *testing.T) {
	pos, owner := ownerBoard(t)
	l := &Territory{Size: 9, Owner: owner, Stones: pos.Stones, Style: TerritoryShading, MarkDead: true}
	pt, bare, img := paintLayer(t, pos, l)
	lum := func(img *image.RGBA, x, y float64) int {
		c := img.RGBAAt(int(x), int(y))
		return int(c.R) + int(c.G) + int(c.B)
	}
	// Between two of Black's points: darker; between two of White's: lighter.
	ax, ay := pt.grid.Center(Point{X: 1, Y: 7})
	mid := float64(pt.g.cell) / 2
	if a, b := lum(img, ax+mid, ay+mid), lum(bare, ax+mid, ay+mid); a > b-150 {
		t.Errorf("inside Black's area luminance %d, bare %d: not darker", a, b)
	}
	wx, wy := pt.grid.Center(Point{X: 7, Y: 7})
	if a, b := lum(img, wx+mid, wy+mid), lum(bare, wx+mid, wy+mid); a < b+60 {
		t.Errorf("inside White's area luminance %d, bare %d: not lighter", a, b)
	}
	// The undecided column stays bare at its points; the blend is gradual.
	if c, b := centre(pt, img, Point{X: 4, Y: 4}), centre(pt, bare, Point{X: 4, Y: 4}); c != b {
		t.Errorf("undecided point E5 painted %v, bare %v", c, b)
	}
	// Live stones keep their faces; only the wood around them is tinted.
	sx, sy := pt.grid.Center(Point{X: 2, Y: 2})
	forEachPixel(img, sx, sy, pt.g.radius-0.5, func(x, y int, _ float64) {
		if img.RGBAAt(x, y) != bare.RGBAAt(x, y) {
			t.Fatalf("the live stone C7 was tinted at pixel (%d, %d)", x, y)
		}
	})
	if c := centre(pt, img, Point{X: 6, Y: 2}); c[0] < 235 {
		t.Errorf("the dead black stone G7 has centre %v, want White's square", c)
	}
}

func TestTerritoryInvalidIsNotDrawn(t *testing.T) {
	pos, owner := ownerBoard(t)
	for _, l := range []Layer{
		&Territory{Size: 19, Owner: owner},
		&Territory{Size: 9, Owner: owner[:80]},
		&Territory{Size: 9, Owner: owner, Stones: pos.Stones[:10]},
		&TerritorySample{Size: 9, Owner: make([]int8, 80)},
		&TerritorySample{Size: 9, Owner: make([]int8, 81), Right: make([]bool, 3)},
	} {
		pt, bare, img := paintLayer(t, pos, l)
		for _, p := range []Point{{X: 0, Y: 0}, {X: 1, Y: 6}, {X: 7, Y: 1}} {
			if n := changed(pt, img, bare, p); n != 0 {
				t.Errorf("invalid layer %T drew %d pixels at %v", l, n, p)
			}
		}
	}
	// NaN is an unknown point.
	owner[1*9+1] = math.NaN()
	pt, bare, img := paintLayer(t, pos, &Territory{Size: 9, Owner: owner})
	if n := changed(pt, img, bare, Point{X: 1, Y: 1}); n != 0 {
		t.Errorf("a NaN owner drew %d pixels", n)
	}
}

func TestTerritorySampleBonds(t *testing.T) {
	pos := parseRows(t, `
.....
.XX..
.....
...O.
.....`)
	s := &TerritorySample{Size: 5, Owner: make([]int8, 25), Right: make([]bool, 25), Down: make([]bool, 25), Stones: pos.Stones}
	for i := range s.Owner {
		s.Owner[i] = 1
		if i%5 >= 3 {
			s.Owner[i] = -1
		}
	}
	s.Right[1*5+1] = true // the black chain B4-C4
	s.Down[1*5+3] = true  // D4-D3: two of White's points
	s.Owner[3*5+3] = 1    // the white stone on D2 dies in this sample
	pt, bare, img := paintLayer(t, pos, s)
	blue := func(a, b Point) bool {
		ax, ay := pt.grid.Center(a)
		bx, by := pt.grid.Center(b)
		c := img.RGBAAt(int((ax+bx)/2), int((ay+by)/2))
		return int(c.B) > int(c.R)+100
	}
	if !blue(Point{X: 1, Y: 1}, Point{X: 2, Y: 1}) || !blue(Point{X: 3, Y: 1}, Point{X: 3, Y: 2}) {
		t.Error("a bond is not drawn between its points")
	}
	for _, pair := range [][2]Point{{{X: 0, Y: 0}, {X: 1, Y: 0}}, {{X: 3, Y: 3}, {X: 3, Y: 4}}, {{X: 2, Y: 1}, {X: 3, Y: 1}}} {
		if blue(pair[0], pair[1]) {
			t.Errorf("no bond joins %v and %v, but one is drawn", pair[0], pair[1])
		}
	}
	if c := centre(pt, img, Point{X: 0, Y: 4}); c[0] > 40 {
		t.Errorf("Black's point A1 painted %v, want a black square", c)
	}
	if c := centre(pt, img, Point{X: 4, Y: 0}); c[0] < 235 {
		t.Errorf("White's point E5 painted %v, want a white square", c)
	}
	if c := centre(pt, img, Point{X: 3, Y: 3}); c[0] > 40 {
		t.Errorf("the captured white stone D2 has centre %v, want Black's square", c)
	}
	// The live black stone keeps its face apart from the bond through it.
	cx, cy := pt.grid.Center(Point{X: 1, Y: 1})
	x, y := int(cx), int(cy-pt.g.radius*0.6)
	if img.RGBAAt(x, y) != bare.RGBAAt(x, y) {
		t.Error("the live stone B4 was painted over")
	}
}

// midgameOwners estimates the midgame position with Stern's move-80
// Boltzmann5 parameters (Table 5.1) by loopy BP: a real territory field
// for the golden images, converted to the widget's row-major order.
func midgameOwners(t testing.TB, pos Position) ([]float64, *territory.Field) {
	t.Helper()
	b, err := board.Parse(rowsOf(pos))
	if err != nil {
		t.Fatal(err)
	}
	q, _ := territory.Boltzmann5Table51(80)
	f := new(territory.Field)
	q.Field(b, f)
	var m territory.Marginals
	territory.NewLBP().Run(f, &m)
	owner := make([]float64, pos.Size*pos.Size)
	for i := range owner {
		owner[i] = m.Mean[board.At(i%pos.Size, i/pos.Size)]
	}
	return owner, f
}

func rowsOf(pos Position) string {
	var s []byte
	for i, st := range pos.Stones {
		s = append(s, ".XO"[st])
		if i%pos.Size == pos.Size-1 {
			s = append(s, '\n')
		}
	}
	return string(s)
}

// bondSample is a Figure 5.6-style sample made without the sampler, so that
// the golden image does not move when the sampler's internals do: each
// point takes the sign of its mean, and each pair whose owners satisfy its
// coupling's sign is bonded with the Swendsen-Wang probability
// 1 − exp(−2|w|) (Stern eq. 5.3), drawn from a fixed PCG stream.
func bondSample(pos Position, owner []float64, f *territory.Field) *TerritorySample {
	n := pos.Size
	s := &TerritorySample{Size: n, Owner: make([]int8, n*n), Right: make([]bool, n*n), Down: make([]bool, n*n), Stones: pos.Stones}
	for i, v := range owner {
		s.Owner[i] = 1
		if v < 0 {
			s.Owner[i] = -1
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range owner {
		x, y := i%n, i/n
		p := board.At(x, y)
		for d, j := range [2]int{i + 1, i + n} {
			if (d == territory.Right && x == n-1) || (d == territory.Down && y == n-1) {
				continue
			}
			w := f.W[p][d]
			if w*float64(s.Owner[i])*float64(s.Owner[j]) > 0 && rng.Float64() < -math.Expm1(-2*math.Abs(w)) {
				if d == territory.Right {
					s.Right[i] = true
				} else {
					s.Down[i] = true
				}
			}
		}
	}
	return s
}

func TestTerritoryGolden(t *testing.T) {
	pos := midgamePosition(t)
	owner, f := midgameOwners(t, pos)
	sample := bondSample(pos, owner, f)
	for _, tc := range []struct {
		name  string
		layer Layer
	}{
		{"territory19_squares.png", &Territory{Size: 19, Owner: owner, Stones: pos.Stones, Style: TerritorySquares, MarkDead: true}},
		{"territory19_shading.png", &Territory{Size: 19, Owner: owner, Stones: pos.Stones, Style: TerritoryShading, MarkDead: true}},
		{"territory19_sample.png", sample},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			b := NewBoard()
			if err := b.SetPosition(pos); err != nil {
				t.Fatal(err)
			}
			b.SetLayers([]Layer{tc.layer}, nil)
			w := showBoard(t, b, 600, 600)
			test.AssertImageMatches(t, tc.name, w.Canvas().Capture())
		})
	}
}

// BenchmarkTerritory19 is a repaint of a 19x19 board at 800 px with the
// territory layer: what every hover or heat update costs while it is on.
func BenchmarkTerritory19(b *testing.B) {
	pos := midgamePosition(b)
	owner, _ := midgameOwners(b, pos)
	for _, style := range []struct {
		name string
		s    TerritoryStyle
	}{{"squares", TerritorySquares}, {"shading", TerritoryShading}} {
		b.Run(style.name+"/800px", func(b *testing.B) {
			pt := newPainter(800, 19)
			ov := &overlays{}
			ov.under = []Layer{&Territory{Size: 19, Owner: owner, Stones: pos.Stones, Style: style.s, MarkDead: true}}
			b.ReportAllocs()
			for b.Loop() {
				pt.paint(pos, ov)
			}
		})
	}
}
