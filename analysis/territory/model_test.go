package territory

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"aji/analysis/board"
)

func TestParamCounts(t *testing.T) {
	if Len12 != 12 {
		t.Errorf("Boltzmann12 has %d parameters, want 12", Len12)
	}
	// 90 orbits of (state_i, state_j, s_i, s_j) over 9 states, less the 24 orbits of neighbouring
	// same-colour stones with different liberty classes, which cannot occur (they are one chain).
	if LenLiberties != 66 {
		t.Errorf("BoltzmannLiberties has %d parameters, want 66", LenLiberties)
	}
	if got := Boltzmann12Name(0); got != "w(E,E,-,-)" {
		t.Errorf("Boltzmann12Name(0) = %q", got)
	}
}

// Colour reversal with s → −s leaves every model invariant: the flipped board's Field has H negated and
// the same W and Const.
func TestColourSymmetry(t *testing.T) {
	const pos = `
		.XO..
		XXO.O
		.XOO.
		X.OX.
		..OX.`
	b := mustParse(t, pos)
	flipped := strings.NewReplacer("X", "O", "O", "X").Replace(pos)
	bf := mustParse(t, flipped)
	r := rand.New(rand.NewPCG(3, 3))
	rnd := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Float64() - 0.5
		}
		return v
	}
	b5, _ := Boltzmann5Table51(20)
	for name, m := range map[string]Model{
		"b5":  b5,
		"b12": Boltzmann12Params(rnd(Len12)),
		"lib": BoltzmannLibertiesParams(rnd(LenLiberties)),
	} {
		var f, ff Field
		m.Field(b, &f)
		m.Field(bf, &ff)
		for _, p := range b.Points() {
			if math.Abs(f.H[p]+ff.H[p]) > 1e-12 || f.W[p] != ff.W[p] {
				t.Fatalf("%s: at %v H %v vs %v, W %v vs %v", name, p, f.H[p], ff.H[p], f.W[p], ff.W[p])
			}
		}
		if math.Abs(f.Const-ff.Const) > 1e-12 {
			t.Errorf("%s: Const %v vs %v", name, f.Const, ff.Const)
		}
	}
}

// Boltzmann5 on a 2x2 written out by hand: Stern's factor puts h(c_i) in every factor of i.
func TestBoltzmann5Field(t *testing.T) {
	b := mustParse(t, "X.\nXO")
	q := Boltzmann5Params{1, 2, 3, 4, 0.5}
	var f Field
	q.Field(b, &f)
	a, c, d := board.At(0, 0), board.At(0, 1), board.At(1, 1)
	e := board.At(1, 0)
	if f.W[a][Down] != 1 || f.W[c][Right] != 2 || f.W[a][Right] != 3 || f.W[e][Down] != 3 {
		t.Errorf("couplings %v %v %v %v", f.W[a], f.W[c], f.W[e], f.W[d])
	}
	if f.H[a] != 1 || f.H[c] != 1 || f.H[d] != -1 || f.H[e] != 0 {
		t.Errorf("fields %v %v %v %v, want 1 1 -1 0", f.H[a], f.H[c], f.H[d], f.H[e])
	}
	if a := testing.AllocsPerRun(10, func() { q.Field(b, &f) }); a != 0 {
		t.Errorf("Field allocates %v times", a)
	}
	ql := make(BoltzmannLibertiesParams, LenLiberties)
	if a := testing.AllocsPerRun(10, func() { ql.Field(b, &f) }); a != 0 {
		t.Errorf("liberties Field allocates %v times", a)
	}
}
