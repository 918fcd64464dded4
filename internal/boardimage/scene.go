package boardimage

import (
	"math"
	"sort"
	"strconv"
)

// The picture is first laid out as a list of shapes in pixels, then drawn by the PNG rasteriser or
// written as SVG elements: one layout, so the two formats cannot drift apart.

type shapeKind uint8

const (
	kWood  shapeKind = iota // the wood texture over a rectangle
	kRect                   // a filled rectangle
	kDisc                   // a filled circle
	kRing                   // a circle's outline
	kStone                  // a stone, shaded or flat
	kText                   // one line of bold text
	kBar                    // the heat scale as a horizontal colour bar
	kLine                   // a straight line from (x, y) to (x2, y2), round-capped
)

// anchor is where a text's x lies: its start, middle or end.
type anchor uint8

const (
	aMiddle anchor = iota
	aStart
	aEnd
)

type shape struct {
	kind       shapeKind
	class      string // the SVG class: stone, heat, territory, star, last, label, coord…
	x, y, w, h float64
	x2, y2     float64 // a line's end
	r, stroke  float64 // radius and outline width (rings, square outlines, lines)
	fill       rgb
	line       rgb
	alpha      float64
	lineAlpha  float64 // opacity of a rectangle's outline (0: none)
	stone      Stone
	flat       bool
	text       string
	anchor     anchor
	logScale   bool    // kBar
	palette    Palette // kBar
}

// capHeight is the Go Bold font's cap height per pixel of size: text is centred on its digits.
const capHeight = 0.716

