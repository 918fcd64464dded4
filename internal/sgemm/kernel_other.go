//go:build !amd64 || purego

package sgemm

// fastKernel is the portable one where there is no assembly kernel (or with -tags purego).
var fastKernel = goKernel

// kernels lists the micro-kernels this machine can run, for the tests and benchmarks.
func kernels() []*kernel { return []*kernel{goKernel} }

// transpose8 and gemv8 have no portable versions: packing transposes four rows at a time in Go,
// and m = 1 goes through the blocked path.
var (
	transpose8 func(n int, src []float32, ld int, dst []float32, stride int)
	gemv8      func(k int, x, b []float32, ldb int, y []float32)
)
