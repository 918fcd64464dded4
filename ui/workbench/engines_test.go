package workbench

import (
	"os"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/peer/peertest"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestMain(m *testing.M) {
	peertest.ServeIfChild()
	os.Exit(m.Run())
}

// ajiEngine is the command line that runs the test binary as Aji's GTP server.
func ajiEngine(t *testing.T) string { return peertest.Command(t) }

// addEngine adds an engine as the user does, and returns the tab.
func (h *harness) addEngine(name, command string) *enginesTab {
	h.t.Helper()
	h.selectTab(tabEngines)
	et := tabOf[*enginesTab](h.wb)
	et.name.SetText(name)
	et.command.SetText(command)
	test.Tap(et.addB)
	if et.list[et.sel].Command != command {
		h.t.Fatalf("engine %d selected after adding %q: %+v", et.sel, command, et.list)
	}
	return et
}

// idle pumps until the tab has no engine call in flight.
func (h *harness) enginesIdle(et *enginesTab) {
	h.t.Helper()
	h.pump("the engine's answer", func() bool { return et.busy == 0 })
}

func TestEngineGenmoveAndAnalyze(t *testing.T) {
	h := newHarness(t, variations)
	h.key(fyne.KeyRight, 0)
	h.key(fyne.KeyRight, 0)
	et := h.addEngine("Aji", ajiEngine(t))
	if s := h.wb.opts.Preferences.String(prefEngines); !strings.Contains(s, "aji-peertest-gtp-server") || !strings.Contains(s, `"name":"Aji"`) {
		t.Errorf("saved engines %s", s)
	}
	h.enginesIdle(et)
	if !strings.HasPrefix(et.state.Text, "running: Aji") || len(et.analyze.Options) == 0 {
		t.Fatalf("state %q, analyze commands %v", et.state.Text, et.analyze.Options)
	}

	pos := *h.wb.doc.cursor.Position()
	test.Tap(et.genmoveB)
	h.enginesIdle(et)
	l, depth := et.layer()
	if l == nil || depth < 0 || len(et.drawn.Labels) != 1 {
		t.Fatalf("after genmove: layer %v, text %q", et.drawn, et.text.Text)
	}
	gp := et.drawn.Labels[0].Point
	p := board.At(gp.X, gp.Y)
	if !pos.Board.Legal(p, pos.ToPlay) || et.drawn.Labels[0].Mark == 0 {
		t.Errorf("genmove drew %+v (%s): not a legal move for %v", et.drawn.Labels[0], et.text.Text, pos.ToPlay)
	}
	if !strings.Contains(et.text.Text, "plays "+colorName(pos.ToPlay)) {
		t.Errorf("text %q", et.text.Text)
	}

	// The territory estimate: an influence on every point.
	label := ""
	for _, c := range et.cmds {
		if c.Command == "aji-territory" {
			label = c.Label
		}
	}
	if label == "" {
		t.Fatalf("no aji-territory among %+v", et.cmds)
	}
	et.analyze.SetSelected(label)
	h.enginesIdle(et)
	nonzero := 0
	if et.drawn != nil {
		for _, v := range et.drawn.Influence {
			if v != 0 {
				nonzero++
			}
		}
	}
	if nonzero == 0 || !strings.Contains(et.text.Text, "territory") {
		t.Fatalf("after %s: layer %+v, text %q", label, et.drawn, et.text.Text)
	}

	// Navigating takes the answer off the boards; a redraw keeps it.
	et.navigated()
	if et.drawn == nil {
		t.Error("a redraw dropped the answer")
	}
	h.key(fyne.KeyRight, 0)
	if l, _ := et.layer(); l != nil || et.text.Text != "" {
		t.Errorf("after navigating: layer %v, text %q", l, et.text.Text)
	}

	// The list comes back from the preferences.
	again := newEnginesTab(h.wb).(*enginesTab)
	defer again.stop()
	if len(again.list) != 1 || again.list[0] != et.list[0] {
		t.Errorf("reloaded %+v, want %+v", again.list, et.list)
	}
}

// Navigating while a request is in flight cancels it and drops its answer.
func TestEngineNavigationDropsPending(t *testing.T) {
	h := newHarness(t, variations)
	et := h.addEngine("Aji", ajiEngine(t))
	h.enginesIdle(et)
	test.Tap(et.genmoveB)
	if et.busy == 0 || !strings.HasPrefix(et.text.Text, "Asking") {
		t.Fatalf("genmove in flight: busy %d, text %q", et.busy, et.text.Text)
	}
	h.key(fyne.KeyRight, 0)
	h.enginesIdle(et)
	if l, _ := et.layer(); l != nil || et.text.Text != "" {
		t.Errorf("the answer for the position left was kept: layer %v, text %q", l, et.text.Text)
	}
	// The engine answers again for the new position.
	test.Tap(et.genmoveB)
	h.enginesIdle(et)
	if et.drawn == nil {
		t.Errorf("no move after navigating: %q (%s)", et.text.Text, et.state.Text)
	}
}

