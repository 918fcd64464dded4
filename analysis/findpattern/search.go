package findpattern

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// Match is one legal move where the query matches.
type Match struct {
	File string // the record's name in the collection (dataset.Record.Name; dataset.Member reads it)
	Game int    // which game of the file, from 0 (a file usually holds one)
	// Move is the number of main-line moves played before the position, as `aji replay --move` and
	// `aji explain --move` count: the move found would be move Move+1.
	Move   int
	Point  board.Point
	Size   int         // the board size, to name Point
	Color  board.Color // the player to move
	Played bool        // the record's next move is Point
	Next   board.Point // the record's next move (board.Pass for a pass)
}

// Options tune a Search. The zero value searches everything on every core.
type Options struct {
	// Limit stops the search after this many matches (0: no limit).
	Limit int
	// Workers is the number of goroutines replaying games (0: GOMAXPROCS).
	Workers int
	// Progress, when set, is called after each file, in the collection's order, on the goroutine that
	// delivers the matches.
	Progress func(Progress)
	// Total is the number of files in the collection when the caller has counted them (dataset.Count);
	// 0 counts them beside the search.
	Total int
	// Skipped, when set, is told of each file that could not be read or parsed, and of each game whose
	// record stops at an illegal move (the matches before it are delivered): a damaged record is
	// reported and passed over, never fatal.
	Skipped func(name string, err error)
}

// Progress is how far a search has got; the last one is the search's summary.
type Progress struct {
	Files     int // files done (read, or reported skipped)
	Total     int // files in the collection; 0 until counted (a search that ran to the end knows it)
	Games     int // games replayed
	Positions int // positions looked at (one before every main-line move)
	Skipped   int // files or games reported to Options.Skipped
	Matches   int // matches delivered
	Played    int // of which the record played
	Elapsed   time.Duration
	// ETA is the time left by the files' rate so far; 0 when the total is not known yet.
	ETA time.Duration
}

// HitRate is the share of matches where the record played the move: the query's hit rate as a
// predictor of the expert's move. 0 without matches.
func (p Progress) HitRate() float64 {
	if p.Matches == 0 {
		return 0
	}
	return float64(p.Played) / float64(p.Matches)
}

// errLimit ends a search that reached its limit.
var errLimit = errors.New("limit reached")

// Search calls fn with every match of q in the collection at path (a folder, an .sgf file, or a .tar,
// .tar.gz or .tar.xz archive, streamed), in the collection's order, each game's positions in order,
// each position's points in board order. Games are replayed on Options.Workers goroutines and their
// matches delivered from one at a time. It stops when ctx is done (returning ctx.Err()), when fn
// returns an error (returned as it is), after Options.Limit matches (no error), or at a corrupt
// archive. The Progress returned counts what was delivered.
func Search(ctx context.Context, path string, q Query, o Options, fn func(Match) error) (Progress, error) {
	if err := q.check(); err != nil {
		return Progress{}, err
	}
	workers := o.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	var total atomic.Int64
	total.Store(int64(o.Total))
	if o.Total <= 0 {
		go func() { // counting decompresses an archive once more: beside the search, not before it
			if n, err := dataset.Count(ctx, path); err == nil {
				total.Store(int64(n))
			}
		}()
	}
	d := &deliverer{ctx: ctx, o: o, fn: fn, start: time.Now(), total: &total, pending: map[int]*fileResult{}}
	matchers := make([]*matcher, workers)
	_, err := dataset.Parallel(ctx, path, dataset.Filter{}, workers, func(w int, rec dataset.Record) error {
		if matchers[w] == nil {
			matchers[w] = newMatcher(q)
		}
		return d.deliver(matchers[w].file(ctx, rec))
	})
	d.mu.Lock()
	defer d.mu.Unlock()
	d.p.Elapsed = time.Since(d.start)
	d.p.ETA = 0
	switch {
	case errors.Is(err, errLimit):
		err = nil
	case err == nil:
		d.p.Total = d.p.Files // every file was read, whether the count is done or not
	}
	return d.p, err
}

// fileResult is what one worker found in one file.
type fileResult struct {
	index     int
	name      string
	matches   []Match
	skipped   []error // the file's error, or its games' illegal moves
	games     int
	positions int
}

// deliverer hands the workers' results to the caller in the collection's order.
type deliverer struct {
	ctx   context.Context
	o     Options
	fn    func(Match) error
	start time.Time
	total *atomic.Int64

	mu      sync.Mutex
	stopped error // why the deliveries ended: the limit, fn's error, the context's
	next    int
	pending map[int]*fileResult
	p       Progress
}

// deliver queues r and delivers every result now due; an error stops the search.
func (d *deliverer) deliver(r *fileResult) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped != nil {
		return d.stopped // the other workers' files, finished after the end
	}
	d.pending[r.index] = r
	for {
		r, ok := d.pending[d.next]
		if !ok {
			return nil
		}
		delete(d.pending, d.next)
		d.next++
		if err := d.file(r); err != nil {
			d.stopped = err
			return err
		}
	}
}

