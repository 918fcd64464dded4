package workbench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/bayes"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

const trainGames = "../../../shared/data/games-train.tar.xz"

// loadBayes learns a small Bayesian pattern model from the first 20
// games of the training collection (about a second), loads it as File ▸
// Load Model… does under a name starting with "stern", and waits until the
// main board shows it.
func (h *harness) loadBayes() string {
	h.t.Helper()
	if _, err := os.Stat(trainGames); err != nil {
		h.t.Skip("no training games at", trainGames)
	}
	const games = 20
	d, _, err := pattern.HarvestStern(context.Background(), trainGames, pattern.Options{MaxFiles: games, FilterBytes: 1 << 20})
	if err != nil {
		h.t.Fatal(err)
	}
	m := bayes.NewModel(d, bayes.DefaultBeta)
	if _, err := bayes.Train(context.Background(), trainGames, m, bayes.TrainOptions{MaxGames: games, Workers: 2}); err != nil {
		h.t.Fatal(err)
	}
	path := filepath.Join(h.t.TempDir(), "stern.ajim")
	if err := m.Save(path); err != nil {
		h.t.Fatal(err)
	}
	h.wb.LoadModel(path)
	h.pump("the model to load", func() bool { return strings.HasPrefix(h.wb.settings.predictor, "stern") })
	return h.wb.settings.predictor
}

// TestHowSure: the inspector's "How sure" check draws, for a Bayesian
// model, the σ of every legal move's pattern — different from move to
// move, a guess dark purple and a sure move light — and for a predictor
// without uncertainty is disabled, saying why, and draws nothing.
func TestHowSure(t *testing.T) {
	h := proGame(t, 60)
	name := h.loadBayes()
	in := tabOf[*inspector](h.wb)
	s := in.sure
	h.pump("the check enabled for "+name, func() bool { return s.able[name] && !s.check.Disabled() })
	if s.drawn != nil {
		t.Fatal("the layer is drawn before it is asked for")
	}
	test.Tap(s.check)
	h.pump("the how-sure layer", func() bool { return s.drawn != nil })
	sp := s.shown
	pos := h.wb.doc.cursor.Position()
	n := pos.Board.Size()
	var hiP, loP board.Point
	hi, lo := 0.0, math.Inf(1)
	for _, p := range pos.Board.Points() {
		x, y := p.XY()
		v := sp.V[y*n+x]
		if legal := pos.Board.Legal(p, pos.ToPlay); legal != (v > 0) {
			t.Fatalf("%s: legal %v, σ %g", p.GTP(n), legal, v)
		}
		if v > 0 && v > hi {
			hi, hiP = v, p
		}
		if v > 0 && v < lo {
			lo, loP = v, p
		}
	}
	if sp.Predictor != name || !(hi > 1.5*lo) || hi > sp.Prior {
		t.Fatalf("%s: σ from %g to %g, prior %g", sp.Predictor, lo, hi, sp.Prior)
	}
	if surePos(lo, sp.Prior) >= surePos(hi, sp.Prior) {
		t.Errorf("σ %g and %g at %g and %g of the scale", lo, hi, surePos(lo, sp.Prior), surePos(hi, sp.Prior))
	}
	gp := func(p board.Point) goban.Point { x, y := p.XY(); return goban.Point{X: x, Y: y} }
	_, pixel := h.boardPixels()
	guess, sure := pixel(gp(hiP)), pixel(gp(loP))
	if int(guess.B) < int(guess.R)+30 || int(sure.B)+int(sure.G)+int(sure.R) < int(guess.B)+int(guess.G)+int(guess.R)+60 {
		t.Errorf("σ %.3f at %s drawn %v, σ %.3f at %s %v", hi, hiP.GTP(n), guess, lo, loP.GTP(n), sure)
	}
	if dir := os.Getenv("AJI_SCREENSHOT"); dir != "" { // for the README: the inspector on the guess
		h.w.Resize(fyne.NewSize(1280, 1000))
		h.pointer(0, gp(hiP))
		h.inspectorSays(hiP.GTP(n) + " · ")
		h.saveWindow(filepath.Join(dir, "howsure.png"))
	}

	// A predictor without uncertainty: the check goes off and is disabled.
	h.wb.panel.pred.SetSelected("mm")
	h.pump("the check disabled for mm", func() bool { return s.check.Disabled() })
	if s.on || s.check.Checked || s.drawn != nil || !strings.Contains(s.note.Text, "mm has no uncertainty") {
		t.Errorf("for mm: on %v, checked %v, layer %v, note %q", s.on, s.check.Checked, s.drawn, s.note.Text)
	}
	// Back to the Bayesian model: the check can be used again.
	h.wb.panel.pred.SetSelected(name)
	h.pump("the check enabled again", func() bool { return !s.check.Disabled() })
}

