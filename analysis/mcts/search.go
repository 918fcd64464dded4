package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Selection is the rule that picks a child during the descent.
type Selection int

const (
	// UCT is UCB1 on each node: Q + C·sqrt(ln N / n) (Kocsis & Szepesvári 2006).
	UCT Selection = iota
	// PUCT adds a predictor's prior: Q + c·E·sqrt(lg N / (1 + n)), E the prior cut below at λ (Xiao 2016
	// eq. 3.15).
	PUCT
	// RAVE blends UCT with AMAF values and a progressive bias (Graf & Platzner §IV-A):
	// (1−β)·Q_UCT + β·Q_RAVE + PB·π/(n+1).
	RAVE
	// Bayes is Thompson sampling on a counting model (Stern 2008 §6.3.1): each child's win probability
	// has the Beta posterior of its wins and losses, with BayesPrior·π pseudo-wins from the prior,
	// BayesFPU pseudo-games at the parent's value, and its AMAF results as up to BayesAMAF pseudo-games
	// (the RAVE statistics as a prior that real visits outweigh); a descent draws every child's value
	// from the Gaussian of that Beta's mean and variance (the form of Stern's Gaussian beliefs, and one
	// normal draw a child) and takes the best draw.
	Bayes
)

var selectionNames = [...]string{UCT: "uct", PUCT: "puct", RAVE: "rave", Bayes: "bayes"}

// Selections are the selection rules, in the order a user is offered them.
func Selections() []Selection {
	out := make([]Selection, len(selectionNames))
	for i := range out {
		out[i] = Selection(i)
	}
	return out
}

func (s Selection) String() string {
	if int(s) < len(selectionNames) {
		return selectionNames[s]
	}
	return fmt.Sprintf("Selection(%d)", int(s))
}

// ParseSelection reads "uct", "puct", "rave" or "bayes".
func ParseSelection(name string) (Selection, error) {
	for i, n := range selectionNames {
		if n == name {
			return Selection(i), nil
		}
	}
	return 0, fmt.Errorf("unknown selection rule %q (uct, puct, rave, bayes)", name)
}

// Defaults of Options.
const (
	DefaultPlayouts = 10000
	DefaultMaxNodes = 1 << 21 // 64 MiB of nodes
)

// Options configure a Search. Zero values take the defaults named; the constants default to the
// papers' values.
type Options struct {
	// Limits of one Run; it also stops when its context is done. Playouts counts this Run's
	// simulations (a reused subtree's visits are not counted); when Playouts and Time are both 0 it is
	// DefaultPlayouts, and a negative Playouts means no count limit.
	Playouts int
	Time     time.Duration
	Threads  int // goroutines sharing the tree (default 1)
	// MaxNodes bounds the tree (default DefaultMaxNodes, 32 bytes a node); a full tree stops growing
	// but the search goes on refining the nodes it has.
	MaxNodes int
	Seed     uint64

	Selection Selection
	Policy    string        // PolicyLight (default), PolicyPattern or a predictor's name (a predictor policy)
	Model     *PatternModel // the pattern policy's model (nil: DefaultPatternModel)
	// Prior gives each new node's moves their prior: PUCT's P, RAVE's π, and the order of progressive
	// widening. nil is uniform. A Predictor is not safe for concurrent use, so with several threads
	// calls to Prior are serialised, unless NewPrior is set: then each thread makes its own.
	Prior    predict.Predictor
	NewPrior func() (predict.Predictor, error)
	// Widening restricts a node to its n best moves by prior, the n-th entering after
	// WideningBase·WideningFactor^(n−2) simulations of the node (Coulom 2007 §4.2: 40 and 1.4). Pass
	// is always open. Without a Prior the order is the board's, which makes widening pointless.
	Widening       bool
	WideningBase   float64
	WideningFactor float64
	// ExpandAt is the number of visits after which a leaf gets its children. Default: with widening,
	// the number of points of the board (Coulom §4.2: a node is searched by the playout policy until
	// then); without, max(2, points/40), which keeps a 19x19 tree within memory (expanding at 3 or 4 on
	// 9x9 calls the prior less often but lost 39–59–2 and 37–59–4 to it at equal playouts:
	// docs/notes/search-runs).
	ExpandAt int

	UCTC       float64 // UCB1's C (default 0.6, Graf's constant; √2 explores too much for Go)
	PUCTC      float64 // c_puct (default 2, Xiao §4.2.3's best without other knowledge)
	PUCTLambda float64 // λ, the cut of the prior (default 0.001, Xiao §4.2.2)
	RaveC      float64 // Graf's C (default 0.6)
	RaveB      float64 // Graf's B (default 0.03, a longer equivalence than Graf's 0.1: docs/notes/search-runs)
	RavePB     float64 // Graf's PB (default 50)
	BayesPrior float64 // Bayes's pseudo-wins per unit of prior (default 10)
	BayesFPU   float64 // Bayes's pseudo-games at the parent's value (default 2)
	BayesAMAF  float64 // Bayes's most pseudo-games from AMAF (default 25, Graf's B = 0.1's equivalence; negative: none)
	BayesScale float64 // Bayes's draws' spread, as a multiple of the posterior's (default 0.1: the posterior's own explores too much)

	// ResignThreshold: Result.Resign is set when the best move's win rate is below it after at least
	// 200 visits (default 0.1; negative: never).
	ResignThreshold float64

	// Ownership makes Result.Ownership: who owns each point at the end of this Run's playouts, the
	// search's own territory estimate. It scores each playout's final board twice, and turns the mercy
	// rule off, since a playout it ends has no final board.
	Ownership bool

	// Mercy is the playouts' mercy rule, a capture lead as a fraction of the board's points
	// (Playout.Mercy; default 0.25, negative: none).
	Mercy float64

	// Progress, if set, is called every ProgressInterval (default 500 ms) during Run with a snapshot,
	// from a goroutine of Run's own.
	Progress         func(Result)
	ProgressInterval time.Duration
}

