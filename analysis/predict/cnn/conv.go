package cnn

import (
	"sync"

	"aji/internal/sgemm"
)

// Activations are stored channel-major over the batch: x[c·B·N + b·N + p] for channel c, position b of
// the batch and point p = y·n + x of the n×n board (N = n²). A convolution is then one GEMM whose
// columns are every point of every position: W (Out × In·K·K) times the im2col matrix (In·K·K × B·N).

// im2col writes the K×K neighbourhoods of x (in channels, batch positions of an n×n board) as the rows
// of cols: cols[(c·K + dy)·K + dx][b·N + y·n + x] = x[c][b][(y+dy−r)·n + (x+dx−r)], zero off the board.
func im2col(cols, x []float32, in, batch, n, k int) {
	r, N := k/2, n*n
	bn := batch * N
	row := 0
	for c := range in {
		for dy := range k {
			for dx := range k {
				dst := cols[row*bn : (row+1)*bn]
				src := x[c*bn : (c+1)*bn]
				shiftX, shiftY := dx-r, dy-r
				lo, hi := max(0, -shiftX), min(n, n-shiftX) // columns x whose x+shiftX is on the board
				for b := range batch {
					for y := range n {
						d := dst[b*N+y*n : b*N+y*n+n]
						sy := y + shiftY
						if sy < 0 || sy >= n || lo >= hi {
							clear(d)
							continue
						}
						clear(d[:lo])
						s := src[b*N+sy*n:]
						copy(d[lo:hi], s[lo+shiftX:hi+shiftX])
						clear(d[hi:])
					}
				}
				row++
			}
		}
	}
}

// col2imAdd is im2col's adjoint: it adds each entry of cols back to the input point it was read from,
// for the channels [c0, c1) (so that workers can split the channels).
func col2imAdd(x, cols []float32, c0, c1, batch, n, k int) {
	r, N := k/2, n*n
	bn := batch * N
	for c := c0; c < c1; c++ {
		dstc := x[c*bn : (c+1)*bn]
		for dy := range k {
			for dx := range k {
				row := (c*k+dy)*k + dx
				src := cols[row*bn : (row+1)*bn]
				shiftX, shiftY := dx-r, dy-r
				lo, hi := max(0, -shiftX), min(n, n-shiftX)
				if lo >= hi {
					continue
				}
				for b := range batch {
					for y := range n {
						sy := y + shiftY
						if sy < 0 || sy >= n {
							continue
						}
						s := src[b*N+y*n+lo : b*N+y*n+hi]
						d := dstc[b*N+sy*n+lo+shiftX : b*N+sy*n+hi+shiftX]
						for i, v := range s {
							d[i] += v
						}
					}
				}
			}
		}
	}
}

// split runs fn over [0, n) cut into at most workers contiguous ranges of multiples of align, on as
// many goroutines, and waits.
func split(n, align, workers int, fn func(lo, hi int)) {
	chunks := (n + align - 1) / align
	workers = max(1, min(workers, chunks))
	if workers == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo := min(n, chunks*w/workers*align)
		hi := min(n, chunks*(w+1)/workers*align)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}

// convForward computes out = W·cols (+ bias per output channel when bias is not nil) for a layer with
// rows = In·K·K, over bn columns, the columns split between workers (one worker makes no goroutine and
// allocates nothing).
func convForward(out, w, cols, bias []float32, outC, rows, bn, workers int) {
	if workers <= 1 {
		convColumns(out, w, cols, bias, outC, rows, bn, 0, bn)
		return
	}
	split(bn, 64, workers, func(lo, hi int) { convColumns(out, w, cols, bias, outC, rows, bn, lo, hi) })
}

// convColumns is convForward on the columns [lo, hi).
func convColumns(out, w, cols, bias []float32, outC, rows, bn, lo, hi int) {
	sgemm.Gemm(false, false, outC, hi-lo, rows, 1, w, rows, cols[lo:], bn, 0, out[lo:], bn)
	if bias == nil {
		return
	}
	for o := range outC {
		d := out[o*bn+lo : o*bn+hi]
		for i := range d {
			d[i] += bias[o]
		}
	}
}
