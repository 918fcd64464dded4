package live

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// TestEstimateIsTheEstimators: LBP is deterministic, so the ownership is
// the estimator's own marginals, moved to board coordinates, with each
// stone's chain safety and size.
func TestEstimateIsTheEstimators(t *testing.T) {
	pos := proPosition(t, 150)
	var tr Territory
	var keys []string
	tr.Started = func(_ context.Context, key string) { keys = append(keys, key) }
	o, err := tr.Estimate(context.Background(), territory.KindBoltzmann5.String(), territory.MethodLBP.String(), pos)
	if err != nil {
		t.Fatal(err)
	}
	e, err := territory.NewEstimator(territory.KindBoltzmann5, territory.MethodLBP)
	if err != nil {
		t.Fatal(err)
	}
	var m territory.Marginals
	if err := e.Estimate(context.Background(), pos, &m); err != nil {
		t.Fatal(err)
	}
	b := &pos.Board
	sum := -pos.Komi
	for _, p := range b.Points() {
		x, y := p.XY()
		i := y*19 + x
		sum += m.Mean[p]
		if o.Mean[i] != m.Mean[p] {
			t.Fatalf("E[s] at %s %g, want %g", p.GTP(19), o.Mean[i], m.Mean[p])
		}
		lives, stone := territory.ChainSafety(b, &m, p)
		switch {
		case !stone && !math.IsNaN(o.Lives[i]):
			t.Fatalf("empty %s lives %g", p.GTP(19), o.Lives[i])
		case stone && (o.Lives[i] != lives || int(o.Stones[i]) != b.ChainSize(p)):
			t.Fatalf("stone %s lives %g in %d stones, want %g in %d", p.GTP(19), o.Lives[i], o.Stones[i], lives, b.ChainSize(p))
		}
	}
	if math.Abs(o.Score()-sum) > 1e-9 || o.Komi != pos.Komi || o.Size != 19 {
		t.Errorf("score %g, want Σ E[s] − komi = %g", o.Score(), sum)
	}
	if len(keys) != 1 || keys[0] != "territory/boltzmann5/lbp" {
		t.Errorf("started %v", keys)
	}
	// mc takes no method: one key whatever the method asked for.
	mc, err := tr.Estimate(context.Background(), territory.KindMC.String(), territory.MethodSW.String(), pos)
	if err != nil || mc.Method != "" || keys[1] != "territory/mc/" {
		t.Errorf("mc estimate: method %q, key %q, %v", mc.Method, keys[1], err)
	}
}

func TestScoreAndSample(t *testing.T) {
	pos := proPosition(t, 90)
	var tr Territory
	ctx := context.Background()
	r, err := tr.Score(ctx, territory.KindBoltzmann5.String(), pos)
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != territory.KindBoltzmann5.String() || r.Estimate.Samples != territory.DefaultScoreSamples ||
		r.Estimate.PBlackWins < 0 || r.Estimate.PBlackWins > 1 {
		t.Errorf("score %+v", r)
	}
	if r, err := tr.Score(ctx, territory.KindMC.String(), pos); err != nil || r.Estimate.Samples != territory.DefaultMCPlayouts {
		t.Errorf("mc score %+v %v", r, err)
	}
	s, err := tr.DrawSample(ctx, territory.KindBoltzmann5.String(), territory.MethodSW.String(), 7, pos)
	if err != nil {
		t.Fatal(err)
	}
	if s.Seed != 7 || s.Size != 19 || len(s.Owner) != 361 {
		t.Fatalf("sample %d on %d points", s.Seed, len(s.Owner))
	}
	// Bonded neighbours belong to one cluster, so to one owner.
	bonds := 0
	for y := range 19 {
		for x := range 19 {
			i := y*19 + x
			if s.Owner[i] != 1 && s.Owner[i] != -1 {
				t.Fatalf("owner %d at %s", s.Owner[i], board.At(x, y).GTP(19))
			}
			if s.Right[i] && (x == 18 || s.Owner[i+1] != s.Owner[i]) || s.Down[i] && (y == 18 || s.Owner[i+19] != s.Owner[i]) {
				t.Fatalf("a bond at %s joins different owners or leaves the board", board.At(x, y).GTP(19))
			}
			if s.Right[i] {
				bonds++
			}
		}
	}
	if bonds == 0 {
		t.Error("no bonds")
	}
}

// TestCancelledEstimate: an estimate whose position was left ends with
// the context's error, and an unknown model is an error.
func TestCancelledEstimate(t *testing.T) {
	pos := proPosition(t, 60)
	var tr Territory
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tr.Estimate(ctx, territory.KindBoltzmann5.String(), territory.MethodSW.String(), pos); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled estimate: %v", err)
	}
	if _, err := tr.Estimate(context.Background(), "ising", territory.MethodSW.String(), pos); err == nil || !strings.Contains(err.Error(), "ising") {
		t.Errorf("unknown model: %v", err)
	}
}

// BenchmarkTerritoryTasks19 is the work of the territory tasks on the
// sample game at move 150, one worker each: what the overlay and the score
// line wait for after a navigation.
func BenchmarkTerritoryTasks19(b *testing.B) {
	pos := proPosition(b, 150)
	var tr Territory
	ctx := context.Background()
	for _, m := range territory.Names(territory.Methods) {
		b.Run("estimate/"+m, func(b *testing.B) {
			for b.Loop() {
				if _, err := tr.Estimate(ctx, territory.KindBoltzmann5.String(), m, pos); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("estimate/mc", func(b *testing.B) {
		for b.Loop() {
			if _, err := tr.Estimate(ctx, territory.KindMC.String(), "", pos); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("score/boltzmann5", func(b *testing.B) {
		for b.Loop() {
			if _, err := tr.Score(ctx, territory.KindBoltzmann5.String(), pos); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sample/boltzmann5", func(b *testing.B) {
		seed := uint64(0)
		for b.Loop() {
			seed++
			if _, err := tr.DrawSample(ctx, territory.KindBoltzmann5.String(), territory.MethodSW.String(), seed, pos); err != nil {
				b.Fatal(err)
			}
		}
	})
}
