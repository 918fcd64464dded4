package workbench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"aji/internal/atomicfile"
	"aji/internal/boardimage"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// exportSizes are the image sizes offered, in pixels a side.
var exportSizes = []string{"600", "800", "1200", "1600"}

// exportDialog asks for an image file — PNG or SVG by its extension — and a
// size, and writes the main board as it is shown (boardImage); the same
// renderer as `aji render`.
func (wb *Workbench) exportDialog() {
	entry := widget.NewEntry()
	entry.SetText(wb.suggestImagePath())
	size := widget.NewSelect(exportSizes, nil)
	size.SetSelected("800")
	items := []*widget.FormItem{
		{Text: "File (.png or .svg)", Widget: entry},
		{Text: "Size (pixels)", Widget: size},
	}
	d := dialog.NewForm("Export image", "Export", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		px, _ := strconv.Atoi(size.Selected)
		path := filepath.Clean(strings.TrimSpace(entry.Text))
		write := func() {
			if err := wb.exportImage(path, px); err != nil {
				dialog.ShowError(err, wb.win)
				return
			}
			wb.setStatus("exported %s", filepath.Base(path))
		}
		if _, err := os.Stat(path); err == nil {
			dialog.ShowConfirm("Replace file?", fmt.Sprintf("%s already exists.\nReplace it with this image?", path),
				func(ok bool) {
					if ok {
						write()
					}
				}, wb.win)
			return
		}
		write()
	}, wb.win)
	d.Resize(fyne.NewSize(640, 0))
	d.Show()
}

// suggestImagePath proposes the game's name and move number beside the
// game's file (or in the home folder), as a PNG.
func (wb *Workbench) suggestImagePath() string {
	base := strings.TrimSuffix(wb.suggestPath(), filepath.Ext(wb.suggestPath()))
	return fmt.Sprintf("%s-move%d.png", base, wb.doc.cursor.Position().MoveNumber)
}

// exportImage writes the main board to path, atomically, as a PNG or SVG of
// px pixels a side.
func (wb *Workbench) exportImage(path string, px int) error {
	write := boardimage.WritePNG
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
	case ".svg":
		write = boardimage.WriteSVG
	default:
		return fmt.Errorf("export: %s: the name must end in .png or .svg", filepath.Base(path))
	}
	if px < boardimage.MinSize || px > boardimage.MaxImageSize {
		return fmt.Errorf("export: %d pixels: between %d and %d", px, boardimage.MinSize, boardimage.MaxImageSize)
	}
	var buf bytes.Buffer
	if err := write(&buf, wb.boardImage(), px); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
}

// boardImage describes the main board as it is shown: the stones and last
// move, the heat map and its labels as the settings draw them (none while
// the next move is hidden), the territory estimate when the Territory tab
// draws one, coordinates and a caption naming the players, the move and
// the predictor.
func (wb *Workbench) boardImage() *boardimage.Board {
	c := wb.doc.cursor
	pos := c.Position()
	gp := goban.FromBoard(&pos.Board, pos.Last)
	b := &boardimage.Board{Size: gp.Size, Stones: make([]boardimage.Stone, len(gp.Stones)), Coordinates: true}
	copy(b.Stones, gp.Stones)
	if gp.HasLast {
		b.Last, b.HasLast = gp.Last, true
	}
	s := wb.present.settings(&wb.settings)
	v := wb.views[0]
	overlays := []string{}
	if pr := v.shown; pr != nil && v.node == c.Node() && s.heat && !wb.nextHidden() && pr.Size == b.Size {
		b.Heat, b.LogScale, b.HeatMax, b.HideBelow, b.Palette = pr.Heat, s.scale == goban.ScaleLog, pr.Max, s.hideBelow, s.palette
		next, hasNext := nextMove(c)
		for _, l := range labelsOf(pr, s.topK, next, hasNext) {
			if l.Text != "" {
				b.Labels = append(b.Labels, boardimage.Label{Point: l.Point, Text: l.Text})
			}
		}
		overlays = append(overlays, pr.Predictor)
	}
	for _, t := range wb.tabs {
		switch t := t.(type) {
		case *territoryView:
			if l, ok := t.drawn.(*goban.Territory); ok && l.Size == b.Size {
				b.Territory = l.Owner
				overlays = append(overlays, "territory")
			}
		case *searchView:
			if l := t.drawn; l != nil && l.Size == b.Size && len(l.PV) == 0 {
				b.Search = append([]boardimage.SearchMove{}, l.Moves...)
				overlays = append(overlays, "search")
			}
		case *cfgView:
			if l, ok := t.drawn.(*goban.CFG); ok && l.Size == b.Size {
				b.CFG = &boardimage.CFG{Vertices: l.Vertices, Edges: l.Edges} // the whole graph, not the walks the app highlights
				overlays = append(overlays, "cfg graph")
			}
		}
	}
	info := c.Game().Info
	caption := fmt.Sprintf("%s (B) vs %s (W) — move %d", player(info.Black, info.BlackRank), player(info.White, info.WhiteRank), pos.MoveNumber)
	if len(overlays) > 0 {
		caption += " — " + strings.Join(overlays, ", ")
	}
	b.Caption = caption
	return b
}
