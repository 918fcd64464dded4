package workbench

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/predict"
	_ "aji/analysis/predict/fbt" // the difference layer's B
	"aji/assets"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// proHarness is a workbench on the sample professional game at move n, with the Why not? tab shown.
func proHarness(t *testing.T, n int) (*harness, *whyNot) {
	t.Helper()
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, string(data))
	h.wb.move(h.wb.doc.cursor.Forward(n))
	h.selectTab(tabWhyNot)
	return h, tabOf[*whyNot](h.wb)
}

// atMove120 is proHarness at move 120 (whose next move is C13) with mm, the tab's predictor, and its
// distribution there.
func atMove120(t *testing.T) (*harness, *whyNot, predict.Predictor, *predict.Distribution) {
	t.Helper()
	h, w := proHarness(t, 120)
	pred, err := predict.New("mm", predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := new(predict.Distribution)
	pred.Predict(h.wb.doc.cursor.Position(), d)
	return h, w, pred, d
}

// compared waits until the tab compares a with b.
func (h *harness) compared(w *whyNot, a, b string) {
	h.t.Helper()
	n := h.wb.doc.cursor.Game().Size()
	h.pump("the comparison of "+a+" with "+b, func() bool {
		return w.shownA != board.NoPoint && w.shownA.GTP(n) == a && w.shownB.GTP(n) == b
	})
}

// TestWhyNotComparesTheRecordWithTheTop: by default the tab compares the record's next move with the
// predictor's top move, its rows are predict.Compare's of mm's own explanations and sum to
// log(p_A/p_B); a click sets A and a Shift+click B without playing; both are marked on the board.
func TestWhyNotComparesTheRecordWithTheTop(t *testing.T) {
	h, w, pred, d := atMove120(t)
	pos := h.wb.doc.cursor.Position()
	top := d.Top(1, nil)[0].Point
	h.compared(w, "C13", top.GTP(19))
	e := pred.(predict.Explainer)
	check := func(a, b board.Point) {
		t.Helper()
		ea, eb := e.Explain(pos, a), e.Explain(pos, b)
		want := predict.Compare(&ea, &eb)
		if len(w.table.terms) != len(want.Terms) {
			t.Fatalf("%d rows, want %d", len(w.table.terms), len(want.Terms))
		}
		sum := 0.0
		for i, tm := range w.table.terms {
			if tm.Name != want.Terms[i].Name || tm.A != want.Terms[i].A || tm.B != want.Terms[i].B {
				t.Errorf("row %d: %+v, want %+v", i, tm, want.Terms[i])
			}
			sum += tm.Diff()
		}
		if lr := math.Log(d.P[a] / d.P[b]); math.Abs(sum-lr) > 1e-9 {
			t.Errorf("rows sum to %g, log(pA/pB) = %g", sum, lr)
		}
		for i, p := range []board.Point{a, b} {
			ex := []predict.Explanation{ea, eb}[i]
			if !strings.Contains(w.lines[i].Text, p.GTP(19)) || !strings.Contains(w.lines[i].Text, percent(ex.Probability)) {
				t.Errorf("line %d %q, want %s at %s", i, w.lines[i].Text, p.GTP(19), percent(ex.Probability))
			}
		}
		l, _ := w.layer()
		marks, ok := l.(*goban.Peer)
		if !ok || len(marks.Labels) != 2 || marks.Labels[0].Text != "A" || marks.Labels[1].Point != h.at(b.GTP(19)) {
			t.Errorf("marks %+v", l)
		}
	}
	check(board.At(2, 6), top)

	// A click sets A, Shift+click B; neither plays.
	h.tapBoard(h.at("K10"))
	h.compared(w, "K10", top.GTP(19))
	h.mods = fyne.KeyModifierShift
	h.tapBoard(h.at("A1"))
	h.mods = 0
	h.compared(w, "K10", "A1")
	if h.move() != 120 {
		t.Fatalf("a click played: at move %d", h.move())
	}
	check(h.wbPoint("K10"), h.wbPoint("A1"))

	// Another tab: no marks; back on the tab the user's pair stays while the position does.
	h.selectTab(tabInspector)
	if l, _ := w.layer(); l != nil {
		t.Errorf("marks drawn with the tab hidden: %+v", l)
	}
	h.selectTab(tabWhyNot)
	h.compared(w, "K10", "A1")
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyLeft, 0)
	h.compared(w, "C13", top.GTP(19))
}

