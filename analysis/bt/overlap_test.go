package bt

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestOverlapGroupRecoversKnownGamma draws competitions from a Bradley-Terry model whose teams hold any
// subset of six binary features (so a team holds several members of their group) beside one level of a
// three-level feature, and checks that MM with the binary features in one Overlap group never lowers the
// likelihood and recovers the γ.
func TestOverlapGroupRecoversKnownGamma(t *testing.T) {
	truth := []float64{1, 4, 0.3, 3, 0.5, 2, 0.25, 1.5, 6} // levels 0..2, binary features 3..8
	groups := []Group{{Name: "levels", Lo: 0, Hi: 3}, {Name: "binary", Lo: 3, Hi: 9, Overlap: true}}
	rng := rand.New(rand.NewPCG(3, 4))
	data := NewCompetitions(len(truth))
	teams := make([][]int32, 10)
	strengths := make([]float64, len(teams))
	for range 30000 {
		total := 0.0
		for k := range teams {
			teams[k] = append(teams[k][:0], int32(rng.IntN(3)))
			s := truth[teams[k][0]]
			for f := 3; f < 9; f++ {
				if rng.IntN(3) == 0 {
					teams[k] = append(teams[k], int32(f))
					s *= truth[f]
				}
			}
			strengths[k] = s
			total += s
		}
		compete(t, rng, data, teams, strengths, total)
	}
	if k := maxMembers([]*Competitions{data}, groups[1]); k < 4 {
		t.Fatalf("at most %d binary features in a team: the test does not exercise overlaps", k)
	}
	gamma := make([]float64, len(truth))
	for i := range gamma {
		gamma[i] = 1
	}
	var lls []float64
	err := Train(context.Background(), data, gamma, groups, TrainOptions{Iterations: 300, Tolerance: 1e-9, Workers: 2,
		Progress: func(it Iteration) { lls = append(lls, it.LogLikelihood) }})
	if err != nil {
		t.Fatal(err)
	}
	checkRising(t, lls)
	// Binary features have no scale freedom of their own (absence is γ = 1); the levels do.
	for i := 3; i < 9; i++ {
		if math.Abs(math.Log(gamma[i]/truth[i])) > 0.06 {
			t.Errorf("γ%d = %.3f, want %.3f", i, gamma[i], truth[i])
		}
	}
	for i := 1; i < 3; i++ {
		got, want := gamma[i]/gamma[0], truth[i]/truth[0]
		if math.Abs(math.Log(got/want)) > 0.06 {
			t.Errorf("γ%d/γ0 = %.3f, want %.3f", i, got, want)
		}
	}
}

// TestOverlapUpdateIsCoulomsWithoutOverlaps: on data where no team holds two members of a group, an
// Overlap group's update is Coulom's, so training gives the same γ either way.
func TestOverlapUpdateIsCoulomsWithoutOverlaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	data := NewCompetitions(7)
	for range 3000 {
		data.Begin()
		win := rng.IntN(8)
		for k := range 8 {
			team := []int32{int32(rng.IntN(3)), int32(3 + rng.IntN(4))}
			if err := data.AddTeam(team, k == win); err != nil {
				t.Fatal(err)
			}
		}
		data.End()
	}
	train := func(overlap bool) []float64 {
		g := []float64{1, 1, 1, 1, 1, 1, 1}
		groups := []Group{{Name: "A", Lo: 0, Hi: 3, Overlap: overlap}, {Name: "B", Lo: 3, Hi: 7, Overlap: overlap}}
		if err := Train(context.Background(), data, g, groups, TrainOptions{Iterations: 10, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		return g
	}
	plain, over := train(false), train(true)
	for i := range plain {
		if math.Abs(plain[i]-over[i]) > 1e-9*plain[i] {
			t.Errorf("γ%d: %v with Coulom's update, %v with the overlap update", i, plain[i], over[i])
		}
	}
}

// TestOverlapUpdateSolvesItsEquation checks the root-finding against the equation it solves.
func TestOverlapUpdateSolvesItsEquation(t *testing.T) {
	for _, c := range []struct {
		gamma, wins float64
		den         []float64
	}{
		{1, 10, []float64{3, 0, 2, 0.5}},
		{0.01, 500, []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 40}},
		{50, 0, []float64{0.1, 0.2}},
		{2, 3, []float64{1}},
		// Most strength in teams holding many members, and a root far below 1: Newton's first step
		// from the left would overflow e^{kv}.
		{1, 0, append(make([]float64, 39), 1000)},
		{3, 2000, append(make([]float64, 29), 1e-6, 0.5)},
		{1e-3, 0, append(make([]float64, 59), 1e9)},
	} {
		x := overlapUpdate(c.gamma, c.wins, c.den)
		u := x / c.gamma
		lhs := 2 * c.gamma / (c.gamma + 1) * u
		for k, d := range c.den {
			lhs += c.gamma * d * math.Pow(u, float64(k+1))
		}
		if !(x > 0) || math.IsInf(x, 0) || math.Abs(lhs-(c.wins+1)) > 1e-9*(c.wins+1) {
			t.Errorf("%+v: γ = %v gives %v, want %v", c, x, lhs, c.wins+1)
		}
	}
}
