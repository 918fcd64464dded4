package mcts

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
)

// await waits for ch to be ready; the limit only guards against a hang on a busy machine.
func await[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// notifier is a Runner's notify that signals a channel without ever blocking.
func notifier() (func(), chan struct{}) {
	ch := make(chan struct{}, 1)
	return func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}, ch
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// rootVisits is the visits of the runner's root, once no run goes on.
func rootVisits(r *Runner) int32 {
	s := r.search
	return s.tree.node(s.root).visits.Load()
}

func TestRunnerStopNeverStarted(t *testing.T) {
	r := NewRunner(Options{}, nil)
	r.Stop()
	if !isClosed(r.Done()) {
		t.Error("Done is not closed on a runner that never ran")
	}
	if _, ok := r.Take(); ok {
		t.Error("a snapshot from a runner that never ran")
	}
}

// TestRunnerStartStop: an unlimited run reports snapshots until Stop, which returns once its goroutine
// has ended and leaves the final snapshot; nothing comes after it.
func TestRunnerStartStop(t *testing.T) {
	notify, notified := notifier()
	r := NewRunner(Options{Playouts: -1, Seed: 1, ProgressInterval: time.Millisecond}, notify)
	r.Start(context.Background(), emptyPosition(t, 9, 7))
	var snap Snapshot
	for snap.Playouts == 0 {
		await(t, notified, "a snapshot")
		s, ok := r.Take()
		if !ok {
			t.Fatal("notified, but no snapshot to take")
		}
		if s.Final {
			t.Fatal("an unlimited run ended by itself")
		}
		snap = s
	}
	done := r.Done()
	r.Stop()
	if !isClosed(done) {
		t.Fatal("Stop returned before the run's goroutine ended")
	}
	final, ok := r.Take()
	if !ok || !final.Final || final.Err != nil || final.Playouts < snap.Playouts {
		t.Fatalf("final snapshot %v %+v after a snapshot of %d playouts", ok, final, snap.Playouts)
	}
	<-notified // the final snapshot's
	if _, ok := r.Take(); ok || isClosed(notified) {
		t.Error("a snapshot after the final one")
	}
	r.Stop() // again: nothing to do
}

// TestRunnerCoalesces: snapshots not taken replace each other, with one notification until Take.
func TestRunnerCoalesces(t *testing.T) {
	var calls atomic.Int32
	r := NewRunner(Options{Playouts: 400, Seed: 1, ProgressInterval: time.Millisecond}, func() { calls.Add(1) })
	r.Start(context.Background(), emptyPosition(t, 9, 7))
	await(t, r.Done(), "the run to end")
	if n := calls.Load(); n != 1 {
		t.Errorf("%d notifications before any Take, want 1", n)
	}
	s, ok := r.Take()
	if !ok || !s.Final || s.Playouts != 400 {
		t.Errorf("pending snapshot %v %+v, want the final one of 400 playouts", ok, s.Result)
	}
}

// TestRunnerKeepsTheTree: a run on the searched position or on a child of it continues the tree; any
// other position starts afresh.
func TestRunnerKeepsTheTree(t *testing.T) {
	const playouts = 200
	r := NewRunner(Options{Playouts: playouts, Seed: 3, ExpandAt: 4}, nil)
	search := func(pos *game.Position) Snapshot {
		t.Helper()
		r.Start(context.Background(), pos)
		await(t, r.Done(), "the run to end")
		s, ok := r.Take()
		if !ok || !s.Final || s.Err != nil || s.Playouts != playouts {
			t.Fatalf("final snapshot %v %+v", ok, s)
		}
		return s
	}
	pos := emptyPosition(t, 9, 7)
	first := search(pos)
	if got := rootVisits(r); got != playouts {
		t.Fatalf("fresh tree: %d root visits", got)
	}
	search(pos)
	if got := rootVisits(r); got != 2*playouts {
		t.Errorf("same position: %d root visits, want %d", got, 2*playouts)
	}
	best := first.Candidates[0]
	child := *pos
	advance(&child, best.Move)
	var childVisits int32 // both runs added to it
	tr := r.search.tree
	f, k := tr.children(tr.node(r.search.root))
	for i := range uint32(k) {
		if n := tr.node(f + i); n.move == best.Move {
			childVisits = n.visits.Load()
		}
	}
	if childVisits == 0 {
		t.Fatal("the best move has no visits")
	}
	search(&child)
	if got := rootVisits(r); got != childVisits+playouts {
		t.Errorf("child position: %d root visits, want %d carried over + %d", got, childVisits, playouts)
	}
	grandchild := child
	for range 2 {
		for _, p := range grandchild.Board.Points() {
			if grandchild.Board.At(p) == board.Empty && grandchild.Board.Legal(p, grandchild.ToPlay) {
				advance(&grandchild, p)
				break
			}
		}
	}
	search(&grandchild)
	if got := rootVisits(r); got != playouts {
		t.Errorf("a position two moves on: %d root visits, want a fresh tree's %d", got, playouts)
	}
}

// TestRunnerRestartAndCancel: Start during a run ends it; a run also ends when its context does.
func TestRunnerRestartAndCancel(t *testing.T) {
	r := NewRunner(Options{Playouts: -1, Seed: 1}, nil)
	pos := emptyPosition(t, 9, 7)
	r.Start(context.Background(), pos)
	first := r.Done()
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx, pos)
	await(t, first, "the first run to end once the second started")
	cancel()
	await(t, r.Done(), "the run to end with its context")
	if s, ok := r.Take(); !ok || !s.Final {
		t.Errorf("after the context ended: %v %+v", ok, s)
	}
}