// scene lays out b in an image of side px.
func scene(b *Board, px int) (layout, []shape) {
	l := newLayout(b, px)
	var s []shape
	add := func(sh shape) { s = append(s, sh) }
	fpx := float64(px)
	cell := float64(l.cell)

	// Wood over the whole image, so the caption and legend sit on the board's own material.
	add(shape{kind: kWood, class: "wood", w: fpx, h: fpx})
	for _, r := range [][4]float64{{0, 0, fpx, 1}, {0, fpx - 1, fpx, 1}, {0, 0, 1, fpx}, {fpx - 1, 0, 1, fpx}} {
		add(shape{kind: kRect, class: "rim", x: r[0], y: r[1], w: r[2], h: r[3], fill: woodEdge, alpha: 1})
	}

	// Grid lines start on pixel boundaries so they stay sharp in the PNG.
	lw := float64(l.line)
	span := float64((b.Size-1)*l.cell) + lw
	x0, y0 := float64(l.origin[0]-l.line/2), float64(l.origin[1]-l.line/2)
	for i := range b.Size {
		d := float64(i * l.cell)
		add(shape{kind: kRect, class: "grid", x: x0, y: y0 + d, w: span, h: lw, fill: lineColor, alpha: 0.92})
		add(shape{kind: kRect, class: "grid", x: x0 + d, y: y0, w: lw, h: span, fill: lineColor, alpha: 0.92})
	}
	for _, p := range StarPoints(b.Size) {
		cx, cy := l.center(p)
		add(shape{kind: kDisc, class: "star", x: cx, y: cy, r: math.Max(1.8, cell*0.11), fill: lineColor, alpha: 1})
	}
	if b.Coordinates && l.cell >= 8 {
		off := cell * 0.78 // from the outer line's centre to the text's centre
		x0c, y0c := l.center(Point{0, 0})
		x1c, y1c := l.center(Point{b.Size - 1, b.Size - 1})
		for i := range b.Size {
			cx, cy := l.center(Point{i, i})
			col, row := ColumnName(i), itoa(b.Size-i)
			for _, y := range []float64{y0c - off, y1c + off} {
				add(shape{kind: kText, class: "coord", x: cx, y: y, h: l.coordPx, fill: lineColor, alpha: 0.85, text: col})
			}
			for _, x := range []float64{x0c - off, x1c + off} {
				add(shape{kind: kText, class: "coord", x: x, y: cy, h: l.coordPx, fill: lineColor, alpha: 0.85, text: row})
			}
		}
	}

	// Territory under the stones' marks: squares on empty points and on stones owned by the other
	// colour (dead-looking), their area |E[s]| as in Stern's figures.
	if b.Territory != nil {
		for i, e := range b.Territory {
			p := Point{i % b.Size, i / b.Size}
			side := cell * 0.56 * math.Sqrt(math.Min(1, math.Abs(e)))
			if math.IsNaN(e) || b.at(p) != Empty || side < 1 {
				continue // stones: drawn over them below, when they look dead
			}
			// A thin dark outline keeps white squares visible on the pale wood.
			fill, outline := ownerBlack, 0.0
			if e < 0 {
				fill, outline = ownerWhite, 0.35
			}
			cx, cy := l.center(p)
			add(shape{kind: kRect, class: "territory", x: cx - side/2, y: cy - side/2, w: side, h: side, fill: fill, alpha: 0.9, line: ownerBlack, stroke: 1, lineAlpha: outline})
		}
	}

	for i := range b.Size * b.Size {
		p := Point{i % b.Size, i / b.Size}
		if st := b.at(p); st != Empty {
			cx, cy := l.center(p)
			add(shape{kind: kStone, class: "stone " + map[Stone]string{Black: "black", White: "white"}[st], x: cx, y: cy, r: l.radius, stone: st, flat: b.FlatStones})
		}
	}
	// Dead-looking stones carry the owner's square over them.
	if b.Territory != nil {
		for i, e := range b.Territory {
			p := Point{i % b.Size, i / b.Size}
			st := b.at(p)
			if math.IsNaN(e) || st == Empty || (st == Black) == (e > 0) || e == 0 {
				continue
			}
			side := cell * 0.56 * math.Sqrt(math.Min(1, math.Abs(e)))
			fill := ownerBlack
			if e < 0 {
				fill = ownerWhite
			}
			cx, cy := l.center(p)
			add(shape{kind: kRect, class: "territory dead", x: cx - side/2, y: cy - side/2, w: side, h: side, fill: fill, alpha: 0.9})
		}
	}

	labelled := make(map[Point]string)
	for _, lb := range b.Labels {
		if b.on(lb.Point) && lb.Text != "" {
			labelled[lb.Point] = lb.Text
		}
	}
	// discFill remembers each disc's colour so the label over it picks its ink.
	discFill := make(map[Point]rgb)
	if b.Heat != nil {
		hmax := b.heatMax()
		for i := range b.Heat {
			t := b.heatPos(i, hmax)
			if t < 0 {
				continue
			}
			p := Point{i % b.Size, i / b.Size}
			_, text := labelled[p]
			r, a := heatStyle(t, text)
			c := rgb(PaletteAt(t, b.Palette))
			cx, cy := l.center(p)
			add(shape{kind: kDisc, class: "heat", x: cx, y: cy, r: r * cell, fill: c, alpha: a})
			discFill[p] = mix(woodColor, c, a)
		}
	}

	if b.CFG != nil {
		s = append(s, cfgShapes(b.CFG, l)...)
	}
	if b.Search != nil {
		s = append(s, searchShapes(b, l)...)
	}

	if b.HasLast && b.at(b.Last) != Empty {
		cx, cy := l.center(b.Last)
		mark := rgb{235, 235, 235}
		if b.at(b.Last) != Black {
			mark = rgb{20, 20, 20}
		}
		add(shape{kind: kRing, class: "last", x: cx, y: cy, r: l.radius * 0.48, stroke: math.Max(1.5, l.radius*0.13), line: mark, alpha: 0.95})
	}

	// Labels in a fixed order, so that the SVG text is deterministic.
	pts := make([]Point, 0, len(labelled))
	for p := range labelled {
		pts = append(pts, p)
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Y*MaxSize+pts[i].X < pts[j].Y*MaxSize+pts[j].X })
	for _, p := range pts {
		bg, ok := discFill[p]
		switch st := b.at(p); {
		case st == Black:
			bg = blackStone
		case st == White:
			bg = whiteStone
		case !ok:
			bg = woodColor
		}
		cx, cy := l.center(p)
		add(shape{kind: kText, class: "label", x: cx, y: cy, h: l.textPx, fill: inkOn(bg), alpha: 1, text: labelled[p]})
	}

	if b.Caption != "" {
		// A long caption shrinks to fit the width rather than being cut.
		h := float64(l.capH) * 0.5
		if w := textWidth(b.Caption, h); w > fpx*0.96 {
			h *= fpx * 0.96 / w
		}
		add(shape{kind: kText, class: "caption", x: fpx / 2, y: float64(l.capH) * 0.6, h: h, fill: inkDark, alpha: 1, text: b.Caption})
	}
	if b.Heat != nil {
		s = append(s, legend(b, l)...)
	}
	return l, s
}

