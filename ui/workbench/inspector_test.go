package workbench

import (
	"image"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/live"
	"aji/analysis/predict"
	_ "aji/analysis/predict/mm" // the default predictor, and the one that explains itself
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// pointer moves the mouse onto intersection p of board view i, as the
// driver reports it to the board.
func (h *harness) pointer(i int, p goban.Point) {
	h.t.Helper()
	b := h.wb.views[i].board
	// The board maps pixels to points; find the middle of p's pixels.
	var sum fyne.Position
	n := 0
	for y := float32(0); y < b.Size().Height; y++ {
		for x := float32(0); x < b.Size().Width; x++ {
			if q, ok := b.PointAt(fyne.NewPos(x, y)); ok && q == p {
				sum, n = sum.AddXY(x, y), n+1
			}
		}
	}
	if n == 0 {
		h.t.Fatalf("no pixel of board %d shows %v", i, p)
	}
	b.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(sum.X/float32(n), sum.Y/float32(n))}})
}

// away moves the mouse off the boards.
func (h *harness) away() {
	for _, v := range h.wb.views {
		v.board.MouseOut()
	}
}

// explained waits for the main board's explanations of the current position.
func (h *harness) explained() *live.Explanations {
	h.t.Helper()
	in := tabOf[*inspector](h.wb)
	h.pump("the explanations", func() bool {
		ex := in.explained[0]
		return ex != nil && ex.Predictor == h.wb.settings.predictor && in.explainedFor[0] == h.wb.doc.cursor.Node()
	})
	return in.explained[0]
}

// inspectorSays waits until the inspector's first line starts with prefix.
func (h *harness) inspectorSays(prefix string) {
	h.t.Helper()
	in := tabOf[*inspector](h.wb)
	h.pump("the inspector to show "+prefix, func() bool { return strings.HasPrefix(in.lines[0].Text, prefix) })
}

