package workbench

import (
	"context"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/live"
	"aji/analysis/territory"
	"aji/assets"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// proGame opens the sample professional game (Tono Hiroaki – Tei Meiko,
// assets/games/Agon-01-8.sgf) at a move, with the heat map and labels off so
// that the territory layer is what the board shows.
func proGame(t *testing.T, move int) *harness {
	t.Helper()
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, string(data))
	h.wb.move(h.wb.doc.cursor.Forward(move))
	if h.move() != move {
		t.Fatalf("at move %d, want %d", h.move(), move)
	}
	h.wb.settings.heat, h.wb.settings.topK = false, 0
	h.wb.render()
	return h
}

// estimated waits for the territory estimate of the current position.
func (h *harness) estimated() *live.Ownership {
	h.t.Helper()
	tv := tabOf[*territoryView](h.wb)
	h.pump("the territory estimate", func() bool { return tv.shown != nil && tv.node == h.wb.doc.cursor.Node() })
	return tv.shown
}

// enclosed returns the empty regions of b that only stones of one colour
// border, with at least min points: territory any player would call owned.
func enclosed(b *board.Board, min int) map[board.Color][][]board.Point {
	seen := map[board.Point]bool{}
	out := map[board.Color][][]board.Point{}
	for _, p := range b.Points() {
		if b.At(p) != board.Empty || seen[p] {
			continue
		}
		region, border := []board.Point{p}, map[board.Color]bool{}
		seen[p] = true
		for k := 0; k < len(region); k++ {
			q := region[k]
			for _, r := range []board.Point{q - 1, q + 1, q - board.Stride, q + board.Stride} {
				switch c := b.At(r); c {
				case board.Empty:
					if !seen[r] {
						seen[r] = true
						region = append(region, r)
					}
				case board.Black, board.White:
					border[c] = true
				}
			}
		}
		if len(border) == 1 && len(region) >= min {
			for c := range border {
				out[c] = append(out[c], region)
			}
		}
	}
	return out
}

// boardPixels captures the window and returns the image with a function
// giving the pixel at the centre of intersection p of the main board.
func (h *harness) boardPixels() (image.Image, func(goban.Point) color.RGBA) {
	h.t.Helper()
	b := h.wb.views[0].board
	img := h.w.Canvas().Capture()
	scale := h.w.Canvas().Scale()
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
	// The board maps pixels to points; the centre of p is the middle of
	// the pixels that map to it.
	type acc struct{ x, y, n float32 }
	sums := map[goban.Point]*acc{}
	for y := float32(0); y < b.Size().Height; y++ {
		for x := float32(0); x < b.Size().Width; x++ {
			if q, ok := b.PointAt(fyne.NewPos(x, y)); ok {
				a := sums[q]
				if a == nil {
					a = &acc{}
					sums[q] = a
				}
				a.x, a.y, a.n = a.x+x, a.y+y, a.n+1
			}
		}
	}
	return img, func(p goban.Point) color.RGBA {
		a := sums[p]
		if a == nil {
			h.t.Fatalf("no pixel of the board shows %v", p)
		}
		x := int(math.Round(float64((abs.X + a.x/a.n) * scale)))
		y := int(math.Round(float64((abs.Y + a.y/a.n) * scale)))
		return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
	}
}

func gp(p board.Point) goban.Point {
	x, y := p.XY()
	return goban.Point{X: x, Y: y}
}