// cfgShapes draws a common fate graph as the app's CFG layer does: the bonds within chains, then
// each edge in two halves, each in the colour of the vertex it starts from (lighter between empty
// points, whose edges lie on the grid's lines), then the vertices on top.
func cfgShapes(g *CFG, l layout) []shape {
	var s []shape
	cell := float64(l.cell)
	line := func(class string, ax, ay, bx, by, w float64, c [3]uint8, a float64) {
		s = append(s, shape{kind: kLine, class: class, x: ax, y: ay, x2: bx, y2: by, stroke: w, line: c, alpha: a})
	}
	// The vertex of every point, for the bonds within chains.
	var vertexAt [MaxSize][MaxSize]int32
	for v, vx := range g.Vertices {
		for _, p := range vx.Points {
			vertexAt[p.Y][p.X] = int32(v) + 1
		}
	}
	bw := math.Max(2, cell*CFGBond)
	for v, vx := range g.Vertices {
		if vx.Stone == Empty || len(vx.Points) < 2 {
			continue
		}
		for _, p := range vx.Points {
			ax, ay := l.center(p)
			for _, q := range []Point{{p.X + 1, p.Y}, {p.X, p.Y + 1}} {
				if q.X < MaxSize && q.Y < MaxSize && vertexAt[q.Y][q.X] == int32(v)+1 {
					bx, by := l.center(q)
					line("cfg bond", ax, ay, bx, by, bw, LabelInk(vx.Label), 0.8)
				}
			}
		}
	}
	ew := math.Max(1, cell*CFGEdge)
	for _, e := range g.Edges {
		u, v := &g.Vertices[e[0]], &g.Vertices[e[1]]
		ux, uy := l.center(u.Centre)
		vx, vy := l.center(v.Centre)
		mx, my := (ux+vx)/2, (uy+vy)/2
		a := 1.0
		if u.Stone == Empty && v.Stone == Empty {
			a = CFGEmptyEdgeA
		}
		line("cfg edge", ux, uy, mx, my, ew, LabelInk(u.Label), a)
		line("cfg edge", mx, my, vx, vy, ew, LabelInk(v.Label), a)
	}
	for _, vx := range g.Vertices {
		x, y := l.center(vx.Centre)
		ink := rgb(LabelInk(vx.Label))
		if vx.Stone == Empty {
			h := math.Max(1.5, cell*CFGSquare)
			s = append(s, shape{kind: kRect, class: "cfg rim", x: x - h - 1, y: y - h - 1, w: 2 * (h + 1), h: 2 * (h + 1), fill: CFGDarkRim, alpha: 0.55},
				shape{kind: kRect, class: "cfg point", x: x - h, y: y - h, w: 2 * h, h: 2 * h, fill: ink, alpha: 1})
			continue
		}
		rim := rgb(CFGDarkRim)
		if vx.Stone == Black {
			rim = CFGLightRim
		}
		r := math.Max(2, cell*CFGNode)
		s = append(s, shape{kind: kDisc, class: "cfg rim", x: x, y: y, r: r + math.Max(1, cell*0.04), fill: rim, alpha: 0.9},
			shape{kind: kDisc, class: "cfg chain", x: x, y: y, r: r, fill: ink, alpha: 1})
	}
	return s
}

