package pattern

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// Options tune Harvest.
type Options struct {
	// Threshold keeps the patterns seen at least this many times (default 3, Stern 2008 §3.2.3: "we
	// retained all patterns seen 3 or more times").
	Threshold int
	// FilterBytes is the size of the spectral Bloom filter (default 256 MiB). A fuller filter lets more
	// false positives through to the exact pass, which costs memory there, not accuracy: the 60,143
	// training games load 256 MiB to 0.63 (Stats.FilterLoad) with 2% false candidates.
	FilterBytes int
	// Workers is the number of goroutines replaying games (default GOMAXPROCS).
	Workers int
	// Filter selects the games (zero: all; templates fit every board size, but the edge is then seen
	// at other distances from the centre, so mixing sizes mixes statistics).
	Filter dataset.Filter
	// MaxFiles reads only the first MaxFiles .sgf files of the collection (0: all); a file is one game
	// in the usual collections. The same files are taken whatever the scheduling.
	MaxFiles int
	// Progress, if set, is called after each game with the pass (1: counting in the filter, 2: exact
	// counts) and the games done in that pass so far. It is called from the worker goroutines, maybe
	// concurrently and slightly out of order.
	Progress func(pass, games int)
}

// Stats reports a harvest.
type Stats struct {
	Files, Games int // files read and games replayed
	Moves        int // moves whose patterns were counted (passes and illegal moves excluded)
	Errors       int // files that failed to load, and games stopped early by an illegal move
	// Candidates is the number of distinct patterns whose filter count reached the threshold; those not
	// kept were the filter's false positives.
	Candidates int
	Kept       [NumSizes]int // patterns kept, by size
	FilterLoad float64       // fraction of non-zero counters after the first pass
	Pass1      time.Duration // filling the filter
	Pass2      time.Duration // exact counts
}