// A broken engine is shown down with its reason, without blocking the UI; removing it takes it off
// the list and the preferences.
func TestEngineBroken(t *testing.T) {
	h := newHarness(t, variations)
	et := h.addEngine("broken", `sh -c 'exit 3'`)
	if et.busy == 0 || strings.HasPrefix(et.state.Text, "down") {
		t.Fatalf("the engine was started on the Fyne goroutine: busy %d, state %q", et.busy, et.state.Text)
	}
	h.enginesIdle(et)
	if !strings.HasPrefix(et.state.Text, "down: ") || len(et.state.Text) <= len("down: ") {
		t.Fatalf("state %q, want down with a reason", et.state.Text)
	}
	test.Tap(et.genmoveB)
	if !strings.HasPrefix(et.text.Text, "Asking") {
		t.Fatalf("genmove answered at once: %q", et.text.Text)
	}
	h.enginesIdle(et)
	if et.drawn != nil || !strings.Contains(et.text.Text, "failed") {
		t.Errorf("genmove on a broken engine: layer %v, text %q", et.drawn, et.text.Text)
	}
	test.Tap(et.restartB)
	h.enginesIdle(et)
	if !strings.HasPrefix(et.state.Text, "down: ") {
		t.Errorf("after restart: %q", et.state.Text)
	}
	test.Tap(et.removeB)
	if len(et.list) != 0 || et.sel != -1 || strings.Contains(h.wb.opts.Preferences.String(prefEngines), "exit") {
		t.Errorf("after remove: list %+v, selected %d, saved %q", et.list, et.sel, h.wb.opts.Preferences.String(prefEngines))
	}
}

// Live analysis with an engine that streams (Aji's search) draws its candidates, with its
// ownership, follows the navigation, and leaves the engine in step once turned off.
func TestEngineLiveAnalysis(t *testing.T) {
	h := newHarness(t, variations)
	h.key(fyne.KeyRight, 0)
	et := h.addEngine("Aji search", peertest.SearchCommand(t, 200, 0))
	h.enginesIdle(et)
	if et.liveC.Disabled() || len(et.streams) == 0 {
		t.Fatalf("live analysis not offered: streams %v", et.streams)
	}
	live := func(what string) *liveLayer {
		t.Helper()
		node := h.wb.doc.cursor.Node()
		h.pump(what, func() bool { return et.liveL != nil && et.node == node && len(et.liveL.search.Moves) > 0 })
		if l, _ := et.layer(); l != et.liveL {
			t.Fatalf("%s: the tab draws %v", what, l)
		}
		return et.liveL
	}
	test.Tap(et.liveC)
	l := live("the live candidates")
	pos := h.wb.doc.cursor.Position()
	n := pos.Board.Size()
	for _, m := range l.search.Moves {
		if p := board.At(m.Point.X, m.Point.Y); !pos.Board.Legal(p, pos.ToPlay) {
			t.Errorf("candidate %s is not legal", p.GTP(n))
		}
	}
	if !l.search.Moves[0].Best || l.own == nil || len(l.own.Owner) != n*n || !strings.Contains(et.text.Text, "kata-analyze") {
		t.Errorf("live layer %+v, ownership %v, text %q", l.search.Moves[0], l.own != nil, et.text.Text)
	}

	// Another position: the stream starts again there.
	h.key(fyne.KeyRight, 0)
	live("the candidates after navigating")

	// Off: nothing drawn, the stream ends, and the engine answers the next request.
	test.Tap(et.liveC)
	if l, _ := et.layer(); l != nil {
		t.Errorf("after turning it off the tab draws %v", l)
	}
	h.enginesIdle(et)
	test.Tap(et.genmoveB)
	h.enginesIdle(et)
	if et.drawn == nil || !strings.Contains(et.text.Text, "plays") {
		t.Errorf("genmove after live analysis: %q (%s)", et.text.Text, et.state.Text)
	}
}

// TestEnginesScreenshot saves the workbench with GNU Go's top moves (its
// top_moves analysis, drawn as GoGui draws pspairs) on the board over the
// mm heat map, at move 100 of a professional game,
// to the PNG named by AJI_SHOT_ENGINES (an absolute path):
// AJI_SHOT_ENGINES=$PWD/docs/engines.png go test -run EnginesScreenshot ./ui/workbench.
func TestEnginesScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_ENGINES")
	if out == "" {
		t.Skip("set AJI_SHOT_ENGINES=file.png to save a screenshot of GNU Go's analysis beside mm's")
	}
	if _, err := os.Stat("/usr/games/gnugo"); err != nil {
		t.Skip("GNU Go is not installed at /usr/games/gnugo")
	}
	h := proGame(t, 99)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.w.Resize(fyne.NewSize(1300, 900))
	h.wb.settings.heat, h.wb.settings.topK = true, 0 // GNU Go's values label the points
	h.wb.render()
	v := h.wb.views[0]
	h.pump("the mm heat map", func() bool { return v.shown != nil && v.node == h.wb.doc.cursor.Node() })
	et := h.addEngine("GNU Go 3.8", "/usr/games/gnugo --mode gtp --level 10")
	h.awaitSearch("GNU Go's commands", func() bool { return et.busy == 0 })
	label := "Top moves: White"
	if h.wb.doc.cursor.Position().ToPlay == board.Black {
		label = "Top moves: Black"
	}
	et.analyze.SetSelected(label)
	h.awaitSearch("GNU Go's top moves", func() bool { return et.busy == 0 && et.drawn != nil })
	h.pump("the analyses", func() bool { return len(h.ui) == 0 })
	h.saveWindow(out)
}
