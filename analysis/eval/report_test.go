package eval_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/predict"
	_ "aji/analysis/predict/mm"
	"aji/assets"
)

// TestWorstAndBySize checks Options.Worst and Options.BySize against a plain loop over the same games:
// the positions kept are those of the largest ranks, each with the rank and probability the predictor
// gives when asked afresh, and the by-size rows add up to the run's positions and top-1.
func TestWorstAndBySize(t *testing.T) {
	if raceEnabled {
		t.Skip("-race: three games evaluated afresh; run without -race")
	}
	dir := t.TempDir()
	var games []*game.Game
	for _, name := range assets.Games() {
		data, err := assets.Game(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		gs, err := game.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, gs...)
	}
	res, err := eval.Run(context.Background(), []string{"mm"}, dir, eval.Options{Workers: 2, Worst: 25, BySize: true})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]

	p, err := predict.New("mm", predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var d predict.Distribution
	var ranks []int
	for _, g := range games {
		if err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			if next.Point != board.Pass {
				p.Predict(pos, &d)
				ranks = append(ranks, d.Rank(pos, next.Point))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(ranks)
	slices.Reverse(ranks)
	if len(r.Worst) != 25 {
		t.Fatalf("%d worst positions, want 25", len(r.Worst))
	}
	for k, w := range r.Worst {
		if w.Rank != ranks[k] {
			t.Errorf("worst %d has rank %d, want the %d-th largest, %d", k, w.Rank, k+1, ranks[k])
		}
		pos, err := w.Record.PositionAfter(w.Move - 1)
		if err != nil {
			t.Fatal(err)
		}
		p.Predict(pos, &d)
		if got := d.Rank(pos, w.Point); got != w.Rank || d.P[w.Point] != w.Probability {
			t.Errorf("%s move %d (%s): rank %d p %v afresh, %d %v kept", w.Game, w.Move, w.Coord, got, d.P[w.Point], w.Rank, w.Probability)
		}
		if w.Coord == "" || w.Point == board.Pass {
			t.Errorf("worst %d: point %q", k, w.Coord)
		}
	}

	positions, top1 := 0, 0.0
	for _, row := range r.ByPatternSize {
		positions += row.Positions
		top1 += row.Top1 * float64(row.Positions)
		if row.Size < 0 || row.Size > 14 || row.MeanRank < 1 {
			t.Errorf("row %+v", row)
		}
	}
	if positions != r.Positions || int(top1+0.5) != int(r.Top1*float64(r.Positions)+0.5) {
		t.Errorf("by size: %d positions, %.0f top-1; the run: %d, %.0f", positions, top1, r.Positions, r.Top1*float64(r.Positions))
	}
	if len(r.ByPatternSize) < 3 {
		t.Errorf("mm matched patterns of only %d sizes: %+v", len(r.ByPatternSize), r.ByPatternSize)
	}
	sum := 0
	for _, k := range ranks {
		sum += k
	}
	if want := float64(sum) / float64(len(ranks)); math.Abs(r.MeanRank-want) > 1e-9 || len(ranks) != r.Positions {
		t.Errorf("mean rank %v over %d positions, want %v over %d", r.MeanRank, r.Positions, want, len(ranks))
	}
}

// BenchmarkRunReport measures what Options.Worst and Options.BySize add to a run of mm over the
// sample games (an Explain of the expert's move per position): compare the two sub-benchmarks.
func BenchmarkRunReport(b *testing.B) {
	dir := b.TempDir()
	for _, name := range assets.Games() {
		data, err := assets.Game(name)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, bc := range []struct {
		name string
		opt  eval.Options
	}{
		{"eval", eval.Options{Workers: 1}},
		{"report", eval.Options{Workers: 1, Worst: 25, BySize: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			positions := 0
			for b.Loop() {
				res, err := eval.Run(context.Background(), []string{"mm"}, dir, bc.opt)
				if err != nil {
					b.Fatal(err)
				}
				positions = res[0].Positions
			}
			b.ReportMetric(float64(positions)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