// TestTerritoryOverlayShowsOwners turns the overlay on in a real
// professional position: the areas each side has walled off are estimated
// as theirs and painted in their colour, and the score is shown.
func TestTerritoryOverlayShowsOwners(t *testing.T) {
	h := proGame(t, 240)
	tv := tabOf[*territoryView](h.wb)
	if tv.s.on || tv.drawn != nil {
		t.Fatal("the territory overlay is on before it was asked for")
	}
	// The section is the Territory tab; the choice of tab is kept.
	h.selectTab(tabTerritory)
	if h.wb.panel.tabs.Selected().Content != tv.box || h.wb.opts.Preferences.String(prefTab) != tabTerritory {
		t.Error("the Territory tab does not show the section, or its choice was not saved")
	}
	if got := loadSettings(h.wb.opts.Preferences).tab; got != tabTerritory {
		t.Errorf("saved tab loads as %q", got)
	}
	test.Tap(tv.on)
	if !h.wb.opts.Preferences.Bool(prefTerritory) {
		t.Error("turning the overlay on was not saved")
	}
	o := h.estimated()
	if o.Model != live.DefaultTerritoryModel || o.Method != live.DefaultTerritoryMethod || o.Size != 19 {
		t.Fatalf("estimate by %s/%s on %dx%d", o.Model, o.Method, o.Size, o.Size)
	}
	l, ok := tv.drawn.(*goban.Territory)
	if !ok || &l.Owner[0] != &o.Mean[0] || !l.MarkDead {
		t.Fatalf("the board's layer is %T, not the estimate with dead stones marked", tv.drawn)
	}
	pos := h.wb.doc.cursor.Position()
	regions := enclosed(&pos.Board, 3)
	next, _ := nextMove(h.wb.doc.cursor)
	_, pixel := h.boardPixels()
	for _, c := range []board.Color{board.Black, board.White} {
		if len(regions[c]) == 0 {
			t.Fatalf("no area enclosed by %s alone at move 240", colorName(c))
		}
		checked := 0
		for _, region := range regions[c] {
			for _, p := range region {
				v := o.Mean[gp(p).Y*19+gp(p).X]
				if c == board.White {
					v = -v
				}
				// Boltzmann5 is least sure in corners, with the fewest
				// neighbours (A19 is +0.43 here); every point is the right side's.
				if v < 0.3 {
					t.Errorf("%s's enclosed point %s has E[s] %+.2f from %s's side", colorName(c), p.GTP(19), v, colorName(c))
				}
				if p == next || v < 0.6 {
					continue
				}
				px := pixel(gp(p))
				lum := (int(px.R) + int(px.G) + int(px.B)) / 3
				if c == board.Black && lum > 70 || c == board.White && lum < 215 {
					t.Errorf("%s's point %s (E[s] %+.2f) painted %v", colorName(c), p.GTP(19), v, px)
				}
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("no pixel of %s's area checked", colorName(c))
		}
	}
	h.pump("the win probability", func() bool { return strings.Contains(tv.win.Text, "wins") })
	if got := tv.summary.Text; !strings.HasPrefix(got, "Expected score ") || !strings.Contains(got, "komi 5.5") {
		t.Errorf("summary %q", got)
	}
	if got := tv.win.Text; !strings.Contains(got, "over 2000 samples") {
		t.Errorf("win line %q", got)
	}
	// The expected score is the sum of the marginals less komi (Stern §5.1.1).
	sum := -pos.Komi
	for _, v := range o.Mean {
		sum += v
	}
	if want := scoreText(sum); !strings.Contains(tv.summary.Text, want) {
		t.Errorf("summary %q lacks the expected score %s", tv.summary.Text, want)
	}
	// Off again: the layer goes, and no estimate runs.
	test.Tap(tv.on)
	if tv.drawn != nil || taskCount(tv) != 0 || tv.win.Text != "" {
		t.Error("turning the overlay off left it on the board or running")
	}
}

// TestTerritoryMethodSwitchUpdates switches the inference method and the
// model in the panel: each brings its own estimate onto the board.
func TestTerritoryMethodSwitchUpdates(t *testing.T) {
	h := proGame(t, 120)
	tv := tabOf[*territoryView](h.wb)
	test.Tap(tv.on)
	sw := h.estimated()
	tv.method.SetSelected(territory.MethodLBP.String())
	if got := h.wb.opts.Preferences.String(prefTerritoryMethod); got != territory.MethodLBP.String() {
		t.Errorf("saved method %q", got)
	}
	h.pump("the LBP estimate", func() bool { return tv.shown != nil && tv.shown.Method == territory.MethodLBP.String() })
	lbp := tv.shown
	l, ok := tv.drawn.(*goban.Territory)
	if !ok || &l.Owner[0] != &lbp.Mean[0] {
		t.Fatal("the board does not show the LBP estimate")
	}
	diff := 0.0
	for i := range sw.Mean {
		diff = math.Max(diff, math.Abs(sw.Mean[i]-lbp.Mean[i]))
	}
	if diff < 1e-3 {
		t.Errorf("SW and LBP estimates agree to %g everywhere: the method did not change", diff)
	}
	// LBP is deterministic: its estimate is the estimator's own.
	e, _ := territory.NewEstimator(territory.KindBoltzmann5, territory.MethodLBP)
	var m territory.Marginals
	pos := h.wb.doc.cursor.Position()
	if err := e.Estimate(context.Background(), pos, &m); err != nil {
		t.Fatal(err)
	}
	for _, p := range pos.Board.Points() {
		if q := gp(p); lbp.Mean[q.Y*19+q.X] != m.Mean[p] {
			t.Fatalf("LBP estimate at %s %g, want %g", p.GTP(19), lbp.Mean[q.Y*19+q.X], m.Mean[p])
		}
	}
	// Monte Carlo ownership takes no method.
	tv.model.SetSelected(territory.KindMC.String())
	h.pump("the mc estimate", func() bool { return tv.shown != nil && tv.shown.Model == territory.KindMC.String() })
	if !tv.method.Disabled() || !tv.sampleB.Disabled() {
		t.Error("with mc the method and the sample stay enabled")
	}
	// The style is a repaint, not a new estimate.
	shown := tv.shown
	tv.style.SetSelected("Shading")
	if l, ok := tv.drawn.(*goban.Territory); !ok || l.Style != goban.TerritoryShading || tv.shown != shown {
		t.Error("the shading style did not reach the board")
	}
}

// TestTerritorySampleDrawsBonds shows one Swendsen-Wang sample with its
// bonds (Stern Fig. 5.6), then goes back to the mean, and loses the sample
// on navigation.
func TestTerritorySampleDrawsBonds(t *testing.T) {
	h := proGame(t, 90)
	tv := tabOf[*territoryView](h.wb)
	test.Tap(tv.on)
	h.estimated()
	if !tv.meanB.Disabled() {
		t.Error("Mean is enabled with no sample shown")
	}
	test.Tap(tv.sampleB)
	h.pump("the sample", func() bool { return tv.sample != nil })
	l, ok := tv.drawn.(*goban.TerritorySample)
	if !ok {
		t.Fatalf("the board shows %T, not the sample", tv.drawn)
	}
	if tv.sampleB.Text != "Another sample" || tv.meanB.Disabled() {
		t.Errorf("while a sample is shown the buttons read %q and Mean disabled %v", tv.sampleB.Text, tv.meanB.Disabled())
	}
	pos := h.wb.doc.cursor.Position()
	b := &pos.Board
	// A chain's stones are coupled by w_chains ≈ 2.7, bonded with
	// probability 1 − e^−5.5 ≈ 0.996 when they share an owner, which they
	// almost always do: "All connected chains of stones form single
	// clusters."
	var chainPairs, chainBonds, bonds int
	var bondedEmpty [2]goban.Point
	found := false
	next, _ := nextMove(h.wb.doc.cursor)
	for _, p := range b.Points() {
		q := gp(p)
		i := q.Y*19 + q.X
		for d, r := range []board.Point{p + 1, p + board.Stride} {
			if b.At(r) == board.Edge {
				continue
			}
			bonded := l.Right[i]
			if d == 1 {
				bonded = l.Down[i]
			}
			if bonded {
				bonds++
				if l.Owner[i] != l.Owner[gp(r).Y*19+gp(r).X] {
					t.Errorf("bonded neighbours %s and %s have different owners", p.GTP(19), r.GTP(19))
				}
			}
			if c := b.At(p); c != board.Empty && b.At(r) == c {
				chainPairs++
				if bonded {
					chainBonds++
				}
			}
			if bonded && !found && b.At(p) == board.Empty && b.At(r) == board.Empty && p != next && r != next {
				bondedEmpty, found = [2]goban.Point{q, gp(r)}, true
			}
		}
	}
	if bonds == 0 || !found || chainPairs == 0 || float64(chainBonds) < 0.95*float64(chainPairs) {
		t.Fatalf("%d bonds, %d of %d neighbouring stones of one chain bonded", bonds, chainBonds, chainPairs)
	}
	// The bond between two empty points shows as a blue line between them.
	// The line is thin (a few pixels at the test window's size), so look within 2 pixels of the midpoint.
	mid := midPixelNear(h, bondedEmpty[0], bondedEmpty[1], 2, func(c color.RGBA) bool { return int(c.B) >= int(c.R)+80 })
	if int(mid.B) < int(mid.R)+80 {
		t.Errorf("between the bonded points %v and %v the board is %v, not the bond's blue", bondedEmpty[0], bondedEmpty[1], mid)
	}
	// Back to the mean, then a new sample is another seed.
	test.Tap(tv.meanB)
	if _, ok := tv.drawn.(*goban.Territory); !ok {
		t.Fatalf("after Mean the board shows %T", tv.drawn)
	}
	first := tv.seed
	test.Tap(tv.sampleB)
	h.pump("a second sample", func() bool { return tv.sample != nil && tv.sample.Seed != first })
	// The sample belongs to its position.
	h.key(fyne.KeyRight, 0)
	if _, ok := tv.drawn.(*goban.Territory); !ok || tv.sample != nil {
		t.Errorf("after moving on the board shows %T", tv.drawn)
	}
}

// midPixel is the captured pixel half-way between the centres of a and b.
// midPixelNear returns the first pixel within r pixels of the midpoint of a and b that satisfies ok,
// else the midpoint's own pixel.
func midPixelNear(h *harness, a, b goban.Point, r int, ok func(color.RGBA) bool) color.RGBA {
	h.t.Helper()
	img := h.w.Canvas().Capture()
	x, y := midXY(h, a, b)
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if c := color.RGBAModel.Convert(img.At(x+dx, y+dy)).(color.RGBA); ok(c) {
				return c
			}
		}
	}
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// midXY is the capture pixel halfway between the centres of a and b.
func midXY(h *harness, a, b goban.Point) (int, int) {
	h.t.Helper()
	bd := h.wb.views[0].board
	scale := h.w.Canvas().Scale()
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(bd)
	centre := func(p goban.Point) (float32, float32) {
		var sx, sy, n float32
		for y := float32(0); y < bd.Size().Height; y++ {
			for x := float32(0); x < bd.Size().Width; x++ {
				if q, ok := bd.PointAt(fyne.NewPos(x, y)); ok && q == p {
					sx, sy, n = sx+x, sy+y, n+1
				}
			}
		}
		return sx / n, sy / n
	}
	ax, ay := centre(a)
	bx, by := centre(b)
	x := int(math.Round(float64((abs.X + (ax+bx)/2) * scale)))
	y := int(math.Round(float64((abs.Y + (ay+by)/2) * scale)))
	return x, y
}

