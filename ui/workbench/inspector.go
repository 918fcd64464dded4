package workbench

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/live"
	"aji/analysis/predict"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
)

// inspector is the panel that says why the predictor gave a point its
// probability: the point, its rank and probability; the largest matching
// shape as a diagram; and every factor with its γ, Elo and share.
type inspector struct {
	lines   [4]*canvas.Text // point and rank; probability; predictor and side; shape
	diagram *shapeDiagram
	table   *factorTable
	head    *fyne.Container // the diagram (when there is a shape) and the lines
	box     fyne.CanvasObject
}

func newInspector() *inspector {
	in := &inspector{diagram: newShapeDiagram(), table: newFactorTable()}
	text := container.New(layout.NewCustomPaddedVBoxLayout(2))
	for i := range in.lines {
		in.lines[i] = canvas.NewText("", nil)
		text.Add(in.lines[i])
	}
	in.lines[0].TextStyle.Bold = true
	// The text sits at the top beside the diagram, not stretched along it.
	in.head = container.NewBorder(nil, nil, in.diagram, nil, container.NewVBox(text))
	body := container.NewVBox(in.head, in.table)
	in.box = container.NewVScroll(container.NewPadded(body))
	in.message("Hover over a point", "to see why the predictor rates it.")
	return in
}

func (in *inspector) widget() fyne.CanvasObject { return in.box }

// setLines writes the text beside the diagram: the first line strong, the
// rest smaller, the last dimmed.
func (in *inspector) setLines(lines ...string) {
	for i, t := range in.lines {
		t.Text = ""
		if i < len(lines) {
			t.Text = lines[i]
		}
		t.TextSize = theme.TextSize()
		t.Color = theme.Color(theme.ColorNameForeground)
		if i > 0 {
			t.TextSize = theme.CaptionTextSize() + 1
		}
		if i >= 2 {
			t.Color = theme.Color(theme.ColorNamePlaceHolder)
		}
		t.Refresh()
	}
}

// message shows text instead of an explanation.
func (in *inspector) message(lines ...string) {
	in.setLines(lines...)
	in.diagram.Hide()
	in.table.set(nil)
	in.head.Refresh()
}

// show explains point p with e, from the predictor's explanations ex; note
// says why this point is shown when the pointer is not on it.
func (in *inspector) show(ex *live.Explanations, p board.Point, e *predict.Explanation, note string) {
	name := p.GTP(ex.Size)
	side := fmt.Sprintf("%s · %s to play", ex.Predictor, colorName(ex.ToPlay))
	if note != "" {
		side += " · " + note
	}
	if e == nil {
		in.message(name, fmt.Sprintf("Not a legal move for %s.", colorName(ex.ToPlay)), side)
		return
	}
	shape := "No known shape here."
	if len(e.Pattern) > 0 {
		shape = fmt.Sprintf("Shape of size %d, %d points.", e.PatternSize, len(e.Pattern))
		in.diagram.set(e.Pattern, ex.ToPlay)
		in.diagram.Show()
	} else {
		in.diagram.Hide()
	}
	in.setLines(fmt.Sprintf("%s · rank %d of %d", name, e.Rank, ex.Moves), "probability "+percent(e.Probability), side, shape)
	in.table.set(e.Factors)
	in.head.Refresh()
}
