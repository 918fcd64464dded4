package territory

import (
	"testing"
)

// Benchmarks run on pos19 with Stern's Table 5.1 move-80 Boltzmann5 parameters.

func BenchmarkExact19(b *testing.B) {
	f := field19(b)
	var e Exact
	var m Marginals
	for b.Loop() {
		e.Run(f, &m)
	}
}

func BenchmarkLBP19(b *testing.B) {
	f := field19(b)
	l := NewLBP()
	var m Marginals
	for b.Loop() {
		l.Run(f, &m)
	}
	b.ReportMetric(float64(l.Iters), "sweeps")
}

func BenchmarkFieldBoltzmann5(b *testing.B) {
	bd := mustParse(b, pos19)
	q, _ := Boltzmann5Table51(80)
	var f Field
	for b.Loop() {
		q.Field(bd, &f)
	}
}

func BenchmarkFieldLiberties(b *testing.B) {
	bd := mustParse(b, pos19)
	q := make(BoltzmannLibertiesParams, LenLiberties)
	var f Field
	for b.Loop() {
		q.Field(bd, &f)
	}
}

// benchSampler runs 1000 sweeps per op and reports the max error against exact marginals.
func benchSampler(b *testing.B, run func(*Field, *Marginals, SampleOptions)) {
	f := field19(b)
	var e Exact
	var want, got Marginals
	e.Run(f, &want)
	opt := SampleOptions{Burnin: 100, Sweeps: 1000, RaoBlack: true}
	var worst float64
	for b.Loop() {
		opt.Seed++
		run(f, &got, opt)
		dm, _ := maxDiff(&got, &want)
		worst = max(worst, dm)
	}
	b.ReportMetric(worst, "maxerr")
}

func BenchmarkSW19x1000(b *testing.B) {
	var sw SW
	benchSampler(b, sw.Run)
}

func BenchmarkGibbs19x1000(b *testing.B) {
	var gs Gibbs
	benchSampler(b, gs.Run)
}

// BenchmarkSW19ToExact finds how many sweeps bring SW's max error below 0.02 (doubling from 1000, seed 1).
func BenchmarkSW19ToExact(b *testing.B) {
	f := field19(b)
	var e Exact
	var want, got Marginals
	e.Run(f, &want)
	var sw SW
	n := 1000
	for b.Loop() {
		for n = 1000; n <= 1<<20; n *= 2 {
			sw.Run(f, &got, SampleOptions{Burnin: 100, Sweeps: n, Seed: 1, RaoBlack: true})
			if dm, _ := maxDiff(&got, &want); dm <= 0.02 {
				break
			}
		}
	}
	b.ReportMetric(float64(n), "sweeps")
}