// TestInspectorShowsBeliefs: a Bayesian model's move is explained by its
// chain of nested patterns, the one used first and the smaller ones
// dimmed, with μ ± σ and seen/played in place of γ and Elo, and its
// template drawn.
func TestInspectorShowsBeliefs(t *testing.T) {
	h := proGame(t, 60)
	name := h.loadBayes()
	ex := h.explained()
	// The point with the longest chain.
	var e *predict.Explanation
	for _, x := range ex.At {
		if x != nil && (e == nil || len(x.Factors) > len(e.Factors)) {
			e = x
		}
	}
	if e == nil || len(e.Factors) < 3 {
		t.Fatalf("no explanation with a chain of patterns: %+v", e)
	}
	in := tabOf[*inspector](h.wb)
	x, y := e.Point.XY()
	h.pointer(0, goban.Point{X: x, Y: y})
	h.inspectorSays(e.Point.GTP(19) + " · rank ")
	if !strings.HasPrefix(in.lines[2].Text, name+" · ") || !strings.HasPrefix(in.lines[3].Text, "Pattern T") || !in.diagram.Visible() {
		t.Errorf("lines %q, %q; diagram shown %v", in.lines[2].Text, in.lines[3].Text, in.diagram.Visible())
	}
	r := test.WidgetRenderer(in.table).(*factorRenderer)
	if !r.bayes || r.head[1].Text != "μ ± σ" || r.head[2].Text != "seen/played" || len(r.rows) != len(e.Factors) {
		t.Fatalf("table: Bayesian %v, headings %q %q, %d rows for %d factors", r.bayes, r.head[1].Text, r.head[2].Text, len(r.rows), len(e.Factors))
	}
	var text strings.Builder
	for i, row := range r.rows {
		f := e.Factors[i]
		var name []string
		for _, l := range row.name {
			name = append(name, l.Text)
		}
		line := strings.Join(name, " ") + " | " + row.gamma.Text + " | " + row.elo.Text
		text.WriteString("\n" + line)
		if want := belief(f.Weight, f.SD, smallBeliefs(e.Factors)); row.gamma.Text != want || !strings.Contains(row.elo.Text, "/") {
			t.Errorf("row %d: %q, want %s", i, line, want)
		}
		dimmed := row.gamma.Color != r.rows[0].gamma.Color
		if (i > 0) != dimmed || (i > 0) != strings.Contains(line, "unused") {
			t.Errorf("row %d %q: dimmed %v", i, line, dimmed)
		}
	}
	t.Log(text.String())
}

// TestBelief: μ ± σ with a true minus sign, small numbers with two
// significant digits.
func TestBelief(t *testing.T) {
	for _, c := range []struct {
		mu, sd float64
		small  bool
		want   string
	}{
		{0.4512, 0.153, false, "0.45 ± 0.15"},
		{-0.1234, 0.38, false, "−0.12 ± 0.38"},
		{-0.069, 0.11, false, "−0.07 ± 0.11"},
		{0.00712, 0.00291, true, "0.0071 ± 0.0029"},
		{0, 1, false, "0.00 ± 1.00"},
	} {
		if got := belief(c.mu, c.sd, c.small); got != c.want {
			t.Errorf("belief(%g, %g, %v) = %q, want %q", c.mu, c.sd, c.small, got, c.want)
		}
	}
	if !smallBeliefs([]predict.Factor{{Weight: 0.007, SD: 0.003}}) || smallBeliefs([]predict.Factor{{Weight: 0.007, SD: 0.003}, {Weight: -0.2, SD: 0.05}}) {
		t.Error("smallBeliefs")
	}
}
