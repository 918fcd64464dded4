package goban

import (
	"aji/internal/boardimage"
	"image"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Legend is a horizontal colour bar with tick labels that explains the
// heat map: 0.01%..100% for ScaleLog, 0..max% for ScaleLinear. It takes
// its colours from HeatColor's palettes, so it always matches the board.
// After SetDiverging it explains a Difference layer instead.
type Legend struct {
	widget.BaseWidget

	scale   Scale
	palette Palette
	max     float64
	clamp   float64 // > 0: a Difference layer's legend, −clamp..+clamp nats
}

// NewDifferenceLegend returns the legend of a Difference layer clamped at
// ±clamp nats: DivergingColor from −clamp to +clamp.
func NewDifferenceLegend(clamp float64) *Legend {
	l := &Legend{max: 1, clamp: clamp}
	l.ExtendBaseWidget(l)
	return l
}

// NewLegend returns a legend for the default scale and palette (linear,
// viridis) up to 100%.
func NewLegend() *Legend {
	l := &Legend{max: 1}
	l.ExtendBaseWidget(l)
	return l
}

// Set chooses the scale and palette shown.
func (l *Legend) Set(s Scale, p Palette) {
	if s > ScaleLog {
		s = ScaleLinear
	}
	if p >= boardimage.NumPalettes {
		p = PaletteViridis
	}
	if s == l.scale && p == l.palette {
		return
	}
	l.scale, l.palette = s, p
	l.Refresh()
}

// SetMax sets the probability at the top of the linear scale: on the
// board that is the heat map's largest probability (Heat.Max). Values
// outside (0, 1] mean 1.
func (l *Legend) SetMax(max float64) {
	if !(max > 0) || max > 1 {
		max = 1
	}
	if max == l.max {
		return
	}
	l.max = max
	l.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (l *Legend) CreateRenderer() fyne.WidgetRenderer {
	r := &legendRenderer{legend: l}
	r.bar = canvas.NewRaster(r.paintBar)
	r.frame = canvas.NewRectangle(nil)
	r.frame.StrokeWidth = 1
	r.Refresh()
	return r
}

// tick is a labelled position on the colour bar.
type tick struct {
	t    float64 // 0..1 along the bar
	text string
}

// differenceTicks are a Difference legend's ticks: ±clamp, ±clamp/2 and 0,
// in nats.
func differenceTicks(clamp float64) []tick {
	label := func(v float64) string {
		if v == 0 {
			return "0"
		}
		s := strconv.FormatFloat(math.Abs(v), 'g', 3, 64)
		if v < 0 {
			return "−" + s
		}
		return "+" + s
	}
	var ts []tick
	for _, f := range []float64{-1, -0.5, 0, 0.5, 1} {
		ts = append(ts, tick{(f + 1) / 2, label(f * clamp)})
	}
	return ts
}

// legendTicks returns the ticks of a scale: the decades for ScaleLog, and
// for ScaleLinear round steps (1, 2 or 5 × 10^k) from 0 up to top, about
// four of them so that labels never crowd, plus top itself.
func legendTicks(s Scale, top float64) []tick {
	if s == ScaleLog {
		return []tick{{0, "0.01%"}, {0.25, "0.1%"}, {0.5, "1%"}, {0.75, "10%"}, {1, "100%"}}
	}
	if !(top > 0) || top > 1 {
		top = 1
	}
	raw := top / 4
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	// Decimals enough to tell the steps apart, in percent.
	decimals := max(0, int(math.Ceil(-math.Log10(step*100)-1e-9)))
	label := func(v float64) string {
		if v == 0 {
			return "0%"
		}
		return strconv.FormatFloat(v*100, 'f', decimals, 64) + "%"
	}
	var ts []tick
	last := 0.0
	for k := 0; float64(k)*step <= top*(1+1e-9); k++ {
		last = float64(k) * step
		ts = append(ts, tick{last / top, label(last)})
	}
	// Label the top too, unless a round tick already sits near it.
	if top-last >= step/2 {
		ts = append(ts, tick{1, label(top)})
	}
	return ts
}

// Legend geometry, in Fyne units.
const (
	legendBar  = 12 // height of the colour bar
	legendTick = 4  // length of a tick below the bar
	legendGap  = 2  // between a tick and its label
)

type legendRenderer struct {
	legend *Legend
	bar    *canvas.Raster
	frame  *canvas.Rectangle
	lines  []*canvas.Line
	texts  []*canvas.Text
	ticks  []tick
	objs   []fyne.CanvasObject

	img      *image.RGBA // the last bar, reused while its size and palette hold
	imgPal   Palette
	imgClamp float64
}

// paintBar draws the gradient at the bar's pixel size, so it stays sharp.
func (r *legendRenderer) paintBar(w, h int) image.Image {
	pal, clamp := r.legend.palette, r.legend.clamp
	if r.img != nil && r.img.Rect.Dx() == w && r.img.Rect.Dy() == h && r.imgPal == pal && r.imgClamp == clamp {
		return r.img
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		t := (float64(x) + 0.5) / float64(w)
		c := paletteAt(t, pal)
		if clamp > 0 {
			d := DivergingColor(2*t - 1)
			c = [3]uint8{d.R, d.G, d.B}
		}
		for y := range h {
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c[0], c[1], c[2], 255
		}
	}
	r.img, r.imgPal, r.imgClamp = img, pal, clamp
	return img
}

// MinSize implements fyne.WidgetRenderer: the narrowest bar on which
// neighbouring labels, centred on their ticks, keep a gap between them.
func (r *legendRenderer) MinSize() fyne.Size {
	const gap = 6
	bar := float32(60)
	h := float32(0)
	for i, t := range r.texts {
		s := t.MinSize()
		h = max(h, s.Height)
		if i == 0 {
			continue
		}
		need := (r.texts[i-1].MinSize().Width+s.Width)/2 + gap
		if dt := float32(r.ticks[i].t - r.ticks[i-1].t); dt > 0 {
			bar = max(bar, need/dt)
		}
	}
	return fyne.NewSize(bar+2*r.inset(), legendBar+legendTick+legendGap+h)
}

// inset is the margin at each end of the bar: half the widest end label,
// so that the end labels stay inside the widget.
func (r *legendRenderer) inset() float32 {
	n := len(r.texts)
	if n == 0 {
		return 0
	}
	return max(r.texts[0].MinSize().Width, r.texts[n-1].MinSize().Width) / 2
}

// Layout implements fyne.WidgetRenderer.
func (r *legendRenderer) Layout(size fyne.Size) {
	inset := r.inset()
	barW := max(size.Width-2*inset, 1)
	r.bar.Move(fyne.NewPos(inset, 0))
	r.bar.Resize(fyne.NewSize(barW, legendBar))
	r.frame.Move(fyne.NewPos(inset, 0))
	r.frame.Resize(fyne.NewSize(barW, legendBar))
	for i, tk := range r.ticks {
		x := inset + float32(tk.t)*barW
		// Keep the end ticks inside the frame's stroke.
		x = min(max(x, inset+0.5), inset+barW-0.5)
		r.lines[i].Position1 = fyne.NewPos(x, legendBar)
		r.lines[i].Position2 = fyne.NewPos(x, legendBar+legendTick)
		s := r.texts[i].MinSize()
		r.texts[i].Move(fyne.NewPos(x-s.Width/2, legendBar+legendTick+legendGap))
		r.texts[i].Resize(s)
	}
}

// Refresh implements fyne.WidgetRenderer.
func (r *legendRenderer) Refresh() {
	l := r.legend
	r.ticks = legendTicks(l.scale, l.max)
	if l.clamp > 0 {
		r.ticks = differenceTicks(l.clamp)
	}
	fg := theme.Color(theme.ColorNameForeground)
	size := theme.Size(theme.SizeNameCaptionText)
	for len(r.texts) < len(r.ticks) {
		t := canvas.NewText("", fg)
		t.Alignment = fyne.TextAlignCenter
		r.texts = append(r.texts, t)
		r.lines = append(r.lines, canvas.NewLine(fg))
	}
	r.texts, r.lines = r.texts[:len(r.ticks)], r.lines[:len(r.ticks)]
	for i, tk := range r.ticks {
		r.texts[i].Text, r.texts[i].Color, r.texts[i].TextSize = tk.text, fg, size
		r.lines[i].StrokeColor, r.lines[i].StrokeWidth = fg, 1
	}
	r.frame.StrokeColor = fg
	r.objs = append(r.objs[:0], r.bar, r.frame)
	for i := range r.ticks {
		r.objs = append(r.objs, r.lines[i], r.texts[i])
	}
	r.Layout(l.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

// Objects implements fyne.WidgetRenderer.
func (r *legendRenderer) Objects() []fyne.CanvasObject { return r.objs }

// Destroy implements fyne.WidgetRenderer.
func (r *legendRenderer) Destroy() { r.img = nil }