func (d *deliverer) file(r *fileResult) error {
	d.p.Games += r.games
	d.p.Positions += r.positions
	for _, err := range r.skipped {
		d.p.Skipped++
		if d.o.Skipped != nil {
			d.o.Skipped(r.name, err)
		}
	}
	for _, m := range r.matches {
		if err := d.ctx.Err(); err != nil {
			return err // nothing more once the caller has cancelled
		}
		d.p.Matches++
		if m.Played {
			d.p.Played++
		}
		if err := d.fn(m); err != nil {
			return err
		}
		if d.o.Limit > 0 && d.p.Matches >= d.o.Limit {
			d.progress()
			return errLimit
		}
	}
	d.p.Files++
	d.progress()
	return nil
}

func (d *deliverer) progress() {
	d.p.Total = int(d.total.Load())
	d.p.Elapsed = time.Since(d.start)
	d.p.ETA = 0
	if d.p.Total > 0 && d.p.Files > 0 && d.p.Files < d.p.Total {
		d.p.ETA = time.Duration(float64(d.p.Elapsed) * float64(d.p.Total-d.p.Files) / float64(d.p.Files))
	}
	if d.o.Progress != nil {
		d.o.Progress(d.p)
	}
}

// matcher is one worker's state: the incremental keys or the feature extractor, whichever the query
// needs, reused from game to game so that a position allocates nothing.
type matcher struct {
	q     Query
	tr    *pattern.Tracker
	stern *pattern.SternMatcher
	ext   *feature.Extractor
	set   *feature.Set

	r *fileResult // the file being searched
	g int         // its game being replayed
}

func newMatcher(q Query) *matcher {
	m := &matcher{q: q}
	switch q.Kind {
	case Coulom:
		m.tr = new(pattern.Tracker)
	case Stern:
		m.stern = new(pattern.SternMatcher)
	case Feature:
		m.ext, m.set = new(feature.Extractor), new(feature.Set)
	}
	return m
}

// file searches every game of rec.
func (m *matcher) file(ctx context.Context, rec dataset.Record) *fileResult {
	r := &fileResult{index: rec.Index, name: rec.Name}
	if rec.Err != nil {
		r.skipped = append(r.skipped, rec.Err)
		return r
	}
	m.r = r
	for g, gm := range rec.Games {
		if ctx.Err() != nil {
			break
		}
		m.g = g
		r.games++
		if err := gm.WalkMainLine(m.position); err != nil {
			if len(rec.Games) > 1 {
				err = fmt.Errorf("game %d: %w", g+1, err)
			}
			r.skipped = append(r.skipped, err)
		}
	}
	m.r = nil
	return r
}

// position finds the query's matches among the legal moves of pos: the search's hot loop, which
// allocates only to record a match.
func (m *matcher) position(pos *game.Position, next game.Move) error {
	m.r.positions++
	b := &pos.Board
	c := pos.ToPlay
	switch m.q.Kind {
	case Coulom:
		m.tr.Sync(b)
		for _, p := range b.Points() {
			// The key first: it is a few loads, legality reads the chains around p.
			if b.At(p) == board.Empty && m.tr.Key(p, c, m.q.Size) == m.q.Key && b.Legal(p, c) && m.largest(b, p, c) {
				m.add(pos, p, next)
			}
		}
	case Stern:
		m.stern.Sync(b)
		for _, p := range b.Points() {
			if b.At(p) == board.Empty && b.Legal(p, c) && m.stern.Key(b, p, c, m.q.Size) == m.q.Key && m.largest(b, p, c) {
				m.add(pos, p, next)
			}
		}
	case Feature:
		m.ext.Extract(pos, m.set)
		for _, p := range m.set.Moves() {
			if p != board.Pass && m.set.At[p][m.q.Feature] == m.q.Level {
				m.add(pos, p, next)
			}
		}
	}
	return nil
}

// largest reports whether the query's shape, matching at p, is the largest pattern of the query's
// model matching there (true without a model): the model's shape factor, as its predictor finds it.
func (m *matcher) largest(b *board.Board, p board.Point, c board.Color) bool {
	d := m.q.Model
	switch {
	case d == nil:
		return true
	case m.q.Kind == Stern:
		_, t, ok := d.LargestStern(m.stern.Keys(b, p, c))
		return ok && t == m.q.Size
	}
	_, size, ok := d.Largest(m.tr.Keys(p, c))
	return ok && size == m.q.Size
}

func (m *matcher) add(pos *game.Position, p board.Point, next game.Move) {
	m.r.matches = append(m.r.matches, Match{
		File: m.r.name, Game: m.g, Move: pos.MoveNumber, Point: p, Size: pos.Board.Size(), Color: pos.ToPlay,
		Played: next.Point == p && next.Color == pos.ToPlay, Next: next.Point,
	})
}
