package territory

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// validationGames is the validation archive of ../shared/data, relative to this package.
var validationGames = filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")

// realPositions returns the positions before the given moves of the first n 19x19 games of the
// validation archive that reach them, skipping the test when the archive is absent.
func realPositions(t testing.TB, n int, moves ...int) []*game.Position {
	t.Helper()
	if _, err := os.Stat(validationGames); err != nil {
		t.Skipf("validation games absent (%v); they live in ../shared/data", err)
	}
	var out []*game.Position
	games := 0
	_, err := dataset.Walk(context.Background(), validationGames, dataset.Filter{Size: 19, MinMoves: 150}, func(r dataset.Record) error {
		for _, g := range r.Games {
			if games == n {
				return context.Canceled
			}
			games++
			for _, mv := range moves {
				pos, err := g.PositionAfter(mv - 1)
				if err != nil {
					return err
				}
				out = append(out, pos)
			}
		}
		return nil
	})
	if err != nil && err != context.Canceled {
		t.Fatal(err)
	}
	return out
}

// Exact marginals of real middle-game positions (Table 5.1) against the estimator's default SW run: the
// mean absolute error of E[s] must stay within 0.02 and the largest within 0.12 (measured: means
// 0.008–0.014, largest 0.03–0.07 at 3000 sweeps). Before the block move, a chain started at the wrong
// sign stayed there for thousands of sweeps: errors of up to 2 on these positions.
func TestSWMatchesExactOnRealPositions(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("exact inference takes ~1 s a 19x19 position; run without -short and -race")
	}
	positions := realPositions(t, 2, 80, 150)
	sw, _ := NewEstimator(KindBoltzmann5, MethodSW)
	ex, _ := NewEstimator(KindBoltzmann5, MethodExact)
	for i, pos := range positions {
		var want, got Marginals
		if err := ex.Estimate(context.Background(), pos, &want); err != nil {
			t.Fatal(err)
		}
		if err := sw.Estimate(context.Background(), pos, &got); err != nil {
			t.Fatal(err)
		}
		mean, worst := pointErrors(&got, &want)
		t.Logf("position %d (move %d): SW error mean %.4f, max %.3f", i, pos.MoveNumber+1, mean, worst)
		if mean > 0.02 || worst > 0.12 {
			t.Errorf("position %d: SW error mean %.4f, max %.3f; want ≤ 0.02 and ≤ 0.12", i, mean, worst)
		}
	}
}

// pointErrors returns the mean and the largest absolute difference of E[s] of a and b.
func pointErrors(a, b *Marginals) (mean, worst float64) {
	pts := board.PointsOf(a.Size)
	for _, p := range pts {
		d := math.Abs(a.Mean[p] - b.Mean[p])
		mean += d
		worst = max(worst, d)
	}
	return mean / float64(len(pts)), worst
}

// BenchmarkSWToTarget19 measures how long Swendsen-Wang takes to bring the Rao-Blackwellised point
// marginals within 0.02 of exact ones on real positions (before moves 20, 80 and 150 of three validation
// games, Table 5.1): per position and seed, the sweeps after which the running mean absolute error, and
// the running largest error, stay ≤ 0.02 up to 200,000 sweeps, checked at 1.1x steps. The times are
// CPU time on one thread (sweeps × the measured CPU time a sweep), so that other work on the machine
// does not inflate them.
func BenchmarkSWToTarget19(b *testing.B) {
	positions := realPositions(b, 3, 20, 80, 150)
	const maxSweeps = 200000
	checks := targetChecks(maxSweeps)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for b.Loop() {
		var sumMean, sumMax, cpu, sweeps float64
		runs := 0
		for _, pos := range positions {
			f, want := targetModel(pos)
			pts := board.PointsOf(f.Size)
			for seed := range uint64(2) {
				var sw SW
				sw.setup(f, seed+1, nil)
				for range DefaultBurnin {
					sw.sweep()
				}
				okMean, okMax := 0, 0 // the first checkpoint of the run of checkpoints that stay ≤ 0.02
				c0 := threadCPU()
				next := 0
				for n := 1; n <= maxSweeps; n++ {
					sw.blockMove(true)
					sw.swMove(true)
					if n != checks[next] {
						continue
					}
					next++
					var mean, worst float64
					for i, p := range pts {
						d := math.Abs(sw.mean[i]/float64(2*n) - want.Mean[p])
						mean += d
						worst = max(worst, d)
					}
					mean /= float64(len(pts))
					if mean > 0.02 {
						okMean = 0
					} else if okMean == 0 {
						okMean = n
					}
					if worst > 0.02 {
						okMax = 0
					} else if okMax == 0 {
						okMax = n
					}
				}
				cpu += (threadCPU() - c0).Seconds()
				sweeps += maxSweeps
				if okMean == 0 {
					okMean = maxSweeps
				}
				if okMax == 0 {
					okMax = maxSweeps
				}
				sumMean += float64(okMean)
				sumMax += float64(okMax)
				runs++
				b.Logf("move %3d seed %d: mean error ≤ 0.02 from %6d sweeps, max error from %6d sweeps",
					pos.MoveNumber+1, seed+1, okMean, okMax)
			}
		}
		perSweep := cpu / sweeps
		b.ReportMetric(perSweep*1e6, "µs/sweep")
		b.ReportMetric(sumMean/float64(runs), "sweeps-to-mean")
		b.ReportMetric(sumMax/float64(runs), "sweeps-to-max")
		b.ReportMetric(perSweep*sumMean/float64(runs)*1000, "ms-to-mean")
		b.ReportMetric(perSweep*sumMax/float64(runs)*1000, "ms-to-max")
	}
}