// TestWhyNotPass: "Pass vs top" compares pass with the predictor's top point, its rows summing to
// log(p_pass/p_top) of mm's own distribution, only B marked on the board; and where the record's next
// move is a pass, that pass is the default A.
func TestWhyNotPass(t *testing.T) {
	h, w, _, d := atMove120(t)
	top := d.Top(1, nil)[0].Point
	h.compared(w, "C13", top.GTP(19))
	var pass *widget.Button
	for _, o := range test.LaidOutObjects(w.box) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Pass vs top" {
			pass = b
		}
	}
	if pass == nil {
		t.Fatal(`no "Pass vs top" button on the tab`)
	}
	test.Tap(pass)
	h.compared(w, "pass", top.GTP(19))
	sum := 0.0
	for _, tm := range w.table.terms {
		sum += tm.Diff()
	}
	if lr := math.Log(d.P[board.Pass] / d.P[top]); len(w.table.terms) == 0 || math.Abs(sum-lr) > 1e-9 {
		t.Errorf("%d rows sum to %g, log(p_pass/p_top) = %g", len(w.table.terms), sum, lr)
	}
	if !strings.Contains(w.lines[0].Text, "A pass") || !strings.Contains(w.lines[0].Text, percent(d.P[board.Pass])) || w.captions[0].Text != "A: pass, no shape" {
		t.Errorf("A shown as %q, %q", w.lines[0].Text, w.captions[0].Text)
	}
	l, _ := w.layer()
	if marks, ok := l.(*goban.Peer); !ok || len(marks.Labels) != 1 || marks.Labels[0].Text != "B" {
		t.Errorf("marks %+v, want B's alone", l)
	}

	// A record's pass is the default A.
	h = newHarness(t, "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[];B[cc])")
	h.wb.move(h.wb.doc.cursor.Forward(1))
	h.selectTab(tabWhyNot)
	w = tabOf[*whyNot](h.wb)
	h.pump("the comparison of the record's pass", func() bool { return w.shownA == board.Pass && w.shownB != board.NoPoint })
	if !strings.Contains(w.lines[0].Text, "A pass") {
		t.Errorf("A shown as %q", w.lines[0].Text)
	}
}

func (h *harness) wbPoint(s string) board.Point {
	p := h.at(s)
	return board.At(p.X, p.Y)
}

