package train

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// pos19 is territory's 19x19 middle-game test position.
var pos19 = func() string {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "pos19.txt"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func mustParse(t testing.TB, s string) *board.Board {
	t.Helper()
	b, err := board.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exact is the marginals of f by territory.Exact, which territory's tests hold to brute-force
// enumeration.
func exact(f *territory.Field) (territory.Marginals, float64) {
	var e territory.Exact
	var m territory.Marginals
	logZ := e.Run(f, &m)
	return m, logZ
}

// randomBoard sets stones at random (each point black, white or empty with equal odds): the model does
// not care whether the position is reachable, and such boards exercise every class of edge.
func randomBoard(t testing.TB, size int, r *rand.Rand) *board.Board {
	b, err := board.New(size)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Points() {
		if c := board.Color(r.IntN(3)); c != board.Empty {
			if err := b.Set(p, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b
}

func randomParams(kind territory.Kind, scale float64, r *rand.Rand) []float64 {
	n, _ := territory.ParamLen(kind)
	q := make([]float64, n)
	for i := range q {
		q[i] = scale * (2*r.Float64() - 1)
	}
	return q
}

// fieldEnergy is Const + Σ H s + Σ W s s of owners s (±1 by board.Point).
func fieldEnergy(f *territory.Field, s *[board.NumCells]int8) float64 {
	e := f.Const
	for _, p := range board.PointsOf(f.Size) {
		e += f.H[p] * float64(s[p])
		x, y := p.XY()
		if x < f.Size-1 {
			e += f.W[p][territory.Right] * float64(s[p]*s[p+1])
		}
		if y < f.Size-1 {
			e += f.W[p][territory.Down] * float64(s[p]*s[p+board.Stride])
		}
	}
	return e
}

// bruteLogLik is log p(ŝ_L|c) by enumeration: log Σ over owner vectors agreeing with the non-zero
// labels, minus log Z. labels are in SGF order.
func bruteLogLik(f *territory.Field, labels []int8) float64 {
	pts := board.PointsOf(f.Size)
	N := len(pts)
	var s [board.NumCells]int8
	var all, num []float64
	for mask := range 1 << N {
		ok := true
		for i, p := range pts {
			s[p] = int8(2*((mask>>i)&1) - 1)
			if labels[i] != 0 && labels[i] != s[p] {
				ok = false
			}
		}
		e := fieldEnergy(f, &s)
		all = append(all, e)
		if ok {
			num = append(num, e)
		}
	}
	return logSumExp(num) - logSumExp(all)
}

func logSumExp(v []float64) float64 {
	mx := math.Inf(-1)
	for _, x := range v {
		mx = max(mx, x)
	}
	var z float64
	for _, x := range v {
		z += math.Exp(x - mx)
	}
	return math.Log(z) + mx
}

// gradExamples are two 4x4 positions with neutral points: a two-point component, a single point, and
// one beside the edge.
func gradExamples(t *testing.T) ([]*board.Board, [][]int8) {
	b1 := mustParse(t, `
		.XO.
		XXO.
		.XOO
		X.O.`)
	l1 := []int8{
		1, 1, 0, -1,
		1, 1, -1, -1,
		1, 1, -1, -1,
		1, 0, -1, -1}
	b2 := mustParse(t, `
		X..O
		.X.O
		O.X.
		..OX`)
	l2 := []int8{
		1, 1, 0, -1,
		1, 1, 0, -1,
		-1, 1, 1, 1,
		-1, -1, 1, 1}
	return []*board.Board{b1, b2}, [][]int8{l1, l2}
}
