package sgemm

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// The benchmarks report GFLOPS (2·m·n·k per call) on the shapes of the cnn predictor (bigShapes),
// for Gemm, for each micro-kernel through the same driver, for the reference loop and for gonum's
// blas32. Run them with GOMAXPROCS=1: everything here is single-threaded except gonum, which would
// otherwise fan out over the cores.

func BenchmarkGemm(b *testing.B) {
	benchShapes(b, func(p *problem) {
		Gemm(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
	})
}

// BenchmarkKernel runs every micro-kernel of the machine (the portable one included) through the
// driver, as Gemm would on a CPU whose best kernel it is.
func BenchmarkKernel(b *testing.B) {
	for _, kern := range kernels() {
		b.Run(kern.name, func(b *testing.B) {
			benchShapes(b, func(p *problem) {
				gemm(kern, p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
			})
		})
	}
}

func BenchmarkReference(b *testing.B) {
	benchShapes(b, func(p *problem) {
		reference(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
	})
}

func BenchmarkGonum(b *testing.B) {
	benchShapes(b, func(p *problem) {
		tA, tB := blas.NoTrans, blas.NoTrans
		ar, ac, br, bc := p.m, p.k, p.k, p.n
		if p.transA {
			tA, ar, ac = blas.Trans, p.k, p.m
		}
		if p.transB {
			tB, br, bc = blas.Trans, p.n, p.k
		}
		blas32.Gemm(tA, tB, p.alpha,
			blas32.General{Rows: ar, Cols: ac, Stride: p.lda, Data: p.a},
			blas32.General{Rows: br, Cols: bc, Stride: p.ldb, Data: p.b},
			p.beta, blas32.General{Rows: p.m, Cols: p.n, Stride: p.ldc, Data: p.c})
	})
}

func benchShapes(b *testing.B, f func(*problem)) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range bigShapes {
		b.Run(s.name, func(b *testing.B) {
			p := newProblem(rng, s.transA, s.transB, s.m, s.n, s.k, 1, 0, 0)
			f(&p) // warm the workspace pool and the caches
			b.ResetTimer()
			for b.Loop() {
				f(&p)
			}
			b.ReportMetric(2*float64(s.m*s.n*s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}
