package bayes

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/models"
)

const trainGames = "../../../../shared/data/games-train.tar.xz"

// smallModel harvests Stern's patterns from the first games of the training collection and
// learns a model from them, with the given number of workers.
func smallModel(t *testing.T, games, workers int) *Model {
	t.Helper()
	if _, err := os.Stat(trainGames); err != nil {
		t.Skip("no training games at", trainGames)
	}
	d, _, err := pattern.HarvestStern(context.Background(), trainGames, pattern.Options{MaxFiles: games, FilterBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(d, DefaultBeta)
	st, err := Train(context.Background(), trainGames, m, TrainOptions{MaxGames: games, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != games || st.Positions < 100*games || m.Games != games {
		t.Fatalf("trained on %+v, model says %d games", st, m.Games)
	}
	return m
}

// TestTrainIsTheSameWithAnyWorkers: the updates are applied in game order, so the model does not
// depend on how many goroutines found the patterns; and learning shrinks the σ of the patterns seen.
func TestTrainIsTheSameWithAnyWorkers(t *testing.T) {
	a, b := smallModel(t, 20, 1), smallModel(t, 20, 3)
	if !slices.Equal(a.Mu, b.Mu) || !slices.Equal(a.Var, b.Var) || !slices.Equal(a.Seen, b.Seen) {
		t.Fatal("the models learned with 1 and 3 workers differ")
	}
	shrunk := 0
	for i, v := range a.Var {
		if a.Seen[i] > 0 && v < PriorVar {
			shrunk++
		}
		if a.Seen[i] == 0 && (v != PriorVar || a.Mu[i] != PriorMu) {
			t.Fatalf("slot %d never seen moved from the prior: N(%g, %g)", i, a.Mu[i], v)
		}
	}
	if shrunk == 0 {
		t.Error("no pattern's σ shrank")
	}
	if a.Played[a.PassSlot()] != 0 || a.Seen[a.PassSlot()] == 0 || !(a.Mu[a.PassSlot()] < 0) {
		t.Errorf("pass: played %d, seen %d, μ %g", a.Played[a.PassSlot()], a.Seen[a.PassSlot()], a.Mu[a.PassSlot()])
	}
}

// TestTrainResumes: a run that skips the games a checkpoint learned from ends where one run does.
func TestTrainResumes(t *testing.T) {
	whole := smallModel(t, 12, 2)
	m := NewModel(whole.Patterns, DefaultBeta)
	if _, err := Train(context.Background(), trainGames, m, TrainOptions{MaxGames: 5, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := Train(context.Background(), trainGames, m, TrainOptions{MaxGames: 12, Skip: m.Games, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if m.Games != 12 || !slices.Equal(m.Mu, whole.Mu) || !slices.Equal(m.Var, whole.Var) {
		t.Errorf("resumed after 5 games: %d games, same beliefs %v", m.Games, slices.Equal(m.Mu, whole.Mu))
	}
}

// TestModelFile: a model saves and loads unchanged, and a damaged file is refused with
// models.ErrFormat.
func TestModelFile(t *testing.T) {
	m := smallModel(t, 5, 2)
	path := filepath.Join(t.TempDir(), "bayes.ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Mu {
		if float32(m.Mu[i]) != float32(got.Mu[i]) || float32(m.Var[i]) != float32(got.Var[i]) || m.Seen[i] != got.Seen[i] || m.Played[i] != got.Played[i] {
			t.Fatalf("slot %d changed: N(%g, %g) %d/%d, loaded N(%g, %g) %d/%d", i, m.Mu[i], m.Var[i], m.Played[i], m.Seen[i], got.Mu[i], got.Var[i], got.Played[i], got.Seen[i])
		}
	}
	if got.Games != m.Games || got.Positions != m.Positions || got.Beta != m.Beta || got.Patterns.Len() != m.Patterns.Len() {
		t.Errorf("loaded %d games %d positions β %g, %d patterns", got.Games, got.Positions, got.Beta, got.Patterns.Len())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{data[:len(data)/2], append(slices.Clone(data[:40]), 0xff)} {
		if _, err := Decode(bad, "bad.ajim"); !errors.Is(err, models.ErrFormat) {
			t.Errorf("a damaged file: %v", err)
		}
	}
}

// TestPredictors: both predictors give a distribution over the legal moves of real positions,
// the expert's moves well above uniform on average.
func TestPredictors(t *testing.T) {
	m := smallModel(t, 30, 2)
	gs, err := game.LoadFile(filepath.Join("..", "..", "..", "assets", "games", "Agon-01-8.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	g := gs[0]
	for _, bern := range []bool{false, true} {
		p := NewPredictor("bayes", m, bern)
		var d predict.Distribution
		logLik, n := 0.0, 0
		err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			if next.Point == board.Pass {
				return nil
			}
			p.Predict(pos, &d)
			sum, legal := d.P[board.Pass], 1
			for _, pt := range pos.Board.Points() {
				if pos.Board.Legal(pt, pos.ToPlay) {
					sum += d.P[pt]
					legal++
				} else if d.P[pt] != 0 {
					t.Fatalf("move %d: illegal %s has %g", pos.MoveNumber, pt.GTP(19), d.P[pt])
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("move %d: probabilities sum to %g", pos.MoveNumber, sum)
			}
			logLik += math.Log(d.P[next.Point] * float64(legal))
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if logLik/float64(n) < 1 {
			t.Errorf("bernoulli %v: the expert's moves are only e^%.2f times as likely as uniform", bern, logLik/float64(n))
		}
	}
}

// TestHierModel: a hierarchical model learns (its messages leave their initial values), predicts
// a distribution, and saves and loads with its hierarchy.
func TestHierModel(t *testing.T) {
	flat := smallModel(t, 10, 2)
	m := NewHierModel(flat.Patterns, DefaultBeta)
	if _, err := Train(context.Background(), trainGames, m, TrainOptions{MaxGames: 10, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	observed := 0
	for id, g := range m.Hier.Back {
		if m.Patterns.Entry(id).Size > 1 && g.Pi > 0 {
			observed++
		}
	}
	if observed == 0 {
		t.Fatal("no pattern's message left uniform")
	}
	path := filepath.Join(t.TempDir(), "hier.ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil || got.Hier == nil || got.Hier.BetaT != m.Hier.BetaT {
		t.Fatalf("loaded: %v, hierarchy %v", err, got != nil && got.Hier != nil)
	}
	for i, g := range m.Hier.Back {
		if float32(g.Pi) != float32(got.Hier.Back[i].Pi) || float32(g.Tau) != float32(got.Hier.Back[i].Tau) {
			t.Fatalf("message %d: %+v, loaded %+v", i, g, got.Hier.Back[i])
		}
	}
	gs, err := game.LoadFile(filepath.Join("..", "..", "..", "assets", "games", "Agon-01-8.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gs[0].PositionAt(gs[0].MainLine()[60])
	if err != nil {
		t.Fatal(err)
	}
	var d predict.Distribution
	NewPredictor("bayes-hier", got, false).Predict(pos, &d)
	sum := d.P[board.Pass]
	for _, pt := range pos.Board.Points() {
		sum += d.P[pt]
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("probabilities sum to %g", sum)
	}
}

// TestLinearModel: the linear feature model learns the tactical features' values — a capture is
// worth more than a self-atari after a few games — predicts a distribution, and saves and loads.
func TestLinearModel(t *testing.T) {
	flat := smallModel(t, 15, 2)
	m := NewLinearModel(flat.Patterns, DefaultBeta)
	if _, err := Train(context.Background(), trainGames, m, TrainOptions{MaxGames: 15, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	capture := feature.Index(feature.Capture, feature.CaptureNotLadder)
	selfAtari := feature.Index(feature.SelfAtari, feature.SelfAtariLevel)
	if !(m.Linear.Mu[capture] > m.Linear.Mu[selfAtari]) || !(m.Linear.Var[capture] < PriorVar) {
		t.Errorf("capture N(%g, %g), self-atari N(%g, %g)", m.Linear.Mu[capture], m.Linear.Var[capture], m.Linear.Mu[selfAtari], m.Linear.Var[selfAtari])
	}
	path := filepath.Join(t.TempDir(), "linear.ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil || got.Linear == nil || got.Hier != nil || float32(got.Linear.Mu[capture]) != float32(m.Linear.Mu[capture]) {
		t.Fatalf("loaded: %v", err)
	}
	gs, err := game.LoadFile(filepath.Join("..", "..", "..", "assets", "games", "Agon-01-8.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gs[0].PositionAt(gs[0].MainLine()[80])
	if err != nil {
		t.Fatal(err)
	}
	var d predict.Distribution
	NewPredictor(LinearName, got, false).Predict(pos, &d)
	sum := d.P[board.Pass]
	for _, pt := range pos.Board.Points() {
		sum += d.P[pt]
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("probabilities sum to %g", sum)
	}
}
