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
	Kept       [NumSizes]int // patterns kept, by size (Harvest)
	KeptStern  [NumStern]int // patterns kept, by Stern template, index template-1 (HarvestStern)
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
	return harvest(ctx, path, opt, false)
}

// HarvestStern is Harvest for Stern's templates T1..T14 (SternKeys, local features included): it counts
// the key of every template at every move played, through the same filter and exact second pass, and
// keeps those seen at least Threshold times (Stern 2008 §3.1.4 keeps those seen more than b = 2 times:
// the default Threshold 3). The dictionary is a Stern one (Dictionary.Stern), its entries' Size the
// template number, ids by template, then decreasing count, then key; Stats.KeptStern counts them. The
// templates are nested and the features are the same for all of them, so a pattern is seen at most as
// often as the smaller ones and the dictionary is closed under nesting too. The second pass needs the
// features, which need the chains of the board: the first pass logs them, one more 16-bit word per
// move.
func HarvestStern(ctx context.Context, path string, opt Options) (*Dictionary, Stats, error) {
	return harvest(ctx, path, opt, true)
}

// harvest is Harvest (stern false) or HarvestStern.
func harvest(ctx context.Context, path string, opt Options, stern bool) (*Dictionary, Stats, error) {
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
	for w := range workers {
		workers[w].stern = stern
	}
	res, err := firstPass(ctx, path, opt, func(w int, b *board.Board, p board.Point, c board.Color) {
		h := &workers[w]
		h.sync(b)
		h.log = append(h.log, event(evMove, p, c))
		var f uint8
		if stern {
			f = SternFeatures(b, p, c)
			h.log = append(h.log, uint16(f))
		}
		filter.AddMinAll(h.keys(p, c, f))
	}, func(w, size int) {
		h := &workers[w]
		h.reset(size)
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
	templates, first := NumSizes, MinSize
	if stern {
		templates, first = NumStern, 1
	}
	for s := range templates {
		total := workers[0].counts[s]
		for w := 1; w < len(workers); w++ {
			for k, n := range workers[w].counts[s] {
				total[k] += n
			}
			workers[w].counts[s] = nil
		}
		st.Candidates += len(total)
		from := len(entries)
		for k, n := range total {
			if int(n) >= opt.Threshold {
				entries = append(entries, Entry{Key: k, Size: first + s, Count: int(n)})
			}
		}
		if stern {
			st.KeptStern[s] = len(entries) - from
		} else {
			st.Kept[s] = len(entries) - from
		}
		workers[0].counts[s] = nil
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Size, b.Size), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	st.Pass2 = time.Since(start)
	d, err := newDictionary(entries, stern)
	if err != nil {
		return nil, st, fmt.Errorf("harvest %s: %w", path, err)
	}
	d.Threshold, d.Games = opt.Threshold, st.Games
	return d, st, nil
}

// The replay log of a worker is a sequence of 16-bit events: the kind in the top two bits, a colour in
// bits 10-11 and a point (or a board size) in bits 0-9 (board.NumCells is below 1024). In a Stern
// harvest an evMove event is followed by one more word, the move's SternFeatures.
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
	stern  bool      // Stern's templates: T14's hashes are kept in full, features are logged
	full   fullBoard // T14 (Stern only)
	keyBuf SternKeys // the keys of the move being counted
	log    []uint16
	counts []map[uint64]uint32 // second pass: exact counts of the candidates, by template
}

// reset starts a game on an empty board of the given size.
func (h *harvester) reset(size int) {
	h.g.reset(size)
	if h.stern {
		h.full.reset(size)
	}
}

// set changes the colour of p.
func (h *harvester) set(p board.Point, c board.Color) {
	gi := gridIndex[p]
	if h.stern {
		h.full.set(p, h.g.c[gi], c)
	}
	h.g.c[gi] = c
}

// sync brings the grid up to date with b, logging each changed point.
func (h *harvester) sync(b *board.Board) {
	for _, p := range b.Points() {
		if c := b.At(p); c != h.g.c[gridIndex[p]] {
			h.set(p, c)
			h.log = append(h.log, event(evSet, p, c))
		}
	}
}

// keys returns the keys to count for c playing p, with features f in a Stern harvest: the Coulom sizes
// or Stern's templates, from scratch but T14. The slice is valid until the next call.
func (h *harvester) keys(p board.Point, c board.Color, f uint8) []uint64 {
	persp := perspective(c)
	if !h.stern {
		k := h.g.keys(p, persp)
		n := copy(h.keyBuf[:], k[:])
		return h.keyBuf[:n]
	}
	k := &h.keyBuf
	k[0] = 0
	h.g.sternKeys(p, persp, k)
	k[13] = h.full.key(p, persp)
	finishStern(k, f)
	return k[:]
}

// count replays the log, counting exactly the patterns whose filter count reaches threshold.
func (h *harvester) count(ctx context.Context, filter *Bloom, threshold int, progress func(pass, games int), done *atomic.Int64) {
	h.counts = make([]map[uint64]uint32, NumSizes)
	if h.stern {
		h.counts = make([]map[uint64]uint32, NumStern)
	}
	for s := range h.counts {
		h.counts[s] = make(map[uint64]uint32)
	}
	games := 0
	for i := 0; i < len(h.log); i++ {
		e := h.log[i]
		p, c := board.Point(e&1023), board.Color(e>>10&3)
		switch e >> 14 {
		case evGame:
			if games++; games%64 == 0 && ctx.Err() != nil {
				return
			}
			if progress != nil && games > 1 {
				progress(2, int(done.Add(1)))
			}
			h.reset(int(p))
		case evSet:
			h.set(p, c)
		case evMove:
			var f uint8
			if h.stern {
				i++
				f = uint8(h.log[i])
			}
			for s, key := range h.keys(p, c, f) {
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
