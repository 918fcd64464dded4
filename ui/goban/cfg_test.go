package goban

import (
	"aji/internal/boardimage"

	"image"
	"image/png"
	"math"
	"os"
	"testing"

	"aji/analysis/board"
	"aji/analysis/cfg"
	"aji/analysis/game"
	"aji/assets"
)

// cfgLayer converts g with the labels of iteration k, as the workbench
// does, and highlights the walks from the empty point at (x, y) unless x
// is negative.
func cfgLayer(g *cfg.Graph, k int, labels bool, x, y int) *CFG {
	l := &CFG{Size: g.Size(), ShowLabels: labels}
	for v := range cfg.Vertex(g.NumVertices()) {
		vx := CFGVertex{Label: g.Label(v, k)}
		switch g.Color(v) {
		case board.Black:
			vx.Stone = Black
		case board.White:
			vx.Stone = White
		}
		for _, p := range g.Points(v) {
			px, py := p.XY()
			vx.Points = append(vx.Points, Point{X: px, Y: py})
		}
		cx, cy := g.Centre(v).XY()
		vx.Centre = Point{X: cx, Y: cy}
		l.Vertices = append(l.Vertices, vx)
	}
	for _, e := range g.Edges(nil) {
		l.Edges = append(l.Edges, [2]int32{int32(e[0]), int32(e[1])})
	}
	if x >= 0 {
		l.Walks = [][3]int32{}
		for _, w := range g.Paths(board.At(x, y), nil) {
			l.Walks = append(l.Walks, [3]int32{int32(w[0]), int32(w[1]), int32(w[2])})
		}
	}
	return l
}

// cfgBoard is a 5x5 position whose graph is easy to draw by hand:
//
//	. . . . .    a black chain of three (B4 C4 D4: one vertex, its node on C4),
//	. X X X .    a white stone on C2, and 21 empty points.
//	. . . . .
//	. . O . .
//	. . . . .
func cfgBoard(t testing.TB) (Position, *cfg.Graph) {
	t.Helper()
	rows := `
.....
.XXX.
.....
..O..
.....`
	b, err := board.Parse(rows)
	if err != nil {
		t.Fatal(err)
	}
	return parseRows(t, rows), cfg.Build(b, board.Black, 2)
}

// paintCFG paints pos bare and with l in the CFG slot.
func paintCFG(t testing.TB, pos Position, l Layer) (*painter, *image.RGBA, *image.RGBA) {
	t.Helper()
	pt := newPainter(300, pos.Size)
	bare := image.NewRGBA(pt.base.Rect)
	copy(bare.Pix, pt.paint(pos, nil).Pix)
	ov := &overlays{}
	ov.over = []Layer{l}
	return pt, bare, pt.paint(pos, ov)
}

// px is the colour at pixel (x, y) as ints.
func cfgPx(img *image.RGBA, x, y float64) [3]int {
	c := img.RGBAAt(int(math.Floor(x)), int(math.Floor(y)))
	return [3]int{int(c.R), int(c.G), int(c.B)}
}

func cfgNear(a [3]int, b [3]uint8, tol int) bool {
	for i := range a {
		if d := a[i] - int(b[i]); d > tol || d < -tol {
			return false
		}
	}
	return true
}

