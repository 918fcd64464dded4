package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// problem is one Gemm call: the shapes, strides and scalars, with its operands filled at random.
type problem struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	lda, ldb, ldc  int
	a, b, c        []float32
}

func (p problem) String() string {
	return fmt.Sprintf("tA=%v tB=%v m=%d n=%d k=%d alpha=%v beta=%v lda=%d ldb=%d ldc=%d",
		p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.beta, p.lda, p.ldb, p.ldc)
}

// newProblem fills A, B and C (including the padding of each stride) with values in [-1, 1).
// pad adds that many columns to each stored row beyond what the shape needs.
func newProblem(rng *rand.Rand, transA, transB bool, m, n, k int, alpha, beta float32, pad int) problem {
	p := problem{transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	p.lda, p.ldb, p.ldc = ac+pad, bc+pad, n+pad
	p.a = randSlice(rng, max(ar*p.lda, 1))
	p.b = randSlice(rng, max(br*p.ldb, 1))
	p.c = randSlice(rng, max(m*p.ldc, 1))
	return p
}

func randSlice(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = 2*rng.Float32() - 1
	}
	return s
}

// check runs p through kern and through reference and compares every entry of C, the padding
// between rows included (which must be left alone). The tolerance scales with the magnitude of
// the terms summed, |alpha|·Σ|a||b| + |beta||c|, and with k, the number of roundings.
func check(t *testing.T, kern *kernel, p problem) {
	t.Helper()
	got := append([]float32(nil), p.c...)
	want := append([]float32(nil), p.c...)
	gemm(kern, p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, got, p.ldc)
	reference(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, want, p.ldc)

	mag := append([]float32(nil), p.c...)
	abs(mag)
	absA, absB := append([]float32(nil), p.a...), append([]float32(nil), p.b...)
	abs(absA)
	abs(absB)
	reference(p.transA, p.transB, p.m, p.n, p.k, float32(math.Abs(float64(p.alpha))), absA, p.lda, absB, p.ldb,
		float32(math.Abs(float64(p.beta))), mag, p.ldc)
	tol := 1e-6 * float64(p.k+4)

	for i := range got {
		r, col := i/p.ldc, i%p.ldc
		if r >= p.m || col >= p.n {
			if math.Float32bits(got[i]) != math.Float32bits(p.c[i]) {
				t.Fatalf("%s %v: C[%d] outside the %d×%d result changed from %v to %v", kern.name, p, i, p.m, p.n, p.c[i], got[i])
			}
			continue
		}
		diff := math.Abs(float64(got[i] - want[i]))
		if !(diff <= tol*float64(mag[i])+1e-30) {
			t.Fatalf("%s %v: C[%d][%d] = %v, want %v (diff %g, scale %g)", kern.name, p, r, col, got[i], want[i], diff, mag[i])
		}
	}
}

func abs(s []float32) {
	for i, v := range s {
		s[i] = float32(math.Abs(float64(v)))
	}
}

// forEachPath runs f for every micro-kernel of the machine with the assembly helpers (the 8-row
// transpose of packing and the m = 1 vector-matrix product) where there are some, then once more
// for the default kernel with the helpers off, so the Go packing and the blocked m = 1 path are
// tested on amd64 too.
func forEachPath(f func(kern *kernel)) {
	for _, kern := range kernels() {
		f(kern)
	}
	if transpose8 != nil || gemv8 != nil {
		t8, g8 := transpose8, gemv8
		transpose8, gemv8 = nil, nil
		defer func() { transpose8, gemv8 = t8, g8 }()
		f(fastKernel)
	}
}

// interesting sizes: 1, primes, and the neighbourhood of every kernel's tile (4, 6, 8, 16, 32, 48).
var sizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 24, 31, 32, 33, 37, 47, 48, 49, 53, 64, 65, 67, 70}

func TestSmallShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scalars := []float32{0, 1, -0.5, 2}
	forEachPath(func(kern *kernel) {
		for trans := range 4 {
			transA, transB := trans&1 != 0, trans&2 != 0
			for range 200 {
				m := sizes[rng.IntN(len(sizes))]
				n := sizes[rng.IntN(len(sizes))]
				k := sizes[rng.IntN(len(sizes))]
				alpha := scalars[rng.IntN(len(scalars))]
				beta := scalars[rng.IntN(len(scalars))]
				check(t, kern, newProblem(rng, transA, transB, m, n, k, alpha, beta, rng.IntN(3)*rng.IntN(7)))
			}
		}
	})
}

// TestExhaustiveTileEdges runs every m and n up to two tiles of each kernel, with k below the
// unrolling of the kernels (4) and the transpose (8), and past both with remainders.
func TestExhaustiveTileEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	forEachPath(func(kern *kernel) {
		for m := 1; m <= 2*kern.mr+1; m++ {
			for n := 1; n <= 2*kern.nr+1; n++ {
				for _, k := range []int{1, 7, 19} {
					trans := rng.IntN(4)
					check(t, kern, newProblem(rng, trans&1 != 0, trans&2 != 0, m, n, k, 1.5, -0.5, 2))
				}
			}
		}
	})
}

// TestBlocking crosses every cache-block boundary (blockM, blockK, blockN) with ragged last blocks.
func TestBlocking(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	forEachPath(func(kern *kernel) {
		for trans := range 4 {
			tA, tB := trans&1 != 0, trans&2 != 0
			check(t, kern, newProblem(rng, tA, tB, blockM+7, 37, 2*blockK+5, 1, 0.5, 3))
			check(t, kern, newProblem(rng, tA, tB, 7, 2*blockN+29, 9, -0.5, 2, 1))
			check(t, kern, newProblem(rng, tA, tB, 1, blockN+3, blockK+1, 2, 0, 0))
			// A stride of B that is packed even when B is not transposed.
			check(t, kern, newProblem(rng, tA, tB, 9, directBAvoid, 11, 1, 0, 0))
			check(t, kern, newProblem(rng, tA, tB, 9, directBAvoid-3, 11, 1, 0, 3))
		}
	})
	// op(A) too big to keep packed across blocks of columns (big: the default kernel only).
	check(t, fastKernel, newProblem(rng, true, false, 61, blockN+1, keepAMax/61+3, 1, 1, 0))
}

// bigShapes are the products of the cnn predictor (batch 1 and 32, forward and backward).
var bigShapes = []struct {
	name           string
	transA, transB bool
	m, n, k        int
}{
	{"fwd3x3_64", false, false, 64, 361, 576},
	{"fwd3x3_48", false, false, 48, 361, 432},
	{"fwd3x3_128", false, false, 128, 361, 1152},
	{"fwd5x5_64", false, false, 64, 361, 675},
	{"fwd1x1_1", false, false, 1, 361, 64},
	{"fwd3x3_64_b32", false, false, 64, 32 * 361, 576},
	{"bwdW_64x576", false, true, 64, 576, 32 * 361},
	{"bwdIn_576x361", true, false, 576, 361, 64},
}

func TestBigShapes(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("big shapes take seconds through the reference (minutes under the race detector)")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for i, s := range bigShapes {
		beta := []float32{0, 1, -0.5}[i%3]
		check(t, fastKernel, newProblem(rng, s.transA, s.transB, s.m, s.n, s.k, 1, beta, 0))
	}
	// Every kernel on the shapes small enough to keep the test quick.
	for _, kern := range kernels() {
		for _, s := range append(bigShapes[:2:2], bigShapes[len(bigShapes)-1]) {
			check(t, kern, newProblem(rng, s.transA, s.transB, s.m, s.n, s.k, -0.5, 2, 1))
		}
	}
}