func (o *Options) defaults() {
	if o.Playouts == 0 && o.Time == 0 {
		o.Playouts = DefaultPlayouts
	}
	if o.Threads <= 0 {
		o.Threads = 1
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.WideningBase, 40)
	def(&o.WideningFactor, 1.4)
	def(&o.UCTC, 0.6)
	def(&o.PUCTC, 2)
	def(&o.PUCTLambda, 0.001)
	def(&o.RaveC, 0.6)
	def(&o.RaveB, 0.03)
	def(&o.RavePB, 50)
	def(&o.BayesPrior, 10)
	def(&o.BayesFPU, 2)
	def(&o.BayesAMAF, 25)
	def(&o.BayesScale, 0.1)
	def(&o.ResignThreshold, 0.1)
	def(&o.Mercy, 0.25)
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = 500 * time.Millisecond
	}
}

// Candidate is a move of the root with its statistics.
type Candidate struct {
	Move    board.Point
	Visits  int
	WinRate float64 // for the side to move
	Prior   float64
	PV      []board.Point // principal variation, from Move on, following the most visited children
}

// Result is what a search found.
type Result struct {
	Best       board.Point
	Resign     bool
	Candidates []Candidate // by visits, most first
	Playouts   int         // simulations of this Run
	Nodes      int         // nodes in the tree
	Elapsed    time.Duration
	// Ownership is, with Options.Ownership, the mean owner of each point at the end of the Run's
	// playouts, from +1 (always Black's) to −1 (always White's), row by row (y·size + x, as
	// board.AreaOwners); nil without it or before a playout ends.
	Ownership []float64
}

// Search is a Monte Carlo tree search that keeps its tree between Runs: Play advances the root to a
// child and keeps its subtree. Run and Play must not be called concurrently; Snapshot may be called at
// any time from any goroutine.
type Search struct {
	o     Options
	model *PatternModel

	run      sync.Mutex   // one Run or Play at a time
	mu       sync.RWMutex // guards the fields below against Snapshot
	tree     *arena
	spare    *arena // the other arena, for copying a subtree on Play
	root     uint32
	rootPos  game.Position
	haveRoot bool
	started  time.Time
	ended    time.Duration // Elapsed of the last Run once it is over

	rootPl   *Playout
	workers  []*worker
	priorMu  sync.Mutex
	playouts atomic.Int64
	stop     atomic.Bool
	full     atomic.Bool
	expandAt int32
	widen    []float64 // the visits at which the n-th move enters, from n = 2
}