// TestCFGLayerPixels checks where the layer paints on the hand-made
// position: squares on empty points in their label's colour, the chain's
// node on its middle stone with bonds to the others, the edges as lines,
// and nothing far from every vertex and edge.
func TestCFGLayerPixels(t *testing.T) {
	pos, g := cfgBoard(t)
	l := cfgLayer(g, 1, false, -1, -1)
	pt, bare, img := paintCFG(t, pos, l)
	cell := float64(pt.grid.Cell)
	at := func(s string) Point {
		p, err := board.ParseGTP(s, 5)
		if err != nil {
			t.Fatal(err)
		}
		x, y := p.XY()
		return Point{X: x, Y: y}
	}
	label := func(s string) uint32 {
		p, _ := board.ParseGTP(s, 5)
		return g.Label(g.VertexOf(p), 1)
	}
	// Empty points: the centre of the square is the label's colour.
	for _, s := range []string{"A1", "E5", "C3", "B2"} {
		x, y := pt.grid.Center(at(s))
		if got := cfgPx(img, x, y); !cfgNear(got, boardimage.LabelInk(label(s)), 2) {
			t.Errorf("square on %s is %v, want its label's colour %v", s, got, boardimage.LabelInk(label(s)))
		}
	}
	// The chain's node sits on C4, its centre stone; B4 and D4 carry only
	// the bond, in the same colour, half-way between the stones.
	cx, cy := pt.grid.Center(at("C4"))
	if got := cfgPx(img, cx, cy); !cfgNear(got, boardimage.LabelInk(label("C4")), 2) {
		t.Errorf("node on C4 is %v, want %v", got, boardimage.LabelInk(label("C4")))
	}
	bx, by := pt.grid.Center(at("B4"))
	if got := cfgPx(img, (bx+cx)/2, by); !cfgNear(got, boardimage.LabelInk(label("C4")), 30) {
		t.Errorf("bond between B4 and C4 is %v, want near %v", got, boardimage.LabelInk(label("C4")))
	}
	// The white stone on C2 is a chain of one: a node, no bonds.
	wx, wy := pt.grid.Center(at("C2"))
	if got := cfgPx(img, wx, wy); !cfgNear(got, boardimage.LabelInk(label("C2")), 2) {
		t.Errorf("node on C2 is %v, want %v", got, boardimage.LabelInk(label("C2")))
	}
	// An edge between two empty points: the pixel a third of the way from
	// A1 to B1 changed, in A1's half; a pixel mid-cell off every line and
	// vertex did not.
	ax, ay := pt.grid.Center(at("A1"))
	if img.RGBAAt(int(ax+cell/3), int(ay)) == bare.RGBAAt(int(ax+cell/3), int(ay)) {
		t.Error("no edge drawn between A1 and B1")
	}
	for _, s := range []string{"A1", "D2", "A4"} {
		x, y := pt.grid.Center(at(s))
		x, y = x+cell/2, y-cell/2 // the middle of a grid square
		if img.RGBAAt(int(x), int(y)) != bare.RGBAAt(int(x), int(y)) {
			t.Errorf("the layer painted the middle of the square beside %s", s)
		}
	}
	// The edge C4–C3 runs from the node down; D4's own edge to D3 does not
	// exist in the graph as such (the chain is one vertex), but the chain's
	// edge to D3 runs diagonally from the node on C4 to D3, through the
	// middle of the grid square between them.
	dx, dy := pt.grid.Center(at("D3"))
	mx, my := (cx+dx)/2, (cy+dy)/2
	if img.RGBAAt(int(mx), int(my)) == bare.RGBAAt(int(mx), int(my)) {
		t.Error("no edge from the chain's node on C4 to its liberty D3")
	}
	// Far from any edge: a quarter cell off the middle of C4–D3, across it.
	if img.RGBAAt(int(mx+cell/4), int(my-cell/4)) != bare.RGBAAt(int(mx+cell/4), int(my-cell/4)) {
		t.Error("the edge C4–D3 is wider than a line")
	}
}

