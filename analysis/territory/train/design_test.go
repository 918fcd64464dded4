package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
	"aji/analysis/territory"
)

// The sufficient statistics reproduce the energy of Model.Field, Const included: θ·φ(s) is the log of
// Stern's product of factors, for every kind, on a real 19x19 position and on random boards.
func TestSufficientStatsMatchField(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	boards := []*board.Board{mustParse(t, pos19), randomBoard(t, 5, r), randomBoard(t, 9, r)}
	for _, kind := range territory.Kinds {
		for bi, b := range boards {
			theta := randomParams(kind, 1, r)
			m, _ := territory.NewModel(kind, theta)
			var f territory.Field
			m.Field(b, &f)
			for range 5 {
				var s [board.NumCells]int8
				for _, p := range b.Points() {
					s[p] = int8(2*r.IntN(2) - 1)
				}
				phi, err := SufficientStats(kind, b, &s)
				if err != nil {
					t.Fatal(err)
				}
				var got float64
				for k := range theta {
					got += theta[k] * phi[k]
				}
				if want := fieldEnergy(&f, &s); math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
					t.Fatalf("%s board %d: θ·φ = %v, territory.Field energy %v", kind, bi, got, want)
				}
			}
		}
	}
}

// The training code builds its fields from the design; they must equal Model.Field's exactly.
func TestDesignFieldMatchesModel(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := mustParse(t, pos19)
	labels := make([]int8, 361)
	ex, err := NewExample(b, 60, labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range territory.Kinds {
		d, _ := newDesign(kind)
		theta := randomParams(kind, 1, r)
		m, _ := territory.NewModel(kind, theta)
		var want territory.Field
		m.Field(b, &want)
		p, err := d.prepareForField(&ex)
		if err != nil {
			t.Fatal(err)
		}
		ising := make([][4]float64, d.k*d.k)
		d.ising(theta, ising)
		w := newWork(d, board.MaxPoints)
		w.load(p, ising)
		w.field(p)
		if math.Abs(w.f.Const-want.Const) > 1e-9 {
			t.Errorf("%s: Const %v, want %v", kind, w.f.Const, want.Const)
		}
		for _, q := range b.Points() {
			if math.Abs(w.f.H[q]-want.H[q]) > 1e-12 || math.Abs(w.f.W[q][0]-want.W[q][0]) > 1e-12 || math.Abs(w.f.W[q][1]-want.W[q][1]) > 1e-12 {
				t.Fatalf("%s: field differs at %s: H %v W %v, want H %v W %v", kind, q.GTP(19), w.f.H[q], w.f.W[q], want.H[q], want.W[q])
			}
		}
	}
}

// An embedded vector gives the richer model the same field, Const aside (Boltzmann5 has none; the tables
// carry it), so the same p(s|c) on a real position.
func TestEmbedKeepsTheField(t *testing.T) {
	b := mustParse(t, pos19)
	r := rand.New(rand.NewPCG(8, 8))
	for _, c := range [][2]territory.Kind{{territory.KindBoltzmann5, territory.KindBoltzmann12}, {territory.KindBoltzmann5, territory.KindLiberties}, {territory.KindBoltzmann12, territory.KindLiberties}, {territory.KindLiberties, territory.KindLiberties}} {
		theta := randomParams(c[0], 1, r)
		got, err := Embed(c[0], theta, c[1])
		if err != nil {
			t.Fatal(err)
		}
		m0, _ := territory.NewModel(c[0], theta)
		m1, _ := territory.NewModel(c[1], got)
		var f0, f1 territory.Field
		m0.Field(b, &f0)
		m1.Field(b, &f1)
		for _, p := range b.Points() {
			if math.Abs(f0.H[p]-f1.H[p]) > 1e-12 || math.Abs(f0.W[p][0]-f1.W[p][0]) > 1e-12 || math.Abs(f0.W[p][1]-f1.W[p][1]) > 1e-12 {
				t.Fatalf("%s → %s: field differs at %s", c[0], c[1], p.GTP(19))
			}
		}
	}
	if _, err := Embed(territory.KindLiberties, make([]float64, territory.LenLiberties), territory.KindBoltzmann5); err == nil {
		t.Error("embedding boltzmann-lib into boltzmann5 should fail")
	}
}
