//go:build !purego

package sgemm

import "golang.org/x/sys/cpu"

// avx2Kernel holds a 6×16 tile in 12 YMM accumulators (6 rows × 2 vectors of 8), leaving 4 of the 16
// YMM registers for the two B vectors and two broadcasts of A: 8 loads for 12 FMAs per step of k,
// and 12 independent accumulators to cover the FMA latency (4 cycles) × 2 FMA ports. 6 rows divide
// the m = 48 layer exactly and waste 2 of 66 rows on m = 64.
var avx2Kernel = &kernel{name: "avx2_6x16", mr: 6, nr: 16, fn: kernel6x16AVX2}

// avx512Kernel holds an 8×48 tile in 24 of the 32 ZMM registers (8 rows × 3 vectors of 16), leaving
// 3 for B and 5 for broadcasts of A: 11 loads for 24 FMAs per step of k. 8 rows divide every m of
// the network (48, 64, 128, 576); 48 columns cover 361 in 8 panels. On cores with full-width
// AVX-512 units (Zen 5, Intel server cores) it does about twice the work of the AVX2 kernel per
// cycle; on Zen 4, which splits 512-bit operations in two, it still issues half the instructions.
var avx512Kernel = &kernel{name: "avx512_8x48", mr: 8, nr: 48, fn: kernel8x48AVX512, tail: avx512Tail}

// avx512Tail takes the last panel of B when it is at most 32 columns wide, so that n = 361
// (7·48 + 25) computes 7 padding columns instead of 23.
var avx512Tail = &kernel{name: "avx512_8x32", mr: 8, nr: 32, fn: kernel8x32AVX512}

var (
	hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	// x/sys/cpu reports AVX-512 only where the OS also saves the ZMM state.
	hasAVX512 = cpu.X86.HasAVX512F && hasAVX2FMA
)

//go:noescape
func kernel6x16AVX2(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)

//go:noescape
func kernel8x32AVX512(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)

//go:noescape
func kernel8x48AVX512(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)

// transpose8x8AVX: for q < n (a multiple of 8) and r < 8, dst[q*stride+r] = src[r*ld+q]. The caller
// guarantees the bounds.
//
//go:noescape
func transpose8x8AVX(n int, src []float32, ld int, dst []float32, stride int)

// gemvAVX2: y[j] += Σ_{p<k} x[p]·b[p*ldb+j] for j < len(y)/8*8. The caller guarantees the bounds.
//
//go:noescape
func gemvAVX2(k int, x, b []float32, ldb int, y []float32)

// fastKernel is the best micro-kernel the CPU supports.
var fastKernel = pickKernel()

func pickKernel() *kernel {
	switch {
	case hasAVX512:
		return avx512Kernel
	case hasAVX2FMA:
		return avx2Kernel
	}
	return goKernel
}

// kernels lists the micro-kernels this machine can run, for the tests and benchmarks.
func kernels() []*kernel {
	ks := []*kernel{goKernel}
	if hasAVX2FMA {
		ks = append(ks, avx2Kernel)
	}
	if hasAVX512 {
		ks = append(ks, avx512Kernel, avx512Tail)
	}
	return ks
}

// transpose8 is the packing's 8-row transpose (nil: transpose in Go).
var transpose8 func(n int, src []float32, ld int, dst []float32, stride int)

// gemv8 is the vector-matrix product of the m = 1 path (nil: use the blocked path).
var gemv8 func(k int, x, b []float32, ldb int, y []float32)

func init() {
	if hasAVX2FMA {
		transpose8 = transpose8x8AVX
		gemv8 = gemvAVX2
	}
}