// New makes a search.
func New(o Options) (*Search, error) {
	o.defaults()
	if o.Selection < UCT || o.Selection > Bayes {
		return nil, fmt.Errorf("mcts: %v", o.Selection)
	}
	s := &Search{o: o, tree: newArena(o.MaxNodes), spare: newArena(o.MaxNodes)}
	switch o.Policy {
	case PolicyLight, "":
	case PolicyPattern:
		s.model = o.Model
		if s.model == nil {
			m, err := DefaultPatternModel()
			if err != nil {
				return nil, fmt.Errorf("mcts: %w", err)
			}
			s.model = m
		}
		s.model.tables()
	}
	var err error
	if s.rootPl, err = s.newPlayout(); err != nil {
		return nil, fmt.Errorf("mcts: %w", err)
	}
	for t := range o.Threads {
		pl, err := s.newPlayout()
		if err != nil {
			return nil, fmt.Errorf("mcts: %w", err)
		}
		w := &worker{s: s, pl: pl, prior: o.Prior}
		w.rng.Seed(o.Seed, uint64(t)+0x9E3779B97F4A7C15)
		w.draws = rand.New(&w.rng)
		if o.NewPrior != nil {
			p, err := o.NewPrior()
			if err != nil {
				return nil, fmt.Errorf("mcts: prior: %w", err)
			}
			w.prior, w.ownPrior = p, true
		}
		s.workers = append(s.workers, w)
	}
	for n := 2; n <= board.MaxPoints+1; n++ {
		s.widen = append(s.widen, o.WideningBase*math.Pow(o.WideningFactor, float64(n-2)))
	}
	return s, nil
}

// newPlayout makes a playout of the search's policy (a predictor policy's predictor is a thread's own).
func (s *Search) newPlayout() (*Playout, error) {
	var pl *Playout
	if s.model != nil {
		pl = NewPatternPlayout(s.model)
	} else {
		var err error
		if pl, err = NewPlayout(s.o.Policy); err != nil {
			return nil, err
		}
	}
	if s.o.Mercy > 0 && !s.o.Ownership {
		pl.Mercy = s.o.Mercy
	}
	return pl, nil
}

// Run searches pos until a limit of the options is reached or ctx is done, and returns the result. The
// tree from earlier Runs is kept when pos is the position the last Run or Play left at the root.
func (s *Search) Run(ctx context.Context, pos *game.Position) Result {
	s.run.Lock()
	defer s.run.Unlock()

	s.mu.Lock()
	if !s.haveRoot || s.rootPos.Key() != pos.Key() {
		s.tree.reset()
		s.root, _ = s.tree.alloc(1)
		s.tree.node(s.root).move = pos.Last
		s.full.Store(false)
	}
	s.rootPos = *pos
	s.haveRoot = true
	s.started, s.ended = time.Now(), 0
	s.mu.Unlock()

	s.rootPl.Reset(&s.rootPos)
	// The root is expanded before the threads start, so that every simulation descends into a child.
	if root := s.tree.node(s.root); root.state.Load() == leaf && !s.full.Load() {
		w := s.workers[0]
		w.pl.CopyFrom(s.rootPl)
		w.hashes = append(w.hashes[:0], s.rootPos.Board.Hash())
		root.state.Store(expanding)
		if !w.expand(root) {
			root.state.Store(leaf)
		}
	}
	s.expandAt = int32(s.o.ExpandAt)
	if s.expandAt <= 0 {
		points := int32(len(pos.Board.Points()))
		if s.o.Widening {
			s.expandAt = points
		} else {
			s.expandAt = max(2, points/40)
		}
	}
	s.playouts.Store(0)
	for _, w := range s.workers {
		for i := range w.owned {
			w.owned[i].Store(0)
		}
		w.ownedN.Store(0)
	}
	s.stop.Store(ctx.Err() != nil)

	done := make(chan struct{})
	watched := make(chan struct{})
	go s.watch(ctx, done, watched)
	limit := int64(s.o.Playouts)
	var wg sync.WaitGroup
	for _, w := range s.workers {
		wg.Go(func() {
			for !s.stop.Load() {
				if n := s.playouts.Add(1); limit > 0 && n > limit {
					s.playouts.Add(-1)
					return
				}
				w.simulate()
			}
		})
	}
	wg.Wait()
	close(done)
	<-watched

	s.mu.Lock()
	s.ended = time.Since(s.started)
	s.mu.Unlock()
	return s.Snapshot()
}

