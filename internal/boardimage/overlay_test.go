package boardimage

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"image"
	"io"
	"math"
	"strings"
	"testing"
)

// A kLine in the PNG inks the pixels along it up to its round caps and none beyond, and in the SVG
// is one <line> with the same ends, width and colour.
func TestLineShapePNGAndSVG(t *testing.T) {
	red := rgb{220, 20, 30}
	ln := shape{kind: kLine, class: "cfg edge", x: 20, y: 30, x2: 80, y2: 60, stroke: 4, line: red, alpha: 1}
	img := image.NewRGBA(image.Rect(0, 0, 100, 100))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	r := raster{img: img}
	r.draw(&ln)
	at := func(x, y float64) [4]uint8 {
		o := img.PixOffset(int(x), int(y))
		return [4]uint8(img.Pix[o : o+4])
	}
	for _, f := range []float64{0, 0.25, 0.5, 0.75, 1} {
		x, y := 20+60*f, 30+30*f
		if p := at(x, y); !near(p, red, 8) {
			t.Errorf("pixel %.0f,%.0f on the line is %v, want %v", x, y, p, red)
		}
	}
	// Past the caps (radius 2) and beside the line, the page stays white.
	for _, q := range [][2]float64{{16, 28}, {84, 62}, {50, 35}, {50, 55}} {
		if p := at(q[0], q[1]); !near(p, rgb{255, 255, 255}, 0) {
			t.Errorf("pixel %v off the line is %v, want white", q, p)
		}
	}

	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	writeShape(w, &ln)
	w.Flush()
	d := xml.NewDecoder(&buf)
	tok, err := d.Token()
	if err != nil {
		t.Fatal(err)
	}
	se, ok := tok.(xml.StartElement)
	if !ok || se.Name.Local != "line" {
		t.Fatalf("SVG %q, want a <line>", buf.String())
	}
	attrs := map[string]string{}
	for _, a := range se.Attr {
		attrs[a.Name.Local] = a.Value
	}
	for k, want := range map[string]string{"x1": "20", "y1": "30", "x2": "80", "y2": "60", "stroke-width": "4", "stroke": "#dc141e", "stroke-linecap": "round"} {
		if attrs[k] != want {
			t.Errorf("<line %s=%q>, want %q", k, attrs[k], want)
		}
	}
}

// sampleOverlays is a 9x9 board with a two-stone black chain, an empty point beside it joined by an
// edge, and two search candidates, the first the best.
func sampleOverlays(search bool) *Board {
	const n = 9
	b := &Board{Size: n, Stones: make([]Stone, n*n)}
	b.Stones[4*n+4], b.Stones[4*n+5] = Black, Black
	if search {
		b.Search = []SearchMove{{Point{2, 2}, 300, 0.55, true}, {Point{6, 6}, 40, 0.48, false}, {Point{9, 9}, 10, 0.4, false}}
		return b
	}
	b.CFG = &CFG{
		Vertices: []CFGVertex{{Black, []Point{{4, 4}, {5, 4}}, Point{4, 4}, 7}, {Empty, []Point{{4, 3}}, Point{4, 3}, 200}},
		Edges:    [][2]int32{{0, 1}},
	}
	return b
}

func TestRenderSearchAndCFG(t *testing.T) {
	const px = 300
	for _, search := range []bool{true, false} {
		b := sampleOverlays(search)
		plain := sampleOverlays(search)
		plain.Search, plain.CFG = nil, nil
		img, err := Image(b, px)
		if err != nil {
			t.Fatal(err)
		}
		bare, _ := Image(plain, px)
		if bytes.Equal(img.Pix, bare.Pix) {
			t.Errorf("search %v: the overlay changed no pixel", search)
		}
		l, _ := scene(b, px)
		if search {
			// The best move's disc is the top of the ramp, ringed in the best colour.
			cx, cy := l.center(Point{2, 2})
			o := img.PixOffset(int(cx-float64(l.cell)*0.28), int(cy))
			if p := [4]uint8(img.Pix[o : o+4]); !near(p, SearchRampAt(1), 6) {
				t.Errorf("best disc %v, want %v", p, SearchRampAt(1))
			}
			rx := int(cx + float64(l.cell)*(SearchMaxR-SearchRing/2))
			o = img.PixOffset(rx, int(cy))
			if p := [4]uint8(img.Pix[o : o+4]); !near(p, bestColor, 40) {
				t.Errorf("best ring %v, want %v", p, bestColor)
			}
		} else {
			// The chain's node wears its label's colour; the bond to its second stone too.
			for _, q := range []Point{{4, 4}} {
				cx, cy := l.center(q)
				o := img.PixOffset(int(cx), int(cy))
				if p := [4]uint8(img.Pix[o : o+4]); !near(p, LabelInk(7), 4) {
					t.Errorf("node %v, want %v", p, LabelInk(7))
				}
				o = img.PixOffset(int(cx+float64(l.cell)*0.6), int(cy))
				if p := [4]uint8(img.Pix[o : o+4]); !near(p, LabelInk(7), 40) {
					t.Errorf("bond %v, want near %v", p, LabelInk(7))
				}
			}
		}
		var svg bytes.Buffer
		if err := WriteSVG(&svg, b, px); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&svg)
		count := map[string]int{}
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if e, ok := tok.(xml.StartElement); ok {
				for _, a := range e.Attr {
					if a.Name.Local == "class" {
						count[e.Name.Local+" "+a.Value]++
					}
				}
			}
		}
		if search && (count["circle search"] != 2 || count["circle search best"] != 1 || count["text search rate"] != 2) {
			t.Errorf("search SVG: %v, want two candidates on the board, one ringed, each with its rate", count)
		}
		if !search && (count["line cfg bond"] != 1 || count["line cfg edge"] != 2 || count["rect cfg point"] != 1 || count["circle cfg chain"] != 1) {
			t.Errorf("cfg SVG: %v, want one bond, an edge in two halves, one point and one chain", count)
		}
	}
}

func TestCFGOffTheBoardIsInvalid(t *testing.T) {
	for name, g := range map[string]*CFG{
		"point": {Vertices: []CFGVertex{{Empty, []Point{{9, 0}}, Point{0, 0}, 0}}},
		"edge":  {Vertices: []CFGVertex{{Empty, []Point{{0, 0}}, Point{0, 0}, 0}}, Edges: [][2]int32{{0, 1}}},
	} {
		if err := WritePNG(io.Discard, &Board{Size: 9, CFG: g}, 200); err == nil || !strings.Contains(err.Error(), "CFG") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestVisitsTextAndRamp(t *testing.T) {
	for n, want := range map[int]string{937: "937", 1234: "1.2k", 45000: "45k", 1_300_000: "1.3M"} {
		if got := VisitsText(n); got != want {
			t.Errorf("VisitsText(%d) = %q, want %q", n, got, want)
		}
	}
	if SearchRampAt(0) != SearchRamp[0] || SearchRampAt(1) != SearchRamp[2] || math.Abs(SearchRadius(1)-SearchMaxR) > 1e-12 || SearchRadius(0) != SearchMinR {
		t.Error("the ramp's or the radius's ends moved")
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12345: "-12,345"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
