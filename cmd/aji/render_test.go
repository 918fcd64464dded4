package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// `aji render` on the sample professional game: a PNG of the size asked for and an SVG that parses,
// with one stone circle per stone on the board at move 120 and the mm heat map's discs.
func TestRenderPNGAndSVG(t *testing.T) {
	game := sampleFile(t, "Agon-01-8.sgf")
	dir := t.TempDir()
	pngOut := filepath.Join(dir, "b.png")
	if _, err := run(t, "render", game, "--move", "120", "--overlay", "mm,territory", "--out", pngOut, "--size", "420"); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 420 || r.Dy() != 420 {
		t.Errorf("PNG %v, want 420x420", r)
	}

	_, pos, err := positionOf(game, 120)
	if err != nil {
		t.Fatal(err)
	}
	stones := 0
	for _, s := range boardOf(pos).Stones {
		if s != 0 {
			stones++
		}
	}
	svgOut := filepath.Join(dir, "b.svg")
	if _, err := run(t, "render", game, "--move", "120", "--overlay", "cfg", "--out", svgOut, "--top", "3"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(svgOut)
	if err != nil {
		t.Fatal(err)
	}
	els := svgElements(t, data, 800)
	circles, heat := 0, 0
	for _, e := range els {
		if e.name == "circle" && strings.HasPrefix(e.attrs["class"], "stone") {
			circles++
		}
		if e.name == "circle" && e.attrs["class"] == "heat" {
			heat++
		}
	}
	if circles != stones || stones < 50 {
		t.Errorf("%d stone circles for %d stones", circles, stones)
	}
	if heat == 0 {
		t.Error("no heat discs for --overlay cfg")
	}
	if !strings.Contains(string(data), "move 120") {
		t.Error("the caption does not name the move")
	}
}

func TestRenderBadInput(t *testing.T) {
	game := sampleFile(t, "Agon-01-8.sgf")
	out := filepath.Join(t.TempDir(), "x.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(t.TempDir(), "missing.sgf"), "--out", out}, "missing.sgf"},
		{[]string{game, "--move", "9999", "--out", out}, "--move 9999"},
		{[]string{game, "--overlay", "nosuch", "--out", out}, "unknown overlay"},
		{[]string{game, "--overlay", "mm,cfg", "--out", out}, "one predictor"},
		{[]string{game, "--out", filepath.Join(t.TempDir(), "x.jpg")}, "extension"},
		{[]string{game}, "render FILE.sgf"},
		{[]string{game, "--out", out, "--size", "10"}, "--size 10"},
		{[]string{game, "--overlay", "search,mm", "--out", out}, "cannot be read"},
		{[]string{game, "--overlay", "cfg-graph,search", "--out", out}, "draw one"},
		{[]string{game, "--overlay", "mm", "--playouts", "100", "--out", out}, "--playouts is for --overlay search"},
		{[]string{game, "--overlay", "cfg-graph", "--predictor", "cfg", "--out", out}, "--predictor is for --overlay search"},
		{[]string{game, "--overlay", "search", "--playouts", "0", "--out", out}, "at least one"},
		{[]string{game, "--overlay", "search", "--threads", "0", "--out", out}, "threads"},
		{[]string{game, "--overlay", "search", "--predictor", "nosuch", "--playouts", "1", "--out", out}, "nosuch"},
	} {
		_, err := run(t, append([]string{"render"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("render %v: error %v, want one mentioning %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed render left %s behind", out)
	}
}

// game9 is the first 30 moves of a 9x9 game between two GNU Go (analysis/gtp's referee games).
const game9 = "(;SZ[9]KM[7]PB[GNU Go]PW[GNU Go];B[ah];W[ag];B[ae];W[ee];B[bg];W[fg];B[gd];W[fc];B[gc];W[gb];B[ce];W[dg];B[ch];W[dh];B[bc];W[dc];B[cb];W[ci];B[eb];W[hc];B[fb];W[ha];B[fd];W[ec];B[ed];W[db];B[dd];W[da];B[cc];W[ea])"

// The search and cfg-graph overlays: a PNG of the size asked for that differs from the bare board,
// an SVG of that size with the overlay's elements, and the search's caption; with one thread the
// same command gives the same image.
func TestRenderSearchAndCFGGraph(t *testing.T) {
	game := writeSGF(t, "g9.sgf", game9)
	dir := t.TempDir()
	render := func(name string, args ...string) []byte {
		t.Helper()
		out := filepath.Join(dir, name)
		if _, err := run(t, append([]string{"render", game, "--out", out, "--size", "600"}, args...)...); err != nil {
			t.Fatalf("render %v: %v", args, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	decode := func(data []byte) []uint8 {
		t.Helper()
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if r := img.Bounds(); r.Dx() != 600 || r.Dy() != 600 {
			t.Errorf("PNG %v, want 600x600", r)
		}
		return img.(*image.RGBA).Pix
	}
	// The bare board, whose pixels every overlay must change.
	bare := decode(render("bare.png"))
	for _, c := range []struct {
		overlay  string
		args     []string
		element  string // an SVG element the overlay draws, by class
		caption  string
		repeated bool
	}{
		{"search", []string{"--playouts", "300"}, "circle search", "search 300 playouts: ", true},
		{"search,territory", []string{"--playouts", "300", "--threads", "2", "--seed", "3"}, "circle search best", "territory ", false},
		{"cfg-graph", nil, "line cfg edge", "cfg-graph", false},
		{"mm,cfg-graph", nil, "line cfg bond", "mm, cfg-graph", false},
	} {
		args := append([]string{"--overlay", c.overlay}, c.args...)
		name := strings.ReplaceAll(c.overlay, ",", "-")
		pngData := render(name+".png", args...)
		pix := decode(pngData)
		if bytes.Equal(pix, bare) {
			t.Errorf("%s: the PNG is the bare board's", c.overlay)
		}
		if c.repeated && !bytes.Equal(render(name+"-again.png", args...), pngData) {
			t.Errorf("%s: the same command with one thread gave another image", c.overlay)
		}
		svg := render(name+".svg", args...)
		seen := map[string]int{}
		for _, e := range svgElements(t, svg, 600) {
			seen[e.name+" "+e.attrs["class"]]++
		}
		if seen[c.element] == 0 {
			t.Errorf("%s: no <%s> in the SVG", c.overlay, c.element)
		}
		if !strings.Contains(string(svg), c.caption) {
			t.Errorf("%s: the caption does not say %q", c.overlay, c.caption)
		}
	}
}

// svgElement is an element of an SVG document: its name and attributes.
type svgElement struct {
	name  string
	attrs map[string]string
}

// svgElements parses an SVG document, fails the test unless it parses and its root is an svg of side
// px, and returns its elements in order.
func svgElements(t *testing.T, data []byte, px int) []svgElement {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var els []svgElement
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		if e, ok := tok.(xml.StartElement); ok {
			attrs := map[string]string{}
			for _, a := range e.Attr {
				attrs[a.Name.Local] = a.Value
			}
			els = append(els, svgElement{e.Name.Local, attrs})
		}
	}
	side := strconv.Itoa(px)
	if len(els) == 0 || els[0].name != "svg" || els[0].attrs["width"] != side || els[0].attrs["height"] != side {
		t.Errorf("SVG root %v, want an svg of %dx%d", els[:min(1, len(els))], px, px)
	}
	return els
}
