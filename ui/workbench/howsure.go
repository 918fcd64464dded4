package workbench

import (
	"image"
	"math"

	"aji/analysis/engine"
	"aji/analysis/live"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The inspector's "How sure" layer draws, for a predictor whose model holds
// beliefs with a spread (predict.Uncertain: Stern's Bayesian pattern
// models), how sure it is of each legal move: the σ of its belief about the
// move's pattern, as a square per move in viridis, the board's
// colour-blind-safe sequential scale, read backwards and growing, so that a
// sure move is a small, faint yellow square and a guess a large, strong
// dark one. σ is on a log scale over two decades below
// the prior's (σ falls as 1/√n with the n times a pattern was seen, so a
// decade is a hundredfold more evidence). It is computed on an engine
// worker (live.Predictors.Spread) for the main board's predictor and drawn
// on the boards whether the tab is shown or not, like an input plane.

// sureDepth puts the layer above the labels, under an input plane.
const sureDepth = 2

// sureDecades is the log scale's range below the prior's σ.
const sureDecades = 2

// howSure is the inspector's "How sure" check, its note, and the layer.
type howSure struct {
	in    *inspector
	check *widget.Check
	note  *canvas.Text
	row   fyne.CanvasObject

	on     bool
	able   map[string]bool // whether each predictor has uncertainty, once known
	shown  *live.Spreads   // the last spreads delivered for the main board's predictor
	layer  *sureLayer      // the layer of shown
	drawn  goban.Layer     // what the boards show: layer, or nil
	silent bool            // a change of the check made by the program
}

func newHowSure(in *inspector) *howSure {
	s := &howSure{in: in, able: map[string]bool{}}
	s.check = widget.NewCheck("How sure", s.set)
	s.note = canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder))
	s.note.TextSize = theme.CaptionTextSize()
	s.row = container.NewBorder(nil, nil, s.check, nil, container.NewCenter(s.note))
	s.update()
	return s
}

// predictor is the main board's predictor, whose spreads are drawn.
func (s *howSure) predictor() string { name, _ := s.in.wb.predictorOf(0); return name }

// set follows the check.
func (s *howSure) set(on bool) {
	if s.silent {
		return
	}
	s.on = on
	if on {
		s.in.wb.analyze() // measure the position shown
	}
	s.draw()
}

// tasks: the spreads of the main board's predictor while the layer is on;
// while only the tab is shown, once per predictor, to learn whether it has
// any (a predictor without them answers at once).
func (s *howSure) tasks(shown bool) []engine.Task {
	name := s.predictor()
	_, known := s.able[name]
	if name == "" || !s.on && (!shown || known) {
		return nil
	}
	return []engine.Task{s.in.wb.an.SpreadTask(name, func(sp *live.Spreads, err error) {
		if err != nil {
			return // the prediction task reports the failure and switches
		}
		s.able[name] = !sp.Unable
		if !sp.Unable {
			s.shown = sp
		}
		s.draw()
	})}
}

// draw puts the spreads of the main board's predictor on the boards, or
// takes them away, and brings the check and its note up to date.
func (s *howSure) draw() {
	s.update()
	var l goban.Layer
	if sp := s.shown; s.on && sp != nil && sp.Predictor == s.predictor() {
		if s.layer == nil || s.layer.s != sp {
			s.layer = &sureLayer{s: sp}
		}
		l = s.layer
	}
	if l != s.drawn {
		s.drawn = l
		s.in.wb.showLayers()
	}
}

// update enables the check for a predictor with uncertainty (or one not
// yet asked) and says what the layer shows, or why there is none.
func (s *howSure) update() {
	name := s.predictor()
	able, known := s.able[name]
	note := "light: sure · dark: guessing"
	switch {
	case name == "":
		able, known, note = false, true, "no predictor"
	case known && !able:
		note = name + " has no uncertainty (bayes, bernoulli have)"
	}
	if known && !able {
		s.check.Disable()
		if s.on {
			s.silent = true
			s.check.SetChecked(false)
			s.silent, s.on = false, false
		}
	} else {
		s.check.Enable()
	}
	if s.note.Text != note {
		s.note.Text = note
		s.note.Refresh()
	}
}

// sureLayer draws spreads: a square on every legal move, its colour and
// opacity from its σ.
type sureLayer struct{ s *live.Spreads }

// surePos is σ's place on the layer's scale, 0 (sure) to 1 (the prior).
func surePos(sd, prior float64) float64 {
	if !(sd > 0) || !(prior > 0) {
		return 0
	}
	return math.Max(0, math.Min(1, 1+math.Log10(sd/prior)/sureDecades))
}

// sureColor is the colour of scale position t: viridis backwards.
func sureColor(t float64) [3]uint8 {
	c := goban.HeatColor(1-t, goban.ScaleLinear, goban.PaletteViridis)
	return [3]uint8{c.R, c.G, c.B}
}

// Paint implements goban.Layer.
func (l *sureLayer) Paint(img *image.RGBA, g goban.Grid) {
	n := l.s.Size
	if n != g.Size || len(l.s.V) != n*n || g.Cell < 2 {
		return
	}
	for i, sd := range l.s.V {
		if !(sd > 0) {
			continue // not a legal move
		}
		t := surePos(sd, l.s.Prior)
		cx, cy := g.Center(goban.Point{X: i % n, Y: i / n})
		h := float64(g.Cell) * (0.16 + 0.16*t)
		fillRect(img, cx, cy, h, sureColor(t), 0.35+0.6*t)
	}
}

// fillRect blends a square of half-side h centred on (cx, cy) with colour
// c at opacity alpha, covering partly covered pixels in part.
func fillRect(img *image.RGBA, cx, cy, h float64, c [3]uint8, alpha float64) {
	x0, x1, y0, y1 := cx-h, cx+h, cy-h, cy+h
	b := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1))).Intersect(img.Rect)
	for py := b.Min.Y; py < b.Max.Y; py++ {
		cy := math.Min(y1, float64(py+1)) - math.Max(y0, float64(py))
		for px := b.Min.X; px < b.Max.X; px++ {
			cov := cy * (math.Min(x1, float64(px+1)) - math.Max(x0, float64(px)))
			if cov <= 0 {
				continue
			}
			a := alpha * cov
			o := img.PixOffset(px, py)
			for k := range c {
				img.Pix[o+k] = uint8(float64(img.Pix[o+k])*(1-a) + float64(c[k])*a + 0.5)
			}
		}
	}
}

// layers paints several layers as one, in order.
type layers []goban.Layer

// Paint implements goban.Layer.
func (ls layers) Paint(img *image.RGBA, g goban.Grid) {
	for _, l := range ls {
		l.Paint(img, g)
	}
}