// watch stops the workers at the time limit or when ctx is done, and reports progress.
func (s *Search) watch(ctx context.Context, done, watched chan struct{}) {
	defer close(watched)
	var deadline <-chan time.Time
	if s.o.Time > 0 {
		t := time.NewTimer(s.o.Time)
		defer t.Stop()
		deadline = t.C
	}
	var tick <-chan time.Time
	if s.o.Progress != nil {
		t := time.NewTicker(s.o.ProgressInterval)
		defer t.Stop()
		tick = t.C
	}
	cancelled := ctx.Done()
	for {
		select {
		case <-done:
			return
		case <-cancelled:
			s.stop.Store(true)
			cancelled = nil // a closed channel would fire again at once
		case <-deadline:
			s.stop.Store(true)
		case <-tick:
			s.o.Progress(s.Snapshot())
		}
	}
}

// Play advances the root by move p (for the side to move at the root), keeping p's subtree and its
// statistics; the next Run on the resulting position continues from there. An illegal move, or no
// earlier Run, leaves nothing to reuse.
func (s *Search) Play(p board.Point) {
	s.run.Lock()
	defer s.run.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.haveRoot {
		return
	}
	pos := &s.rootPos
	c := pos.ToPlay
	if !pos.Board.Legal(p, c) {
		s.haveRoot = false
		return
	}
	child := uint32(0)
	found := false
	if first, k := s.tree.children(s.tree.node(s.root)); k > 0 {
		for i := range uint32(k) {
			if s.tree.node(first+i).move == p {
				child, found = first+i, true
				break
			}
		}
	}
	advance(pos, p)
	if found {
		s.root = s.spare.copySubtree(s.tree, child)
		s.tree, s.spare = s.spare, s.tree
		s.spare.release() // the old tree's memory goes back; MaxNodes bounds what one tree holds
	} else {
		s.tree.reset()
		s.root, _ = s.tree.alloc(1)
		s.tree.node(s.root).move = p
	}
	s.full.Store(false)
}

// advance plays the legal move p on pos for the side to move.
func advance(pos *game.Position, p board.Point) {
	c := pos.ToPlay
	pos.Board.PlayLegal(p, c)
	pos.Prev, pos.Last = pos.Last, p
	pos.ToPlay = c.Opponent()
	pos.MoveNumber++
}

// Snapshot returns the search's current result; during Run it is a live view (Options.Progress gets
// the same).
func (s *Search) Snapshot() Result {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := Result{Best: board.Pass, Playouts: int(s.playouts.Load()), Nodes: int(s.tree.used.Load())}
	if !s.haveRoot {
		return r
	}
	r.Elapsed = s.ended
	if r.Elapsed == 0 {
		r.Elapsed = time.Since(s.started)
	}
	if s.o.Ownership {
		r.Ownership = s.ownership()
	}
	t := s.tree
	first, k := t.children(t.node(s.root))
	for i := range uint32(k) {
		n := t.node(first + i)
		q, v := n.value()
		if v == 0 {
			continue
		}
		r.Candidates = append(r.Candidates, Candidate{Move: n.move, Visits: int(v), WinRate: q, Prior: float64(n.prior),
			PV: s.pv(first + i)})
	}
	sort.SliceStable(r.Candidates, func(i, j int) bool {
		a, b := &r.Candidates[i], &r.Candidates[j]
		if a.Visits != b.Visits {
			return a.Visits > b.Visits
		}
		return a.WinRate > b.WinRate
	})
	if len(r.Candidates) == 0 {
		return r
	}
	best := r.Candidates[0]
	r.Best = best.Move
	// After the opponent's pass, passing ends the game: do it when that wins (or draws) about as surely
	// as the best move (the pass child's playouts count with dead stones removed, as the scorer will).
	if s.rootPos.Last == board.Pass && best.Move != board.Pass {
		for _, c := range r.Candidates {
			if c.Move == board.Pass && c.WinRate >= 0.5 && c.WinRate >= best.WinRate-0.02 && c.Visits >= 20 {
				r.Best = board.Pass
			}
		}
	}
	if s.o.ResignThreshold > 0 && best.Visits >= 200 && best.WinRate < s.o.ResignThreshold {
		r.Resign = true
	}
	return r
}

