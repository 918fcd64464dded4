package workbench

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"aji/analysis/predict"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Colours of the share bars: blue for a factor that makes the move more
// likely, orange for one that makes it less likely — a pair colour-blind
// readers tell apart.
var (
	shareUp   = color.NRGBA{R: 66, G: 146, B: 255, A: 255}
	shareDown = color.NRGBA{R: 245, G: 138, B: 36, A: 255}
)

// Column sizes of the factor table.
const (
	factorGap  = 8  // between columns
	factorBar  = 48 // the share bar: ±1 spans it
	factorLead = 2  // extra space between rows
)

// factorTable lists an explanation's factors, one row each: the name,
// wrapped to the width the numbers leave; γ; Elo; and the share as a bar
// from a centre line, to the right for a factor that strengthens the move
// and to the left for one that weakens it. It is drawn with plain text and
// rectangles rather than labels, whose padding would double its height.
//
// A Bayesian model's factors (predict.Factor.SD > 0: Stern's nested
// patterns, the one used first) have beliefs, not weights: their rows show
// μ ± σ and the training counts, seen/played, in place of γ and Elo, and in
// the bar's place the belief drawn as an interval, μ ± σ around a mark at
// μ on a scale common to the rows, so the eye follows μ and σ down the
// hierarchy T_n … T_1. The pattern used is drawn in the share colour; the
// smaller ones nested in it, which do not enter the probability, dimmed.
type factorTable struct {
	widget.BaseWidget
	factors []predict.Factor
}

// bayesian reports whether fs are a Bayesian model's factors.
func bayesian(fs []predict.Factor) bool {
	return slices.ContainsFunc(fs, predict.Factor.Bayesian)
}

func newFactorTable() *factorTable {
	t := &factorTable{}
	t.ExtendBaseWidget(t)
	return t
}

