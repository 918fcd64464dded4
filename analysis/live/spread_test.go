package live

import (
	"context"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// unsure is a uniform predictor that is sure of nothing on the left half of the board.
type unsure struct{ predict.Predictor }

func (unsure) Spread(pos *game.Position, out *[board.NumCells]float64) float64 {
	clear(out[:])
	for _, p := range pos.Board.Points() {
		if pos.Board.Legal(p, pos.ToPlay) {
			out[p] = 0.1
			if x, _ := p.XY(); x < pos.Board.Size()/2 {
				out[p] = 1
			}
		}
	}
	out[board.Pass] = 0.5
	return 1
}

func init() {
	predict.Register("test-unsure", func(name string, o predict.Options) (predict.Predictor, error) {
		u, err := predict.New("uniform", o)
		return unsure{u}, err
	})
}

// TestSpread: a predictor with uncertainty gives σ per legal move in board order, 0 elsewhere; one
// without says so.
func TestSpread(t *testing.T) {
	pos := proPosition(t, 40)
	s, err := NewPredictors().Spread(context.Background(), "test-unsure", pos)
	if err != nil {
		t.Fatal(err)
	}
	n := pos.Board.Size()
	for _, p := range pos.Board.Points() {
		x, y := p.XY()
		want := 0.0
		if pos.Board.Legal(p, pos.ToPlay) {
			want = 0.1
			if x < n/2 {
				want = 1
			}
		}
		if got := s.V[y*n+x]; got != want {
			t.Fatalf("%s: σ %g, want %g", p.GTP(n), got, want)
		}
	}
	if s.Unable || s.Prior != 1 || s.Pass != 0.5 || s.Size != n || s.Predictor != "test-unsure" {
		t.Errorf("spreads %+v", s)
	}
	s, err = NewPredictors().Spread(context.Background(), "uniform", pos)
	if err != nil || !s.Unable || s.V != nil {
		t.Errorf("uniform: %+v, %v", s, err)
	}
}
