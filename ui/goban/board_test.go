package goban

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// parse builds a Position from rows of X (black), O (white) and . (empty),
// top row first — the same picture the `aji replay` command prints.
func parse(t *testing.T, rows string) Position { return parseRows(t, rows) }

// opening is a 19x19 position with stones on the edge, in a corner and next
// to each other, so the golden image covers every drawing case.
const opening = `
...................
...................
...O...........X...
..XO..............X
...X...............
...................
...................
...................
...................
...................
...................
...................
...................
...................
..O.............O..
..OX.........X.....
..XX.........X..O..
...................
O.................X`

func TestBoardGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  func(t *testing.T) Position
		size float32
	}{
		{"board19.png", func(t *testing.T) Position {
			p := parse(t, opening)
			p.Last, p.HasLast = Point{X: 13, Y: 16}, true
			return p
		}, 420},
		{"board9.png", func(t *testing.T) Position {
			p := parse(t, `
.........
..O...X..
..OX..X..
...X.O...
....X....
.....O...
..X.XO...
.........
X.......O`)
			p.Last, p.HasLast = Point{X: 5, Y: 6}, true
			return p
		}, 260},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			b := NewBoard()
			if err := b.SetPosition(tc.pos(t)); err != nil {
				t.Fatal(err)
			}
			w := test.NewWindow(b)
			defer w.Close()
			w.SetPadded(false)
			// Not square on purpose: the board must centre itself.
			w.Resize(fyne.NewSize(tc.size+40, tc.size))
			test.AssertImageMatches(t, tc.name, w.Canvas().Capture())
		})
	}
}

// TestPaintedStones checks the raster itself, independent of the golden
// files: stone centres carry their colour and empty wood stays wood.
func TestPaintedStones(t *testing.T) {
	p := parse(t, opening)
	p.Last, p.HasLast = Point{X: 13, Y: 16}, true
	pt := newPainter(500, p.Size)
	g := pt.g
	img := pt.paint(p, nil)

	luma := func(x, y float64) int {
		c := img.RGBAAt(int(x), int(y))
		return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000
	}
	// Sample a quarter radius off the centre, away from the highlight and
	// from the last-move ring.
	off := g.radius / 3
	at := func(pt Point) int { return luma(g.center(pt.X)+off, g.center(pt.Y)+off) }
	if l := at(Point{X: 15, Y: 2}); l > 80 {
		t.Errorf("black stone luma %d, want dark", l)
	}
	if l := at(Point{X: 3, Y: 2}); l < 170 {
		t.Errorf("white stone luma %d, want light", l)
	}
	// Between lines on an empty area the wood shows.
	mid := g.center(9) + float64(g.cell)/2
	c := img.RGBAAt(int(mid), int(mid))
	if !(c.R > c.G && c.G > c.B && c.R > 170) {
		t.Errorf("wood pixel %v is not wood-toned", c)
	}
	// The grid line through an empty point is dark.
	if l := luma(g.center(9), g.center(9)+float64(g.cell)/3); l > 90 {
		t.Errorf("grid line luma %d, want dark", l)
	}
}

func TestGeometryFitsAndIsUniform(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		for _, side := range []int{200, 333, 512, 801, 1600} {
			g := newGeometry(side, size)
			if g.cell < 1 {
				t.Fatalf("size %d side %d: cell %d", size, side, g.cell)
			}
			// Stones on the outer lines stay on the wood.
			lo, hi := g.center(0)-g.radius, g.center(size-1)+g.radius
			if lo < 0 || hi > float64(side) {
				t.Errorf("size %d side %d: stones span %.1f..%.1f", size, side, lo, hi)
			}
			// Centred within a pixel.
			if left, right := g.lineStart(0), side-(g.lineStart(size-1)+g.line); left-right > 1 || right-left > 1 {
				t.Errorf("size %d side %d: margins %d and %d", size, side, left, right)
			}
		}
	}
}

func TestStarPoints(t *testing.T) {
	for _, tc := range []struct {
		size int
		want []Point
	}{
		{19, []Point{{X: 3, Y: 3}, {X: 15, Y: 3}, {X: 3, Y: 15}, {X: 15, Y: 15}, {X: 9, Y: 3}, {X: 3, Y: 9}, {X: 15, Y: 9}, {X: 9, Y: 15}, {X: 9, Y: 9}}},
		{13, []Point{{X: 3, Y: 3}, {X: 9, Y: 3}, {X: 3, Y: 9}, {X: 9, Y: 9}, {X: 6, Y: 6}}},
		{9, []Point{{X: 2, Y: 2}, {X: 6, Y: 2}, {X: 2, Y: 6}, {X: 6, Y: 6}, {X: 4, Y: 4}}},
		{5, []Point{{X: 2, Y: 2}}},
		{4, nil},
	} {
		got := StarPoints(tc.size)
		if len(got) != len(tc.want) {
			t.Errorf("StarPoints(%d) = %v, want %v", tc.size, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("StarPoints(%d) = %v, want %v", tc.size, got, tc.want)
				break
			}
		}
	}
}

