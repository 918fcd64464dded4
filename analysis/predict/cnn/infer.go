package cnn

import (
	"math"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Evaluator runs a network forward for inference, batch normalisation folded into the convolutions. It
// keeps its buffers, grown to the largest batch and board seen, so a warm evaluator allocates nothing.
// It is not safe for concurrent use; the network it reads is shared read-only.
type Evaluator struct {
	net     *Net
	w, b    [][]float32 // folded weights and biases
	workers int
	planes  feature.Planes
	one     []float32 // one position's planes, plane-major
	in      []float32 // the encoded batch
	x, y    []float32 // activations in and out of a layer
	cols    []float32
}

// NewEvaluator makes an evaluator of net whose convolutions run on workers goroutines (1 when a pool of
// analysis goroutines already runs one evaluator each).
func NewEvaluator(net *Net, workers int) *Evaluator {
	w, b := net.Folded()
	return &Evaluator{net: net, w: w, b: b, workers: max(1, workers)}
}

// Net returns the network evaluated.
func (e *Evaluator) Net() *Net { return e.net }

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// Encode writes the input planes of pos, transformed by sym, as position b of a batch of batch positions
// into x (channel-major, see conv.go).
func (e *Evaluator) encode(x []float32, pos *game.Position, b, batch int, sym feature.Symmetry) {
	n := pos.Board.Size()
	N := n * n
	e.one = grow(e.one, feature.NumPlanes*N)
	e.planes.Encode(e.one, pos, sym, e.net.Planes)
	for c := range feature.NumPlanes {
		copy(x[(c*batch+b)*N:(c*batch+b+1)*N], e.one[c*N:(c+1)*N])
	}
}

// Forward evaluates the positions (all of one board size) and returns their logits, position b's point
// (x, y) of the board as transformed by sym at b·N + y·n + x; valid until the next call.
func (e *Evaluator) Forward(positions []*game.Position, sym feature.Symmetry) []float32 {
	batch := len(positions)
	n := positions[0].Board.Size()
	e.in = grow(e.in, feature.NumPlanes*batch*n*n)
	for b, pos := range positions {
		e.encode(e.in, pos, b, batch, sym)
	}
	return e.ForwardPlanes(e.in, batch, n)
}

// ForwardPlanes evaluates a batch of encoded positions (conv.go's layout; not modified) of an n×n board
// and returns their logits, valid until the next call.
func (e *Evaluator) ForwardPlanes(input []float32, batch, n int) []float32 {
	bn := batch * n * n
	width := max(feature.NumPlanes, e.net.Width, e.net.FirstWidth)
	e.x = grow(e.x, width*bn)
	e.y = grow(e.y, width*bn)
	in, out := input, e.y
	for i, l := range e.net.L {
		rows := l.In * l.K * l.K
		cols := in[:l.In*bn]
		if l.K > 1 {
			e.cols = grow(e.cols, rows*bn)
			im2col(e.cols, cols, l.In, batch, n, l.K)
			cols = e.cols
		}
		convForward(out, e.w[i], cols, e.b[i], l.Out, rows, bn, e.workers)
		if i < len(e.net.L)-1 {
			relu(out[:l.Out*bn])
		}
		in = out
		if &out[0] == &e.y[0] {
			out = e.x
		} else {
			out = e.y
		}
	}
	return in[:bn]
}

func relu(s []float32) {
	for i, v := range s {
		if v < 0 {
			s[i] = 0
		}
	}
}

// softmax turns one position's logits into out, the distribution over the legal moves of pos (the
// paper's softmax over the points; pass, which the network has no output for, gets 0). sym is the
// symmetry the logits were computed under; moves is scratch for the legal moves.
func softmax(out *predict.Distribution, logits []float32, pos *game.Position, sym feature.Symmetry, moves []board.Point) {
	bd := &pos.Board
	n := bd.Size()
	out.Reset(n)
	moves = moves[:0]
	best := float32(math.Inf(-1))
	for _, p := range bd.Points() {
		if !bd.Legal(p, pos.ToPlay) {
			continue
		}
		x, y := p.XY()
		tx, ty := sym.Apply(x, y, n)
		v := logits[ty*n+tx]
		out.P[p] = float64(v)
		best = max(best, v)
		moves = append(moves, p)
	}
	total := 0.0
	for _, p := range moves {
		out.P[p] = math.Exp(out.P[p] - float64(best))
		total += out.P[p]
	}
	out.Scale(pos, moves, total)
}
