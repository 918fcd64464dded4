package main

import (
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
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
	d := xml.NewDecoder(strings.NewReader(string(data)))
	circles, heat, first := 0, 0, true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attrs := map[string]string{}
		for _, a := range e.Attr {
			attrs[a.Name.Local] = a.Value
		}
		if first {
			first = false
			if e.Name.Local != "svg" || attrs["width"] != "800" || attrs["height"] != "800" {
				t.Errorf("root <%s %v>, want an 800x800 svg (the default size)", e.Name.Local, attrs)
			}
		}
		if e.Name.Local == "circle" && strings.HasPrefix(attrs["class"], "stone") {
			circles++
		}
		if e.Name.Local == "circle" && attrs["class"] == "heat" {
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
