package main

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/label"
	"aji/analysis/mcts"
	"aji/analysis/territory"
)

var (
	validationLabels = filepath.Join("..", "..", "..", "shared", "data", "territory-labels-validation.jsonl")
	validationGames  = filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")
)

func TestTerritoryEvalUsage(t *testing.T) {
	for _, args := range [][]string{
		{"territory-eval"},
		{"territory-eval", "--model", "boltzmann5", "--labels", "x", "--games", "y"},
		{"territory-eval", "--method", "sw", "--labels", "x", "--games", "y"},
		{"territory-eval", "--model", "mc", "--labels", "x"},
		{"territory-eval", "--model", "mc", "--labels", "x", "--games", "y", "--max-games", "-1"},
		{"territory-eval", "--model", "mc", "--labels", "x", "--games", "y", "extra"},
	} {
		if _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	dir := t.TempDir()
	if _, err := run(t, "territory-eval", "--model", "mc", "--labels", "x", "--games", filepath.Join(dir, "none")); err == nil {
		t.Error("missing games accepted")
	}
	if _, err := run(t, "territory-eval", "--model", "ising", "--method", "sw", "--labels", "x", "--games", dir); err == nil {
		t.Error("unknown model accepted")
	}
	if _, err := run(t, "territory-eval", "--model", "mc", "--policy", "heavy", "--labels", "x", "--games", dir); err == nil || !strings.Contains(err.Error(), "heavy") {
		t.Errorf("unknown playout policy: %v", err)
	}
}

// The command's figures against a computation of their own on the first three consistent labelled
// games: positions from Game.PositionAfter, a fresh estimator per position, the cross-entropy and sign
// agreement summed here. LBP and mc are deterministic, so the two must agree to rounding.
func TestTerritoryEvalMatchesDirect(t *testing.T) {
	skipUnderRace(t)
	for _, p := range []string{validationLabels, validationGames} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("validation data absent (%v); it lives in ../shared/data", err)
		}
	}
	all, err := label.ReadFile(validationLabels)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*label.Label{}
	for i := range all {
		if all[i].Consistent && len(want) < 3 {
			want[all[i].Game] = &all[i]
		}
	}
	games := map[string]*game.Game{}
	dataset.Walk(context.Background(), validationGames, dataset.Filter{}, func(r dataset.Record) error {
		if want[r.Name] != nil && len(r.Games) == 1 {
			games[r.Name] = r.Games[0]
		}
		if len(games) == len(want) {
			return context.Canceled
		}
		return nil
	})
	if len(games) != 3 {
		t.Fatalf("found %d of the 3 labelled games", len(games))
	}
	for _, c := range []struct {
		model  territory.Kind
		policy string
	}{{territory.KindBoltzmann5, ""}, {territory.KindMC, ""},
		{territory.KindMC, territory.PolicyRandom}, {territory.KindMC, mcts.PolicyPattern}} {
		model := c.model.String()
		method := territory.MethodLBP.String()
		if c.model == territory.KindMC {
			method = model
		}
		args := []string{"territory-eval", "--model", model, "--method", method, "--labels", validationLabels,
			"--games", validationGames, "--max-games", "3", "--workers", "2", "--json"}
		if c.policy != "" {
			args = append(args, "--policy", c.policy)
		}
		out, err := run(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		var rep territoryReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if rep.Model != model || rep.Method != method || rep.Games != 3 || len(rep.ByMove) != 3 {
			t.Fatalf("report header: %+v", rep)
		}
		var total struct {
			positions, points, agree int
			ce                       float64
		}
		for k, mv := range []int{20, 80, 150} {
			positions, points, agree, ce := 0, 0, 0, 0.0
			for name, g := range games {
				pos, err := g.PositionAfter(mv - 1)
				if err != nil || pos.MoveNumber != mv-1 {
					continue
				}
				est, _ := territory.NewEstimator(c.model, territory.MethodLBP)
				if c.policy != "" {
					est.MC.Policy = c.policy
				}
				var m territory.Marginals
				if err := est.Estimate(context.Background(), pos, &m); err != nil {
					t.Fatal(err)
				}
				positions++
				l := want[name]
				for _, p := range pos.Board.Points() {
					x, y := p.XY()
					lab := float64(l.Labels[y*l.Size+x])
					if lab == 0 {
						continue
					}
					points++
					ce -= math.Log(math.Min(math.Max(1e-6, (1+lab*m.Mean[p])/2), 1-1e-6))
					if lab*m.Mean[p] > 0 {
						agree++
					}
				}
			}
			got := rep.ByMove[k]
			if got.Move != mv || got.Positions != positions || got.Points != points ||
				math.Abs(got.CrossEntropy-ce/float64(points)) > 1e-9 ||
				math.Abs(got.SignAgreement-float64(agree)/float64(points)) > 1e-12 {
				t.Errorf("%s move %d: command %+v; direct %d positions, %d points, cross-entropy %.6f, agreement %.6f",
					model, mv, got, positions, points, ce/float64(points), float64(agree)/float64(points))
			}
			total.positions += positions
			total.points += points
			total.agree += agree
			total.ce += ce
		}
		if o := rep.Overall; o.Positions != total.positions || o.Points != total.points ||
			math.Abs(o.CrossEntropy-total.ce/float64(total.points)) > 1e-9 {
			t.Errorf("%s overall: %+v, direct %+v", model, o, total)
		}
		t.Logf("%s (policy %q) on 3 games: cross-entropy %.3f %.3f %.3f, overall %.3f", model, c.policy, rep.ByMove[0].CrossEntropy,
			rep.ByMove[1].CrossEntropy, rep.ByMove[2].CrossEntropy, rep.Overall.CrossEntropy)
	}
}

// TestBenchAllJSON runs `bench all` (board, predict, playout and territory) and checks the
// territory figures, which only it measures.
func TestBenchAllJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: exact inference takes ~1 s a 19x19 position")
	}
	skipUnderRace(t)
	out, err := run(t, "bench", "all", "--seconds", "0.01", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Board     []boardFigure
		Predict   []predictFigure
		Playout   []playoutFigure
		Territory []territoryFigure
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Board) == 0 || len(v.Predict) == 0 || len(v.Playout) == 0 {
		t.Errorf("bench all left out board, predict or playout figures: %s", out)
	}
	methods := map[string]territoryFigure{}
	for _, f := range v.Territory {
		if f.Chains <= 1 {
			methods[f.Method] = f
		}
		if f.MsPerRun <= 0 || f.MinMs <= 0 || f.MinMs > f.MsPerRun || f.Positions != 3 {
			t.Errorf("figure %+v", f)
		}
	}
	for _, m := range []string{"exact", "lbp", "gibbs", "sw", "mc"} {
		if _, ok := methods[m]; !ok {
			t.Errorf("no %s figure in %s", m, out)
		}
	}
	// Errors against exact are those of the samplers only, and SW's default run is close.
	if sw := methods["sw"]; sw.MeanAbsError <= 0 || sw.MeanAbsError > 0.03 || sw.MaxAbsError > 0.2 {
		t.Errorf("sw error %+v", sw)
	}
	if methods["lbp"].MaxAbsError != 0 || methods["gibbs"].MeanAbsError <= 0 {
		t.Errorf("errors reported for the wrong methods: %+v", v.Territory)
	}
}
