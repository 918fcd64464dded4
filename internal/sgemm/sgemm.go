// Package sgemm multiplies float32 matrices, the convolutions of the cnn predictor (im2col + GEMM).
//
// The fast path follows the usual GotoBLAS/BLIS design: op(A) and op(B) are copied ("packed") block
// by block into contiguous panels whose layout is exactly the order a register-tiled micro-kernel
// reads them in, so the kernel streams memory linearly and one kernel serves all four transpose
// combinations. The blocks are sized so that each level of reuse stays in one level of cache. One
// departure: B that is not transposed is read in place, its rows being already what the kernel
// wants, and only its ragged last panel is packed.
package sgemm

import (
	"fmt"
	"sync"
)

// Cache blocking. A micro-kernel multiplies an mr×kc panel of A by a kc×nr panel of B. The driver
// runs one panel of B (kept in L1/L2) down all the A panels of a block, and the mc×kc block of A
// stays in L2 while it goes across all the panels of B. With more than one block of A, the
// kc×nc block of B they all share is kept in L2 as well.
const (
	// blockK bounds kc, the depth of a block. A panel of B is then blockK×nr floats: 18 KiB for the
	// AVX2 kernel's nr = 16, within a 32–48 KiB L1 data cache with room for the A panel streaming
	// past; 54 KiB for the AVX-512 kernel's 48, served from L2, whose bandwidth (64 B/cycle on Zen 5)
	// is four times what that kernel reads. Depths from 128 to 1024 measured the same within noise,
	// and the deeper, the fewer passes over C. k is split into equal blocks no deeper than this
	// (576 → 2×288) rather than a full block and a thin rest.
	blockK = 288
	// blockM bounds mc, the rows of A packed at once: 144×288 floats are 162 KiB, well inside a
	// 512 KiB–1 MiB L2. 144 is a multiple of every kernel's mr (4, 6, 8), so blocks have no ragged
	// panel except at the bottom edge of A, and it holds every forward layer's m (≤ 128) in one block.
	blockM = 144
	// blockN bounds nc, the columns in a block of B shared by several blocks of A: 288×384 floats are
	// 432 KiB, which with the A block fits a 1 MiB L2 (Zen 4/5; Intel server cores have 1–2 MiB).
	// 384 is a multiple of every kernel's nr (4, 16, 32, 48) and covers a 19×19 board (361) at once.
	blockN = 384
	// blockC bounds mc·nc, the block of C that the blocks along k accumulate into, when no block of
	// B is kept (see gemm): 64K floats, 256 KiB of L2. For m = 64 that is 1024 columns, so that
	// the backward product over weights (n = 576) is one block and packs its large A once.
	blockC = 1 << 16
	// keepAMax bounds, in floats, a packed op(A) kept whole across blocks of columns (1 MiB): the
	// weights of a layer, 64×576 or 128×1152, are packed once per call rather than once per block.
	keepAMax = 1 << 18
	// directBAvoid: B is packed when its stride is a multiple of this many floats (1 KiB); see gemm.
	directBAvoid = 256
)

// kernel is a register-tiled micro-kernel: fn computes the mr×nr tile
//
//	C = alpha·Ap·Bp + beta·C
//
// where ap holds kc steps of mr values of A (column p of the panel at ap[p*mr:]), bp holds kc rows
// of nr values of B (row p at bp[p*ldb:]: ldb = nr for a packed panel), and row i of the tile is
// c[i*ldc : i*ldc+nr]. With beta = 0, fn must not read C. The kernel trusts its caller for the
// bounds (assembly cannot check them).
type kernel struct {
	name   string
	mr, nr int
	fn     func(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)
	// tail, if set, is a narrower kernel with the same mr for a ragged last panel of B that it
	// covers, so that less of the padding is computed.
	tail *kernel
}

// maxTile bounds mr·nr over all kernels: the workspace keeps one edge tile of that size.
const maxTile = 8 * 48

