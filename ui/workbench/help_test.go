package workbench

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"aji/assets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// appRun is one run of the app: a harness and how to end it, as closing the window does.
type appRun struct {
	*harness
	stop func()
}

// benchOn is a harness on the preferences prefs with no game shown: one run of the app, for tests
// of what a run leaves to the next.
func benchOn(t *testing.T, prefs fyne.Preferences) appRun {
	t.Helper()
	h := appRun{harness: &harness{t: t, ui: make(chan func(), 1<<12)}}
	h.w = test.NewWindow(nil)
	h.wb = New(h.w, Options{
		OnUI:        func(f func()) { h.ui <- f },
		Modifiers:   func() fyne.KeyModifier { return h.mods },
		Quit:        func() { h.quit++ },
		Preferences: prefs,
	})
	stopped := false
	h.stop = func() {
		if !stopped {
			stopped = true
			h.wb.Stop()
			h.w.Close()
		}
	}
	t.Cleanup(func() { h.stop() })
	h.w.Resize(fyne.NewSize(1000, 700))
	return h
}

// dialogText is every label's text in the dialog on top, joined by newlines.
func (h *harness) dialogText() string {
	h.t.Helper()
	top := h.w.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatal("no dialog shown")
	}
	var texts []string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func TestHelpMenuOpensShortcutsAndAbout(t *testing.T) {
	h := newHarness(t, variations)
	h.menuItem("Help", "Keyboard Shortcuts").Action()
	text := h.dialogText()
	for _, want := range []string{"Shift+← / Shift+→", "Home / End", "F5", "Ctrl+O", "reveal the record's next move", "stop guessing"} {
		if !strings.Contains(text, want) {
			t.Errorf("Keyboard shortcuts lack %q:\n%s", want, text)
		}
	}
	h.w.Canvas().Overlays().Top().Hide()
	h.w.Canvas().Overlays().Remove(h.w.Canvas().Overlays().Top())

	h.menuItem("Help", "About Aji").Action()
	text = h.dialogText()
	for _, want := range []string{"Aji " + Version, "Coulom", "Stern", "Xiao", "common fate graph", "License"} {
		if !strings.Contains(strings.ToLower(text), strings.ToLower(want)) {
			t.Errorf("About lacks %q:\n%s", want, text)
		}
	}
}

// TestHelpShortcutsMatchTheKeys: every key the Go menu shows and every presentation key is in the
// shortcuts list, so the list cannot forget one of the keys it names.
func TestHelpShortcutsMatchTheKeys(t *testing.T) {
	text := shortcutsText()
	names := map[fyne.KeyName]string{
		fyne.KeyLeft: "←", fyne.KeyRight: "→", fyne.KeyUp: "↑", fyne.KeyDown: "↓", fyne.KeyHome: "Home",
		fyne.KeyEnd: "End", fyne.KeyPageUp: "Page Up", fyne.KeyPageDown: "Page Down", fyne.KeyEscape: "Esc",
	}
	for _, k := range []fyne.KeyName{fyne.KeyLeft, fyne.KeyRight, fyne.KeyUp, fyne.KeyDown, fyne.KeyHome,
		fyne.KeyEnd, fyne.KeyPageUp, fyne.KeyPageDown, keyPresent, keyUnpresent, keyHeat, keyReveal, keyTopK, keyPercent, fyne.KeyG} {
		n, ok := names[k]
		if !ok {
			n = string(k)
		}
		if !regexp.MustCompile(`(^|[ /+])` + regexp.QuoteMeta(n) + `($|[ /:])`).MatchString(strings.ReplaceAll(text, "\n", " ")) {
			t.Errorf("key %s (%q) not in the shortcuts:\n%s", k, n, text)
		}
	}
}

// TestFirstStartOpensTheSampleAtItsFirstMoveWithAHintOnce: the app's first start shows the sample
// at move 0 and the hint; the second start has no hint.
func TestFirstStartOpensTheSampleAtItsFirstMoveWithAHintOnce(t *testing.T) {
	a := test.NewTempApp(t)
	h := benchOn(t, a.Preferences())
	if err := h.wb.Start("", -1, "sample.sgf", []byte(variations)); err != nil {
		t.Fatal(err)
	}
	if h.move() != 0 {
		t.Errorf("the sample opened at move %d, want 0", h.move())
	}
	if got := h.wb.status.msg.Text; got != firstStartHint {
		t.Errorf("first start: status %q, want the hint", got)
	}
	h.key(fyne.KeyRight, 0)
	if got := h.wb.status.msg.Text; got != "" || h.move() != 1 {
		t.Errorf("after a step: status %q at move %d, want no message at move 1", got, h.move())
	}
	h.stop()

	h2 := benchOn(t, a.Preferences())
	if err := h2.wb.Start("", 3, "sample.sgf", []byte(variations)); err != nil {
		t.Fatal(err)
	}
	if h2.move() != 3 || h2.wb.status.msg.Text != "" {
		t.Errorf("second start with -move 3: move %d, status %q; want move 3 and no hint", h2.move(), h2.wb.status.msg.Text)
	}
}