// Harvest builds a pattern dictionary from the games at path (a folder, an .sgf file or a .tar.xz
// archive): the pattern of every template size at every move played, for the player who played it,
// kept when it was seen at least Threshold times (Stern 2008 §3.1.4).
//
// The first pass reads the games and adds every occurrence to a spectral Bloom filter shared by the
// workers (by minimal increase); it also logs, in about 4 bytes per move, the points each move changed,
// so the second pass replays the positions without reading, parsing or playing the games again. The
// second pass counts exactly, in per-worker maps, the occurrences whose filter count reached the
// threshold, so the kept counts are exact and the filter's false positives drop out. A pattern is seen
// at most as often as the smaller patterns nested in it, so the second pass stops at the first size
// under the threshold, and the dictionary is closed under nesting, as Dictionary.Largest needs.
//
// Patterns get ids by size, then by decreasing count, then by key, so the same games give the same
// dictionary whatever the scheduling. Harvest stops promptly when ctx is done, with an error wrapping
// ctx.Err().
func Harvest(ctx context.Context, path string, opt Options) (*Dictionary, Stats, error) {
	if opt.Threshold <= 0 {
		opt.Threshold = 3
	}
	if opt.FilterBytes <= 0 {
		opt.FilterBytes = 1 << 28
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	var st Stats
	filter := NewBloom(opt.FilterBytes)

	start := time.Now()
	workers := make([]harvester, opt.Workers)
	res, err := firstPass(ctx, path, opt, func(w int, b *board.Board, p board.Point, c board.Color) {
		h := &workers[w]
		h.sync(b)
		h.log = append(h.log, event(evMove, p, c))
		k := h.g.keys(p, perspective(c))
		filter.AddMinAll(k[:])
	}, func(w, size int) {
		h := &workers[w]
		h.g.reset(size)
		h.log = append(h.log, event(evGame, board.Point(size), board.Empty))
	})
	if err != nil {
		return nil, st, err
	}
	st.Files, st.Games, st.Moves, st.Errors = res.files, res.games, res.moves, res.errors
	st.Pass1 = time.Since(start)
	st.FilterLoad = filter.Load()

	start = time.Now()
	// The filter saturates at 255; above that it only preselects, and the exact counts decide.
	bloomMin := min(opt.Threshold, 255)
	var done atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { workers[w].count(ctx, filter, bloomMin, opt.Progress, &done) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, st, fmt.Errorf("harvest %s: %w", path, err)
	}
	filter = nil // let the collector have it before the maps are merged

	var entries []Entry
	for s := range NumSizes {
		total := workers[0].counts[s]
		for w := 1; w < len(workers); w++ {
			for k, n := range workers[w].counts[s] {
				total[k] += n
			}
			workers[w].counts[s] = nil
		}
		st.Candidates += len(total)
		first := len(entries)
		for k, n := range total {
			if int(n) >= opt.Threshold {
				entries = append(entries, Entry{Key: k, Size: MinSize + s, Count: int(n)})
			}
		}
		st.Kept[s] = len(entries) - first
		workers[0].counts[s] = nil
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Size, b.Size), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	st.Pass2 = time.Since(start)
	d, err := NewDictionary(entries)
	if err != nil {
		return nil, st, fmt.Errorf("harvest %s: %w", path, err)
	}
	d.Threshold, d.Games = opt.Threshold, st.Games
	return d, st, nil
}

// The replay log of a worker is a sequence of 16-bit events: the kind in the top two bits, a colour in
// bits 10-11 and a point (or a board size) in bits 0-9 (board.NumCells is below 1024).
const (
	evGame = iota // a game starts on an empty board of the given size
	evSet         // a point changes to the given colour (a move's stone, a capture, a setup stone)
	evMove        // the given colour plays at the point: count its patterns (its stone comes as evSet)
)

func event(kind int, p board.Point, c board.Color) uint16 {
	return uint16(kind)<<14 | uint16(c)<<10 | uint16(p)
}

// harvester is the state of one worker.
type harvester struct {
	g      grid
	log    []uint16
	counts [NumSizes]map[uint64]uint32 // second pass: exact counts of the candidates
}

// sync brings the grid up to date with b, logging each changed point.
func (h *harvester) sync(b *board.Board) {
	for _, p := range b.Points() {
		gi := gridIndex[p]
		if c := b.At(p); c != h.g.c[gi] {
			h.g.c[gi] = c
			h.log = append(h.log, event(evSet, p, c))
		}
	}
}

// count replays the log, counting exactly the patterns whose filter count reaches threshold.
func (h *harvester) count(ctx context.Context, filter *Bloom, threshold int, progress func(pass, games int), done *atomic.Int64) {
	for s := range h.counts {
		h.counts[s] = make(map[uint64]uint32)
	}
	games := 0
	for _, e := range h.log {
		p, c := board.Point(e&1023), board.Color(e>>10&3)
		switch e >> 14 {
		case evGame:
			if games++; games%64 == 0 && ctx.Err() != nil {
				return
			}
			if progress != nil && games > 1 {
				progress(2, int(done.Add(1)))
			}
			h.g.reset(int(p))
		case evSet:
			h.g.c[gridIndex[p]] = c
		case evMove:
			for s, key := range h.g.keys(p, perspective(c)) {
				if filter.Count(key) < threshold {
					break // nor can any larger pattern, nested around this one, reach the threshold
				}
				h.counts[s][key]++
			}
		}
	}
	if progress != nil && games > 0 {
		progress(2, int(done.Add(1)))
	}
	h.log = nil
}

// replayed counts what one pass saw.
type replayed struct {
	files, games, moves, errors int
}

// errEnough ends a walk once MaxFiles files are done.
var errEnough = errors.New("enough files")

// firstPass calls visit with the position before every legal non-pass move of every game at path that
// passes opt.Filter, with the point and the colour playing it, spread over opt.Workers goroutines; it
// calls start before each game.
func firstPass(ctx context.Context, path string, opt Options, visit func(w int, b *board.Board, p board.Point, c board.Color), start func(w, size int)) (replayed, error) {
	var (
		mu      sync.Mutex
		r       replayed
		done    atomic.Int64
		limited = opt.MaxFiles > 0
		cond    = sync.NewCond(&mu)
		below   int // files with Index < MaxFiles finished
	)
	// A waiting worker must wake when ctx ends, or it would wait for files nobody will process.
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		cond.Broadcast()
		mu.Unlock()
	})
	defer stop()

	// The dataset filter is left empty so that every file reaches fn, which lets MaxFiles tell when all
	// files before the limit are done; opt.Filter is applied here instead.
	_, err := dataset.Parallel(ctx, path, dataset.Filter{}, opt.Workers, func(w int, rec dataset.Record) error {
		if limited && rec.Index >= opt.MaxFiles {
			// Files reach workers in order, so every earlier file is taken; wait for them, then stop
			// the walk. Stopping at once could cancel a file before the limit still on its way in.
			mu.Lock()
			for below < opt.MaxFiles && ctx.Err() == nil {
				cond.Wait()
			}
			mu.Unlock()
			return errEnough
		}
		var mine replayed
		mine.files = 1
		if rec.Err != nil {
			mine.errors++
		}
		for _, g := range rec.Games {
			if !opt.Filter.Keep(g) {
				continue
			}
			start(w, g.Size())
			err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
				// An illegal move (the walk stops after it) has no pattern worth counting.
				if next.Point == board.Pass || !pos.Board.Legal(next.Point, next.Color) {
					return nil
				}
				visit(w, &pos.Board, next.Point, next.Color)
				mine.moves++
				return nil
			})
			if err != nil {
				mine.errors++ // the moves before the illegal one still count, the same in both passes
			}
			mine.games++
			if opt.Progress != nil {
				opt.Progress(1, int(done.Add(1)))
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		mu.Lock()
		r.files += mine.files
		r.games += mine.games
		r.moves += mine.moves
		r.errors += mine.errors
		if limited {
			below++
			if below == opt.MaxFiles {
				cond.Broadcast()
			}
		}
		mu.Unlock()
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return r, fmt.Errorf("harvest %s: %w", path, err)
	}
	return r, nil
}