func TestLabels(t *testing.T) {
	var cols strings.Builder
	for x := range 19 {
		cols.WriteString(ColumnLabel(x))
	}
	if got := cols.String(); got != "ABCDEFGHJKLMNOPQRST" {
		t.Errorf("columns = %q", got)
	}
	if got := ColumnLabel(24); got != "Z" {
		t.Errorf("ColumnLabel(24) = %q", got)
	}
	if got, want := RowLabel(0, 19), "19"; got != want {
		t.Errorf("RowLabel(0, 19) = %q, want %q", got, want)
	}
	if got, want := RowLabel(18, 19), "1"; got != want {
		t.Errorf("RowLabel(18, 19) = %q, want %q", got, want)
	}
}

func TestSetPositionRejectsInvalid(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	good := NewPosition(9)
	good.Set(Point{X: 4, Y: 4}, Black)
	if err := b.SetPosition(good); err != nil {
		t.Fatal(err)
	}
	bad := []Position{
		NewPosition(1),
		NewPosition(26),
		{Size: 9, Stones: make([]Stone, 80)},
		{Size: 9, Stones: make([]Stone, 81), Last: Point{X: 9, Y: 0}, HasLast: true},
		{Size: 2, Stones: []Stone{0, 1, 2, 3}},
	}
	for _, p := range bad {
		if err := b.SetPosition(p); !errors.Is(err, ErrPosition) {
			t.Errorf("SetPosition(%+v) = %v, want ErrPosition", p, err)
		}
	}
	if got := b.CurrentPosition(); got.Size != 9 || got.At(Point{X: 4, Y: 4}) != Black {
		t.Errorf("invalid positions changed the board: %+v", got)
	}
	// The board keeps its own copy.
	good.Set(Point{X: 4, Y: 4}, White)
	if b.CurrentPosition().At(Point{X: 4, Y: 4}) != Black {
		t.Error("board shares the caller's slice")
	}
}

func TestOnPaintedAndResize(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	painted := 0
	b.OnPainted = func(PaintStats) { painted++ }
	w := test.NewWindow(b)
	defer w.Close()
	w.Resize(fyne.NewSize(300, 500))
	w.Canvas().Capture()
	if painted == 0 {
		t.Fatal("OnPainted not called")
	}
	// The board stays square and centred in a tall window.
	r := test.WidgetRenderer(b).(*renderer)
	if r.raster.Size().Width != r.raster.Size().Height {
		t.Errorf("raster %v is not square", r.raster.Size())
	}
	if r.origin.X != 0 || r.origin.Y <= 0 {
		t.Errorf("origin %v, want centred vertically", r.origin)
	}
	// A new size of board rebuilds the coordinates.
	if err := b.SetPosition(NewPosition(13)); err != nil {
		t.Fatal(err)
	}
	if got := len(r.labels); got != 4*13 {
		t.Errorf("%d labels for 13x13, want %d", got, 4*13)
	}
	for _, l := range r.labels {
		if l.Hidden {
			t.Fatalf("label %q hidden on a %v board", l.Text, r.raster.Size())
		}
	}
	b.SetCoordinates(false)
	for _, l := range r.labels {
		if !l.Hidden {
			t.Fatalf("label %q shown with coordinates off", l.Text)
		}
	}
}

func TestFromBoard(t *testing.T) {
	b, err := board.Parse(`
.X.
OX.
...`)
	if err != nil {
		t.Fatal(err)
	}
	p := FromBoard(b, board.At(1, 1))
	want := parse(t, `
.X.
OX.
...`)
	want.Last, want.HasLast = Point{X: 1, Y: 1}, true
	if p.Size != want.Size || !slices.Equal(p.Stones, want.Stones) || p.Last != want.Last || !p.HasLast {
		t.Errorf("FromBoard = %+v, want %+v", p, want)
	}
	for _, none := range []board.Point{board.Pass, board.NoPoint} {
		if p := FromBoard(b, none); p.HasLast {
			t.Errorf("FromBoard(last=%d) marks a last move", none)
		}
	}
}