// TestRememberLastViewedMove: a file reopens at the move the user last viewed in it, whether it is
// reopened in the same run or the next; an explicit move wins; another file opens at its end.
func TestRememberLastViewedMove(t *testing.T) {
	a := test.NewTempApp(t)
	dir := t.TempDir()
	path, other := filepath.Join(dir, "a.sgf"), filepath.Join(dir, "b.sgf")
	for _, p := range []string{path, other} {
		if err := os.WriteFile(p, []byte(variations), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := benchOn(t, a.Preferences())
	if err := h.wb.Start(path, -1, "", nil); err != nil {
		t.Fatal(err)
	}
	if h.move() != 14 {
		t.Fatalf("a new file opened at move %d, want its end, 14", h.move())
	}
	h.key(fyne.KeyHome, 0)
	for range 5 {
		h.key(fyne.KeyRight, 0)
	}
	h.wb.load(other) // as File ▸ Open Recent does
	if h.move() != 14 {
		t.Errorf("the other file opened at move %d, want 14", h.move())
	}
	h.wb.load(path)
	if h.move() != 5 {
		t.Errorf("reopened in the same run at move %d, want 5", h.move())
	}
	h.key(fyne.KeyRight, 0)
	h.stop()

	h2 := benchOn(t, a.Preferences())
	if err := h2.wb.Start(path, -1, "", nil); err != nil {
		t.Fatal(err)
	}
	if h2.move() != 6 {
		t.Errorf("the next run opened at move %d, want 6", h2.move())
	}
	if err := h2.wb.ShowFile(path, 2); err != nil || h2.move() != 2 {
		t.Errorf("an explicit move 2: move %d, %v", h2.move(), err)
	}
}

// TestRememberWindowSizeAndSplit: the next run opens with the window's size and the split the
// user left; a first run gets the default size.
func TestRememberWindowSizeAndSplit(t *testing.T) {
	a := test.NewTempApp(t)
	def := fyne.NewSize(1200, 780)
	h := benchOn(t, a.Preferences())
	h.wb.RestoreSize(def)
	if got := h.w.Canvas().Size(); got != def {
		t.Errorf("first run: %v, want the default %v", got, def)
	}
	h.w.Resize(fyne.NewSize(900, 640))
	h.wb.split.Offset = 0.6
	h.stop()

	h2 := benchOn(t, a.Preferences())
	h2.wb.RestoreSize(def)
	if got := h2.w.Canvas().Size(); got != fyne.NewSize(900, 640) {
		t.Errorf("second run: %v, want 900x640", got)
	}
	if h2.wb.split.Offset != 0.6 {
		t.Errorf("split %v, want 0.6", h2.wb.split.Offset)
	}
	// Presenting is full screen: its size is not saved.
	h2.key(keyPresent, 0)
	h2.w.Resize(fyne.NewSize(1600, 1000))
	h2.stop()
	h3 := benchOn(t, a.Preferences())
	h3.wb.RestoreSize(def)
	if got := h3.w.Canvas().Size(); got != fyne.NewSize(900, 640) {
		t.Errorf("after presenting: %v, want 900x640", got)
	}
}

// TestVersionIsFyneApps: About's version is the one FyneApp.toml gives the packaging tool.
func TestVersionIsFyneApps(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "FyneApp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]*)"`).FindSubmatch(data)
	if m == nil || string(m[1]) != Version {
		t.Errorf("FyneApp.toml's version %q, the app's %q", m, Version)
	}
}

// TestFirstStartScreenshot saves the first start (the sample at move 0 with the hint) to the PNG
// named by AJI_SHOT_FIRST (an absolute path):
// AJI_SHOT_FIRST=$PWD/docs/first-start.png go test -run FirstStartScreenshot ./ui/workbench.
func TestFirstStartScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_FIRST")
	if out == "" {
		t.Skip("set AJI_SHOT_FIRST=file.png to save a screenshot of the first start")
	}
	sampleName, data, err := assets.Sample()
	if err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	a.Settings().SetTheme(Theme())
	h := benchOn(t, a.Preferences())
	h.w.Resize(fyne.NewSize(1200, 780))
	if err := h.wb.Start("", -1, sampleName, data); err != nil {
		t.Fatal(err)
	}
	h.pump("the analyses", func() bool { return h.wb.views[0].shown != nil && len(h.ui) == 0 })
	// Lay the status bar out again for the texts it got after the first layout.
	h.w.Resize(fyne.NewSize(1201, 780))
	h.w.Resize(fyne.NewSize(1200, 780))
	h.saveWindow(out)
}
