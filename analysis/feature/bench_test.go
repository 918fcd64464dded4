package feature

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"aji/analysis/dataset"
	"aji/analysis/game"
)

var (
	realOnce sync.Once
	realPos  []*game.Position
	realErr  error
)

// realPositions returns positions from the first games of the validation split: every tenth
// main-line position of 40 games (about a thousand), or skips when the data folder is absent.
func realPositions(tb testing.TB) []*game.Position {
	tb.Helper()
	path := filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("validation archive not available (%v); it lives in ../shared/data beside the repository", err)
	}
	realOnce.Do(func() {
		done := errors.New("done")
		games := 0
		_, err := dataset.Walk(context.Background(), path, dataset.Filter{Size: 19}, func(rec dataset.Record) error {
			for _, g := range rec.Games {
				err := g.WalkMainLine(func(pos *game.Position, _ game.Move) error {
					if pos.MoveNumber%10 == 0 {
						c := *pos
						realPos = append(realPos, &c)
					}
					return nil
				})
				if err != nil && !errors.Is(err, game.ErrIllegalMove) {
					return err
				}
				if games++; games == 40 {
					return done
				}
			}
			return nil
		})
		if !errors.Is(err, done) {
			realErr = err
		}
	})
	if realErr != nil || len(realPos) == 0 {
		tb.Fatalf("loading validation positions: %v (%d positions)", realErr, len(realPos))
	}
	return realPos
}

func benchExtract(b *testing.B, owner bool) {
	positions := realPositions(b)
	var e Extractor
	var set Set
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		pos := positions[i%len(positions)]
		e.Extract(pos, &set)
		if owner {
			e.AddOwner(pos, &set)
		}
		moves += len(set.Moves())
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/s, "positions/s")
	b.ReportMetric(float64(moves)/s, "moves/s")
}

// BenchmarkExtract19 measures feature sets per second on real 19x19 positions, without the Monte Carlo
// owner.
func BenchmarkExtract19(b *testing.B) { benchExtract(b, false) }

// BenchmarkExtractOwner19 is BenchmarkExtract19 with the Monte Carlo owner (63 playouts a position).
func BenchmarkExtractOwner19(b *testing.B) { benchExtract(b, true) }