// pv follows the most visited children from node i.
func (s *Search) pv(i uint32) []board.Point {
	t := s.tree
	var pv []board.Point
	for len(pv) < 32 {
		n := t.node(i)
		pv = append(pv, n.move)
		first, k := t.children(n)
		best, bv := uint32(0), int32(0)
		for j := range uint32(k) {
			if v := t.node(first + j).visits.Load(); v > bv {
				best, bv = first+j, v
			}
		}
		if bv == 0 {
			break
		}
		i = best
	}
	return pv
}

// worker is one goroutine's state: its own playout board, random numbers and scratch.
type worker struct {
	s        *Search
	rng      rand.PCG
	draws    *rand.Rand // over rng, for Bayes's normal draws
	pl       *Playout
	prior    predict.Predictor
	ownPrior bool
	dist     predict.Distribution
	path     []uint32
	hashes   []uint64
	cand     []cand

	owners [board.MaxPoints]int8         // the last playout's final owners (scratch)
	owned  [board.MaxPoints]atomic.Int32 // their sums over this Run, written by this worker only
	ownedN atomic.Int32                  // and the playouts summed

	amafGen   uint32
	amafStamp [board.NumCells]uint32
	amafColor [board.NumCells]board.Color
}

type cand struct {
	p     board.Point
	prior float64
}

// result is a game's outcome in half-points for c: 2 a win, 1 a jigo, 0 a loss.
func result(blackScore float64, c board.Color) int32 {
	switch {
	case blackScore == 0:
		return 1
	case (blackScore > 0) == (c == board.Black):
		return 2
	}
	return 0
}

// simulate runs one simulation: descent with virtual loss, expansion, playout, backup.
func (w *worker) simulate() {
	s := w.s
	t := s.tree
	pl := w.pl
	pl.CopyFrom(s.rootPl)
	w.path = append(w.path[:0], s.root)
	w.hashes = append(w.hashes[:0], pl.pos.Board.Hash())
	nd := t.node(s.root)
	nd.visits.Add(1)
	lastPass := pl.pos.Last == board.Pass
	for {
		if st := nd.state.Load(); st == leaf && (len(w.path) == 1 || nd.visits.Load() >= s.expandAt) && !s.full.Load() &&
			nd.state.CompareAndSwap(leaf, expanding) {
			if !w.expand(nd) {
				nd.state.Store(leaf)
			}
		}
		first, k := t.children(nd)
		if k == 0 {
			break
		}
		ci := w.choose(nd, first, k)
		child := t.node(ci)
		child.visits.Add(1)
		w.path = append(w.path, ci)
		pl.Play(child.move)
		w.hashes = append(w.hashes, pl.pos.Board.Hash())
		nd = child
		if child.move == board.Pass && lastPass {
			break // two passes: the playout below starts after them and ends at once unless moves remain
		}
		lastPass = child.move == board.Pass
	}
	// Two passes in the tree do not end the game here: the playout then plays on only if the policy
	// has moves, which captures dead stones, so the score is the one a scorer removing them would give.
	if pl.pos.Last == board.Pass && pl.pos.Prev == board.Pass {
		pl.pos.Last = board.NoPoint
	}
	pl.Run(&w.rng, 0)
	score := pl.Score()
	if s.o.Ownership {
		w.addOwners()
	}

	mover := s.rootPos.ToPlay.Opponent() // who played the move into the root
	for _, i := range w.path {
		t.node(i).wins.Add(result(score, mover))
		mover = mover.Opponent()
	}
	if s.o.Selection == RAVE || s.o.Selection == Bayes && s.o.BayesAMAF > 0 {
		w.updateRave(score)
	}
}

// addOwners adds the owners of the playout's final board to the worker's sums (plain loads and stores:
// the worker is their only writer, and the atomics let Snapshot read them while it runs).
func (w *worker) addOwners() {
	b := &w.pl.pos.Board
	n := b.Size() * b.Size()
	b.AreaOwners(nil, w.owners[:n])
	for i, o := range w.owners[:n] {
		w.owned[i].Store(w.owned[i].Load() + int32(o))
	}
	w.ownedN.Store(w.ownedN.Load() + 1)
}

