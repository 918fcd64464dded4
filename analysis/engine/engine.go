package engine

import (
	"context"
	"runtime"
	"sync"

	"aji/analysis/game"
)

// Task is one analysis of a position, built with NewTask so that its result type is checked at the call
// site; the engine itself moves results around without knowing their types.
type Task struct {
	key     string
	compute func(ctx context.Context, pos *game.Position) (value any, size int, err error)
	deliver func(value any, err error)
}

// NewTask makes a Task. key names the analysis and its settings (e.g. "predict/mm"): equal keys on equal
// positions share cached results. compute runs on a worker and should return soon after ctx is done;
// size estimates the result's bytes for the cache bound; deliver runs on the UI thread with the result,
// only if the position is still the current one.
func NewTask[T any](key string, compute func(ctx context.Context, pos *game.Position) (T, error),
	size func(T) int, deliver func(T, error)) Task {
	return Task{
		key: key,
		compute: func(ctx context.Context, pos *game.Position) (any, int, error) {
			v, err := compute(ctx, pos)
			if err != nil {
				return nil, 0, err
			}
			return v, size(v), nil
		},
		deliver: func(v any, err error) {
			var t T
			if err == nil {
				t = v.(T)
			}
			deliver(t, err)
		},
	}
}

func keyOf(task string, pos *game.Position) CacheKey { return CacheKey{task, pos.Key()} }

// Engine runs analyses. Analyze is meant to be called from the UI thread; it never blocks on analysis.
type Engine struct {
	onUI    func(func()) // runs a function on the UI thread (fyne.Do in the app)
	workers chan struct{}

	mu     sync.Mutex
	gen    uint64
	cancel context.CancelFunc
	cache  *Cache
	wg     sync.WaitGroup
}

// Options configure an Engine.
type Options struct {
	Workers    int          // concurrent analyses (0: GOMAXPROCS)
	CacheBytes int          // bound on cached results (0: 64 MiB)
	OnUI       func(func()) // runs deliveries on the UI thread (nil: call directly, for headless use)
}

// New makes an Engine.
func New(o Options) *Engine {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 64 << 20
	}
	if o.OnUI == nil {
		o.OnUI = func(f func()) { f() }
	}
	return &Engine{onUI: o.OnUI, workers: make(chan struct{}, o.Workers), cache: NewCache(o.CacheBytes)}
}

// Analyze makes pos the current position: it cancels the analyses of the previous one and starts tasks
// for this one. Cached results are delivered at once (through OnUI); the others as they finish. The
// engine keeps its own copy of pos.
func (e *Engine) Analyze(pos *game.Position, tasks ...Task) {
	p := *pos
	e.mu.Lock()
	if e.cancel != nil {
		e.cancel()
	}
	e.gen++
	gen := e.gen
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	hits := make([]any, len(tasks))
	for i, t := range tasks {
		hits[i], _ = e.cache.Get(keyOf(t.key, &p))
	}
	e.mu.Unlock()
	for i, t := range tasks {
		if hits[i] != nil {
			e.deliver(gen, t, hits[i], nil)
			continue
		}
		e.wg.Go(func() { e.run(ctx, gen, &p, t) })
	}
}

// run waits for a worker slot, computes, caches and delivers one task, unless its position went stale.
func (e *Engine) run(ctx context.Context, gen uint64, pos *game.Position, t Task) {
	select {
	case e.workers <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-e.workers }()
	if ctx.Err() != nil {
		return
	}
	v, size, err := t.compute(ctx, pos)
	if ctx.Err() != nil {
		return // stale: a cancelled computation's result may be partial, so it is neither cached nor shown
	}
	if err == nil {
		e.mu.Lock()
		e.cache.Put(keyOf(t.key, pos), v, size)
		e.mu.Unlock()
	}
	e.deliver(gen, t, v, err)
}

// deliver hands a result to the UI thread, where it is dropped if the user has moved on meanwhile.
// e.mu must not be held: the check on the UI thread takes it.
func (e *Engine) deliver(gen uint64, t Task, v any, err error) {
	e.onUI(func() {
		if e.current(gen) {
			t.deliver(v, err)
		}
	})
}

func (e *Engine) current(gen uint64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.gen == gen
}

// Stop cancels all analyses and waits for the workers to return.
func (e *Engine) Stop() {
	e.mu.Lock()
	if e.cancel != nil {
		e.cancel()
	}
	e.gen++
	e.mu.Unlock()
	e.wg.Wait()
}

// CachedBytes returns the bytes held by the result cache.
func (e *Engine) CachedBytes() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cache.bytes
}
