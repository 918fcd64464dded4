package workbench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aji/models"
)

// TestLoadModel loads a model file as File ▸ Load Model… does (the
// embedded mm model's bytes under another name): the new predictor is
// offered in both choices and its heat map shown on the main board. A
// truncated file gives an error dialog and changes nothing.
func TestLoadModel(t *testing.T) {
	data, ok := models.Default("mm")
	if !ok {
		t.Skip("no embedded mm model")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "tuned.ajim")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, variations)
	h.wb.LoadModel(path)
	loaded := func() bool { return strings.HasPrefix(h.wb.settings.predictor, "tuned") }
	h.pump("the model to load", loaded)
	name := h.wb.settings.predictor
	p := h.wb.panel
	if !slices.Contains(p.pred.Options, name) || !slices.Contains(p.other.Options, name) || p.pred.Selected != name {
		t.Errorf("%s: choices %v and %v, selected %q", name, p.pred.Options, p.other.Options, p.pred.Selected)
	}
	h.pump("its heat map", func() bool {
		v := h.wb.views[0]
		return v.shown != nil && v.shown.Predictor == name
	})

	bad := filepath.Join(dir, "bad.ajim")
	if err := os.WriteFile(bad, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	h.wb.LoadModel(bad)
	h.pump("the error dialog", func() bool { return h.w.Canvas().Overlays().Top() != nil })
	if slices.ContainsFunc(p.pred.Options, func(n string) bool { return strings.HasPrefix(n, "bad") }) || h.wb.settings.predictor != name {
		t.Errorf("a truncated model changed the choices %v or the predictor %q", p.pred.Options, h.wb.settings.predictor)
	}
}
