package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// positions returns n distinct 19x19 positions (a stone added per position).
func positions(t testing.TB, n int) []game.Position {
	t.Helper()
	b, err := board.New(19)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]game.Position, n)
	c := board.Black
	for i := range out {
		p := b.Points()[(i*7)%len(b.Points())]
		if b.Legal(p, c) {
			b.PlayLegal(p, c)
		}
		c = c.Opponent()
		out[i] = game.Position{Board: *b, ToPlay: c, MoveNumber: i, Last: p, Prev: board.NoPoint}
	}
	return out
}

// waitFor polls cond for up to 10 s; the engine delivers asynchronously.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestStaleWorkIsCancelledAndNotDelivered(t *testing.T) {
	e := New(Options{Workers: 2})
	defer e.Stop()
	pos := positions(t, 2)
	started := make(chan struct{})
	var cancelled, delivered atomic.Int32
	slow := NewTask("slow", func(ctx context.Context, _ *game.Position) (int, error) {
		close(started)
		<-ctx.Done() // runs until navigation cancels it
		cancelled.Add(1)
		return 1, ctx.Err()
	}, func(int) int { return 8 }, func(int, error) { delivered.Add(1) })
	e.Analyze(&pos[0], slow)
	<-started
	var fastGot atomic.Int32
	fast := NewTask("fast", func(context.Context, *game.Position) (int, error) { return 42, nil },
		func(int) int { return 8 }, func(v int, err error) { fastGot.Store(int32(v)) })
	e.Analyze(&pos[1], fast)
	waitFor(t, "the fast result", func() bool { return fastGot.Load() == 42 })
	waitFor(t, "the slow task to be cancelled", func() bool { return cancelled.Load() == 1 })
	e.Stop()
	if delivered.Load() != 0 {
		t.Fatal("a stale result was delivered")
	}
}

func TestCachedResultsAreReused(t *testing.T) {
	e := New(Options{})
	defer e.Stop()
	pos := positions(t, 1)
	var computed, delivered atomic.Int32
	task := func() Task {
		return NewTask("count", func(context.Context, *game.Position) (int, error) {
			computed.Add(1)
			return 7, nil
		}, func(int) int { return 8 }, func(int, error) { delivered.Add(1) })
	}
	e.Analyze(&pos[0], task())
	waitFor(t, "the first delivery", func() bool { return delivered.Load() == 1 })
	e.Analyze(&pos[0], task())
	waitFor(t, "the cached delivery", func() bool { return delivered.Load() == 2 })
	if computed.Load() != 1 {
		t.Fatalf("computed %d times, want 1", computed.Load())
	}
	// The same board with a different last move is a different position for a predictor.
	other := pos[0]
	other.Last = board.Pass
	e.Analyze(&other, task())
	waitFor(t, "the third delivery", func() bool { return delivered.Load() == 3 })
	if computed.Load() != 2 {
		t.Fatalf("computed %d times, want 2", computed.Load())
	}
}

// TestCacheKeepsBoardSizesApart: an empty board hashes to 0 at every size, so a key without the size
// served a 19x19 result for the empty 9x9 board with the same komi.
func TestCacheKeepsBoardSizesApart(t *testing.T) {
	e := New(Options{})
	defer e.Stop()
	var computed, delivered atomic.Int32
	var got atomic.Int32
	task := func() Task {
		return NewTask("size", func(_ context.Context, pos *game.Position) (int, error) {
			computed.Add(1)
			return pos.Board.Size(), nil
		}, func(int) int { return 8 }, func(v int, _ error) { got.Store(int32(v)); delivered.Add(1) })
	}
	for i, size := range []int{19, 9} {
		b, err := board.New(size)
		if err != nil {
			t.Fatal(err)
		}
		pos := game.Position{Board: *b, ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint, Komi: 7.5}
		e.Analyze(&pos, task())
		waitFor(t, "a delivery", func() bool { return int(delivered.Load()) == i+1 })
		if got.Load() != int32(size) {
			t.Fatalf("empty %dx%d board: got the result of a %dx%d board", size, size, got.Load(), got.Load())
		}
	}
	if computed.Load() != 2 {
		t.Fatalf("computed %d times, want 2", computed.Load())
	}
}