// workspace holds the packing buffers of one Gemm call. They are pooled and grown, never shrunk,
// so calls in steady state allocate nothing.
type workspace struct {
	a, b []float32
	tile [maxTile]float32
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// Gemm computes C = alpha·op(A)·op(B) + beta·C on row-major matrices, where op(X) is X or, when the
// matching trans flag is set, its transpose. op(A) is m×k, op(B) is k×n and C is m×n; lda, ldb and ldc
// are the row strides of A, B and C as stored. With beta = 0, C is overwritten (NaNs in it do not
// propagate). It runs on the calling goroutine: callers parallelize over independent products.
func Gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm(fastKernel, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemm is Gemm with the micro-kernel as a parameter, so that tests can run every kernel built for
// the machine through the same driver.
func gemm(kern *kernel, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m <= 0 || n <= 0 {
		return
	}
	checkArgs(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if k <= 0 || alpha == 0 {
		scale(m, n, beta, c, ldc)
		return
	}

	if m == 1 && !transB && gemv8 != nil {
		gemvRow(transA, n, k, alpha, a, lda, b, ldb, beta, c)
		return
	}

	mr, nr := kern.mr, kern.nr
	kc0 := ceilDiv(k, ceilDiv(k, blockK))
	mc0 := min(blockM/mr*mr, roundUp(m, mr))
	mPad := roundUp(m, mr)
	// With a single block of A (m ≤ blockM, the usual case here), a panel of B is used by one sweep
	// down A and never again: it is packed just before that sweep, into one panel-sized buffer that
	// stays in L1/L2, and nc only has to keep the mc×nc block of C, which each block along k
	// revisits, in L2. Otherwise the packed kc×nc block of B is revisited by every block of A, and
	// blockN keeps it in L2.
	lazyB := mPad == mc0
	ncMax := blockN
	if lazyB {
		ncMax = max(blockN, blockC/mc0)
	}
	nc0 := roundUp(ceilDiv(n, ceilDiv(n, ncMax)), nr)
	// When packed op(A) is small it is packed once, during the first block of columns, and kept for
	// the others; otherwise each block of A is repacked for each block of columns.
	keepA := mPad*k <= keepAMax
	// B not transposed is read in place, row p of a panel at b[p*ldb:]: the rows of a panel are
	// contiguous runs of nr values, and the kernel's loads stream through them as fast as through a
	// packed copy, so the copy would only add traffic. Only the ragged last panel is packed (padded
	// with zeros). Strides that are a multiple of 1 KiB are packed anyway: their rows would all fall
	// in a few cache sets and evict one another.
	directB := !transB && ldb%directBAvoid != 0

	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	aNeed := mc0 * kc0
	if keepA {
		aNeed = mPad * k
	}
	if len(ws.a) < aNeed {
		ws.a = make([]float32, aNeed)
	}
	bNeed := nc0 * kc0
	if lazyB {
		bNeed = nr * kc0
	}
	if len(ws.b) < bNeed {
		ws.b = make([]float32, bNeed)
	}

	for jc := 0; jc < n; jc += nc0 {
		nc := min(nc0, n-jc)
		full := nc / nr * nr // columns in whole panels
		last := kern         // kernel for the ragged last panel, if any
		if t := kern.tail; t != nil && nc-full <= t.nr {
			last = t
		}
		for pc := 0; pc < k; pc += kc0 {
			kc := min(kc0, k-pc)
			// The first block along k applies beta; the later ones accumulate onto it.
			bet := beta
			if pc > 0 {
				bet = 1
			}
			if !lazyB {
				if !directB {
					packB(ws.b, transB, b, ldb, pc, kc, jc, full, nr)
				}
				if full < nc {
					packB(ws.b[full*kc:], transB, b, ldb, pc, kc, jc+full, nc-full, last.nr)
				}
			}
			for ic := 0; ic < m; ic += mc0 {
				mc := min(mc0, m-ic)
				var aPack []float32
				if keepA {
					// Blocks stored in (pc, ic) order: those of one pc take mPad·kc values.
					off := mPad*pc + ic*kc
					aPack = ws.a[off : off+roundUp(mc, mr)*kc]
					if jc == 0 {
						packA(aPack, transA, a, lda, ic, mc, pc, kc, mr)
					}
				} else {
					aPack = ws.a[:roundUp(mc, mr)*kc]
					packA(aPack, transA, a, lda, ic, mc, pc, kc, mr)
				}
				for jr := 0; jr < nc; jr += nr {
					pk, cols := kern, min(nr, nc-jr)
					if jr == full {
						pk = last
					}
					var bp []float32
					bs := pk.nr
					switch {
					case directB && jr < full:
						off := pc*ldb + jc + jr
						bp, bs = b[off:off+(kc-1)*ldb+nr], ldb
					case lazyB:
						bp = ws.b[:pk.nr*kc]
						packB(bp, transB, b, ldb, pc, kc, jc+jr, cols, pk.nr)
					default:
						bp = ws.b[jr*kc : (jr+pk.nr)*kc]
					}
					sweep(pk, kc, aPack, mc, bp, bs, c[ic*ldc+jc+jr:], ldc, cols, alpha, bet, ws.tile[:])
				}
			}
		}
	}
}

// sweep runs kern down one panel of B (bp, row stride ldb) against the mc rows of packed A, into
// the first cols columns of c (row stride ldc). Tiles narrower or shorter than the kernel's are
// computed aside in tile, then their valid part is written back.
func sweep(kern *kernel, kc int, aPack []float32, mc int, bp []float32, ldb int, c []float32, ldc, cols int, alpha, beta float32, tile []float32) {
	mr, nr := kern.mr, kern.nr
	tile = tile[:mr*nr]
	for ir := 0; ir < mc; ir += mr {
		rows := min(mr, mc-ir)
		ap := aPack[ir*kc : (ir+mr)*kc]
		ci := ir * ldc
		if rows == mr && cols == nr {
			kern.fn(kc, ap, bp, ldb, c[ci:ci+(mr-1)*ldc+nr], ldc, alpha, beta)
			continue
		}
		kern.fn(kc, ap, bp, ldb, tile, nr, alpha, 0)
		for i := range rows {
			row := c[ci+i*ldc : ci+i*ldc+cols]
			t := tile[i*nr : i*nr+cols]
			if beta == 0 {
				copy(row, t)
			} else {
				for j, v := range t {
					row[j] = beta*row[j] + v
				}
			}
		}
	}
}

// gemvRow is Gemm for m = 1 with B not transposed (the final 1×1 convolution to one plane): a
// row vector times B, C = alpha·a·B + beta·C. Each value of B is used once, so packing it would cost
// as much as the product; instead B is streamed row by row into register-held blocks of C.
func gemvRow(transA bool, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32) {
	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	if len(ws.a) < k {
		ws.a = make([]float32, k)
	}
	x := ws.a[:k]
	for p := range x {
		if transA {
			x[p] = alpha * a[p*lda]
		} else {
			x[p] = alpha * a[p]
		}
	}
	y := c[:n]
	scale(1, n, beta, y, n)
	n8 := n / 8 * 8
	if n8 > 0 {
		gemv8(k, x, b[:(k-1)*ldb+n8], ldb, y[:n8])
	}
	for j := n8; j < n; j++ {
		var s float32
		for p, v := range x {
			s += v * b[p*ldb+j]
		}
		y[j] += s
	}
}

// packA copies rows i0..i0+mc, columns p0..p0+kc of op(A) into dst as consecutive mr-row panels, each
// stored column by column (mr values per step of k). Rows past mc are zero so that the kernel can
// always compute a full tile.
func packA(dst []float32, trans bool, a []float32, lda, i0, mc, p0, kc, mr int) {
	for ir := 0; ir < mc; ir += mr {
		panel := dst[ir*kc : (ir+mr)*kc]
		rows := min(mr, mc-ir)
		if trans {
			// op(A)[i][p] = a[p*lda+i]: each step of k is a contiguous run of the panel's rows.
			for p := range kc {
				src := a[(p0+p)*lda+i0+ir:]
				copy(panel[p*mr:p*mr+rows], src[:rows])
			}
		} else {
			// op(A)[i][p] = a[i*lda+p]: rows of A become the columns of the panel.
			interleave(panel, mr, rows, a[(i0+ir)*lda+p0:], lda, kc)
		}
		if rows < mr {
			for p := range kc {
				clear(panel[p*mr+rows : (p+1)*mr])
			}
		}
	}
}

// interleave transposes: for j < cols and p < kc, dst[p*stride+j] = src[j*ld+p]. It takes eight
// rows of src at a time with the assembly transpose, where there is one, then four rows at a time,
// so that each step of p stores four adjacent values of dst.
func interleave(dst []float32, stride, cols int, src []float32, ld, kc int) {
	j := 0
	if transpose8 != nil && kc >= 8 {
		k8 := kc / 8 * 8
		for ; j+8 <= cols; j += 8 {
			s := src[j*ld : (j+7)*ld+kc]
			d := dst[j : (kc-1)*stride+j+8]
			transpose8(k8, s, ld, d, stride)
			for r := range 8 {
				for p := k8; p < kc; p++ {
					d[p*stride+r] = s[r*ld+p]
				}
			}
		}
	}
	for ; j+4 <= cols; j += 4 {
		s0 := src[j*ld:][:kc]
		s1 := src[(j+1)*ld:][:kc]
		s2 := src[(j+2)*ld:][:kc]
		s3 := src[(j+3)*ld:][:kc]
		for p := range s0 {
			d := dst[p*stride+j:][:4]
			d[0], d[1], d[2], d[3] = s0[p], s1[p], s2[p], s3[p]
		}
	}
	for ; j < cols; j++ {
		s := src[j*ld:][:kc]
		for p, v := range s {
			dst[p*stride+j] = v
		}
	}
}

// packB copies rows p0..p0+kc, columns j0..j0+nc of op(B) into dst as consecutive nr-column panels,
// each stored row by row (nr values per step of k). Columns past nc are zero.
func packB(dst []float32, trans bool, b []float32, ldb, p0, kc, j0, nc, nr int) {
	full := nc / nr * nr // columns in whole panels
	if trans {
		// op(B)[p][j] = b[j*ldb+p]: columns of op(B) are contiguous runs of b.
		for jr := 0; jr < nc; jr += nr {
			interleave(dst[jr*kc:(jr+nr)*kc], nr, min(nr, nc-jr), b[(j0+jr)*ldb+p0:], ldb, kc)
		}
	} else {
		// Row by row of B, so that memory is read in long contiguous runs (a panel at a time would
		// read kc short pieces kc rows apart, which defeats the hardware prefetcher).
		for p := range kc {
			src := b[(p0+p)*ldb+j0:][:nc]
			for jr := 0; jr < full; jr += nr {
				copy(dst[jr*kc+p*nr:][:nr], src[jr:jr+nr])
			}
			if full < nc {
				copy(dst[full*kc+p*nr:], src[full:])
			}
		}
	}
	if full < nc {
		panel := dst[full*kc : (full+nr)*kc]
		for p := range kc {
			clear(panel[p*nr+nc-full : (p+1)*nr])
		}
	}
}

// scale sets C = beta·C (C = 0 for beta = 0, whatever C held).
func scale(m, n int, beta float32, c []float32, ldc int) {
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// checkArgs panics with a readable message when a matrix is shorter than its shape and stride say.
// (Memory safety does not rest on it: the driver slices C to each tile's span before the assembly
// kernel writes it, and packing reads A and B with bounds checks.)
func checkArgs(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if len(c) < (m-1)*ldc+n {
		panic(fmt.Sprintf("sgemm: C of %d×%d with ldc %d needs %d values, has %d", m, n, ldc, (m-1)*ldc+n, len(c)))
	}
	if k <= 0 {
		return
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	if len(a) < (ar-1)*lda+ac {
		panic(fmt.Sprintf("sgemm: A of %d×%d with lda %d needs %d values, has %d", ar, ac, lda, (ar-1)*lda+ac, len(a)))
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	if len(b) < (br-1)*ldb+bc {
		panic(fmt.Sprintf("sgemm: B of %d×%d with ldb %d needs %d values, has %d", br, bc, ldb, (br-1)*ldb+bc, len(b)))
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func roundUp(a, b int) int { return ceilDiv(a, b) * b }

// reference is the plain triple loop: the definition the fast kernels are tested against.
func reference(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
		} else if beta != 1 {
			for j := range row {
				row[j] *= beta
			}
		}
		for p := range k {
			var aip float32
			if transA {
				aip = a[p*lda+i]
			} else {
				aip = a[i*lda+p]
			}
			aip *= alpha
			if aip == 0 {
				continue
			}
			if transB {
				for j := range row {
					row[j] += aip * b[j*ldb+p]
				}
			} else {
				brow := b[p*ldb : p*ldb+n]
				for j, v := range brow {
					row[j] += aip * v
				}
			}
		}
	}
}
