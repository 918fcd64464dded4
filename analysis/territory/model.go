package territory

import (
	"fmt"

	"aji/analysis/board"
)

// Model builds the Field of a position. Each parameterisation below is a Model.
type Model interface {
	Field(b *board.Board, f *Field)
}

// Boltzmann5Params is the flat parameter vector of Boltzmann5 (Stern §5.2.2), indexed by the B5* constants.
type Boltzmann5Params []float64

// Indices into Boltzmann5Params.
const (
	B5WChains     = iota // w(black, black) = w(white, white)
	B5WInterChain        // w(black, white)
	B5WChainEmpty        // w(stone, empty)
	B5WEmpty             // w(empty, empty)
	B5HStones            // h(black) = −h(white); h(empty) = 0 by colour symmetry
	Boltzmann5Len
)

// Boltzmann5Table51 returns Stern's Table 5.1 parameters (MAP-trained) for move 20, 80 or 150.
func Boltzmann5Table51(move int) (Boltzmann5Params, error) {
	switch move {
	case 20:
		return Boltzmann5Params{1.866, 0.490, 0.410, 0.406, 0.271}, nil
	case 80:
		return Boltzmann5Params{2.740, 0.521, 0.442, 0.427, 0.265}, nil
	case 150:
		return Boltzmann5Params{2.976, 0.429, 0.426, 0.496, 0.235}, nil
	}
	return nil, fmt.Errorf("territory: Table 5.1 has moves 20, 80 and 150, not %d", move)
}

// Field implements Stern's Boltzmann5 factor f_ij = exp(w(c_i,c_j) s_i s_j + h(c_i) s_i + h(c_j) s_j).
// The bias sits in every factor, so a point's field is h(c_i) times its number of neighbours: we keep that
// literal reading because Table 5.1 was trained with it.
func (q Boltzmann5Params) Field(b *board.Board, f *Field) {
	f.reset(b.Size())
	hc := [3]float64{0, q[B5HStones], -q[B5HStones]}
	for _, p := range b.Points() {
		cp := b.At(p)
		for d, r := range [2]board.Point{p + 1, p + board.Stride} {
			cr := b.At(r)
			if cr == board.Edge {
				continue
			}
			var w float64
			switch {
			case cp == board.Empty && cr == board.Empty:
				w = q[B5WEmpty]
			case cp == board.Empty || cr == board.Empty:
				w = q[B5WChainEmpty]
			case cp == cr:
				w = q[B5WChains]
			default:
				w = q[B5WInterChain]
			}
			f.W[p][d] = w
			f.H[p] += hc[cp]
			f.H[r] += hc[cr]
		}
	}
}

// Boltzmann12Params is the flat parameter vector of Boltzmann12 (Stern §5.2.3): f_ij = exp(w(c_i,c_j,s_i,s_j)).
// Its 12 entries are the orbits of (c_i, c_j, s_i, s_j) under direction reversal and colour reversal; see
// Boltzmann12Name for which entry is which.
type Boltzmann12Params []float64

// BoltzmannLibertiesParams is the flat parameter vector of BoltzmannLiberties (Stern §5.2.4):
// f_ij = exp(w(c_i,c_j,s_i,s_j,l_i,l_j)) with l the liberty class 1, 2, 3, ≥4 of a stone's chain. See
// LibertiesName for the indexing.
type BoltzmannLibertiesParams []float64

// Len12 and LenLiberties are the lengths of the table models' parameter vectors.
var (
	Len12        = table12.n
	LenLiberties = tableLib.n
)

// Boltzmann12Name names entry i of a Boltzmann12Params, e.g. "w(B,E,+,-)".
func Boltzmann12Name(i int) string { return table12.names[i] }

// LibertiesName names entry i of a BoltzmannLibertiesParams, e.g. "w(B2,W1,+,-)".
func LibertiesName(i int) string { return tableLib.names[i] }

// Boltzmann12Index and LibertiesIndex are the entry of a Boltzmann12Params or BoltzmannLibertiesParams
// holding log f(s_i, s_j) between a point in state x and one in state y (states as in their Field
// methods) with spins a, b (0: −1, 1: +1); −1 for state pairs that cannot occur. Training builds its
// design from them.
func Boltzmann12Index(x, y, a, b int) int { return table12.idx[x][y][a][b] }

// LibertiesIndex: see Boltzmann12Index.
func LibertiesIndex(x, y, a, b int) int { return tableLib.idx[x][y][a][b] }