func TestHoverFillsTheInspector(t *testing.T) {
	h := newHarness(t, variations)
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	h.explained()
	in := tabOf[*inspector](h.wb)
	h.pointer(0, h.at("C3"))
	h.inspectorSays("C3 · rank ")

	// The rows are the point's factors as the predictor explains them.
	pred, err := predict.New("mm", predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pos := h.wb.doc.cursor.Position()
	want := pred.(predict.Explainer).Explain(pos, board.At(2, 6))
	if len(want.Factors) == 0 || !slices.Equal(in.table.factors, want.Factors) {
		t.Fatalf("inspector rows %+v, want %+v", in.table.factors, want.Factors)
	}
	if !strings.Contains(in.lines[1].Text, percent(want.Probability)) {
		t.Errorf("probability line %q, want %s", in.lines[1].Text, percent(want.Probability))
	}
	// Every row is drawn: name, γ with two decimals, Elo as a signed integer.
	var texts []string
	for _, row := range test.WidgetRenderer(in.table).(*factorRenderer).rows {
		var name []string
		for _, l := range row.name {
			name = append(name, l.Text)
		}
		texts = append(texts, strings.Join(name, " ")+" | "+row.gamma.Text+" | "+row.elo.Text)
	}
	for i, f := range want.Factors {
		if i >= len(texts) || !strings.HasPrefix(texts[i], f.Name+" | ") || !strings.Contains(texts[i], signed(f.Elo)) {
			t.Errorf("row %d drawn as %q, want %q with Elo %s", i, texts, f.Name, signed(f.Elo))
		}
	}

	// An occupied point is not a move.
	h.pointer(0, h.at("E5"))
	h.inspectorSays("E5")
	if !strings.HasPrefix(in.lines[1].Text, "Not a legal move") || len(in.table.factors) != 0 || in.diagram.Visible() {
		t.Errorf("occupied E5: %q, %d rows, diagram %v", in.lines[1].Text, len(in.table.factors), in.diagram.Visible())
	}
}

func TestShapeDiagramOnlyForAShape(t *testing.T) {
	// A loose 9x9 opening: the corners have known shapes, and points
	// crowded by unusual stones have none.
	h := newHarness(t, "(;SZ[9];B[ee];W[ef];B[fe];W[ff];B[ge];W[gf];B[cc];W[dc];B[cd];W[hh];B[bb];W[ba];B[ab])")
	h.key(fyne.KeyEnd, 0)
	ex := h.explained()
	var with, without *predict.Explanation
	for _, e := range ex.At {
		switch {
		case e == nil:
		case len(e.Pattern) > 0 && with == nil:
			with = e
		case len(e.Pattern) == 0 && without == nil:
			without = e
		}
	}
	if with == nil || without == nil {
		t.Fatalf("need a point with a shape and one without (with %v, without %v)", with, without)
	}
	in := tabOf[*inspector](h.wb)
	gp := func(p board.Point) goban.Point { x, y := p.XY(); return goban.Point{X: x, Y: y} }

	h.pointer(0, gp(with.Point))
	h.inspectorSays(with.Point.GTP(9) + " · ")
	if !in.diagram.Visible() || len(in.diagram.cells) != len(with.Pattern) {
		t.Errorf("%s has a shape of %d points: diagram shown %v with %d", with.Point.GTP(9), len(with.Pattern), in.diagram.Visible(), len(in.diagram.cells))
	}
	h.pointer(0, gp(without.Point))
	h.inspectorSays(without.Point.GTP(9) + " · ")
	if in.diagram.Visible() {
		t.Errorf("%s has no shape, yet the diagram is shown", without.Point.GTP(9))
	}
	if got := in.lines[3].Text; got != "No known shape here." {
		t.Errorf("shape line %q", got)
	}
}

func TestLeavingTheBoardKeepsTheRestedPoint(t *testing.T) {
	h := newHarness(t, variations)
	clock := time.Unix(0, 0)
	h.wb.now = func() time.Time { return clock }
	ex := h.explained()
	best := ex.Best.GTP(9)
	// Nothing hovered yet: the best move.
	tabOf[*inspector](h.wb).refresh()
	h.inspectorSays(best + " · ")

	// The pointer rests on C3, then crosses D3 quickly on its way out.
	h.pointer(0, h.at("C3"))
	clock = clock.Add(time.Second)
	h.pointer(0, h.at("D3"))
	h.inspectorSays("D3 · ")
	clock = clock.Add(restTime / 10)
	h.away()
	h.inspectorSays("C3 · ")
	if !strings.Contains(tabOf[*inspector](h.wb).lines[2].Text, "last pointed at") {
		t.Errorf("no note that C3 was the last point rested on: %q", tabOf[*inspector](h.wb).lines[2].Text)
	}
	// Once that point is taken, the best move again.
	h.wb.tapped(h.at("C3"))
	ex = h.explained()
	h.inspectorSays(ex.Best.GTP(9) + " · ")
}

func TestInspectorNamesAPredictorThatCannotExplain(t *testing.T) {
	h := newHarness(t, variations)
	h.wb.panel.pred.SetSelected("uniform")
	h.inspectorSays("No explanation for uniform")
	// The comparison board explains with its own predictor.
	h.wb.settings.compare = true
	h.wb.settings.compareWith = "mm"
	h.wb.layoutBoards()
	h.wb.analyze()
	h.pointer(1, h.at("C3"))
	h.inspectorSays("C3 · ")
	if !strings.HasPrefix(tabOf[*inspector](h.wb).lines[2].Text, "mm · ") {
		t.Errorf("comparison board explained by %q", tabOf[*inspector](h.wb).lines[2].Text)
	}
	h.pointer(0, h.at("C3"))
	h.inspectorSays("No explanation for uniform")
}

func TestShapeDiagramGolden(t *testing.T) {
	test.NewTempApp(t)
	d := newShapeDiagram()
	// White to play on the first line: own stones are white.
	cells := []predict.PatternCell{
		{DX: 1, DY: 0, State: predict.CellOwn}, {DX: -1, DY: 0, State: predict.CellOpponent},
		{DX: 0, DY: -1, State: predict.CellEmpty}, {DX: 0, DY: 1, State: predict.CellEdge},
		{DX: 1, DY: 1, State: predict.CellEdge}, {DX: -1, DY: 1, State: predict.CellEdge},
		{DX: 1, DY: -1, State: predict.CellOpponent}, {DX: -1, DY: -1, State: predict.CellEmpty},
		{DX: 2, DY: 0, State: predict.CellEmpty}, {DX: -2, DY: 0, State: predict.CellOwn},
		{DX: 0, DY: -2, State: predict.CellOpponent}, {DX: 0, DY: 2, State: predict.CellEdge},
	}
	d.set(cells, board.White)
	w := test.NewWindow(d)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSquareSize(diagramSide))
	test.AssertImageMatches(t, "shape_diagram.png", w.Canvas().Capture())
}

