package workbench

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/mcts"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/fbt"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
)

// randomFBT writes an F_small fbt model with random parameters to a file
// named name.ajim, and returns its path.
func randomFBT(t *testing.T, name string) string {
	t.Helper()
	shapes, err := pattern.NewDictionary(nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := fbt.NewModel(shapes, 4)
	if err != nil {
		t.Fatal(err)
	}
	m.InitV(1, 0.5)
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range m.W {
		if !fbt.IsOwner(int32(i)) { // as trained without an owner stage
			m.W[i] = float32(rng.NormFloat64())
		}
	}
	path := filepath.Join(t.TempDir(), name+".ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadFBT loads a random fbt model as File ▸ Load Model… does and waits
// until the main board shows it.
func (h *harness) loadFBT(name string) string {
	h.t.Helper()
	h.wb.LoadModel(randomFBT(h.t, name))
	h.pump("the model to load", func() bool { return strings.HasPrefix(h.wb.settings.predictor, name) })
	return h.wb.settings.predictor
}

// TestInspectorShowsInteractions: hovering a move of an fbt model lists,
// beside each feature, its strongest interactions with the partner named,
// as the predictor explains them.
func TestInspectorShowsInteractions(t *testing.T) {
	h := newHarness(t, variations)
	h.key(fyne.KeyRight, 0)
	name := h.loadFBT("tiny")
	h.explained()
	h.pointer(0, h.at("C3"))
	h.inspectorSays("C3 · rank ")
	in := tabOf[*inspector](h.wb)
	pred, err := predict.New(name, predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c3 := h.at("C3")
	ex := pred.(predict.Explainer).Explain(h.wb.doc.cursor.Position(), board.At(c3.X, c3.Y))
	if len(ex.Interactions) == 0 {
		t.Fatal("no interactions in the fbt explanation")
	}
	up, down := ex.Partners()
	rows := in.table.factors
	if len(rows) != len(ex.Factors) {
		t.Fatalf("%d rows for %d factors", len(rows), len(ex.Factors))
	}
	for i, r := range rows {
		for _, k := range []int{up[i], down[i]} {
			if k >= 0 && !strings.Contains(r.Name, ex.InteractionText(k, i)) {
				t.Errorf("row %q does not name its interaction %q", r.Name, ex.InteractionText(k, i))
			}
		}
	}
}

// TestSearchPriorChoice: a model loaded from a file is offered as the
// search's prior; choosing it is saved, and the next search takes its
// probabilities as the candidates' priors.
func TestSearchPriorChoice(t *testing.T) {
	h, sv := searchGame(t, 40, 300)
	name := h.loadFBT("prior")
	if !slices.Contains(sv.prior.Options, name) || slices.Contains(sv.prior.Options, "uniform") {
		t.Fatalf("prior choices %v: want %s and not uniform", sv.prior.Options, name)
	}
	sv.prior.SetSelected(name)
	if got := h.wb.opts.Preferences.String(prefSearchPrior); got != name {
		t.Errorf("saved prior %q", got)
	}
	sv.start()
	r := h.searched()
	h.awaitSearch("the search to end", func() bool { return !sv.running })
	pred, err := mcts.NewPrior(name)
	if err != nil {
		t.Fatal(err)
	}
	var d predict.Distribution
	pred.Predict(h.wb.doc.cursor.Position(), &d)
	for _, c := range r.Candidates {
		if diff := float64(c.Prior) - d.P[c.Move]; diff > 1e-6 || diff < -1e-6 {
			t.Errorf("%s: prior %.6f, %s gives %.6f", c.Move.GTP(19), c.Prior, name, d.P[c.Move])
		}
	}
}

// TestInspectorFBTScreenshot saves the workbench with the inspector
// explaining, with the embedded fbt, its favourite move at move 100 of a
// professional game, to the PNG named by AJI_SHOT_INSPECTOR_FBT — an
// absolute path, as the test runs in this package's folder:
// AJI_SHOT_INSPECTOR_FBT=$PWD/docs/inspector-fbt.png go test -run InspectorFBTScreenshot ./ui/workbench.
func TestInspectorFBTScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_INSPECTOR_FBT")
	if out == "" {
		t.Skip("set AJI_SHOT_INSPECTOR_FBT=file.png to save a screenshot of the inspector with fbt")
	}
	h := proGame(t, 100)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.w.Resize(fyne.NewSize(1200, 900))
	h.wb.settings.heat, h.wb.settings.topK = true, 5
	h.wb.panel.pred.SetSelected("fbt")
	best := h.explained().Best
	x, y := best.XY()
	h.pointer(0, goban.Point{X: x, Y: y})
	h.inspectorSays(best.GTP(19) + " · rank 1 ")
	h.saveWindow(out)
}