func (t *factorTable) set(fs []predict.Factor) {
	t.factors = fs
	t.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (t *factorTable) CreateRenderer() fyne.WidgetRenderer {
	r := &factorRenderer{t: t}
	r.Refresh()
	return r
}

// factorRow is the drawing of one factor.
type factorRow struct {
	name       []*canvas.Text // one per wrapped line
	gamma, elo *canvas.Text   // γ and Elo; a Bayesian factor's μ ± σ and seen/played
	track, bar *canvas.Rectangle
	zero       *canvas.Rectangle
	share      float64
	text       string
	nameColor  color.Color

	// A Bayesian factor's belief, drawn in the bar's place: bar spans
	// μ ± σ, mark is at μ.
	mu, sd float64
	mark   *canvas.Rectangle
}

type factorRenderer struct {
	t       *factorTable
	head    [4]*canvas.Text
	rows    []factorRow
	bayes   bool    // the rows are beliefs
	reach   float64 // a belief interval's scale: ±reach spans the bar
	width   float32 // the width names were wrapped to
	objects []fyne.CanvasObject
}

// metrics are the sizes the layout derives from the theme and the numbers.
type factorMetrics struct {
	text, caption  float32 // text sizes
	line, headLine float32 // line heights
	gamma, elo     float32 // column widths
}

func (r *factorRenderer) metrics() factorMetrics {
	m := factorMetrics{text: theme.TextSize(), caption: theme.CaptionTextSize()}
	m.line = fyne.MeasureText("Mg", m.text, fyne.TextStyle{}).Height
	m.headLine = fyne.MeasureText("Mg", m.caption, fyne.TextStyle{}).Height
	m.gamma = fyne.MeasureText("0.00", m.text, fyne.TextStyle{}).Width
	m.elo = fyne.MeasureText("−000", m.text, fyne.TextStyle{}).Width
	for _, row := range r.rows {
		m.gamma = max(m.gamma, fyne.MeasureText(row.gamma.Text, m.text, fyne.TextStyle{}).Width)
		m.elo = max(m.elo, fyne.MeasureText(row.elo.Text, m.text, fyne.TextStyle{}).Width)
	}
	if r.bayes { // headings wider than the numbers ("seen/played")
		m.gamma = max(m.gamma, fyne.MeasureText(r.head[1].Text, m.caption, fyne.TextStyle{}).Width)
		m.elo = max(m.elo, fyne.MeasureText(r.head[2].Text, m.caption, fyne.TextStyle{}).Width)
	}
	return m
}

// nameWidth is the width left for the names in a table width wide.
func (m factorMetrics) nameWidth(width float32) float32 {
	return max(60, width-m.gamma-m.elo-factorBar-3*factorGap)
}

// defaultWidth wraps the names before the first layout, which tells the
// real width: about the width of the panel in the default window.
const defaultWidth = 340

func (r *factorRenderer) MinSize() fyne.Size {
	m := r.metrics()
	width := r.t.Size().Width
	if width <= 0 {
		width = defaultWidth
	}
	h := m.headLine
	for _, row := range r.rows {
		h += factorLead + m.line*float32(len(wrap(row.text, m.nameWidth(width), m.text)))
	}
	return fyne.NewSize(m.gamma+m.elo+factorBar+3*factorGap+60, h)
}

func (r *factorRenderer) Layout(size fyne.Size) {
	m := r.metrics()
	if size.Width != r.width {
		r.width = size.Width
		r.wrapNames(m)
		// The height follows the width: the canvas notices the new MinSize
		// on its next frame and lays the panel out again.
		canvas.Refresh(r.t)
	}
	nameW := m.nameWidth(size.Width)
	gx := nameW + factorGap
	ex := gx + m.gamma + factorGap
	bx := ex + m.elo + factorGap
	place := func(t *canvas.Text, x, w, y, h float32) {
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, h))
	}
	place(r.head[0], 0, nameW, 0, m.headLine)
	place(r.head[1], gx, m.gamma, 0, m.headLine)
	place(r.head[2], ex, m.elo, 0, m.headLine)
	place(r.head[3], bx, factorBar, 0, m.headLine)
	y := m.headLine + factorLead
	for _, row := range r.rows {
		for i, t := range row.name {
			place(t, 0, nameW, y+float32(i)*m.line, m.line)
		}
		place(row.gamma, gx, m.gamma, y, m.line)
		place(row.elo, ex, m.elo, y, m.line)
		// The bar sits on the first line, centred on its text.
		barH := float32(math.Round(float64(m.line) * 0.5))
		by := y + (m.line-barH)/2
		row.track.Move(fyne.NewPos(bx, by))
		row.track.Resize(fyne.NewSize(factorBar, barH))
		half := float32(factorBar) / 2
		if r.bayes {
			// The interval μ ± σ, thinner than a share bar, and μ across it.
			at := func(v float64) float32 {
				return bx + half + half*float32(math.Max(-1, math.Min(1, v/r.reach)))
			}
			lo, hi := at(row.mu-row.sd), at(row.mu+row.sd)
			ih := float32(math.Max(2, math.Round(float64(barH)*0.4)))
			row.bar.Move(fyne.NewPos(lo, by+(barH-ih)/2))
			row.bar.Resize(fyne.NewSize(max(hi-lo, 1), ih))
			row.mark.Move(fyne.NewPos(at(row.mu)-1, by-1))
			row.mark.Resize(fyne.NewSize(2, barH+2))
		} else {
			w := float32(math.Min(1, math.Abs(row.share))) * half
			x := bx + half
			if row.share < 0 {
				x -= w
			}
			row.bar.Move(fyne.NewPos(x, by))
			row.bar.Resize(fyne.NewSize(w, barH))
		}
		row.zero.Move(fyne.NewPos(bx+half-0.5, by-2))
		row.zero.Resize(fyne.NewSize(1, barH+4))
		y += factorLead + m.line*float32(len(row.name))
	}
}

// wrapNames splits each name into lines that fit the name column, and
// collects the objects to draw.
func (r *factorRenderer) wrapNames(m factorMetrics) {
	r.objects = r.objects[:0]
	for _, h := range r.head {
		r.objects = append(r.objects, h)
	}
	for i := range r.rows {
		row := &r.rows[i]
		row.name = row.name[:0]
		for _, l := range wrap(row.text, m.nameWidth(r.width), m.text) {
			t := canvas.NewText(l, row.nameColor)
			t.TextSize = m.text
			row.name = append(row.name, t)
			r.objects = append(r.objects, t)
		}
		r.objects = append(r.objects, row.gamma, row.elo, row.track, row.bar, row.zero)
		if row.mark != nil {
			r.objects = append(r.objects, row.mark)
		}
	}
}

