package workbench

import (
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/ui/goban"

	"fyne.io/fyne/v2/test"
)

// TestExportImage writes the main board as shown — stones, the heat map
// with its labels, a caption naming the players, the move and the
// predictor — as a PNG and an SVG of the size asked for, and refuses a name
// that is neither.
func TestExportImage(t *testing.T) {
	h := proGame(t, 100)
	h.wb.settings.heat, h.wb.settings.topK = true, 5
	h.wb.render()
	v := h.wb.views[0]
	h.pump("the heat map", func() bool { return v.shown != nil && v.node == h.wb.doc.cursor.Node() })

	b := h.wb.boardImage()
	stones := 0
	for _, s := range b.Stones {
		if s != 0 {
			stones++
		}
	}
	if b.Size != 19 || stones == 0 || !b.HasLast || b.Heat == nil || len(b.Labels) != 5 {
		t.Fatalf("board %d, %d stones, last %v, heat %v, %d labels", b.Size, stones, b.HasLast, b.Heat != nil, len(b.Labels))
	}
	if !strings.Contains(b.Caption, "Tono Hiroaki 9p") || !strings.Contains(b.Caption, "move 100") || !strings.Contains(b.Caption, h.wb.settings.predictor) {
		t.Errorf("caption %q", b.Caption)
	}

	dir := t.TempDir()
	pngPath, svgPath := filepath.Join(dir, "b.png"), filepath.Join(dir, "b.svg")
	if err := h.wb.exportImage(pngPath, 600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 600 || img.Bounds().Dy() != 600 {
		t.Fatalf("PNG: %v, bounds %v", err, img.Bounds())
	}
	if err := h.wb.exportImage(svgPath, 800); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
	}
	if err := xml.Unmarshal(data, &root); err != nil || root.XMLName.Local != "svg" || root.Width != "800" {
		t.Fatalf("SVG: %v, <%s width=%q>", err, root.XMLName.Local, root.Width)
	}
	if err := h.wb.exportImage(filepath.Join(dir, "b.jpg"), 600); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("a .jpg name: %v", err)
	}
}

// TestExportImageSearchAndGraph: the search's candidates and the common
// fate graph on the board go into the exported image too, and its caption
// names them.
func TestExportImageSearchAndGraph(t *testing.T) {
	h, cv := cfgOn(t, 100)
	if cv.drawn == nil {
		t.Fatal("the CFG layer is not drawn")
	}
	b := h.wb.boardImage()
	if b.CFG == nil || len(b.CFG.Vertices) != len(cv.drawn.(*goban.CFG).Vertices) || len(b.CFG.Edges) == 0 || !strings.Contains(b.Caption, "cfg graph") {
		t.Fatalf("the image's graph: %+v, caption %q", b.CFG != nil, b.Caption)
	}
	sv := tabOf[*searchView](h.wb)
	sv.opts.Threads, sv.opts.Playouts, sv.opts.Seed = 1, 300, 7
	h.selectTab(tabSearch)
	test.Tap(sv.startB)
	h.searched()
	h.awaitSearch("the end of the search", func() bool { return !sv.running })
	b = h.wb.boardImage()
	if len(b.Search) != len(sv.drawn.Moves) || len(b.Search) == 0 || !strings.Contains(b.Caption, "search") {
		t.Fatalf("the image has %d candidates, the board %d; caption %q", len(b.Search), len(sv.drawn.Moves), b.Caption)
	}
	best := 0
	for _, m := range b.Search {
		if m.Best {
			best++
		}
	}
	if best != 1 {
		t.Errorf("%d best moves in the image", best)
	}
	if err := h.wb.exportImage(filepath.Join(t.TempDir(), "s.png"), 500); err != nil {
		t.Fatal(err)
	}
}