// ownership is Result.Ownership: the workers' sums over their playouts.
func (s *Search) ownership() []float64 {
	n := s.rootPos.Board.Size() * s.rootPos.Board.Size()
	sum, playouts := make([]float64, n), 0
	for _, w := range s.workers {
		// The count is read before the sums: a playout being added makes the mean a little off, never
		// out of [−1, 1].
		playouts += int(w.ownedN.Load())
		for i := range sum {
			sum[i] += float64(w.owned[i].Load())
		}
	}
	if playouts == 0 {
		return nil
	}
	for i := range sum {
		sum[i] = max(-1, min(1, sum[i]/float64(playouts)))
	}
	return sum
}

// expand gives nd its children: the legal moves of the side to move that fill no own eye and repeat no
// position of the path (positional superko within the tree), and pass, with their priors; sorted by
// prior with widening, else in board order with pass last.
func (w *worker) expand(nd *node) bool {
	s := w.s
	pos := w.pl.Position()
	b := &pos.Board
	c := pos.ToPlay
	w.cand = w.cand[:0]
	for _, p := range b.Points() {
		if b.At(p) == board.Empty && b.Legal(p, c) && !b.IsEye(p, c) && !b.RepeatsPosition(p, c, w.hashes) {
			w.cand = append(w.cand, cand{p: p})
		}
	}
	w.cand = append(w.cand, cand{p: board.Pass})
	uniform := 1 / float64(len(w.cand))
	if w.prior != nil {
		if !w.ownPrior && len(s.workers) > 1 {
			s.priorMu.Lock()
			w.prior.Predict(pos, &w.dist)
			s.priorMu.Unlock()
		} else {
			w.prior.Predict(pos, &w.dist)
		}
		sum := 0.0
		for i := range w.cand {
			w.cand[i].prior = w.dist.P[w.cand[i].p]
			sum += w.cand[i].prior
		}
		for i := range w.cand {
			if sum > 0 {
				w.cand[i].prior /= sum
			} else {
				w.cand[i].prior = uniform
			}
		}
		if s.o.Widening {
			// Widening opens the moves in this order; without it the order would only break exact ties.
			slices.SortStableFunc(w.cand, func(a, b cand) int {
				switch {
				case a.prior > b.prior:
					return -1
				case a.prior < b.prior:
					return 1
				}
				return 0
			})
		}
	} else {
		for i := range w.cand {
			w.cand[i].prior = uniform
		}
	}
	first, ok := s.tree.alloc(len(w.cand))
	if !ok {
		s.full.Store(true)
		return false
	}
	for i, cd := range w.cand {
		n := s.tree.node(first + uint32(i))
		n.move, n.prior = cd.p, float32(cd.prior)
	}
	nd.kids, nd.nkids = first, uint16(len(w.cand))
	nd.state.Store(expanded)
	return true
}

// width is the number of board moves progressive widening lets a node with v visits consider.
func (s *Search) width(v int32) int {
	return 1 + sort.Search(len(s.widen), func(i int) bool { return s.widen[i] > float64(v) })
}

