package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"aji/analysis/game"
	"aji/analysis/territory"
)

// territoryFigure is one territory benchmark: the time of one full estimate (E[s] of every point and
// E[s s] of every neighbouring pair) on real 19x19 positions and, for the samplers, its error against
// exact marginals of the same model.
type territoryFigure struct {
	Method       string  `json:"method"`
	Model        string  `json:"model"`
	Positions    int     `json:"positions"`
	Sweeps       int     `json:"sweeps,omitempty"` // gibbs and sw; playouts for mc
	Chains       int     `json:"chains,omitempty"`
	MsPerRun     float64 `json:"ms_per_estimate"`
	MinMs        float64 `json:"min_ms"`                   // the fastest estimate: less disturbed by other work on the machine
	MeanAbsError float64 `json:"mean_abs_error,omitempty"` // of E[s] against exact, mean over points and positions
	MaxAbsError  float64 `json:"max_abs_error,omitempty"`  // the largest over points, averaged over positions
}

// benchTerritoryMoves are the positions timed: before moves 20, 80 and 150 of the embedded 19x19 sample
// games that have them (Stern's three phases).
var benchTerritoryMoves = []int{20, 80, 150}

// benchTerritory times every inference method of Boltzmann5 (Table 5.1, the phase nearest each
// position) and mc, each for at least d and at least once per position, on one goroutine unless a
// figure names more chains.
func benchTerritory(ctx context.Context, d time.Duration) ([]territoryFigure, error) {
	games, err := sampleGames()
	if err != nil {
		return nil, err
	}
	var positions []*game.Position
	for _, g := range games {
		if g.Size() != 19 {
			continue
		}
		for _, mv := range benchTerritoryMoves {
			if pos, err := g.PositionAfter(mv - 1); err == nil && pos.MoveNumber == mv-1 {
				positions = append(positions, pos)
			}
		}
		break // one game's three phases keep `bench all` short: exact takes ~1 s a position
	}
	if len(positions) == 0 {
		return nil, fmt.Errorf("no 19x19 sample positions embedded")
	}
	exact := make([]territory.Marginals, len(positions))
	type variant struct {
		model  territory.Kind
		method territory.Method
		chains int
	}
	variants := []variant{
		{territory.KindBoltzmann5, territory.MethodExact, 0},
		{territory.KindBoltzmann5, territory.MethodLBP, 0},
		{territory.KindBoltzmann5, territory.MethodGibbs, 0},
		{territory.KindBoltzmann5, territory.MethodSW, 0},
		{territory.KindMC, 0, 0},
	}
	if n := runtime.GOMAXPROCS(0); n > 1 {
		variants = append(variants, variant{territory.KindBoltzmann5, territory.MethodSW, min(n, 4)})
	}
	var figs []territoryFigure
	for _, v := range variants {
		est, err := territory.NewEstimator(v.model, v.method)
		if err != nil {
			return nil, err
		}
		est.Chains = v.chains
		fig := territoryFigure{Method: v.method.String(), Model: v.model.String(), Positions: len(positions), Chains: v.chains}
		switch v.method {
		case territory.MethodGibbs, territory.MethodSW:
			fig.Sweeps = est.Sweeps
		case 0:
			fig.Method, fig.Sweeps = territory.KindMC.String(), territory.DefaultMCPlayouts
		}
		var m territory.Marginals
		n := 0
		var elapsed time.Duration
		fastest := time.Duration(math.MaxInt64)
		for n < len(positions) || elapsed < d {
			pos := positions[n%len(positions)]
			start := time.Now()
			if err := est.Estimate(ctx, pos, &m); err != nil {
				return nil, err
			}
			took := time.Since(start)
			elapsed += took
			fastest = min(fastest, took)
			if n < len(positions) {
				if v.method == territory.MethodExact {
					exact[n] = m
				} else if v.method == territory.MethodGibbs || v.method == territory.MethodSW {
					mean, worst := marginalErrors(&m, &exact[n], pos)
					fig.MeanAbsError += mean / float64(len(positions))
					fig.MaxAbsError += worst / float64(len(positions))
				}
			}
			n++
		}
		fig.MsPerRun = elapsed.Seconds() * 1000 / float64(n)
		fig.MinMs = fastest.Seconds() * 1000
		figs = append(figs, fig)
	}
	return figs, nil
}

// marginalErrors returns the mean and the largest absolute difference of E[s] over the points of pos.
func marginalErrors(a, b *territory.Marginals, pos *game.Position) (mean, worst float64) {
	pts := pos.Board.Points()
	for _, p := range pts {
		d := math.Abs(a.Mean[p] - b.Mean[p])
		mean += d
		worst = max(worst, d)
	}
	return mean / float64(len(pts)), worst
}

func printTerritoryFigures(w io.Writer, figs []territoryFigure) {
	for _, f := range figs {
		line := fmt.Sprintf("territory %s", f.Method)
		if f.Method != territory.KindMC.String() {
			line += " (" + f.Model
			if f.Sweeps > 0 {
				line += fmt.Sprintf(", %d sweeps", f.Sweeps)
			}
			if f.Chains > 1 {
				line += fmt.Sprintf(", %d chains", f.Chains)
			}
			line += ")"
		} else {
			line += fmt.Sprintf(" (%d playouts)", f.Sweeps)
		}
		line += fmt.Sprintf(": %.1f ms per estimate on 19x19 (fastest %.1f ms)", f.MsPerRun, f.MinMs)
		if f.MaxAbsError > 0 {
			line += fmt.Sprintf(", error vs exact: mean %.4f, max %.3f", f.MeanAbsError, f.MaxAbsError)
		}
		fmt.Fprintln(w, line)
	}
}
