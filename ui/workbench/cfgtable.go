package workbench

import (
	"image/color"

	"aji/analysis/cfg"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pathRow is one walk from the point in focus, as the CFG tab lists it.
type pathRow struct {
	walk    cfg.Path
	swatch  [3]color.Color // each vertex's label colour, as on the board
	feature string         // the path feature: three label bytes, start first
	text    string         // the walk: "D4 → ●C4×3 → C5"
	gamma   string         // the predictor's γ for the feature, or "—"
	repeat  bool           // an earlier walk has the same feature, which fires once
}

// Column sizes of the path table.
const (
	pathSwatch = 9 // side of a label's colour swatch
	pathGap    = 8 // between columns
	pathLead   = 2 // extra space between rows
)

// pathTable lists the walks of length two from a point, one row each: the
// colours of their three labels, the path feature in hex, the walk, and γ.
// Monospace text keeps the features and walks in columns; plain text and
// rectangles rather than labels keep the rows tight.
type pathTable struct {
	widget.BaseWidget
	rows []pathRow
}

func newPathTable() *pathTable {
	t := &pathTable{}
	t.ExtendBaseWidget(t)
	return t
}

func (t *pathTable) set(rows []pathRow) {
	if len(rows) == 0 && len(t.rows) == 0 {
		return
	}
	t.rows = rows
	t.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (t *pathTable) CreateRenderer() fyne.WidgetRenderer {
	r := &pathRenderer{t: t}
	r.Refresh()
	return r
}

// pathCells are the drawing of one row.
type pathCells struct {
	swatch               [3]*canvas.Rectangle
	feature, walk, gamma *canvas.Text
}

type pathRenderer struct {
	t       *pathTable
	head    [3]*canvas.Text // feature, walk, γ
	cells   []pathCells
	shown   int // rows in use
	objects []fyne.CanvasObject
}

var pathMono = fyne.TextStyle{Monospace: true}

// pathMetrics are the sizes the layout derives from the theme and the
// texts.
type pathMetrics struct {
	text, caption        float32
	line, headLine       float32
	feature, walk, gamma float32 // column widths
}

func (r *pathRenderer) metrics() pathMetrics {
	m := pathMetrics{text: theme.CaptionTextSize() + 1, caption: theme.CaptionTextSize()}
	m.line = fyne.MeasureText("Mg", m.text, pathMono).Height
	m.headLine = fyne.MeasureText("Mg", m.caption, fyne.TextStyle{}).Height
	m.feature = fyne.MeasureText("00-00-00", m.text, pathMono).Width
	m.gamma = fyne.MeasureText("0.00", m.text, pathMono).Width
	for _, row := range r.t.rows {
		m.walk = max(m.walk, fyne.MeasureText(row.text, m.text, pathMono).Width)
		m.gamma = max(m.gamma, fyne.MeasureText(row.gamma, m.text, pathMono).Width)
	}
	return m
}

func (r *pathRenderer) MinSize() fyne.Size {
	if len(r.t.rows) == 0 {
		return fyne.NewSize(0, 0)
	}
	m := r.metrics()
	w := 3*(pathSwatch+1) + m.feature + m.walk + m.gamma + 3*pathGap
	return fyne.NewSize(w, m.headLine+float32(len(r.t.rows))*(m.line+pathLead))
}

func (r *pathRenderer) Layout(size fyne.Size) {
	if len(r.t.rows) == 0 {
		return
	}
	m := r.metrics()
	fx := float32(3*(pathSwatch+1) + pathGap)
	wx := fx + m.feature + pathGap
	gx := max(wx+m.walk+pathGap, size.Width-m.gamma)
	place := func(t *canvas.Text, x, w, y, h float32) {
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, h))
	}
	place(r.head[0], fx, m.feature, 0, m.headLine)
	place(r.head[1], wx, m.walk, 0, m.headLine)
	place(r.head[2], gx, m.gamma, 0, m.headLine)
	y := m.headLine
	for i := range r.shown {
		c := &r.cells[i]
		for j, s := range c.swatch {
			s.Move(fyne.NewPos(float32(j*(pathSwatch+1)), y+(m.line-pathSwatch)/2))
			s.Resize(fyne.NewSize(pathSwatch, pathSwatch))
		}
		place(c.feature, fx, m.feature, y, m.line)
		place(c.walk, wx, m.walk, y, m.line)
		place(c.gamma, gx, m.gamma, y, m.line)
		y += m.line + pathLead
	}
}

func (r *pathRenderer) Refresh() {
	m := r.metrics()
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	for i, s := range [3]string{"feature", "walk", "γ"} {
		if r.head[i] == nil {
			r.head[i] = canvas.NewText("", dim)
		}
		h := r.head[i]
		h.Text, h.Color, h.TextSize = s, dim, m.caption
		if i == 2 {
			h.Alignment = fyne.TextAlignTrailing
		}
		h.Refresh()
	}
	text := func() *canvas.Text {
		t := canvas.NewText("", fg)
		t.TextStyle = pathMono
		return t
	}
	for len(r.cells) < len(r.t.rows) {
		c := pathCells{feature: text(), walk: text(), gamma: text()}
		c.gamma.Alignment = fyne.TextAlignTrailing
		for j := range c.swatch {
			c.swatch[j] = canvas.NewRectangle(color.Transparent)
		}
		r.cells = append(r.cells, c)
	}
	r.shown = len(r.t.rows)
	r.objects = r.objects[:0]
	if r.shown > 0 {
		r.objects = append(r.objects, r.head[0], r.head[1], r.head[2])
	}
	for i, row := range r.t.rows {
		c := &r.cells[i]
		for j, s := range c.swatch {
			s.FillColor = row.swatch[j]
			s.Refresh()
			r.objects = append(r.objects, s)
		}
		// A feature already listed fires no more: dimmed.
		fc := fg
		if row.repeat {
			fc = dim
		}
		for _, x := range []struct {
			t *canvas.Text
			s string
			c color.Color
		}{{c.feature, row.feature, fc}, {c.walk, row.text, fg}, {c.gamma, row.gamma, fc}} {
			x.t.Text, x.t.Color, x.t.TextSize = x.s, x.c, m.text
			x.t.Refresh()
			r.objects = append(r.objects, x.t)
		}
	}
	r.Layout(r.t.Size())
	canvas.Refresh(r.t)
}

func (r *pathRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *pathRenderer) Destroy()                     {}