// TestCFGLayerWalks: with walks set, what they touch is drawn bold in the
// walk colour and the rest fades, and vertices off the walks are paler
// than without a highlight.
func TestCFGLayerWalks(t *testing.T) {
	pos, g := cfgBoard(t)
	// The walks from B3: up to the chain (node on C4), and on.
	plain := cfgLayer(g, 1, false, -1, -1)
	lit := cfgLayer(g, 1, false, 1, 2)
	pt, bare, img0 := paintCFG(t, pos, plain)
	_, _, img1 := paintCFG(t, pos, lit)
	at := func(s string) (float64, float64) {
		p, _ := board.ParseGTP(s, 5)
		x, y := p.XY()
		return pt.grid.Center(Point{X: x, Y: y})
	}
	// The first step B3 → chain runs from B3 to the node on C4: its middle
	// is the walk colour.
	b3x, b3y := at("B3")
	c4x, c4y := at("C4")
	if got := cfgPx(img1, (b3x+c4x)/2, (b3y+c4y)/2); !cfgNear(got, cfgWalkInk, 8) {
		t.Errorf("the walk B3 → chain is %v at its middle, want %v", got, cfgWalkInk)
	}
	// The second step chain → E4 (a liberty of the chain) too.
	e4x, e4y := at("E4")
	if got := cfgPx(img1, (e4x+c4x)/2, (e4y+c4y)/2); !cfgNear(got, cfgWalkInk, 8) {
		t.Errorf("the walk chain → E4 is %v at its middle, want %v", got, cfgWalkInk)
	}
	// E1 is three steps from B3: its square fades towards the board.
	e1x, e1y := at("E1")
	full, faded, wood := cfgPx(img0, e1x, e1y), cfgPx(img1, e1x, e1y), cfgPx(bare, e1x, e1y)
	if cfgDist(faded, wood) >= cfgDist(full, wood) {
		t.Errorf("E1, off the walks: %v with the highlight, %v without, board %v — not faded", faded, full, wood)
	}
	// No walk from B3 reaches E1: the edge D1–E1 stays thin, and the pixel
	// between D1 and E1 is not the walk colour.
	d1x, d1y := at("D1")
	if got := cfgPx(img1, (d1x+e1x)/2, d1y); cfgNear(got, cfgWalkInk, 40) {
		t.Errorf("D1–E1 drawn as part of a walk: %v", got)
	}
	// The start wears a ring in the walk colour, a third of a cell out.
	if got := cfgPx(img1, b3x+float64(pt.grid.Cell)*0.36, b3y); !cfgNear(got, cfgWalkInk, 40) {
		t.Errorf("no ring around B3: %v", got)
	}
}

func cfgDist(a, b [3]int) int {
	d := 0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return d
}

// TestCFGLayerLabels: with labels on, every vertex shows its label's low
// byte, and changing the labels (another iteration) changes the pixels.
func TestCFGLayerLabels(t *testing.T) {
	pos, g := cfgBoard(t)
	pt, bare, img0 := paintCFG(t, pos, cfgLayer(g, 0, true, -1, -1))
	_, _, img1 := paintCFG(t, pos, cfgLayer(g, 1, true, -1, -1))
	p, _ := board.ParseGTP("A1", 5)
	x, y := p.XY()
	if g.Label(g.VertexOf(p), 0)&0xff == g.Label(g.VertexOf(p), 1)&0xff {
		t.Fatal("A1's label byte is the same after 0 and 1 iterations; pick another point")
	}
	if changed(pt, img1, img0, Point{X: x, Y: y}) == 0 {
		t.Error("A1 looks the same with the labels of iterations 0 and 1")
	}
	if changed(pt, img0, bare, Point{X: x, Y: y}) < pt.g.cell*pt.g.cell/4 {
		t.Error("A1's label tile is missing")
	}
}

// TestCFGLayerInvalid: a layer that does not fit the board draws nothing
// rather than panicking.
func TestCFGLayerInvalid(t *testing.T) {
	pos, g := cfgBoard(t)
	for name, l := range map[string]*CFG{
		"size":   {Size: 9, Vertices: cfgLayer(g, 0, false, -1, -1).Vertices},
		"edge":   {Size: 5, Vertices: cfgLayer(g, 0, false, -1, -1).Vertices, Edges: [][2]int32{{0, 99}}},
		"walk":   {Size: 5, Vertices: cfgLayer(g, 0, false, -1, -1).Vertices, Walks: [][3]int32{{0, 1, -1}}},
		"point":  {Size: 5, Vertices: []CFGVertex{{Points: []Point{{X: 5, Y: 0}}}}},
		"centre": {Size: 5, Vertices: []CFGVertex{{Points: []Point{{X: 0, Y: 0}}, Centre: Point{X: -1, Y: 0}}}},
	} {
		_, bare, img := paintCFG(t, pos, l)
		if string(bare.Pix) != string(img.Pix) {
			t.Errorf("%s: an invalid layer painted", name)
		}
	}
}