func (r *factorRenderer) Refresh() {
	m := factorMetrics{text: theme.TextSize(), caption: theme.CaptionTextSize()}
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	r.bayes = bayesian(r.t.factors)
	heads := [4]string{"feature", "γ", "Elo", "share"}
	small := false
	if r.bayes {
		small = smallBeliefs(r.t.factors)
		heads = [4]string{"pattern", "μ ± σ", "seen/played", "belief"}
		// The ranking model's scale holds its prior's σ, 1, so that vague
		// beliefs look vague; the Bernoulli model's small probabilities
		// fill it.
		r.reach = 0
		if !small {
			r.reach = 1
		}
		for _, f := range r.t.factors {
			r.reach = max(r.reach, math.Abs(f.Weight)+f.SD)
		}
		if !(r.reach > 0) {
			r.reach = 1
		}
	}
	for i, s := range heads {
		t := canvas.NewText(s, dim)
		t.TextSize = m.caption
		if i == 1 || i == 2 {
			t.Alignment = fyne.TextAlignTrailing
		}
		if i == 3 {
			t.Alignment = fyne.TextAlignCenter
		}
		r.head[i] = t
	}
	r.rows = r.rows[:0]
	for _, f := range r.t.factors {
		row := factorRow{text: f.Name, share: f.Share, nameColor: fg}
		var c color.Color = shareUp
		if f.Share < 0 {
			c = shareDown
		}
		if r.bayes {
			text := fg
			if f.Share == 0 { // a smaller pattern the model backed off from: dimmed
				text, c = dim, dim
			}
			row.nameColor, row.mu, row.sd = text, f.Weight, f.SD
			row.gamma = canvas.NewText(belief(f.Weight, f.SD, small), text)
			row.elo = canvas.NewText(fmt.Sprintf("%d/%d", f.Seen, f.Played), text)
			row.mark = canvas.NewRectangle(c)
		} else {
			row.gamma = canvas.NewText(fmt.Sprintf("%.2f", f.Weight), fg)
			row.elo = canvas.NewText(signed(f.Elo), fg)
		}
		for _, t := range []*canvas.Text{row.gamma, row.elo} {
			t.TextSize = m.text
			t.Alignment = fyne.TextAlignTrailing
		}
		row.track = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
		row.bar = canvas.NewRectangle(c)
		row.zero = canvas.NewRectangle(dim)
		r.rows = append(r.rows, row)
	}
	r.wrapNames(r.metrics())
	r.Layout(r.t.Size())
	canvas.Refresh(r.t)
}

func (r *factorRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *factorRenderer) Destroy()                     {}

// signed is an Elo rating as a signed integer with a true minus sign:
// "+73", "−120", "0".
func signed(elo float64) string {
	switch v := int(math.Round(elo)); {
	case v > 0:
		return fmt.Sprintf("+%d", v)
	case v < 0:
		return fmt.Sprintf("−%d", -v)
	}
	return "0"
}

// belief is μ ± σ with a true minus sign and two decimals, or, when small
// (the Bernoulli model's probabilities), two significant digits:
// "0.45 ± 0.15", "−0.12 ± 0.38", "0.0071 ± 0.0029".
func belief(mu, sd float64, small bool) string {
	number := func(v float64) string {
		if small {
			return strconv.FormatFloat(v, 'g', 2, 64)
		}
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return minus(number(mu)) + " ± " + number(sd)
}

// smallBeliefs reports whether fs's beliefs are all small enough to need
// belief's significant digits.
func smallBeliefs(fs []predict.Factor) bool {
	return !slices.ContainsFunc(fs, func(f predict.Factor) bool { return math.Abs(f.Weight) >= 0.095 || f.SD >= 0.095 })
}

func minus(s string) string { return strings.Replace(s, "-", "−", 1) }

// wrap breaks s at spaces into lines no wider than width; a word wider
// than the width gets a line of its own.
func wrap(s string, width, size float32) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && fyne.MeasureText(try, size, fyne.TextStyle{}).Width > width {
			lines = append(lines, line)
			try = w
		}
		line = try
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
