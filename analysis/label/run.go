package label

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"aji/analysis/dataset"
	"aji/analysis/game"
)

// DefaultEngines is how many engine processes Run keeps by default: GNU Go is single-threaded, and two
// keep two cores busy without starving the machine.
const DefaultEngines = 2

// Options configure Run.
type Options struct {
	Engine   string    // engine command; DefaultEngine when empty
	Engines  int       // engine processes working at once; DefaultEngines when < 1
	MaxGames int       // read only the first N games of the collection (0: all)
	Progress func(int) // called with 1 as each game read is done (labelled, skipped or failed); may be nil
}

// Stats count what a run did.
type Stats struct {
	Games    int // games read
	Labelled int // labels handed to emit
	NoCount  int // games skipped: no counted result (ErrNoCount)
	Failed   int // games the engine or the record failed on (logged)
}

// Run labels the games of the collection at path (a folder, .sgf file or archive; see dataset.Games)
// with a pool of engines, and hands each label to emit in collection order, one call at a time. When
// ctx ends, Run stops the engines and still hands over, in order, every label already made, then
// returns ctx's error: what emit has written is a valid prefix of the work. An error from emit stops the
// run and is returned.
func Run(ctx context.Context, path string, opt Options, emit func(*Label) error) (Stats, error) {
	if opt.Engine == "" {
		opt.Engine = DefaultEngine
	}
	if opt.Engines < 1 {
		opt.Engines = DefaultEngines
	}
	labelers := make([]*Labeler, 0, opt.Engines)
	defer func() {
		for _, l := range labelers {
			if err := l.Close(); err != nil {
				slog.Warn("closing engine", "err", err)
			}
		}
	}()
	for range opt.Engines {
		l, err := NewLabeler(ctx, opt.Engine)
		if err != nil {
			return Stats{}, err
		}
		labelers = append(labelers, l)
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		mu      sync.Mutex
		st      Stats
		pending = map[int]*Label{} // done but not yet emitted; nil for a game without a label
		next    int                // the index of the next game to emit
		emitErr error
	)
	// flush emits the labels ready in order (all of them when gaps is set); mu is held.
	flush := func(gaps bool) {
		for len(pending) > 0 && emitErr == nil {
			lab, ok := pending[next]
			if !ok {
				if !gaps {
					return
				}
				next++
				continue
			}
			delete(pending, next)
			next++
			if lab == nil {
				continue
			}
			if err := emit(lab); err != nil {
				emitErr = fmt.Errorf("write labels: %w", err)
				cancel(emitErr)
				return
			}
			st.Labelled++
		}
	}
	_, err := dataset.Games(runCtx, path, dataset.Filter{}, opt.MaxGames, opt.Engines,
		func(worker, index int, name string, g *game.Game) {
			lab, err := labelers[worker].Label(runCtx, name, g)
			if runCtx.Err() != nil {
				return // interrupted mid-game: the game is neither done nor failed
			}
			mu.Lock()
			defer mu.Unlock()
			st.Games++
			switch {
			case errors.Is(err, ErrNoCount):
				st.NoCount++
			case err != nil:
				st.Failed++
				slog.Warn("skipping game", "err", err)
			}
			pending[index] = lab
			flush(false)
			if opt.Progress != nil {
				opt.Progress(1)
			}
		})
	mu.Lock()
	defer mu.Unlock()
	flush(true) // after an interruption, games after a gap are done too and worth keeping
	if emitErr != nil {
		return st, emitErr
	}
	if err != nil {
		return st, fmt.Errorf("label %s: %w", path, err)
	}
	return st, nil
}