// TestLabelColor: distinct colours for the three labels of iteration 0,
// one lightness for all, and only the low byte counts.
func TestLabelColor(t *testing.T) {
	a, b, c := LabelColor(cfg.LabelEmpty), LabelColor(cfg.LabelOwn), LabelColor(cfg.LabelOpp)
	if a == b || b == c || a == c {
		t.Errorf("iteration-0 labels share a colour: %v %v %v", a, b, c)
	}
	if LabelColor(0x1234_5678) != LabelColor(0x78) {
		t.Error("bits above the low byte change the colour")
	}
	lo, hi := 100.0, 0.0
	for i := range uint32(256) {
		l := lightness(LabelColor(i))
		lo, hi = math.Min(lo, l), math.Max(hi, l)
	}
	if hi-lo > 8 {
		t.Errorf("label colours span lightness %.1f..%.1f", lo, hi)
	}
	// Neighbouring bytes get well separated hues.
	for i := range uint32(255) {
		x, y := LabelColor(i), LabelColor(i+1)
		d := math.Abs(float64(x.R)-float64(y.R)) + math.Abs(float64(x.G)-float64(y.G)) + math.Abs(float64(x.B)-float64(y.B))
		if d < 60 {
			t.Errorf("bytes %02x and %02x: colours %v and %v too alike", i, i+1, x, y)
		}
	}
}

// TestCFGPreview writes the layer over a professional mid-game position to
// the PNG named by AJI_CFG_PREVIEW, for looking at while tuning the style.
func TestCFGPreview(t *testing.T) {
	out := os.Getenv("AJI_CFG_PREVIEW")
	if out == "" {
		t.Skip("set AJI_CFG_PREVIEW=file.png to write a preview")
	}
	pos := agonMove100(t)
	g := cfg.Build(&pos.Board, pos.ToPlay, 2)
	p, _ := board.ParseGTP("K10", 19)
	x, y := p.XY()
	if os.Getenv("AJI_CFG_NOHOVER") != "" {
		x = -1
	}
	l := cfgLayer(g, 1, os.Getenv("AJI_CFG_LABELS") != "", x, y)
	pt := newPainter(760, 19)
	ov := &overlays{}
	ov.over = []Layer{l}
	img := pt.paint(FromBoard(&pos.Board, pos.Last), ov)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// agonMove100 is the position after move 100 of the sample professional
// game: a crowded mid-game board.
func agonMove100(tb testing.TB) *game.Position {
	tb.Helper()
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		tb.Fatal(err)
	}
	games, err := game.Parse(data)
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := games[0].PositionAfter(100)
	if err != nil {
		tb.Fatal(err)
	}
	return pos
}

// BenchmarkCFGLayer19 is the cost the CFG layer adds to a repaint of the
// 800 px board at move 100 of a professional game: the whole graph, the
// graph with the walks of one point (what each hover repaints), and with
// the labels written.
func BenchmarkCFGLayer19(b *testing.B) {
	pos := agonMove100(b)
	g := cfg.Build(&pos.Board, pos.ToPlay, 2)
	k10, _ := board.ParseGTP("K10", 19)
	x, y := k10.XY()
	for _, tc := range []struct {
		name string
		l    *CFG
	}{
		{"graph", cfgLayer(g, 1, false, -1, -1)},
		{"walks", cfgLayer(g, 1, false, x, y)},
		{"labels", cfgLayer(g, 1, true, x, y)},
	} {
		b.Run(tc.name+"/800px", func(b *testing.B) {
			pt := newPainter(800, 19)
			img := image.NewRGBA(pt.base.Rect)
			for b.Loop() {
				tc.l.Paint(img, pt.grid)
			}
		})
	}
}