// Field implements Boltzmann12. A point's state is its colour: 0 empty, 1 black, 2 white.
func (q Boltzmann12Params) Field(b *board.Board, f *Field) {
	var st [board.NumCells]int8
	for _, p := range b.Points() {
		st[p] = int8(b.At(p))
	}
	table12.field(b, f, q, &st)
}

// Field implements BoltzmannLiberties. A point's state is 0 if empty, 1..4 for a black stone whose chain
// has 1, 2, 3, ≥4 liberties, 5..8 for a white one.
func (q BoltzmannLibertiesParams) Field(b *board.Board, f *Field) {
	var st [board.NumCells]int8
	LibertyStates(b, &st)
	tableLib.field(b, f, q, &st)
}

// LibertyStates writes the BoltzmannLiberties state of every point of b into st (see Field); the
// training examples keep the same states. st must start zeroed.
func LibertyStates(b *board.Board, st *[board.NumCells]int8) {
	for _, p := range b.Points() {
		c := b.At(p)
		if c == board.Empty {
			continue
		}
		h := b.ChainHead(p)
		if st[h] == 0 { // heads come first or get filled here; one liberty walk per chain
			st[h] = int8(max(1, b.Liberties(h, 4)))
			if c == board.White {
				st[h] += 4
			}
		}
		st[p] = st[h]
	}
}

// table is a model whose factor is a free table w(x, y, s_i, s_j) over point states x, y, shared across the
// orbits of the symmetry group {identity, direction reversal D, colour reversal C, CD}:
// D(x,y,a,b) = (y,x,b,a), C(x,y,a,b) = (x̄,ȳ,−a,−b). Parameters are numbered in order of first appearance
// when (x, y, s_i, s_j) run through states x, y ascending and spins −, + (s_j fastest).
type table struct {
	n     int
	idx   [][][2][2]int // −1 for impossible state pairs
	names []string
}

func newTable(states []string, flip func(int) int, possible func(x, y int) bool) *table {
	k := len(states)
	t := &table{idx: make([][][2][2]int, k)}
	for x := range k {
		t.idx[x] = make([][2][2]int, k)
		for y := range k {
			t.idx[x][y] = [2][2]int{{-1, -1}, {-1, -1}}
		}
	}
	sign := "-+"
	for x := range k {
		for y := range k {
			if !possible(x, y) {
				continue
			}
			for a := range 2 {
				for b := range 2 {
					if t.idx[x][y][a][b] >= 0 {
						continue
					}
					i := t.n
					t.n++
					t.names = append(t.names, fmt.Sprintf("w(%s,%s,%c,%c)", states[x], states[y], sign[a], sign[b]))
					t.idx[x][y][a][b] = i
					t.idx[y][x][b][a] = i
					t.idx[flip(x)][flip(y)][1-a][1-b] = i
					t.idx[flip(y)][flip(x)][1-b][1-a] = i
				}
			}
		}
	}
	return t
}

var (
	table12 = newTable([]string{"E", "B", "W"},
		func(x int) int { return [3]int{0, 2, 1}[x] },
		func(x, y int) bool { return true })
	tableLib = newTable([]string{"E", "B1", "B2", "B3", "B4", "W1", "W2", "W3", "W4"},
		func(x int) int {
			if x == 0 {
				return 0
			}
			return (x+3)%8 + 1
		},
		// Neighbouring stones of one colour are one chain, so they share their liberty class.
		func(x, y int) bool { return x == 0 || y == 0 || (x-1)/4 != (y-1)/4 || x == y })
)

// field writes the Ising form of the table factors: log f(s_i,s_j) = c + a s_i + b s_j + w s_i s_j with
// w = (f++ + f−− − f+− − f−+)/4, a = (f++ + f+− − f−+ − f−−)/4, b = (f++ + f−+ − f+− − f−−)/4, c = mean.
func (t *table) field(b *board.Board, f *Field, q []float64, st *[board.NumCells]int8) {
	f.reset(b.Size())
	for _, p := range b.Points() {
		x := st[p]
		for d, r := range [2]board.Point{p + 1, p + board.Stride} {
			if b.At(r) == board.Edge {
				continue
			}
			y := st[r]
			ix := &t.idx[x][y]
			mm, mp, pm, pp := q[ix[0][0]], q[ix[0][1]], q[ix[1][0]], q[ix[1][1]]
			f.W[p][d] = (pp + mm - pm - mp) / 4
			f.H[p] += (pp + pm - mp - mm) / 4
			f.H[r] += (pp + mp - pm - mm) / 4
			f.Const += (pp + mm + pm + mp) / 4
		}
	}
}