// TestTerritoryNavigationCancels holds an estimate on its worker until it
// is cancelled: moving on cancels it, it is never shown, and the new
// position's estimate arrives.
func TestTerritoryNavigationCancels(t *testing.T) {
	h := proGame(t, 60)
	tv := tabOf[*territoryView](h.wb)
	type start struct {
		ctx context.Context
	}
	starts := make(chan start, 64)
	release := make(chan struct{})
	tv.live.Started = func(ctx context.Context, key string) {
		if !strings.HasPrefix(key, "territory/") {
			return
		}
		// The position is not passed to the hook; the engine starts one
		// estimate per navigation, so the order tells them apart.
		starts <- start{ctx: ctx}
		select {
		case <-release:
		case <-ctx.Done():
		}
	}
	old := h.wb.doc.cursor.Node()
	test.Tap(tv.on)
	var first start
	h.pump("the estimate to start", func() bool {
		select {
		case first = <-starts:
			return true
		default:
			return false
		}
	})
	h.key(fyne.KeyRight, 0)
	h.pump("the old estimate to be cancelled", func() bool { return first.ctx.Err() != nil })
	if first.ctx.Err() != context.Canceled {
		t.Errorf("the old estimate ended with %v", first.ctx.Err())
	}
	close(release)
	cur := h.wb.doc.cursor.Node()
	h.pump("the new estimate", func() bool {
		if tv.shown != nil && tv.node == old {
			t.Fatal("the cancelled estimate of the previous position was shown")
		}
		return tv.shown != nil && tv.node == cur
	})
	if h.move() != 61 {
		t.Errorf("at move %d", h.move())
	}
}

