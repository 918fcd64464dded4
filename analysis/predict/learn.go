package predict

import (
	"context"
	"sync/atomic"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// LearnGame runs Learn at every move of g's main line, where the shape dictionaries were harvested;
// it returns how many shapes it found, and stops early once ctx is done.
func (w *Weights) LearnGame(ctx context.Context, g *game.Game) int {
	found := 0
	_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if next.Point != board.Pass {
			found += w.Learn(&pos.Board, pos.ToPlay, next.Point)
		}
		return nil
	})
	return found
}

// LearnCollection runs LearnGame on the games of the collection at path (a folder, an .sgf file, a
// .tar.xz or .tar.gz archive) on every core, calling progress (from any goroutine) after each game
// with the games read and the shapes found so far. It stops when ctx is done.
func (w *Weights) LearnCollection(ctx context.Context, path string, progress func(games, found int)) error {
	var games, found atomic.Int64
	_, err := dataset.Games(ctx, path, dataset.Filter{}, 0, 0, func(_, _ int, _ string, g *game.Game) {
		f := found.Add(int64(w.LearnGame(ctx, g)))
		n := games.Add(1)
		if progress != nil {
			progress(int(n), int(f))
		}
	})
	if err == nil {
		err = ctx.Err()
	}
	return err
}
