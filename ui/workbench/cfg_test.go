package workbench

import (
	"fmt"
	"image/color"
	"image/png"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/cfg"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// cfgOn opens the sample professional game at move, shows the CFG tab and
// turns the graph on.
func cfgOn(t *testing.T, move int) (*harness, *cfgView) {
	t.Helper()
	h := proGame(t, move)
	cv := tabOf[*cfgView](h.wb)
	if cv.s.on || cv.drawn != nil {
		t.Fatal("the CFG layer is on before it was asked for")
	}
	h.selectTab(tabCFG)
	if h.wb.panel.tabs.Selected().Content != cv.box || h.wb.opts.Preferences.String(prefTab) != tabCFG {
		t.Fatal("the CFG tab does not show the section, or its choice was not saved")
	}
	test.Tap(cv.on)
	return h, cv
}

// cfgGraphOf builds the graph of the position shown, as the analysis package
// does, for comparison.
func cfgGraphOf(h *harness) *cfg.Graph {
	pos := h.wb.doc.cursor.Position()
	return cfg.Build(&pos.Board, pos.ToPlay, cfgMaxIterations)
}

// cfgHover moves the pointer onto the main board's point p.
func (h *harness) cfgHover(s string) board.Point {
	h.t.Helper()
	p, err := board.ParseGTP(s, h.wb.doc.cursor.Game().Size())
	if err != nil {
		h.t.Fatal(err)
	}
	h.wb.views[0].board.OnHover(widgetPoint(p), true)
	return p
}

// TestCFGTabDrawsGraph: turning the tab on puts the graph of the position
// on the boards — every vertex and edge, with the labels of the iterations
// chosen — and paints each empty point in its label's colour.
func TestCFGTabDrawsGraph(t *testing.T) {
	h, cv := cfgOn(t, 100)
	if !h.wb.opts.Preferences.Bool(prefCFG) {
		t.Error("turning the graph on was not saved")
	}
	if got := loadCFGSettings(h.wb.opts.Preferences); !got.on || got.iters != cfg.DefaultIterations {
		t.Errorf("saved settings load as %+v", got)
	}
	l, ok := cv.drawn.(*goban.CFG)
	if !ok {
		t.Fatalf("the boards' CFG layer is %T", cv.drawn)
	}
	g := cfgGraphOf(h)
	if len(l.Vertices) != g.NumVertices() || len(l.Edges) != g.NumEdges() || l.Walks != nil {
		t.Fatalf("layer: %d vertices, %d edges, walks %v; graph: %d vertices, %d edges",
			len(l.Vertices), len(l.Edges), l.Walks, g.NumVertices(), g.NumEdges())
	}
	for v := range cfg.Vertex(g.NumVertices()) {
		lv := l.Vertices[v]
		if lv.Label != g.Label(v, cfg.DefaultIterations) || lv.Centre != widgetPoint(g.Centre(v)) || len(lv.Points) != len(g.Points(v)) {
			t.Fatalf("vertex %d: %+v, graph label %08x centre %s", v, lv, g.Label(v, cfg.DefaultIterations), g.Centre(v).GTP(19))
		}
	}
	// On the screen: the middle of an empty point is its label's colour.
	_, pixel := h.boardPixels()
	pos := h.wb.doc.cursor.Position()
	checked := 0
	for _, p := range pos.Board.Points() {
		if pos.Board.At(p) != board.Empty || checked == 20 {
			continue
		}
		want := goban.LabelColor(g.Label(g.VertexOf(p), cfg.DefaultIterations))
		got := pixel(widgetPoint(p))
		if d := cfgAbs(int(got.R)-int(want.R)) + cfgAbs(int(got.G)-int(want.G)) + cfgAbs(int(got.B)-int(want.B)); d > 12 {
			t.Errorf("%s painted %v, want its label's colour %v", p.GTP(19), got, want)
		}
		checked++
	}
	if !strings.Contains(cv.summary.Text, fmt.Sprintf("%d vertices, %d edges", g.NumVertices(), g.NumEdges())) {
		t.Errorf("summary %q", cv.summary.Text)
	}
	// Off again: the layer goes.
	test.Tap(cv.on)
	if cv.drawn != nil || taskCount(cv) != 0 {
		t.Error("turning the graph off left it on the board or running")
	}
}

func cfgAbs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestCFGHoverListsWalks: hovering an empty point lists exactly the walks
// cfg.Graph.Paths gives for it, in order, with their path features, and
// draws the same walks bold; hovering a stone names its chain; leaving the
// board keeps the point the pointer rested on.
func TestCFGHoverListsWalks(t *testing.T) {
	h, cv := cfgOn(t, 100)
	g := cfgGraphOf(h)
	pos := h.wb.doc.cursor.Position()
	tested := 0
	for _, p := range pos.Board.Points() {
		// Empty points next to stones: walks through chains, of every kind.
		if pos.Board.At(p) != board.Empty || tested >= 12 {
			continue
		}
		stones := 0
		for _, q := range p.Neighbours() {
			if c := pos.Board.At(q); c == board.Black || c == board.White {
				stones++
			}
		}
		if stones == 0 {
			continue
		}
		tested++
		h.cfgHover(p.GTP(19))
		want := g.Paths(p, nil)
		rows := cv.table.rows
		if len(rows) != len(want) {
			t.Fatalf("%s: %d rows, cfg.Paths gives %d walks", p.GTP(19), len(rows), len(want))
		}
		features := map[uint32]bool{}
		for i, w := range want {
			f := g.PathLabel(w, cfg.DefaultIterations)
			features[f] = true
			if rows[i].walk != w || rows[i].feature != cfg.FeatureString(f) || rows[i].gamma != "—" {
				t.Fatalf("%s row %d: walk %v feature %s γ %s; want %v %s —", p.GTP(19), i, rows[i].walk, rows[i].feature, rows[i].gamma, w, cfg.FeatureString(f))
			}
		}
		// Every distinct feature is what the predictor sees.
		if fs := g.PathFeaturesAt(p, cfg.DefaultIterations, nil); len(fs) != len(features) {
			t.Errorf("%s: %d distinct features listed, PathFeatures gives %d", p.GTP(19), len(features), len(fs))
		}
		if wantLine := fmt.Sprintf("%s: %d walks, %d path features", p.GTP(19), len(want), len(features)); cv.point.Text != wantLine {
			t.Errorf("point line %q, want %q", cv.point.Text, wantLine)
		}
		l := cv.drawn.(*goban.CFG)
		if len(l.Walks) != len(want) {
			t.Fatalf("%s: %d walks drawn, want %d", p.GTP(19), len(l.Walks), len(want))
		}
		for i, w := range want {
			if l.Walks[i] != [3]int32{int32(w[0]), int32(w[1]), int32(w[2])} {
				t.Fatalf("%s: walk %d drawn %v, want %v", p.GTP(19), i, l.Walks[i], w)
			}
		}
	}
	if tested < 12 {
		t.Fatalf("only %d empty points beside stones at move 100", tested)
	}
	// A stone: its chain is named, its edges drawn, no walks listed.
	stone := board.NoPoint
	for _, p := range pos.Board.Points() {
		if pos.Board.At(p) == board.Black && pos.Board.ChainSize(p) >= 3 {
			stone = p
			break
		}
	}
	h.cfgHover(stone.GTP(19))
	v := g.VertexOf(stone)
	if !strings.HasPrefix(cv.point.Text, "Black chain at "+stone.GTP(19)) || len(cv.table.rows) != 0 {
		t.Errorf("on the stone %s: %q with %d rows", stone.GTP(19), cv.point.Text, len(cv.table.rows))
	}
	if l := cv.drawn.(*goban.CFG); len(l.Walks) != len(g.Neighbours(v)) {
		t.Errorf("on the stone: %d edges drawn, the chain has %d", len(l.Walks), len(g.Neighbours(v)))
	}
	// Rest on an empty point, then leave the board: its walks stay.
	clock := h.wb.now()
	h.wb.now = func() time.Time { return clock }
	p := h.cfgHover("K10")
	clock = clock.Add(time.Second)
	h.wb.views[0].board.OnHover(widgetPoint(p), false)
	if len(cv.table.rows) != len(g.Paths(p, nil)) || !strings.HasPrefix(cv.point.Text, "K10:") {
		t.Errorf("after leaving the board from K10: %q, %d rows", cv.point.Text, len(cv.table.rows))
	}
}

// TestCFGIterationsChangeLabels: switching iterations relabels the
// vertices on the board and the features in the list, and is saved.
func TestCFGIterationsChangeLabels(t *testing.T) {
	h, cv := cfgOn(t, 100)
	g := cfgGraphOf(h)
	p := h.cfgHover("K10")
	features := func() []string {
		var fs []string
		for _, r := range cv.table.rows {
			fs = append(fs, r.feature)
		}
		return fs
	}
	byIter := map[int][]string{}
	for _, k := range []int{0, 1, 2} {
		cv.iters.SetSelected(fmt.Sprint(k))
		if got := h.wb.opts.Preferences.Int(prefCFGIterations); got != k {
			t.Errorf("iterations %d saved as %d", k, got)
		}
		l := cv.drawn.(*goban.CFG)
		for v := range cfg.Vertex(g.NumVertices()) {
			if l.Vertices[v].Label != g.Label(v, k) {
				t.Fatalf("iteration %d: vertex %d labelled %08x, want %08x", k, v, l.Vertices[v].Label, g.Label(v, k))
			}
		}
		if len(l.Walks) == 0 {
			t.Errorf("iteration %d: the walks from K10 are no longer drawn", k)
		}
		fs := features()
		for i, w := range g.Paths(p, nil) {
			if want := cfg.FeatureString(g.PathLabel(w, k)); fs[i] != want {
				t.Fatalf("iteration %d row %d: feature %s, want %s", k, i, fs[i], want)
			}
		}
		byIter[k] = fs
	}
	if slices.Equal(byIter[0], byIter[1]) || slices.Equal(byIter[1], byIter[2]) {
		t.Errorf("features do not change with the iterations: %v", byIter)
	}
	// Iteration 0 has three labels only: empty, own chain, opponent chain.
	bytes := map[string]bool{}
	for _, f := range byIter[0] {
		for _, b := range strings.Split(f, "-") {
			bytes[b] = true
		}
	}
	if len(bytes) > 3 {
		t.Errorf("iteration 0 features use %d label bytes: %v", len(bytes), bytes)
	}
	// Labels on the board: the layer says so.
	test.Tap(cv.labels)
	if l := cv.drawn.(*goban.CFG); !l.ShowLabels || !h.wb.opts.Preferences.Bool(prefCFGLabels) {
		t.Error("the label check did not reach the layer or the preferences")
	}
}

// fakeCFG stands in for the cfg predictor: uniform moves, and a γ for the
// path features whose label is not a multiple of 3.
type fakeCFG struct{}

func (fakeCFG) Name() string { return fakeCFGName }
func (fakeCFG) Predict(pos *game.Position, out *predict.Distribution) {
	out.Uniform(pos)
}
func (fakeCFG) PathGamma(label uint32) (float64, bool) {
	return fakeGamma(label), label%3 != 0
}
func (fakeCFG) PathIterations() int { return 1 }

func fakeGamma(label uint32) float64 { return 0.5 + float64(label%1000)/100 }

// fakeCFGName sorts after every real predictor, so that no default changes.
const fakeCFGName = "zz-test-cfg"

var registerFake sync.Once

// TestCFGGammaColumn: with a predictor that has path weights, the γ column
// shows its weight of each feature, for its iteration count only.
func TestCFGGammaColumn(t *testing.T) {
	registerFake.Do(func() {
		predict.Register(fakeCFGName, func(string, predict.Options) (predict.Predictor, error) { return fakeCFG{}, nil })
	})
	// Restored after the harness's own clean-up has stopped the engine.
	t.Cleanup(func(name string) func() { return func() { cfgPredictor = name } }(cfgPredictor))
	cfgPredictor = fakeCFGName
	h, cv := cfgOn(t, 100)
	h.pump("the γ", func() bool { return cv.gammas != nil && cv.gammasFor == h.wb.doc.cursor.Node() })
	p := h.cfgHover("K10")
	g := cfgGraphOf(h)
	withGamma := 0
	for i, w := range g.Paths(p, nil) {
		f := g.PathLabel(w, 1)
		want := "—"
		if f%3 != 0 {
			want = fmt.Sprintf("%.2f", fakeGamma(f))
			withGamma++
		}
		if got := cv.table.rows[i].gamma; got != want {
			t.Errorf("row %d (%s): γ %s, want %s", i, cfg.FeatureString(f), got, want)
		}
	}
	if withGamma == 0 {
		t.Fatal("no feature at K10 has a γ: pick another point")
	}
	if !strings.HasPrefix(cv.note.Text, "γ of the cfg predictor") {
		t.Errorf("note %q", cv.note.Text)
	}
	// Labels of another iteration are other hashes: no γ.
	cv.iters.SetSelected("2")
	for i, r := range cv.table.rows {
		if r.gamma != "—" {
			t.Errorf("iteration 2, row %d: γ %s from a model of iteration-1 labels", i, r.gamma)
		}
	}
	if !strings.Contains(cv.note.Text, "after 1 iteration") {
		t.Errorf("note %q", cv.note.Text)
	}
}

// TestCFGNoPredictor: without a cfg predictor the γ column says so.
func TestCFGNoPredictor(t *testing.T) {
	if hasCFGPredictor() {
		t.Skip("a cfg predictor is registered in this test binary")
	}
	h, cv := cfgOn(t, 100)
	h.cfgHover("K10")
	if taskCount(cv) != 0 || !strings.Contains(cv.note.Text, "no cfg predictor") || cv.table.rows[0].gamma != "—" {
		t.Errorf("no predictor: %d tasks, note %q, γ %q", taskCount(cv), cv.note.Text, cv.table.rows[0].gamma)
	}
}

// cfgDarkTheme is the app's theme in its dark variant, which the test
// driver would otherwise not pick.
type cfgDarkTheme struct{ fyne.Theme }

func (d cfgDarkTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return d.Theme.Color(n, theme.VariantDark)
}

// TestCFGScreenshot saves the workbench with the CFG tab on a professional
// mid-game position (move 100), the pointer on an empty point (H16, or
// AJI_SHOT_POINT), to the PNG named by AJI_SHOT_CFG — an absolute path, as
// the test runs in this package's folder. docs/cfg.png in the README is
// AJI_SHOT_CFG=$PWD/docs/cfg.png go test -run CFGScreenshot ./ui/workbench.
func TestCFGScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_CFG")
	if out == "" {
		t.Skip("set AJI_SHOT_CFG=file.png to save a screenshot of the CFG view")
	}
	h := proGame(t, 100)
	fyne.CurrentApp().Settings().SetTheme(cfgDarkTheme{Theme()})
	h.w.Resize(fyne.NewSize(1200, 900))
	cv := tabOf[*cfgView](h.wb)
	h.selectTab(tabCFG)
	test.Tap(cv.on)
	point := os.Getenv("AJI_SHOT_POINT")
	if point == "" {
		point = "H16" // beside a black chain of four: its walks fan out to the chain's liberties
	}
	h.cfgHover(point)
	img := h.w.Canvas().Capture()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