// TestTerritoryHoverShowsChainSafety points at stones and points: the
// line under the score gives the chain's chance to live (Stern §5.1.3)
// and the point's expected owner.
func TestTerritoryHoverShowsChainSafety(t *testing.T) {
	h := proGame(t, 150)
	tv := tabOf[*territoryView](h.wb)
	test.Tap(tv.on)
	o := h.estimated()
	pos := h.wb.doc.cursor.Position()
	b := &pos.Board
	var stone, empty board.Point = board.NoPoint, board.NoPoint
	for _, p := range b.Points() {
		switch {
		case stone == board.NoPoint && b.At(p) == board.White && b.ChainSize(p) >= 3:
			stone = p
		case empty == board.NoPoint && b.At(p) == board.Empty:
			empty = p
		}
	}
	h.pointer(0, gp(stone))
	q := gp(stone)
	lives := o.Lives[q.Y*19+q.X]
	// ChainSafety averages p(s = colour) over the chain's stones.
	var sum float64
	n := 0
	for s := stone; ; {
		v := o.Mean[gp(s).Y*19+gp(s).X]
		sum += (1 - v) / 2
		n++
		if s = b.NextStone(s); s == stone {
			break
		}
	}
	if math.Abs(sum/float64(n)-lives) > 1e-12 {
		t.Errorf("chain safety %g, want the chain's mean p(White) %g", lives, sum/float64(n))
	}
	want := "White chain at " + stone.GTP(19)
	if got := tv.safety.Text; !strings.HasPrefix(got, want) || !strings.Contains(got, "lives "+percentWhole(lives)) ||
		!strings.Contains(got, strconv.Itoa(b.ChainSize(stone))+" stones") {
		t.Errorf("hover over %s: %q", stone.GTP(19), got)
	}
	h.pointer(0, gp(empty))
	if got := tv.safety.Text; !strings.HasPrefix(got, empty.GTP(19)+": ") || !strings.Contains(got, "E[s]") {
		t.Errorf("hover over %s: %q", empty.GTP(19), got)
	}
	h.away()
	if got := tv.safety.Text; !strings.HasPrefix(got, "Point at a stone") {
		t.Errorf("pointer away: %q", got)
	}
}