// TestInspectorDrawsInputPlane: choosing one of the cnn's input planes
// draws it on the board for the position shown, follows navigation, and
// "none" takes it away.
func TestInspectorDrawsInputPlane(t *testing.T) {
	h := newHarness(t, variations)
	h.key(fyne.KeyRight, 0)
	h.selectTab(tabInspector)
	in := tabOf[*inspector](h.wb)
	stones := feature.PlaneNames[feature.PlaneOwnStones]
	drawnFor := func() []float64 {
		if v, ok := in.drawn.(*goban.Values); ok {
			return v.V
		}
		return nil
	}
	current := func() []float64 {
		return live.Planes(h.wb.doc.cursor.Position()).V[feature.PlaneOwnStones]
	}
	in.planeChoice.SetSelected(stones)
	h.pump("the plane of the first position", func() bool { return slices.Equal(drawnFor(), current()) })
	first := drawnFor()
	h.key(fyne.KeyRight, 0)
	h.pump("the plane of the next position", func() bool { return slices.Equal(drawnFor(), current()) })
	if slices.Equal(first, drawnFor()) {
		t.Error("the player to move's stones are the same plane after a move")
	}
	// A stone of the player to move carries the plane's blue square.
	pos := h.wb.doc.cursor.Position()
	var own goban.Point
	for _, p := range pos.Board.Points() {
		if pos.Board.At(p) == pos.ToPlay {
			x, y := p.XY()
			own = goban.Point{X: x, Y: y}
		}
	}
	blue := func() bool {
		_, pixel := h.boardPixels()
		c := pixel(own)
		return int(c.B) > int(c.R)+100
	}
	if !blue() {
		t.Errorf("the stone at %v is not drawn with the plane's square", own)
	}
	in.planeChoice.SetSelected(noPlane)
	if in.drawn != nil || blue() {
		t.Errorf("after none the inspector still draws %v", in.drawn)
	}
}

// TestShapeDiagramOfSternTemplates: Stern's T1, the move's point alone,
// draws the move; his whole-board T14 draws the board around it, the move
// off centre.
func TestShapeDiagramOfSternTemplates(t *testing.T) {
	b, err := board.New(19)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Play(board.At(3, 3), board.Black); err != nil {
		t.Fatal(err)
	}
	drawn := func(cells []predict.PatternCell) int {
		img := paintShape(cells, board.White, diagramSide, diagramSide).(*image.RGBA)
		n := 0
		for i := 3; i < len(img.Pix); i += 4 {
			if img.Pix[i] != 0 {
				n++
			}
		}
		return n
	}
	t1 := predict.SternPatternOf(b, board.White, board.At(16, 2), 1)
	t14 := predict.SternPatternOf(b, board.White, board.At(16, 2), 14)
	if len(t1) != 0 || len(t14) != 21*21-1 {
		t.Fatalf("T1 %d cells, T14 %d", len(t1), len(t14))
	}
	if d1, d14 := drawn(t1), drawn(t14); d1 == 0 || d14 < diagramSide*diagramSide/2 {
		t.Errorf("T1 draws %d pixels, T14 %d of %d", d1, d14, diagramSide*diagramSide)
	}
}
