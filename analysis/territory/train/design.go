package train

import (
	"fmt"
	"slices"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// design is the linear form of one model kind.
type design struct {
	kind territory.Kind
	k    int         // point states
	n    int         // parameters
	jac  [][]float64 // [(c·4 + a·2 + b)][k]: ∂ log f(s_i, s_j)/∂θ_k for class c, spins a, b ∈ {0: −1, 1: +1}
}

func newDesign(kind territory.Kind) (*design, error) {
	n, err := territory.ParamLen(kind)
	if err != nil {
		return nil, err
	}
	d := &design{kind: kind, k: 3, n: n}
	if kind == territory.KindLiberties {
		d.k = 9
	}
	d.jac = make([][]float64, d.k*d.k*4)
	for r := range d.jac {
		d.jac[r] = make([]float64, n)
	}
	for x := range d.k {
		for y := range d.k {
			for a := range 2 {
				for b := range 2 {
					row := d.jac[((x*d.k+y)*2+a)*2+b]
					switch kind {
					case territory.KindBoltzmann5:
						// f = exp(w(c_i,c_j) s_i s_j + h(c_i) s_i + h(c_j) s_j), h(B) = −h(W) = h_stones.
						sa, sb := float64(2*a-1), float64(2*b-1)
						sigma := [3]float64{0, 1, -1}
						var wk int
						switch {
						case x == 0 && y == 0:
							wk = territory.B5WEmpty
						case x == 0 || y == 0:
							wk = territory.B5WChainEmpty
						case x == y:
							wk = territory.B5WChains
						default:
							wk = territory.B5WInterChain
						}
						row[wk] = sa * sb
						row[territory.B5HStones] = sigma[x]*sa + sigma[y]*sb
					case territory.KindBoltzmann12:
						row[territory.Boltzmann12Index(x, y, a, b)] = 1
					default:
						if i := territory.LibertiesIndex(x, y, a, b); i >= 0 {
							row[i] = 1
						}
					}
				}
			}
		}
	}
	return d, nil
}

// state maps an Example state to the design's point state.
func (d *design) state(x int8) int {
	if d.k == 9 {
		return int(x)
	}
	return [9]int{0, 1, 1, 1, 1, 2, 2, 2, 2}[x]
}

// ising converts θ into the Ising form of each class's factor: log f(s_i, s_j) = c + hi s_i + hj s_j +
// w s_i s_j (the conversion of table.field).
func (d *design) ising(theta []float64, out [][4]float64) {
	for c := range d.k * d.k {
		var l [4]float64 // −−, −+, +−, ++
		for ab := range 4 {
			for k, j := range d.jac[c*4+ab] {
				l[ab] += j * theta[k]
			}
		}
		mm, mp, pm, pp := l[0], l[1], l[2], l[3]
		out[c] = [4]float64{(pp + mm - pm - mp) / 4, (pp + pm - mp - mm) / 4, (pp + mp - pm - mm) / 4, (pp + mm + pm + mp) / 4}
	}
}

// params folds class counts T into sufficient statistics: φ = Jᵀ T, added to out.
func (d *design) params(t []float64, out []float64) {
	for r, v := range t {
		if v == 0 {
			continue
		}
		for k, j := range d.jac[r] {
			out[k] += j * v
		}
	}
}

// SufficientStats returns φ(s, c) of a model kind for owners s on board b (indexed by board.Point, ±1 on
// the board), so that log p(s|c) = θ·φ(s, c) − log Z(c, θ) with Z as territory.Exact computes it (territory.Field.Const
// included). For Boltzmann5 these are Σ s_i s_j over the neighbouring pairs of each coupling type and
// Σ_pairs h-coefficients (σ(c_i) s_i + σ(c_j) s_j); for the table models, how many pairs fall in each orbit.
func SufficientStats(kind territory.Kind, b *board.Board, s *[board.NumCells]int8) ([]float64, error) {
	d, err := newDesign(kind)
	if err != nil {
		return nil, err
	}
	var st [board.NumCells]int8
	territory.LibertyStates(b, &st)
	t := make([]float64, d.k*d.k*4)
	for _, p := range b.Points() {
		for _, r := range [2]board.Point{p + 1, p + board.Stride} {
			if b.At(r) == board.Edge {
				continue
			}
			c := d.state(st[p])*d.k + d.state(st[r])
			t[(c*2+int(s[p]+1)/2)*2+int(s[r]+1)/2]++
		}
	}
	phi := make([]float64, d.n)
	d.params(t, phi)
	return phi, nil
}

// ParamName names parameter k of a model kind: "w_chains", …, "h_stones" for Boltzmann5 (Table 5.1's
// names), the table entry (Boltzmann12Name, LibertiesName) otherwise.
func ParamName(kind territory.Kind, k int) string {
	switch kind {
	case territory.KindBoltzmann5:
		return [...]string{"w_chains", "w_inter-chain", "w_chain-empty", "w_empty", "h_stones"}[k]
	case territory.KindBoltzmann12:
		return territory.Boltzmann12Name(k)
	}
	return territory.LibertiesName(k)
}

// Embed converts parameters of one kind into a richer kind with the same factors: Boltzmann5 into
// Boltzmann12 (each table entry is w(c_i,c_j) s_i s_j + h(c_i) s_i + h(c_j) s_j at its spins), either of
// those into BoltzmannLiberties (liberty classes ignored), or a kind into itself. A richer model trained
// from the embedded vector starts at the simpler model's optimum, so it needs fewer steps.
func Embed(from territory.Kind, theta []float64, to territory.Kind) ([]float64, error) {
	src, err := newDesign(from)
	if err != nil {
		return nil, err
	}
	dst, err := newDesign(to)
	if err != nil {
		return nil, err
	}
	if len(theta) != src.n {
		return nil, fmt.Errorf("train: %s has %d parameters, got %d", from, src.n, len(theta))
	}
	if from == to {
		return slices.Clone(theta), nil
	}
	if to == territory.KindBoltzmann5 || from == territory.KindLiberties {
		return nil, fmt.Errorf("train: cannot embed %s into %s", from, to)
	}
	out := make([]float64, dst.n)
	colour := [9]int{0, 1, 1, 1, 1, 2, 2, 2, 2}
	for x := range dst.k {
		for y := range dst.k {
			for ab := range 4 {
				row := dst.jac[(x*dst.k+y)*4+ab]
				k := slices.Index(row, 1)
				if k < 0 {
					continue // impossible state pair
				}
				sx, sy := x, y
				if dst.k == 9 && src.k == 3 {
					sx, sy = colour[x], colour[y]
				}
				var v float64
				for j, c := range src.jac[(sx*src.k+sy)*4+ab] {
					v += c * theta[j]
				}
				out[k] = v
			}
		}
	}
	return out, nil
}