func TestTerritorySettingsFallBack(t *testing.T) {
	a := test.NewTempApp(t)
	p := a.Preferences()
	models := territoryModels()
	if len(models) == 0 || models[0] != territory.KindBoltzmann5.String() {
		t.Fatalf("models %v: boltzmann5 is always there", models)
	}
	s := loadTerritorySettings(p, models)
	if s.on || s.model != live.DefaultTerritoryModel || s.method != live.DefaultTerritoryMethod || s.style != goban.TerritorySquares {
		t.Errorf("defaults %+v", s)
	}
	p.SetString(prefTerritoryModel, "no-such-model")
	p.SetString(prefTerritoryMethod, "guess")
	p.SetInt(prefTerritoryStyle, 9)
	if s := loadTerritorySettings(p, models); s.model != live.DefaultTerritoryModel || s.method != live.DefaultTerritoryMethod || s.style != goban.TerritorySquares {
		t.Errorf("bad saved values gave %+v", s)
	}
	want := territorySettings{on: true, model: territory.KindMC.String(), method: territory.MethodExact.String(), style: goban.TerritoryShading}
	want.save(p)
	if got := loadTerritorySettings(p, models); got != want {
		t.Errorf("saved %+v, loaded %+v", want, got)
	}
	for _, tc := range []struct {
		s    float64
		want string
	}{{12.46, "B+12.5"}, {-3, "W+3.0"}, {0.01, "even"}} {
		if got := scoreText(tc.s); got != tc.want {
			t.Errorf("scoreText(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
	for _, tc := range []struct {
		p    float64
		want string
	}{{0.73, "Black wins 73%"}, {0.2, "White wins 80%"}, {0.9995, "Black wins >99%"}, {1, "Black wins 100%"}} {
		if got := winText(tc.p); got != tc.want {
			t.Errorf("winText(%g) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
