package mcts

import (
	"context"
	"sync"

	"aji/analysis/board"
	"aji/analysis/game"
)

// Runner searches one position at a time in a goroutine of its own until it is stopped or a limit is
// reached, as KataGo's AsyncBot does: the workbench's Search tab and `aji gtp`'s analyze commands
// drive it from their one controlling goroutine. The tree is kept from run to run when the next
// position is the one searched (Run's reuse) or a child of it (Play's), so stepping forward through a
// game keeps what was learnt.
//
// Snapshots are coalesced: the runner keeps only the newest one not yet taken and calls notify once
// until the next Take, so a slow consumer never falls behind and the search never waits for it.
// Nothing the controller calls but Stop waits for the search: a UI thread can cancel and start runs
// freely, and each run's goroutine waits for the one before it to let go of the tree.
type Runner struct {
	opts   Options
	notify func()

	// search is made by the first run (or Search) and kept; runs take it in turn.
	search *Search

	// The controller's: Start, Cancel, Discard, Stop and Done run on one goroutine.
	cancel context.CancelFunc
	done   chan struct{} // closed when the latest run's goroutine has ended

	mu      sync.Mutex
	latest  uint64   // the number of the latest run: snapshots of older ones are dropped
	active  uint64   // the number of the run searching now, for its progress snapshots
	pending Snapshot // the newest snapshot not yet taken
	have    bool     // pending holds one
	posted  bool     // notify was called and no Take has followed
}

// Snapshot is a Runner's report on its current run.
type Snapshot struct {
	Result
	Final bool  // the run has ended: Result is Run's own
	Err   error // the search could not be made; Final is set
}

// NewRunner returns a runner of searches with options o, made at the first run. When notify is not nil
// it is told, from the run's goroutine, that a snapshot waits for Take: every o.ProgressInterval while
// a run goes on (the runner takes o.Progress for this) and when it ends. notify must not block.
func NewRunner(o Options, notify func()) *Runner {
	r := &Runner{opts: o, notify: notify}
	if notify != nil {
		r.opts.Progress = func(res Result) {
			r.mu.Lock()
			id := r.active
			r.mu.Unlock()
			r.post(id, Snapshot{Result: res})
		}
	}
	return r
}

// Search returns the runner's search, made now if no run has made it, for callers that also Run or
// Play it themselves. Call it only while no run goes on (after Stop, or once Done is closed).
func (r *Runner) Search() (*Search, error) {
	if r.search == nil {
		s, err := New(r.opts)
		if err != nil {
			return nil, err
		}
		r.search = s
	}
	return r.search, nil
}

// Start cancels the current run, if any, drops the snapshots not yet taken, and searches pos until ctx
// is done, a limit of the options is reached or the run is cancelled. pos is copied. Start does not
// wait: the new run begins once the one before it has ended.
func (r *Runner) Start(ctx context.Context, pos *game.Position) {
	r.Cancel()
	prev := r.done
	r.mu.Lock()
	r.latest++
	id := r.latest
	r.pending, r.have, r.posted = Snapshot{}, false, false
	r.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	r.cancel, r.done = cancel, done
	p := *pos
	go r.run(ctx, cancel, prev, done, id, &p)
}

// Cancel ends the current run without waiting for it; its final snapshot still comes.
func (r *Runner) Cancel() {
	if r.cancel != nil {
		r.cancel()
	}
}

// Discard ends the current run without waiting for it and drops its snapshots, those still to come
// included: for a position the controller has left.
func (r *Runner) Discard() {
	r.Cancel()
	r.mu.Lock()
	r.latest++
	r.pending, r.have, r.posted = Snapshot{}, false, false
	r.mu.Unlock()
}

// Stop ends the current run and waits for its goroutine, which leaves the final snapshot to Take unless
// the run was discarded. A runner keeps no goroutine between runs, so Stop is also its shutdown.
func (r *Runner) Stop() {
	r.Cancel()
	<-r.Done()
}

// Done is closed when the latest run has ended (Take has its final snapshot); with no run, it is
// closed already.
func (r *Runner) Done() <-chan struct{} {
	if r.done == nil {
		r.done = make(chan struct{})
		close(r.done)
	}
	return r.done
}

// Take returns the newest snapshot not yet taken, and lets the next one notify again. It may be called
// from any goroutine.
func (r *Runner) Take() (Snapshot, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.pending, r.have
	r.pending, r.have, r.posted = Snapshot{}, false, false
	return s, ok
}

// run is a run's goroutine: once the run before it has ended, it makes the search the first time,
// moves the root to pos when pos is its child, and searches.
func (r *Runner) run(ctx context.Context, cancel context.CancelFunc, prev <-chan struct{}, done chan<- struct{}, id uint64, pos *game.Position) {
	defer close(done)
	defer cancel() // a run that ends by itself lets go of its caller's context at once
	if prev != nil {
		<-prev
	}
	r.mu.Lock()
	r.active = id
	r.mu.Unlock()
	s, err := r.Search()
	if err != nil {
		r.post(id, Snapshot{Final: true, Err: err})
		return
	}
	s.follow(pos)
	r.post(id, Snapshot{Result: s.Run(ctx, pos), Final: true})
}

// post replaces the pending snapshot with s, unless run id is no longer the latest, and notifies
// unless a notification is outstanding.
func (r *Runner) post(id uint64, s Snapshot) {
	r.mu.Lock()
	if id != r.latest {
		r.mu.Unlock()
		return
	}
	r.pending, r.have = s, true
	queue := r.notify != nil && !r.posted
	r.posted = true
	r.mu.Unlock()
	if queue {
		r.notify()
	}
}

// follow plays pos's last move at the root when that leads to pos, so that Run keeps its subtree.
func (s *Search) follow(pos *game.Position) {
	s.mu.RLock()
	next := s.rootPos
	child := s.haveRoot && pos.Last != board.NoPoint && next.Board.Legal(pos.Last, next.ToPlay)
	if child {
		advance(&next, pos.Last)
		child = next.Key() == pos.Key()
	}
	s.mu.RUnlock()
	if child {
		s.Play(pos.Last)
	}
}