// choose returns the child of nd to descend into (children first..first+k−1, in prior order with widening).
func (w *worker) choose(nd *node, first uint32, k int) uint32 {
	s := w.s
	t := s.tree
	o := &s.o
	nv := nd.visits.Load()
	width := k
	if o.Widening {
		width = s.width(nv - 1) // nv counts this simulation; the n-th move enters once the threshold's simulations are done
	}
	// First-play value of an unvisited child for PUCT and RAVE: the parent's value for the player to
	// move here (nd's wins are its mover's, the other player's).
	fpu := 0.5
	if q, v := nd.value(); v > 0 {
		fpu = 1 - q
	}
	lnN := math.Log(float64(max(nv, 1)))
	best, bestV := first, math.Inf(-1)
	moves := 0
	for j := range uint32(k) {
		c := t.node(first + j)
		if c.move != board.Pass {
			if moves >= width {
				continue // not yet widened to; pass is always open so that games can end
			}
			moves++
		}
		q, n := c.value()
		var v float64
		switch o.Selection {
		case UCT:
			if n == 0 {
				v = math.Inf(1)
			} else {
				v = q + o.UCTC*math.Sqrt(lnN/float64(n))
			}
		case PUCT:
			// Xiao eq. 3.15 with N(s) the node's visits.
			if n == 0 {
				q = fpu
			}
			e := max(float64(c.prior), o.PUCTLambda)
			v = q + o.PUCTC*e*math.Sqrt(math.Log2(float64(max(nv, 1)))/float64(1+n))
		case RAVE:
			v = w.raveValue(c, q, n, lnN, fpu)
		case Bayes:
			wins := float64(c.wins.Load()) / 2
			a := 1 + wins + o.BayesPrior*float64(c.prior) + o.BayesFPU*fpu
			b := 1 + float64(n) - wins + o.BayesFPU*(1-fpu)
			if rw, rn := c.raveStats(); rn > 0 && o.BayesAMAF > 0 {
				m := min(float64(rn), o.BayesAMAF)
				qr := float64(rw) / (2 * float64(rn))
				a += m * qr
				b += m * (1 - qr)
			}
			v = a/(a+b) + o.BayesScale*math.Sqrt(a*b/((a+b)*(a+b)*(a+b+1)))*w.draws.NormFloat64()
		}
		if v > bestV {
			best, bestV = first+j, v
		}
	}
	return best
}

// raveValue is Graf & Platzner §IV-A's selection value:
//
//	(1−β)·Q_UCT + β·Q_RAVE + PB·π/(n+1),  Q_UCT = w/n + C·sqrt(ln N / n),  Q_RAVE = w̃/ñ,
//	β = ñ / (n + ñ + 4B²·n·ñ)
//
// The bias is divided by n+1 rather than n (Chaslot et al. 2008's progressive bias H/(n+1)) so that an
// unvisited move has a finite value; with n = 0, β = 1; with no AMAF sample either, Q_RAVE is the
// first-play value.
func (w *worker) raveValue(c *node, q float64, n int32, lnN, fpu float64) float64 {
	o := &w.s.o
	rw, rn := c.raveStats()
	qr := fpu
	if rn > 0 {
		qr = float64(rw) / (2 * float64(rn))
	}
	bias := o.RavePB * float64(c.prior) / float64(n+1)
	if n == 0 {
		return qr + bias
	}
	fn, frn := float64(n), float64(rn)
	beta := frn / (fn + frn + 4*o.RaveB*o.RaveB*fn*frn)
	quct := q + o.RaveC*math.Sqrt(lnN/fn)
	return (1-beta)*quct + beta*qr + bias
}

// updateRave adds the simulation to the AMAF statistics: at each node of the path, every child whose
// move the player to move there played first at that point, later in the simulation (Gelly & Silver
// 2007), counts the result. Pass counts too, when that player passed later: every playout ends in two
// passes, so pass's AMAF value is about the node's own, and pass competes on its AMAF value as the
// moves do instead of on UCT's exploration term alone, which made it the most visited move of small
// searches.
func (w *worker) updateRave(score float64) {
	t := w.s.tree
	moves, colors := w.pl.Moves()
	w.amafGen++
	if w.amafGen == 0 {
		clear(w.amafStamp[:])
		w.amafGen = 1
	}
	gen := w.amafGen
	var passed [2]bool        // by colorIndex: the player passed at or after move i
	inTree := len(w.path) - 1 // moves[i] for i < inTree was chosen at node path[i]
	for i := len(moves) - 1; i >= 0; i-- {
		if p := moves[i]; p != board.Pass {
			w.amafStamp[p], w.amafColor[p] = gen, colors[i]
		} else {
			passed[colorIndex(colors[i])] = true
		}
		if i >= inTree {
			continue
		}
		me := colors[i]
		res := result(score, me)
		first, k := t.children(t.node(w.path[i]))
		for j := range uint32(k) {
			c := t.node(first + j)
			if m := c.move; m == board.Pass && passed[colorIndex(me)] || m != board.Pass && w.amafStamp[m] == gen && w.amafColor[m] == me {
				c.addRave(res)
			}
		}
	}
}