func TestCacheStaysWithinItsBound(t *testing.T) {
	const bound = 100 * 5000
	e := New(Options{CacheBytes: bound})
	defer e.Stop()
	var delivered atomic.Int32
	pos := positions(t, 300)
	for i := range pos {
		e.Analyze(&pos[i], NewTask("big", func(context.Context, *game.Position) ([]byte, error) {
			return make([]byte, 5000), nil
		}, func(b []byte) int { return len(b) }, func([]byte, error) { delivered.Add(1) }))
		waitFor(t, "a delivery", func() bool { return int(delivered.Load()) == i+1 })
		if got := e.CachedBytes(); got > bound {
			t.Fatalf("cache holds %d bytes, bound %d", got, bound)
		}
	}
	if got := e.CachedBytes(); got != bound {
		t.Errorf("cache holds %d bytes after 300 results, want it full at %d", got, bound)
	}
}

func TestWorkersAreBounded(t *testing.T) {
	const workers = 3
	e := New(Options{Workers: workers})
	defer e.Stop()
	pos := positions(t, 1)
	var running, peak, done atomic.Int32
	var tasks []Task
	for i := range 20 {
		tasks = append(tasks, NewTask(string(rune('a'+i)), func(context.Context, *game.Position) (int, error) {
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
			running.Add(-1)
			return 0, nil
		}, func(int) int { return 1 }, func(int, error) { done.Add(1) }))
	}
	e.Analyze(&pos[0], tasks...)
	waitFor(t, "all tasks", func() bool { return done.Load() == 20 })
	if peak.Load() > workers {
		t.Fatalf("%d analyses ran at once, bound %d", peak.Load(), workers)
	}
}

func TestDeliveriesGoThroughOnUI(t *testing.T) {
	var mu sync.Mutex
	var queue []func()
	e := New(Options{OnUI: func(f func()) { mu.Lock(); queue = append(queue, f); mu.Unlock() }})
	defer e.Stop()
	pos := positions(t, 2)
	var got atomic.Int32
	e.Analyze(&pos[0], NewTask("v", func(context.Context, *game.Position) (int, error) { return 1, nil },
		func(int) int { return 8 }, func(v int, _ error) { got.Store(int32(v)) }))
	waitFor(t, "a queued delivery", func() bool { mu.Lock(); defer mu.Unlock(); return len(queue) == 1 })
	if got.Load() != 0 {
		t.Fatal("delivered outside OnUI")
	}
	// The user navigates before the UI thread gets to the queued delivery: it must be dropped.
	e.Analyze(&pos[1])
	queue[0]()
	if got.Load() != 0 {
		t.Fatal("a result for a position no longer shown was delivered")
	}
}

// BenchmarkNavigateToHeatMap measures the time from Analyze (a navigation) to the delivery of a uniform
// predictor's distribution on a position not in the cache: the pool's overhead plus the prediction.
func BenchmarkNavigateToHeatMap(b *testing.B) {
	e := New(Options{CacheBytes: 1})
	defer e.Stop()
	pos := positions(b, 256)
	pred, err := predict.New("uniform", predict.Options{})
	if err != nil {
		b.Fatal(err)
	}
	got := make(chan struct{}, 1)
	task := NewTask("predict/uniform", func(_ context.Context, p *game.Position) (*predict.Distribution, error) {
		d := new(predict.Distribution)
		pred.Predict(p, d)
		return d, nil
	}, func(*predict.Distribution) int { return 8 * board.NumCells }, func(*predict.Distribution, error) { got <- struct{}{} })
	i := 0
	for b.Loop() {
		e.Analyze(&pos[i%len(pos)], task)
		<-got
		i++
	}
}
