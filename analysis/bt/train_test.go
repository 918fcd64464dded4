package bt

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTrainRecoversKnownGamma draws competitions from a Bradley-Terry model with known γ — two features
// of three and four mutually exclusive levels, every team taking one level of each — and checks that MM
// recovers the γ up to the scale freedom of each group, by comparing ratios within a group.
func TestTrainRecoversKnownGamma(t *testing.T) {
	truth := []float64{1, 3, 0.25, 2, 8, 0.5, 1} // group A: 0..2, group B: 3..6
	groups := []Group{{Name: "A", Lo: 0, Hi: 3}, {Name: "B", Lo: 3, Hi: 7}}
	rng := rand.New(rand.NewPCG(1, 2))
	data := NewCompetitions(len(truth))
	teams := make([][]int32, 12)
	strengths := make([]float64, len(teams))
	for range 20000 {
		total := 0.0
		for k := range teams {
			teams[k] = append(teams[k][:0], int32(rng.IntN(3)), int32(3+rng.IntN(4)))
			strengths[k] = truth[teams[k][0]] * truth[teams[k][1]]
			total += strengths[k]
		}
		compete(t, rng, data, teams, strengths, total)
	}
	if data.Len() != 20000 || data.Teams() >= 20000*12 {
		t.Fatalf("%d competitions, %d teams: identical teams were not merged", data.Len(), data.Teams())
	}
	gamma := []float64{1, 1, 1, 1, 1, 1, 1}
	var lls []float64
	err := Train(context.Background(), data, gamma, groups, TrainOptions{Iterations: 60, Workers: 3,
		Progress: func(it Iteration) { lls = append(lls, it.LogLikelihood) }})
	if err != nil {
		t.Fatal(err)
	}
	checkRising(t, lls)
	// A team's strength is a product, so each group's γ are known only up to a common factor: compare
	// ratios to the group's first level.
	for _, g := range groups {
		for i := g.Lo + 1; i < g.Hi; i++ {
			got, want := gamma[i]/gamma[g.Lo], truth[i]/truth[g.Lo]
			if math.Abs(math.Log(got/want)) > 0.08 {
				t.Errorf("γ%d/γ%d = %.3f, want %.3f", i, g.Lo, got, want)
			}
		}
	}
}

func TestPriorPullsUnseenToOne(t *testing.T) {
	data := NewCompetitions(3)
	data.Begin()
	data.AddTeam([]int32{0}, true)
	data.AddTeam([]int32{1}, false)
	data.End()
	gamma := []float64{1, 1, 1}
	if err := Train(context.Background(), data, gamma, []Group{{Name: "g", Lo: 0, Hi: 3}}, TrainOptions{Iterations: 200}); err != nil {
		t.Fatal(err)
	}
	if gamma[0] <= 1 || gamma[1] >= 1 || math.Abs(gamma[2]-1) > 1e-9 {
		t.Errorf("γ = %v: want winner > 1, loser < 1, unseen = 1", gamma)
	}
}

func TestCompetitionErrors(t *testing.T) {
	c := NewCompetitions(4)
	if c.AddTeam([]int32{0}, false) == nil {
		t.Error("team outside a competition accepted")
	}
	c.Begin()
	if c.AddTeam([]int32{4}, false) == nil || c.AddTeam([]int32{1, 1}, false) == nil {
		t.Error("bad team accepted")
	}
	c.AddTeam([]int32{1}, true)
	if c.AddTeam([]int32{2}, true) == nil {
		t.Error("second winner accepted")
	}
	c.End()
	c.Begin()
	c.AddTeam([]int32{1}, false) // no winner: dropped
	c.End()
	if c.Len() != 1 || c.Teams() != 1 {
		t.Errorf("%d competitions %d teams, want 1 1", c.Len(), c.Teams())
	}
}

// compete adds a competition between teams, won by one drawn with probability proportional to its
// strength (Coulom §2.2); total is the sum of the strengths.
func compete(t *testing.T, rng *rand.Rand, data *Competitions, teams [][]int32, strengths []float64, total float64) {
	t.Helper()
	r := rng.Float64() * total
	win := 0
	for r > strengths[win] {
		r -= strengths[win]
		win++
	}
	data.Begin()
	for k, team := range teams {
		if err := data.AddTeam(team, k == win); err != nil {
			t.Fatal(err)
		}
	}
	data.End()
}

// checkRising fails unless the log-likelihoods of MM's iterations never fall (Hunter 2004).
func checkRising(t *testing.T, lls []float64) {
	t.Helper()
	for i := 1; i < len(lls); i++ {
		if lls[i] < lls[i-1]-1e-9 {
			t.Errorf("log-likelihood fell at iteration %d: %v -> %v", i+1, lls[i-1], lls[i])
		}
	}
}
