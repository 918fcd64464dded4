package mcts

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/models"
)

const dataDir = "../../../shared/data"

func dataFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(dataDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("training data absent (%s): %v", p, err)
	}
	return p
}

// TestTeamsMatchWeights: the teams the trainer builds are the features the playouts weigh — the product
// of a move's team γ is its weight in the playout, for every move, in random positions.
func TestTeamsMatchWeights(t *testing.T) {
	m := randomModel(4)
	pl := NewPatternPlayout(m)
	var teams moveTeams
	var w [board.NumCells]float64
	rng := rand.NewPCG(2, 2)
	for range 40 {
		pos := emptyPosition(t, 9, 7)
		n := int(rng.Uint64() % 100)
		// Play through the playout so Last is a real move and context features fire.
		pl.Reset(pos)
		for range n {
			pl.Play(pl.Choose(rng))
		}
		pos = pl.Position()
		pl.moveWeights(&w)
		moves := teams.Position(pos)
		for _, p := range pos.Board.Points() {
			if in := slices.Contains(moves, p); in != (w[p] > 0) {
				t.Fatalf("%s: in teams %v, weight %g\n%s", p.GTP(9), in, w[p], pos.Board.String())
			}
		}
		for _, p := range moves {
			prod := 1.0
			for _, i := range teams.Team(nil, p) {
				prod *= float64(float32(m.Gamma[i]))
			}
			if math.Abs(prod-w[p]) > 1e-5*prod {
				t.Fatalf("%s: team γ product %g, playout weight %g", p.GTP(9), prod, w[p])
			}
		}
	}
}

// TestTrainPattern trains on a few 9x9 games and checks that the policy predicts the expert moves of
// other games far better than a uniform choice, and that the model file round-trips and refuses damage.
func TestTrainPattern(t *testing.T) {
	path := dataFile(t, "games9-train.tar.xz")
	ctx := context.Background()
	m, st, err := TrainPatternModel(ctx, path, TrainOptions{MaxGames: 150, Iterations: 10, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions < 5000 || m.Positions != st.Positions {
		t.Fatalf("only %d positions from %d games", st.Positions, st.Games)
	}
	// Contiguity to the previous move is Coulom's strongest playout feature (γ = 23): it must come out
	// well above 1 here too.
	if g := m.Gamma[featIndex(featContig2)]; g < 2 {
		t.Errorf("γ of contiguity %g, want > 2", g)
	}
	// Evaluate on other games: 19x19 validation games (3x3 shapes mean the same on every board).
	ev, err := EvaluatePattern(ctx, dataFile(t, "games-validation.tar.xz"), m, TrainOptions{MaxGames: 40, PositionsPerGame: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("trained on %d positions; evaluation %d positions: top-1 %.3f, log-evidence %.3f, uniform %.3f",
		st.Positions, ev.Positions, ev.Top1, ev.MeanLogEvidence, ev.UniformLogEvidence)
	if ev.MeanLogEvidence < ev.UniformLogEvidence+0.5 {
		t.Errorf("log-evidence %.3f is not well above uniform's %.3f", ev.MeanLogEvidence, ev.UniformLogEvidence)
	}

	file := filepath.Join(t.TempDir(), "playout.ajim")
	if err := m.Save(file); err != nil {
		t.Fatal(err)
	}
	back, err := LoadPatternModel(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Gamma {
		if back.Gamma[i] != m.Gamma[i] {
			t.Fatalf("γ %d: saved %v, loaded %v", i, m.Gamma[i], back.Gamma[i])
		}
	}
	data, _ := os.ReadFile(file)
	for _, n := range []int{0, 10, len(data) / 2, len(data) - 1} {
		if _, err := DecodePatternModel(data[:n], "cut"); !errors.Is(err, models.ErrFormat) {
			t.Errorf("truncated to %d bytes: %v", n, err)
		}
	}
	bad := bytes.Clone(data)
	bad[len(bad)-3] ^= 1
	if _, err := DecodePatternModel(bad, "flipped"); !errors.Is(err, models.ErrFormat) {
		t.Errorf("corrupted: %v", err)
	}
}

// TestDefaultPatternModel: the embedded model loads and is trained (not all ones).
func TestDefaultPatternModel(t *testing.T) {
	m, err := DefaultPatternModel()
	if err != nil {
		t.Skipf("no embedded playout model yet: %v", err)
	}
	if m.Gamma[featIndex(featContig2)] <= 1 {
		t.Errorf("default model looks untrained: contiguity γ %g", m.Gamma[featIndex(featContig2)])
	}
}