// TestBetaZeroIgnoresNaN: beta = 0 overwrites C, so NaN and Inf there must not reach the result,
// and the padding columns of C must keep their (NaN) bit patterns.
func TestBetaZeroIgnoresNaN(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	nan := float32(math.NaN())
	forEachPath(func(kern *kernel) {
		for _, sh := range [][3]int{{1, 1, 1}, {1, 77, 9}, {6, 16, 5}, {13, 37, 29}, {64, 50, 300}} {
			for _, alpha := range []float32{0, 1, 2} {
				for trans := range 4 {
					m, n, k := sh[0], sh[1], sh[2]
					p := newProblem(rng, trans&1 != 0, trans&2 != 0, m, n, k, alpha, 0, 3)
					for i := range p.c {
						p.c[i] = nan
						if i%5 == 0 {
							p.c[i] = float32(math.Inf(1))
						}
					}
					c := append([]float32(nil), p.c...)
					gemm(kern, p.transA, p.transB, m, n, k, alpha, p.a, p.lda, p.b, p.ldb, 0, c, p.ldc)
					for i, v := range c {
						r, col := i/p.ldc, i%p.ldc
						inside := r < m && col < n
						if inside && (math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
							t.Fatalf("%s %v: C[%d][%d] = %v after beta = 0", kern.name, p, r, col, v)
						}
						if !inside && math.Float32bits(v) != math.Float32bits(p.c[i]) {
							t.Fatalf("%s %v: padding C[%d] changed", kern.name, p, i)
						}
					}
				}
			}
		}
	})
}

// TestDegenerate: k = 0 and alpha = 0 reduce to C = beta·C; m = 0 or n = 0 touch nothing.
func TestDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	forEachPath(func(kern *kernel) {
		for _, beta := range []float32{0, 1, -0.5} {
			check(t, kern, newProblem(rng, false, false, 5, 7, 0, 1, beta, 1))
			check(t, kern, newProblem(rng, true, true, 9, 17, 13, 0, beta, 2))
		}
		c := []float32{1, 2, 3}
		gemm(kern, false, false, 0, 3, 4, 1, nil, 4, make([]float32, 12), 3, 0, c, 3)
		gemm(kern, false, false, 1, 0, 4, 1, make([]float32, 4), 4, nil, 0, 0, c, 3)
		if c[0] != 1 || c[1] != 2 || c[2] != 3 {
			t.Fatalf("%s: empty product changed C to %v", kern.name, c)
		}
	})
}

// TestInterleave checks the packing transpose on its own, with and without the assembly.
func TestInterleave(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	forEachPath(func(*kernel) {
		for _, cols := range []int{1, 3, 4, 6, 8, 9, 16, 17, 48} {
			for _, kc := range []int{1, 7, 8, 9, 31, 64} {
				stride, ld := cols+rng.IntN(3), kc+rng.IntN(3)
				src := randSlice(rng, (cols-1)*ld+kc)
				dst := make([]float32, (kc-1)*stride+cols+5)
				interleave(dst, stride, cols, src, ld, kc)
				for j := range cols {
					for p := range kc {
						if dst[p*stride+j] != src[j*ld+p] {
							t.Fatalf("cols %d kc %d: dst[%d*%d+%d] = %v, want %v", cols, kc, p, stride, j, dst[p*stride+j], src[j*ld+p])
						}
					}
				}
				for i := (kc-1)*stride + cols; i < len(dst); i++ {
					if dst[i] != 0 {
						t.Fatalf("cols %d kc %d: wrote past the end", cols, kc)
					}
				}
			}
		}
	})
}

func TestShortSlicesPanic(t *testing.T) {
	a, b, c := make([]float32, 6), make([]float32, 6), make([]float32, 4)
	for name, f := range map[string]func(){
		"A": func() { Gemm(false, false, 2, 2, 3, 1, a[:5], 3, b, 2, 0, c, 2) },
		"B": func() { Gemm(false, true, 2, 2, 3, 1, a, 3, b[:5], 3, 0, c, 2) },
		"C": func() { Gemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c[:3], 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("short %s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestNoAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops its workspaces under the race detector")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, s := range []struct {
		transA, transB bool
		m, n, k        int
	}{{false, false, 64, 361, 576}, {true, false, 70, 33, 17}, {false, true, 13, 300, 700}, {true, true, 5, 5, 5}} {
		p := newProblem(rng, s.transA, s.transB, s.m, s.n, s.k, 1, 0.5, 0)
		allocs := testing.AllocsPerRun(20, func() {
			Gemm(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations per call", p, allocs)
		}
	}
}