// TestWhyNotDifferenceLayer: the layer of mm (the main board's) against fbt holds log(p_mm/p_fbt) of the
// two predictors' own distributions at every legal point, follows the position, and goes with the check.
func TestWhyNotDifferenceLayer(t *testing.T) {
	h, w := proHarness(t, 60)
	w.diffWith.SetSelected("fbt")
	w.diffCheck.SetChecked(true)
	layerOf := func() *goban.Difference {
		l, _ := w.layer()
		switch l := l.(type) {
		case *goban.Difference:
			return l
		case layers:
			d, _ := l[0].(*goban.Difference)
			return d
		}
		return nil
	}
	for _, move := range []int{60, 61} {
		if h.move() != move {
			h.key(fyne.KeyRight, 0)
		}
		pos := h.wb.doc.cursor.Position()
		h.pump("the difference layer", func() bool {
			return layerOf() != nil && w.predFor == h.wb.doc.cursor.Node() && w.predA != nil && w.predB != nil
		})
		var da, db predict.Distribution
		for name, d := range map[string]*predict.Distribution{"mm": &da, "fbt": &db} {
			p, _ := predict.New(name, predict.Options{})
			p.Predict(pos, d)
		}
		d := layerOf()
		if d.Size != 19 || d.Clamp != differenceClamp {
			t.Fatalf("layer %+v", d)
		}
		for _, p := range pos.Board.Points() {
			x, y := p.XY()
			v := d.V[y*19+x]
			if !pos.Board.Legal(p, pos.ToPlay) {
				if !math.IsNaN(v) {
					t.Errorf("move %d, illegal %s: %g", move, p.GTP(19), v)
				}
				continue
			}
			if want := math.Log(da.P[p] / db.P[p]); math.Abs(v-want) > 1e-12 {
				t.Fatalf("move %d, %s: %g, want %g", move, p.GTP(19), v, want)
			}
		}
	}

	// Guessing the next move hides the layer, which would hint at it.
	path := filepath.Join(t.TempDir(), "guess.json")
	old := guessHistoryPath
	guessHistoryPath = func() (string, error) { return path, nil }
	defer func() { guessHistoryPath = old }()
	h.selectTab(tabGuess)
	gt := tabOf[*guessTab](h.wb)
	gt.start()
	if l, _ := w.layer(); l != nil || !h.wb.tabHidesNext() {
		t.Errorf("while guessing: layer %T", l)
	}
	gt.end("Stopped.")
	if layerOf() == nil {
		t.Error("no layer after guessing")
	}

	w.diffCheck.SetChecked(false)
	if layerOf() != nil {
		t.Error("the layer stayed after the check was cleared")
	}
}

// TestWhyNotScreenshot saves the workbench with the Why not? tab on the sample professional game at move
// 120, the record's C13 against mm's top move, to the PNG named by AJI_SHOT_WHYNOT (an absolute path):
// AJI_SHOT_WHYNOT=$PWD/docs/whynot.png go test -run WhyNotScreenshot ./ui/workbench.
func TestWhyNotScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_WHYNOT")
	if out == "" {
		t.Skip("set AJI_SHOT_WHYNOT=file.png to save a screenshot of the Why not? tab")
	}
	h, w := proHarness(t, 120)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.w.Resize(fyne.NewSize(1480, 960))
	h.wb.split.SetOffset(0.6) // a wider panel for the table
	h.pump("the comparison", func() bool { return w.shownA != board.NoPoint })
	h.saveWindow(out)
}

// TestDifferenceScreenshot saves the main board with the difference layer of mm against fbt at move 120 of
// the sample professional game to the PNG named by AJI_SHOT_DIFFERENCE:
// AJI_SHOT_DIFFERENCE=$PWD/docs/difference.png go test -run DifferenceScreenshot ./ui/workbench.
func TestDifferenceScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_DIFFERENCE")
	if out == "" {
		t.Skip("set AJI_SHOT_DIFFERENCE=file.png to save a screenshot of the difference layer")
	}
	h, w := proHarness(t, 120)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.w.Resize(fyne.NewSize(1480, 960))
	h.wb.split.SetOffset(0.6) // a wider panel for the table
	// The layer covers the heat map and its labels: turn them off as a user would.
	for _, o := range test.LaidOutObjects(h.w.Content()) {
		switch o := o.(type) {
		case *widget.Check:
			if o.Text == "Heat map" {
				o.SetChecked(false)
			}
		case *widget.Select:
			if o.Selected == strconv.Itoa(h.wb.settings.topK) && slices.Contains(o.Options, "0") {
				o.SetSelected("0")
			}
		}
	}
	w.diffWith.SetSelected("fbt")
	w.diffCheck.SetChecked(true)
	h.pump("the difference layer", func() bool { return w.diff != nil && w.predFor == h.wb.doc.cursor.Node() })
	h.pump("the comparison", func() bool { return w.shownA != board.NoPoint })
	h.saveWindow(out)
}
