package territory

import (
	"math"

	"aji/analysis/board"
)

// Directions of the pair arrays: W[p][Right] couples p and p+1, W[p][Down] couples p and p+board.Stride.
const (
	Right = 0
	Down  = 1
)

// Field is a model instantiated on one position: p(s|c) = exp(Const + Σ_i H_i s_i + Σ_(i,j) w_ij s_i s_j)/Z.
// Arrays are indexed by board.Point; entries off the board and pairs leaving it are zero.
type Field struct {
	Size  int
	H     [board.NumCells]float64
	W     [board.NumCells][2]float64
	Const float64 // Σ of the factors' constant terms, so that log Z is that of Stern's product of factors
}

// reset clears f for a board of the given size.
func (f *Field) reset(size int) {
	f.Size = size
	f.H = [board.NumCells]float64{}
	f.W = [board.NumCells][2]float64{}
	f.Const = 0
}

// Marginals are E[s_p] per point and E[s_p s_q] per neighbouring pair, indexed as in Field.
type Marginals struct {
	Size int
	Mean [board.NumCells]float64
	Pair [board.NumCells][2]float64
}

// graph is a compact copy of a Field, points numbered row-major from 0, used by the inference loops.
type graph struct {
	n, N  int
	h     []float64
	nb    [][4]int32   // neighbours in board.Point.Neighbours order (up, left, right, down); −1 off the board
	w     [][4]float64 // couplings to those neighbours
	edges []edge       // each neighbouring pair once: right and down pairs
}

type edge struct {
	i, j int32
	dir  int8 // Right or Down from i
	w    float64
}

func (g *graph) load(f *Field) {
	n := f.Size
	g.n, g.N = n, n*n
	if cap(g.h) < board.MaxPoints {
		g.h = make([]float64, board.MaxPoints)
		g.nb = make([][4]int32, board.MaxPoints)
		g.w = make([][4]float64, board.MaxPoints)
		g.edges = make([]edge, 0, 2*board.MaxPoints)
	}
	g.h, g.nb, g.w, g.edges = g.h[:g.N], g.nb[:g.N], g.w[:g.N], g.edges[:0]
	for i, p := range board.PointsOf(n) {
		x, y := i%n, i/n
		g.h[i] = f.H[p]
		g.nb[i] = [4]int32{-1, -1, -1, -1}
		g.w[i] = [4]float64{}
		if y > 0 {
			g.nb[i][0], g.w[i][0] = int32(i-n), f.W[p-board.Stride][Down]
		}
		if x > 0 {
			g.nb[i][1], g.w[i][1] = int32(i-1), f.W[p-1][Right]
		}
		if x < n-1 {
			g.nb[i][2], g.w[i][2] = int32(i+1), f.W[p][Right]
			g.edges = append(g.edges, edge{int32(i), int32(i + 1), Right, f.W[p][Right]})
		}
		if y < n-1 {
			g.nb[i][3], g.w[i][3] = int32(i+n), f.W[p][Down]
			g.edges = append(g.edges, edge{int32(i), int32(i + n), Down, f.W[p][Down]})
		}
	}
}

// store writes compact per-point means and per-edge pair expectations into m.
func (g *graph) store(m *Marginals, mean []float64, pair []float64) {
	m.Size = g.n
	m.Mean = [board.NumCells]float64{}
	m.Pair = [board.NumCells][2]float64{}
	pts := board.PointsOf(g.n)
	for i, v := range mean[:g.N] {
		m.Mean[pts[i]] = v
	}
	for e, ed := range g.edges {
		m.Pair[pts[ed.i]][ed.dir] = pair[e]
	}
}

// pairMean is E[s_i s_j] for two spins with cavity fields a, b and coupling w:
// p(s_i,s_j) ∝ exp(a s_i + b s_j + w s_i s_j).
//
// The tanh form divides by 1 + tanh w tanh a tanh b, which cancels when all three saturate with an odd
// number of minus signs (0/0 once tanh rounds to ±1, past |x| ≈ 19). While one of |a|, |b|, |w| is below
// 9 the denominator stays above 3e-8 and the form is accurate to ~1e-9; beyond, E[s_i s_j] =
// tanh(w + (log cosh(a+b) − log cosh(a−b))/2) (sum out the sign of s_i s_j) is used instead.
func pairMean(a, b, w float64) float64 {
	if min(math.Abs(a), math.Abs(b), math.Abs(w)) < 9 {
		ta, tb, tw := math.Tanh(a), math.Tanh(b), math.Tanh(w)
		return (tw + ta*tb) / (1 + tw*ta*tb)
	}
	return math.Tanh(w + (logCosh(a+b)-logCosh(a-b))/2)
}

// logCosh is log cosh x without overflow: |x| + log1p(e^−2|x|) − log 2.
func logCosh(x float64) float64 {
	x = math.Abs(x)
	return x + math.Log1p(math.Exp(-2*x)) - math.Ln2
}
