package goban

import (
	"image"
	"image/color"
	"math"
	"sync"
)

// Peer is a Layer for what an external engine says about the position (GoGui's gfx): coloured
// points, an influence map as a Values layer would draw it, then labels and marks — the engine's
// move ringed, the texts of its answer, its squares, triangles and circles.
type Peer struct {
	Size int
	// Fills colour whole points, under everything else (GoGui's COLOR).
	Fills []Fill
	// Influence holds Size*Size values in [−1, +1], index Y*Size+X, drawn as a Values layer; nil: none.
	Influence []float64
	// Labels are texts and marks; a nil Color picks black or white for contrast with what lies
	// beneath. Best is not drawn.
	Labels []Label
}

// Fill is a point coloured by a Peer layer.
type Fill struct {
	Point Point
	Color color.Color
}

// peerFillAlpha keeps the stones and lines readable under a Peer layer's fills.
const peerFillAlpha = 0.5

// peerText is the face cache of Peer layers, which the workbench replaces on every answer; the lock
// makes painting from two boards safe.
var peerText struct {
	sync.Mutex
	tc textCache
}

func (l *Peer) onBoard(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < l.Size && p.Y < l.Size }

// Paint implements Layer.
func (l *Peer) Paint(img *image.RGBA, g Grid) {
	if l.Size != g.Size || l.Size < MinSize || g.Cell < 2 {
		return
	}
	cell := float64(g.Cell)
	for _, f := range l.Fills {
		if !l.onBoard(f.Point) || f.Color == nil {
			continue
		}
		c := color.NRGBAModel.Convert(f.Color).(color.NRGBA)
		cx, cy := g.Center(f.Point)
		fillSquare(img, cx, cy, cell/2, [3]uint8{c.R, c.G, c.B}, peerFillAlpha*float64(c.A)/255)
	}
	if len(l.Influence) == l.Size*l.Size {
		(&Values{Size: l.Size, V: l.Influence}).Paint(img, g)
	}
	if len(l.Labels) == 0 {
		return
	}
	peerText.Lock()
	defer peerText.Unlock()
	w := math.Max(1.5, cell*strokeW)
	textPx := int(math.Round(cell * labelTextPx))
	for _, lb := range l.Labels {
		if !l.onBoard(lb.Point) {
			continue
		}
		cx, cy := g.Center(lb.Point)
		ink, alpha := inkDark, 1.0
		if lb.Color != nil {
			c := color.NRGBAModel.Convert(lb.Color).(color.NRGBA)
			ink, alpha = [3]uint8{c.R, c.G, c.B}, float64(c.A)/255
		} else if darkBackground(meanLuminance(img, cx, cy, cell*0.22)) {
			ink = inkLight
		}
		drawMark(img, lb.Mark, cx, cy, cell, w, ink, alpha)
		if lb.Text != "" {
			if f := peerText.tc.fit(lb.Text, textPx, cell*maxLabelW); f != nil {
				f.draw(img, lb.Text, cx, cy, ink, uint32(alpha*256+0.5))
			}
		}
	}
}
