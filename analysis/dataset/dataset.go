package dataset

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"

	"aji/analysis/game"
)

// Record is one .sgf file of a collection.
type Record struct {
	// Index is the file's position among the collection's .sgf files, from 0,
	// counting filtered and failed files too: Index+1 of Count is progress.
	Index int
	// Name is the archive member name as stored (e.g.
	// "games-validation/Agon-01-8.sgf"); for a folder, the folder's base name
	// joined with the slash-separated path below it, so an extracted archive
	// gives the same names; for a single file, its base name.
	Name string
	// Data is the file's bytes as stored. It is not copied: keep it only if
	// the caller needs it, since holding every record's Data holds the whole
	// collection in memory.
	Data []byte
	// Games are the file's games that pass the filter (most files hold one).
	Games []*game.Game
	// Err is why the file could not be read or parsed; Games is then nil.
	Err error
}

// Filter selects games. A zero field is no constraint.
type Filter struct {
	Size        int // board size, e.g. 19
	MaxHandicap int // largest HA kept; 1 keeps only even games (HA absent, 0 or 1)
	MinMoves    int // fewest main-line moves kept, passes included
}

// Keep reports whether g passes the filter.
func (f Filter) Keep(g *game.Game) bool {
	if f.Size > 0 && g.Size() != f.Size {
		return false
	}
	if f.MaxHandicap > 0 && g.Info.Handicap > f.MaxHandicap {
		return false
	}
	if f.MinMoves > 0 && g.NumMoves() < f.MinMoves {
		return false
	}
	return true
}

// Stats counts what a walk saw.
type Stats struct {
	Files    int // .sgf files read
	Games    int // games parsed from them
	Kept     int // games that passed the filter and were handed to fn
	Filtered int // games the filter rejected
	Errors   int // files that could not be read or parsed
}

func (s *Stats) add(o Stats) {
	s.Files += o.Files
	s.Games += o.Games
	s.Kept += o.Kept
	s.Filtered += o.Filtered
	s.Errors += o.Errors
}

// Walk calls fn with every .sgf file of the collection at path — a folder
// (searched recursively), a single .sgf file, or a .tar, .tar.gz, .tgz or
// .tar.xz archive — in stored order, streaming one file at a time. A file
// that cannot be read or parsed is counted and handed to fn with Err set; a
// file whose games the filter all rejects is counted and not handed to fn.
// Walk stops at the first error fn returns (and returns it unchanged), at a
// corrupt archive (an error wrapping ErrArchive), or when ctx is done
// (ctx.Err()). The Stats returned count what was seen until then.
func Walk(ctx context.Context, path string, f Filter, fn func(Record) error) (Stats, error) {
	var st Stats
	err := eachFile(ctx, path, func(m file) error {
		rec, ok := decode(m, f, &st)
		if !ok {
			return nil
		}
		return fn(rec)
	})
	return st, err
}

// Parallel is Walk with the parsing and fn spread over workers goroutines
// (GOMAXPROCS when workers < 1), while one goroutine reads the collection.
// fn gets the index of the worker calling it, from 0 to workers-1, so each
// worker can own per-goroutine state; records arrive in no fixed order.
// The first error from fn cancels the rest and is returned.
func Parallel(ctx context.Context, path string, f Filter, workers int, fn func(worker int, rec Record) error) (Stats, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	files := make(chan file, 2*workers)
	stats := make([]Stats, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for m := range files {
				if ctx.Err() != nil {
					continue // drain so the reader is never left blocked
				}
				rec, ok := decode(m, f, &stats[w])
				if !ok {
					continue
				}
				if err := fn(w, rec); err != nil {
					cancel(err)
				}
			}
		})
	}

	readErr := eachFile(ctx, path, func(m file) error {
		select {
		case files <- m:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	})
	close(files)
	wg.Wait()

	var st Stats
	for _, s := range stats {
		st.add(s)
	}
	// A worker's error is the cause of the cancellation and explains any
	// read error that followed it; otherwise report the read error itself.
	if cause := context.Cause(ctx); cause != nil {
		return st, cause
	}
	return st, readErr
}

// decode parses one file and applies the filter, updating st. It reports
// false when the file has nothing to hand to fn.
func decode(m file, f Filter, st *Stats) (Record, bool) {
	st.Files++
	rec := Record{Index: m.index, Name: m.name, Data: m.data, Err: m.err}
	if rec.Err == nil {
		var games []*game.Game
		games, rec.Err = parse(m.data)
		if rec.Err == nil && len(games) == 0 {
			rec.Err = errors.New("no game in file")
		}
		if rec.Err == nil {
			st.Games += len(games)
			for _, g := range games {
				if f.Keep(g) {
					rec.Games = append(rec.Games, g)
				}
			}
			st.Kept += len(rec.Games)
			st.Filtered += len(games) - len(rec.Games)
			return rec, len(rec.Games) > 0
		}
	}
	st.Errors++
	rec.Err = fmt.Errorf("%s: %w", m.name, rec.Err)
	return rec, true
}

// parse runs game.Parse, turning a panic into an error: one broken record
// in a 60,000-game collection must not end the walk.
func parse(data []byte) (games []*game.Game, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parse: panic: %v", r)
		}
	}()
	return game.Parse(data)
}

// Count returns the number of .sgf files in the collection at path, without
// parsing them (an archive is still decompressed), for progress estimates. It
// stops with ctx's error once ctx is done.
func Count(ctx context.Context, path string) (int, error) {
	k, err := kindOf(path)
	if err != nil {
		return 0, fmt.Errorf("open collection: %w", err)
	}
	n := 0
	count := func(file) error { n++; return nil }
	switch k {
	case kindDir:
		err = eachDirFile(ctx, path, count, false)
	case kindSGF:
		n = 1
	default:
		err = eachTarFile(ctx, path, k, count, false)
	}
	return n, err
}

// Games hands the games of the collection at path to workers goroutines (GOMAXPROCS when workers < 1),
// stopping after maxGames games (0: all). Games are decoded in stored order by one goroutine and numbered
// from 0, so maxGames always selects the same games whatever the scheduling — what evaluation and
// training need to be repeatable. A file that fails to load is logged, counted in Stats.Errors and
// skipped. fn gets the worker number (for per-goroutine state), the game's number, its file name and
// the game; it is not called once ctx is done.
func Games(ctx context.Context, path string, f Filter, maxGames, workers int, fn func(worker, index int, name string, g *game.Game)) (Stats, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		index int
		name  string
		g     *game.Game
	}
	jobs := make(chan job, 2*workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := range jobs {
				if ctx.Err() == nil { // otherwise drain, so the reader is never left blocked
					fn(w, j.index, j.name, j.g)
				}
			}
		})
	}
	errEnough := errors.New("enough games")
	n := 0
	st, err := Walk(ctx, path, f, func(rec Record) error {
		if rec.Err != nil {
			slog.Warn("skipping file", "name", rec.Name, "err", rec.Err)
			return nil
		}
		for _, g := range rec.Games {
			if maxGames > 0 && n >= maxGames {
				return errEnough
			}
			select {
			case jobs <- job{n, rec.Name, g}:
				n++
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err == nil {
		err = ctx.Err()
	}
	return st, err
}
