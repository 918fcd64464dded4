package boardimage

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// sample is a 19x19 board with a black stone on D16 (3,3), a white one on Q4 (15,15), the last
// move on Q4, a heat map peaked at R16 (16,3) and territory squares in the lower left.
func sample() *Board {
	const n = 19
	b := &Board{Size: n, Stones: make([]Stone, n*n), Heat: make([]float64, n*n), Territory: make([]float64, n*n),
		LogScale: true, Coordinates: true, Caption: "Black vs White — move 2 — mm"}
	b.Stones[3*n+3] = Black
	b.Stones[15*n+15] = White
	b.Last, b.HasLast = Point{15, 15}, true
	for i := range b.Heat {
		b.Heat[i] = 0.0002
	}
	b.Heat[3*n+3], b.Heat[15*n+15] = -1, -1
	b.Heat[3*n+16] = 0.6
	b.Heat[16*n+3] = 0.05
	b.Labels = []Label{{Point{16, 3}, PercentLabel(0.6)}, {Point{3, 16}, PercentLabel(0.05)}}
	for i := range b.Territory {
		b.Territory[i] = math.NaN()
	}
	b.Territory[12*n+2] = 1 // a full black square on C7
	b.Territory[12*n+4] = -1
	return b
}

// near reports whether two colours are within tol on every channel.
func near(got [4]uint8, want rgb, tol int) bool {
	for k := range 3 {
		if d := int(got[k]) - int(want[k]); d < -tol || d > tol {
			return false
		}
	}
	return true
}

func TestRenderPNGShowsWoodStonesAndHeat(t *testing.T) {
	b := sample()
	const px = 600
	var buf bytes.Buffer
	if err := WritePNG(&buf, b, px); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != px || r.Dy() != px {
		t.Fatalf("image %v, want %dx%d", r, px, px)
	}
	l := newLayout(b, px)
	at := func(x, y float64) [4]uint8 {
		r, g, bl, a := img.At(int(x), int(y)).RGBA()
		return [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}
	}
	// Wood midway between two lines of an empty area.
	cx, cy := l.center(Point{9, 7})
	if c := at(cx+float64(l.cell)/2, cy+float64(l.cell)/2); !near(c, woodColor, 30) {
		t.Errorf("between lines %v, want wood near %v", c, woodColor)
	}
	// Stones: sample a little below-right of the centre, away from the highlight and the last-move ring.
	cx, cy = l.center(Point{3, 3})
	if c := at(cx+l.radius*0.65, cy); int(c[0])+int(c[1])+int(c[2]) > 3*90 {
		t.Errorf("black stone pixel %v is not dark", c)
	}
	cx, cy = l.center(Point{15, 15})
	if c := at(cx-l.radius*0.7, cy); int(c[0])+int(c[1])+int(c[2]) < 3*180 {
		t.Errorf("white stone pixel %v is not light", c)
	}
	// The 60% disc on R16: near the heat colour of its scale position, mixed with the wood by its
	// opacity (sampled beside the label text).
	tp := ScalePos(0.6, ScaleLog, 1)
	r, a := heatStyle(tp, true)
	want := mix(woodColor, rgb(PaletteAt(tp, PaletteViridis)), a)
	cx, cy = l.center(Point{16, 3})
	if c := at(cx, cy+r*float64(l.cell)*0.8); !near(c, want, 25) {
		t.Errorf("heat disc pixel %v, want near %v", c, want)
	}
	// The black territory square on C7.
	cx, cy = l.center(Point{2, 12})
	if c := at(cx, cy); !near(c, mix(woodColor, ownerBlack, 0.9), 25) {
		t.Errorf("territory square pixel %v, want dark", c)
	}
	if dir := os.Getenv("AJI_BOARDIMAGE_OUT"); dir != "" { // to look at the pictures
		var pngb, svg bytes.Buffer
		_ = WritePNG(&pngb, b, px)
		_ = os.WriteFile(dir+"/sample.png", pngb.Bytes(), 0o644)
		_ = WriteSVG(&svg, b, px)
		_ = os.WriteFile(dir+"/sample.svg", svg.Bytes(), 0o644)
	}
}

func TestRenderSVGParsesWithOneCirclePerStone(t *testing.T) {
	b := sample()
	var buf bytes.Buffer
	if err := WriteSVG(&buf, b, 500); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(&buf)
	stones, heat, texts := 0, 0, []string{}
	var root *xml.StartElement
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if root == nil {
				root = &e
			}
			class := attr(e, "class")
			switch {
			case e.Name.Local == "circle" && strings.HasPrefix(class, "stone"):
				stones++
			case e.Name.Local == "circle" && class == "heat":
				heat++
			}
			inText = e.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if root == nil || root.Name.Local != "svg" || attr(*root, "width") != "500" || attr(*root, "height") != "500" {
		t.Fatalf("root %+v, want <svg width=500 height=500>", root)
	}
	if stones != 2 {
		t.Errorf("%d stone circles, want 2", stones)
	}
	if want := 19*19 - 2; heat != want {
		t.Errorf("%d heat discs, want %d (every legal point)", heat, want)
	}
	joined := strings.Join(texts, "|")
	for _, s := range []string{"60", "5.0", b.Caption, "A", "T", "19", "1%", "log scale"} {
		if !strings.Contains(joined, s) {
			t.Errorf("SVG text lacks %q: %s", s, joined)
		}
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// TestRenderPlainBoardHasNoLegend: without a heat map the board takes the legend's band too.
func TestRenderPlainBoardHasNoLegend(t *testing.T) {
	b := &Board{Size: 9}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, b, 200); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Contains(s, "heatscale)") || strings.Contains(s, `class="stone`) {
		t.Errorf("plain board draws a legend or stones:\n%s", s)
	}
	if l := newLayout(b, 200); l.side != 200 {
		t.Errorf("board side %d, want the whole 200", l.side)
	}
}

func TestRenderInvalidDescriptions(t *testing.T) {
	for name, b := range map[string]*Board{
		"size":      {Size: 1},
		"stones":    {Size: 9, Stones: make([]Stone, 80)},
		"heat":      {Size: 9, Heat: make([]float64, 3)},
		"territory": {Size: 9, Territory: make([]float64, 82)},
		"last":      {Size: 9, HasLast: true, Last: Point{9, 0}},
	} {
		if err := WritePNG(io.Discard, b, 200); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	for _, px := range []int{0, MinSize - 1, MaxImageSize + 1} {
		if err := WriteSVG(io.Discard, &Board{Size: 9}, px); err == nil || !strings.Contains(err.Error(), strconv.Itoa(px)) {
			t.Errorf("size %d: %v", px, err)
		}
	}
}