// TestRunnerFailure: a search that cannot be made ends the run with the error.
func TestRunnerFailure(t *testing.T) {
	r := NewRunner(Options{Policy: "no-such-policy"}, nil)
	r.Start(context.Background(), emptyPosition(t, 9, 7))
	await(t, r.Done(), "the run to end")
	if s, ok := r.Take(); !ok || !s.Final || s.Err == nil {
		t.Errorf("snapshot %v %+v, want a final one with the error", ok, s)
	}
}

// TestRunnerLeavesNoGoroutine: once stopped, every goroutine of the runs has ended (they may take a
// moment to exit after Stop returns, so the count is awaited).
func TestRunnerLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	notify, notified := notifier()
	r := NewRunner(Options{Playouts: -1, Threads: 2, Seed: 1, ProgressInterval: time.Millisecond}, notify)
	pos := emptyPosition(t, 9, 7)
	for range 3 {
		r.Start(context.Background(), pos)
		await(t, notified, "a snapshot")
		r.Take()
		r.Stop()
	}
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after Stop, %d before the runs", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRunnerCancelAndDiscard: Cancel returns at once and the final snapshot still comes; Discard drops
// the run's snapshots, those still to come included; a Start right after either waits its turn.
func TestRunnerCancelAndDiscard(t *testing.T) {
	r := NewRunner(Options{Playouts: 200, Seed: 1}, nil)
	pos := emptyPosition(t, 9, 7)
	r.Start(context.Background(), pos)
	r.Cancel()
	await(t, r.Done(), "the cancelled run to end")
	if s, ok := r.Take(); !ok || !s.Final {
		t.Errorf("after Cancel: %v %+v, want the final snapshot", ok, s)
	}
	r.Start(context.Background(), pos)
	first := r.Done()
	r.Discard()
	r.Start(context.Background(), pos) // chained behind the discarded run
	await(t, first, "the discarded run to end")
	await(t, r.Done(), "the second run to reach its playouts")
	s, ok := r.Take()
	if !ok || !s.Final || s.Playouts == 0 {
		t.Fatalf("after the discarded run and a second one: %v %+v, want the second's final snapshot", ok, s)
	}
	r.Start(context.Background(), pos)
	r.Discard()
	await(t, r.Done(), "the discarded run to end")
	if s, ok := r.Take(); ok {
		t.Errorf("a discarded run left a snapshot: %+v", s)
	}
}
