package live

import (
	"context"
	"slices"
	"sync"
	"testing"

	"aji/analysis/cfg"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// pathModel stands in for a cfg predictor: a γ for the path features of
// labels after one iteration whose label is odd.
type pathModel struct{}

func (pathModel) Name() string                                          { return pathModelName }
func (pathModel) Predict(pos *game.Position, out *predict.Distribution) { out.Uniform(pos) }
func (pathModel) PathGamma(label uint32) (float64, bool)                { return float64(label), label%2 == 1 }
func (pathModel) PathIterations() int                                   { return 1 }

const pathModelName = "zz-live-test-paths"

var registerPathModel sync.Once

func TestPathGammas(t *testing.T) {
	registerPathModel.Do(func() {
		predict.Register(pathModelName, func(string, predict.Options) (predict.Predictor, error) { return pathModel{}, nil })
	})
	pos := proPosition(t, 100)
	a := NewPredictors()
	pg, err := a.PathGammas(context.Background(), pathModelName, pos)
	if err != nil {
		t.Fatal(err)
	}
	// The odd path features of every point, after one iteration.
	g := cfg.Build(&pos.Board, pos.ToPlay, 1)
	var want []uint32
	for _, p := range pos.Board.Points() {
		for _, f := range g.PathFeatures(p, nil) {
			if f%2 == 1 {
				want = append(want, f)
			}
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	if pg.Unable || pg.Iters != 1 || !slices.Equal(pg.Labels, want) || len(want) == 0 {
		t.Fatalf("unable %v, iterations %d, %d labels, want %d", pg.Unable, pg.Iters, len(pg.Labels), len(want))
	}
	for _, f := range want {
		if gamma, ok := pg.Lookup(f); !ok || gamma != float64(f) {
			t.Fatalf("γ of %x: %g %v", f, gamma, ok)
		}
		if _, ok := pg.Lookup(f + 1); ok {
			t.Fatalf("γ of the even %x", f+1)
		}
	}
	none, err := a.PathGammas(context.Background(), "uniform", pos)
	if err != nil || !none.Unable {
		t.Errorf("uniform has path weights: %+v %v", none, err)
	}
}