// targetModel is the default Boltzmann5 field of a target benchmark's position and its exact marginals.
func targetModel(pos *game.Position) (*Field, *Marginals) {
	f, want := new(Field), new(Marginals)
	defaultB5At(pos.MoveNumber).Field(&pos.Board, f)
	var ex Exact
	ex.Run(f, want)
	return f, want
}

// targetChecks are the sweep counts at which the target benchmarks check the error: from 100 in 1.1x
// steps up to max.
func targetChecks(max int) []int {
	var checks []int
	for n := 100.0; n < float64(max); n *= 1.1 {
		checks = append(checks, int(n))
	}
	return append(checks, max)
}

// BenchmarkSWToTarget19Chains is BenchmarkSWToTarget19 for the largest error with GOMAXPROCS
// independent chains (as Estimator.Chains runs them), in wall time: the sweeps of all chains together
// until the averaged estimate stays within 0.02 of exact, and the wall time from the start of their
// burn-in to that checkpoint (-cpu sets the chains; on a busy machine the time is an upper bound).
func BenchmarkSWToTarget19Chains(b *testing.B) {
	positions := realPositions(b, 3, 20, 80, 150)
	const maxSweeps = 200000
	checks := targetChecks(maxSweeps)
	k := runtime.GOMAXPROCS(0)
	chains := make([]SW, k)
	parallel := func(run func(c int, sw *SW)) { // run on every chain at once
		var wg sync.WaitGroup
		for c := range chains {
			wg.Go(func() { run(c, &chains[c]) })
		}
		wg.Wait()
	}
	for b.Loop() {
		var sumSweeps, sumWall float64
		runs := 0
		for _, pos := range positions {
			f, want := targetModel(pos)
			pts := board.PointsOf(f.Size)
			for seed := range uint64(2) {
				start := time.Now()
				done := 0 // sweeps per chain so far
				parallel(func(c int, sw *SW) {
					sw.setup(f, uint64(k)*seed+uint64(c)+1, nil)
					for range DefaultBurnin {
						sw.sweep()
					}
				})
				okSweeps, okWall := 0, time.Duration(0)
				for _, total := range checks {
					per := max(total/k, 1)
					parallel(func(_ int, sw *SW) {
						for range per - done {
							sw.blockMove(true)
							sw.swMove(true)
						}
					})
					done = per
					wall := time.Since(start)
					var worst float64
					for i, p := range pts {
						var m float64
						for c := range chains {
							m += chains[c].mean[i]
						}
						worst = max(worst, math.Abs(m/float64(2*per*k)-want.Mean[p]))
					}
					if worst > 0.02 {
						okSweeps = 0
					} else if okSweeps == 0 {
						okSweeps, okWall = per*k, wall
					}
				}
				if okSweeps == 0 {
					okSweeps, okWall = maxSweeps, time.Since(start)
				}
				sumSweeps += float64(okSweeps)
				sumWall += okWall.Seconds()
				runs++
				b.Logf("move %3d seed %d: max error ≤ 0.02 from %6d sweeps on %d chains, %v of wall time",
					pos.MoveNumber+1, seed+1, okSweeps, k, okWall.Round(time.Millisecond))
			}
		}
		b.ReportMetric(float64(k), "chains")
		b.ReportMetric(sumSweeps/float64(runs), "sweeps-to-max")
		b.ReportMetric(sumWall/float64(runs)*1000, "wall-ms-to-max")
	}
}

// defaultB5At is the default Boltzmann5 model for a move number.
func defaultB5At(move int) Model {
	t, _ := DefaultTrained(KindBoltzmann5)
	return t.At(move)
}