// searchShapes draws a tree search's candidates as the app's Search layer does, least visited first
// so that the best discs lie on top where neighbours touch; moves off the board are skipped.
func searchShapes(b *Board, l layout) []shape {
	top := 0
	for _, m := range b.Search {
		top = max(top, m.Visits)
	}
	var s []shape
	cell := float64(l.cell)
	for k := len(b.Search) - 1; k >= 0 && top > 0; k-- {
		m := b.Search[k]
		if !b.on(m.Point) || m.Visits <= 0 {
			continue
		}
		share := float64(m.Visits) / float64(top)
		cx, cy := l.center(m.Point)
		r := cell * SearchRadius(share)
		s = append(s, shape{kind: kDisc, class: "search", x: cx, y: cy, r: r, fill: SearchRampAt(share), alpha: 1})
		if m.Best {
			bw := math.Max(2, cell*SearchRing)
			s = append(s, shape{kind: kRing, class: "search best", x: cx, y: cy, r: r - bw/2, stroke: bw, line: bestColor, alpha: 1})
		}
		rate := strconv.Itoa(int(math.Round(100 * m.WinRate)))
		vis := VisitsText(m.Visits)
		hr, hv := fitText(rate, cell*SearchRatePx, 1.5*r), fitText(vis, cell*SearchVisPx, 1.5*r)
		switch {
		case hr >= minTextPx && hv >= minTextPx:
			s = append(s, shape{kind: kText, class: "search rate", x: cx, y: cy + cell*SearchRateDY, h: hr, fill: inkDark, alpha: 1, text: rate},
				shape{kind: kText, class: "search visits", x: cx, y: cy + cell*SearchVisDY, h: hv, fill: inkDark, alpha: 220.0 / 256, text: vis})
		case hr >= minTextPx:
			s = append(s, shape{kind: kText, class: "search rate", x: cx, y: cy, h: hr, fill: inkDark, alpha: 1, text: rate})
		}
	}
	return s
}

// minTextPx is the smallest text a candidate carries, as on the app's board: below it glyphs are
// blobs, and the discs' sizes and colours say enough.
const minTextPx = 7

// fitText is the largest text size, at most px, at which s is no wider than maxW.
func fitText(s string, px, maxW float64) float64 {
	if w := textWidth(s, px); w > maxW {
		return px * maxW / w
	}
	return px
}

// legend is the heat scale under the board: a colour bar with ticks and their probabilities.
func legend(b *Board, l layout) []shape {
	fpx := float64(l.px)
	top := float64(l.top + l.side)
	h := float64(l.legH)
	barW := fpx * 0.6
	x := (fpx - barW) / 2
	barY, barH := top+h*0.08, h*0.3
	s := []shape{{kind: kBar, class: "legend", x: x, y: barY, w: barW, h: barH, logScale: b.LogScale, palette: b.Palette}}
	type tick struct {
		t    float64
		text string
	}
	var ticks []tick
	if b.LogScale {
		ticks = []tick{{0, "0.01%"}, {0.25, "0.1%"}, {0.5, "1%"}, {0.75, "10%"}, {1, "100%"}}
	} else {
		m := b.heatMax()
		if !(m > 0 && m <= 1) {
			m = 1
		}
		for _, f := range []float64{0, 0.25, 0.5, 0.75, 1} {
			ticks = append(ticks, tick{f, percentText(f * m)})
		}
	}
	textPx := h * 0.28
	for _, tk := range ticks {
		tx := x + tk.t*barW
		s = append(s, shape{kind: kRect, class: "tick", x: math.Round(tx) - 0.5, y: barY, w: 1, h: barH + h*0.08, fill: lineColor, alpha: 1})
		s = append(s, shape{kind: kText, class: "tick", x: tx, y: barY + barH + h*0.1 + textPx*0.5 + h*0.05, h: textPx, fill: inkDark, alpha: 1, text: tk.text})
	}
	scale := "linear scale"
	if b.LogScale {
		scale = "log scale"
	}
	s = append(s, shape{kind: kText, class: "tick", x: x + barW + fpx*0.015, y: barY + barH/2, h: textPx, fill: inkDark, alpha: 1, text: scale, anchor: aStart})
	return s
}

// percentText is a probability for a legend tick: "38%", "4.2%", "0%".
func percentText(p float64) string {
	if p == 0 {
		return "0%"
	}
	return PercentLabel(p) + "%"
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
