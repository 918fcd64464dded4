package review

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/mcts"
	"aji/analysis/predict"
	"aji/analysis/territory"
)

// Defaults of Options.
const (
	DefaultPredictor = "mm"
	// DefaultTerritory is the territory estimate a review asks for: Boltzmann5 pooled with pattern
	// rollouts, the estimator closest to the final territory (README, territory table).
	DefaultTerritory = "boltzmann5+mc"
	// DefaultPlayouts are the rollouts of mc and boltzmann5+mc per position: half the pooled
	// estimator's own 1024, which did as well on training games and keeps a 250-move review of a 19x19
	// game within 30 s on two cores.
	DefaultPlayouts = 512
	// DefaultTop is how many of a predictor's candidates each move keeps.
	DefaultTop = 5
	// DefaultCacheBytes bounds a Reviewer's cache: a 19x19 prediction is ~5 KB, so this holds the
	// predictions of about 25 games of 250 moves by two predictors.
	DefaultCacheBytes = 64 << 20
)

// Options choose what a review computes.
type Options struct {
	Predictors []string // predictors scoring the moves, by name (none given: DefaultPredictor)
	// Territory names the territory model behind the score and win probability ("": none; see
	// DefaultTerritory); Playouts are its rollouts per position when it plays any (0: DefaultPlayouts).
	Territory string
	Playouts  int
	// SearchPlayouts, when positive, runs the tree search of `aji analyze --mcts-playouts`
	// (mcts.NewFixed) on every position for that many playouts, with the predictor SearchPrior as its
	// prior ("": mcts.DefaultPriorName).
	SearchPlayouts int
	SearchPrior    string
	Top            int // candidates kept per predictor and move (0: DefaultTop)
	Workers        int // positions analysed at once (0: GOMAXPROCS)
}

// withDefaults fills the unset fields and checks the names, so that a bad name fails before any work.
func (o Options) withDefaults() (Options, error) {
	if len(o.Predictors) == 0 {
		o.Predictors = []string{DefaultPredictor}
	}
	for _, name := range o.Predictors {
		if _, err := predict.Configured(name); err != nil {
			return o, fmt.Errorf("review: %w", err)
		}
	}
	if o.SearchPrior == "" {
		o.SearchPrior = mcts.DefaultPriorName
	}
	if _, err := predict.Configured(o.SearchPrior); err != nil {
		return o, fmt.Errorf("review: search prior: %w", err)
	}
	if o.Territory != "" {
		if _, err := territory.ParseKind(o.Territory); err != nil {
			return o, fmt.Errorf("review: %w", err)
		}
	}
	switch {
	case o.Playouts < 0:
		return o, fmt.Errorf("review: %d territory playouts", o.Playouts)
	case o.SearchPlayouts < 0:
		return o, fmt.Errorf("review: %d search playouts", o.SearchPlayouts)
	case o.Top < 0:
		return o, fmt.Errorf("review: %d candidates", o.Top)
	}
	if o.Playouts == 0 {
		o.Playouts = DefaultPlayouts
	}
	if o.Top == 0 {
		o.Top = DefaultTop
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o, nil
}

// Move is the review of one move of the line.
type Move struct {
	Index  int        // place among the line's moves, from 0
	Number int        // the move's number on the line, from 1, passes counted
	Node   *game.Node // the node holding the move
	Color  board.Color
	Point  board.Point // board.Pass for a pass
	// Predictions holds each predictor's view of the move, in Options.Predictors' order; nil for a pass,
	// which the predictors do not score (as `aji eval` skips passes).
	Predictions []Prediction
	// Before and After value the positions before and after the move.
	Before, After Value
}

// Prediction is how one predictor saw a move: the rank and probability of the move played, as
// `aji eval` counts them (predict.Distribution.Rank: ties count against the move), and its top choices.
type Prediction struct {
	Predictor   string
	Rank        int // 1 = the predictor's first choice; 0 when it thought the move illegal
	Probability float64
	Legal       bool
	Top         []predict.Candidate // most probable first, at most Options.Top; may include pass
}

// Value is what the territory estimate and the search say of a position, for Black.
type Value struct {
	Score  *territory.ScoreEstimate // expected area score and Black's win probability; nil without a territory model
	Search *SearchValue             // nil without search playouts
}

// BlackWins is Black's win probability by the territory estimate, or by the search without one.
func (v Value) BlackWins() (float64, bool) {
	switch {
	case v.Score != nil:
		return v.Score.PBlackWins, true
	case v.Search != nil && v.Search.Visits > 0:
		return v.Search.PBlackWins, true
	}
	return 0, false
}

// SearchValue is a fixed-budget tree search's verdict on a position.
type SearchValue struct {
	Playouts   int
	Best       board.Point // the most visited move; board.NoPoint when nothing was searched
	Visits     int         // the best move's visits
	PBlackWins float64     // the best move's win rate, for Black
}

// Result is a finished review.
type Result struct {
	Size    int
	Komi    float64
	Options Options    // as run, defaults filled in
	Root    *game.Node // the first node of the line reviewed
	Moves   []Move     // in line order
	Timing  Timing     // where the time went
	// Tempo is the median change of the mover's win probability over the moves (NaN without values):
	// a static estimate gives each move about a move's worth, so Judge compares moves with it.
	Tempo float64
	line  []*game.Node // the nodes reviewed, for Annotate
}

// Timing splits a review's time. The analyses' times are summed over the workers and count only what
// was computed, not what the cache served.
type Timing struct {
	Wall                       time.Duration
	Predict, Territory, Search time.Duration
	Positions, Cached          int // distinct positions of the line, and of those the ones with nothing left to compute
}

// Score accumulates predictor i's ranks and probabilities over the moves as `aji eval` does (passes
// skipped), for the same top-k and mean log-evidence figures.
func (r *Result) Score(i int) *eval.Score {
	s := new(eval.Score)
	for _, m := range r.Moves {
		if i < len(m.Predictions) {
			p := m.Predictions[i]
			if p.Legal {
				s.Add(m.Number, p.Rank, p.Probability)
			}
		}
	}
	return s
}

// Reviewer runs reviews. It keeps predictors, territory estimators and results per position between
// reviews; it is safe for concurrent use.
type Reviewer struct {
	preds *live.Predictors

	mu         sync.Mutex
	cache      *engine.Cache
	estimators map[estimatorKey]*sync.Pool
}

// New returns a Reviewer whose cache holds up to cacheBytes of results (≤ 0: DefaultCacheBytes).
func New(cacheBytes int) *Reviewer {
	if cacheBytes <= 0 {
		cacheBytes = DefaultCacheBytes
	}
	return &Reviewer{preds: live.NewPredictors(), cache: engine.NewCache(cacheBytes), estimators: map[estimatorKey]*sync.Pool{}}
}

// unit is one distinct position of the line: the position before one move is usually the one after
// the move before, and is analysed once.
type unit struct {
	pos     *game.Position
	predict bool  // a move is played from here: run the predictors
	moves   []int // the moves whose review waits for this unit
	done    bool

	preds  []*live.Prediction
	score  *territory.ScoreEstimate
	search *SearchValue
}

// Review reviews every move of line, a path of g's tree from its root (g.MainLine(), or a Cursor's
// Line() for the variation on screen). each, when not nil, gets every move's review as soon as both of
// its positions are analysed, in no fixed order, from the review's goroutines one call at a time: it
// should return quickly (the app hands the move to its UI thread). Positions are analysed roughly in
// line order by Options.Workers goroutines, so a graph drawn from each grows from the left.
//
// A record with an illegal move on the line fails before any analysis with an error wrapping
// game.ErrIllegalMove. When ctx ends, Review returns ctx's error; the moves delivered so far stay
// valid, and what was computed stays cached.
func (r *Reviewer) Review(ctx context.Context, g *game.Game, line []*game.Node, o Options, each func(Move)) (*Result, error) {
	start := time.Now()
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	res, units, befores, afters, err := prepare(g, line, o)
	if err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()

	var (
		mu       sync.Mutex // guards units' done, res.Moves and the calls of each
		firstErr error
		next     atomic.Int64
		wg       sync.WaitGroup
		spent    [3]atomic.Int64 // nanoseconds in predictors, territory, search
		cached   atomic.Int64
	)
	complete := func(i int) {
		mu.Lock()
		defer mu.Unlock()
		units[i].done = true
		for _, m := range units[i].moves {
			if !units[befores[m]].done || afters[m] >= 0 && !units[afters[m]].done {
				continue
			}
			r.fill(&res.Moves[m], units, befores[m], afters[m], o)
			if each != nil {
				each(res.Moves[m])
			}
		}
	}
	for range min(o.Workers, len(units)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(units) || ctx.Err() != nil {
					return
				}
				hit, err := r.analyse(ctx, &units[i], o, &spent)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					return
				}
				if hit {
					cached.Add(1)
				}
				complete(i)
			}
		})
	}
	wg.Wait()
	if err := parent.Err(); err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	if firstErr != nil {
		return nil, fmt.Errorf("review: %w", firstErr)
	}
	res.Tempo = tempo(res.Moves)
	res.Timing = Timing{
		Wall:    time.Since(start),
		Predict: time.Duration(spent[0].Load()), Territory: time.Duration(spent[1].Load()), Search: time.Duration(spent[2].Load()),
		Positions: len(units), Cached: int(cached.Load()),
	}
	return res, nil
}

// prepare checks line and replays it: the distinct positions to analyse, and for each move the units
// of the positions before and after it (-1 for after when nothing is asked of that position).
func prepare(g *game.Game, line []*game.Node, o Options) (res *Result, units []unit, befores, afters []int, err error) {
	if g == nil || len(line) == 0 || line[0] != g.Root {
		return nil, nil, nil, nil, errors.New("review: the line does not start at the game's root")
	}
	for i := 1; i < len(line); i++ {
		if line[i] == nil || line[i].Parent != line[i-1] {
			return nil, nil, nil, nil, fmt.Errorf("review: node %d of the line is not a child of the node before it", i)
		}
	}
	// A copy of the line as a game of its own: WalkMainLine then gives the position before each move,
	// and PositionAt the one after it, setup stones and PL included, by the game package's one replay.
	path := &game.Game{Info: g.Info, Root: &game.Node{Move: line[0].Move, Setup: line[0].Setup, ToPlay: line[0].ToPlay}}
	copies := []*game.Node{path.Root}
	for _, n := range line[1:] {
		copies = append(copies, copies[len(copies)-1].AddChild(&game.Node{Move: n.Move, Setup: n.Setup, ToPlay: n.ToPlay}))
	}
	res = &Result{Size: g.Info.Size, Komi: g.Info.Komi, Options: o, Root: line[0], line: line}
	var before []*game.Position
	err = path.WalkMainLine(func(pos *game.Position, next game.Move) error {
		p := *pos
		before = append(before, &p)
		return nil
	})
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("review: %w", err)
	}
	index := map[game.Key]int{}
	unitOf := func(pos *game.Position) int {
		k := pos.Key()
		i, ok := index[k]
		if !ok {
			i = len(units)
			index[k] = i
			units = append(units, unit{pos: pos})
		}
		return i
	}
	needAfter := o.Territory != "" || o.SearchPlayouts > 0
	for i, n := range line {
		if n.Move == nil {
			continue
		}
		k := len(res.Moves)
		pos := before[k]
		m := Move{Index: k, Number: pos.MoveNumber + 1, Node: n, Color: n.Move.Color, Point: n.Move.Point}
		b := unitOf(pos)
		units[b].predict = units[b].predict || m.Point != board.Pass
		units[b].moves = append(units[b].moves, k)
		a := -1
		if needAfter {
			after, err := path.PositionAt(copies[i])
			if err != nil {
				return nil, nil, nil, nil, fmt.Errorf("review: %w", err)
			}
			a = unitOf(after)
			if a != b {
				units[a].moves = append(units[a].moves, k)
			}
		}
		res.Moves = append(res.Moves, m)
		befores, afters = append(befores, b), append(afters, a)
	}
	return res, units, befores, afters, nil
}

// fill writes move m's review from its units.
func (r *Reviewer) fill(m *Move, units []unit, b, a int, o Options) {
	bu := &units[b]
	m.Before = Value{Score: bu.score, Search: bu.search}
	if a >= 0 {
		m.After = Value{Score: units[a].score, Search: units[a].search}
	}
	if m.Point == board.Pass {
		return
	}
	m.Predictions = make([]Prediction, len(bu.preds))
	for i, pr := range bu.preds {
		rank, p, ok := pr.RankOf(m.Point)
		m.Predictions[i] = Prediction{
			Predictor: pr.Predictor, Rank: rank, Probability: p, Legal: ok,
			Top: append([]predict.Candidate(nil), pr.Top[:min(o.Top, len(pr.Top))]...),
		}
	}
}

// analyse runs what o asks of u's position, taking what it can from the cache; hit reports that the
// cache served all of it.
func (r *Reviewer) analyse(ctx context.Context, u *unit, o Options, spent *[3]atomic.Int64) (hit bool, err error) {
	hit = true
	timed := func(k int, f func() error) error {
		start := time.Now()
		err := f()
		spent[k].Add(int64(time.Since(start)))
		return err
	}
	if u.predict {
		u.preds = make([]*live.Prediction, len(o.Predictors))
		for i, name := range o.Predictors {
			v, h, err := cached(r, ctx, "predict/"+name, u.pos, (*live.Prediction).Bytes, func() (*live.Prediction, error) {
				var pr *live.Prediction
				err := timed(0, func() (err error) { pr, err = r.preds.Predict(ctx, name, u.pos); return err })
				return pr, err
			})
			if err != nil {
				return false, err
			}
			u.preds[i], hit = v, hit && h
		}
	}
	if o.Territory != "" {
		kind, _ := territory.ParseKind(o.Territory) // checked by withDefaults
		playouts := 0
		if kind == territory.KindMC || kind == territory.KindBoltzmann5MC {
			playouts = o.Playouts
		}
		key := fmt.Sprintf("score/%s/%d", o.Territory, playouts)
		v, h, err := cached(r, ctx, key, u.pos, func(*territory.ScoreEstimate) int { return 64 }, func() (*territory.ScoreEstimate, error) {
			var est territory.ScoreEstimate
			err := timed(1, func() (err error) { est, err = r.score(ctx, kind, playouts, u.pos); return err })
			return &est, err
		})
		if err != nil {
			return false, fmt.Errorf("territory: %w", err)
		}
		u.score, hit = v, hit && h
	}
	if o.SearchPlayouts > 0 {
		key := fmt.Sprintf("search/%s/%d", o.SearchPrior, o.SearchPlayouts)
		v, h, err := cached(r, ctx, key, u.pos, func(*SearchValue) int { return 64 }, func() (*SearchValue, error) {
			var sv *SearchValue
			err := timed(2, func() (err error) { sv, err = search(ctx, o.SearchPlayouts, o.SearchPrior, u.pos); return err })
			return sv, err
		})
		if err != nil {
			return false, fmt.Errorf("search: %w", err)
		}
		u.search, hit = v, hit && h
	}
	return hit, nil
}

// cached returns task's result on pos from r's cache, or computes and caches it; hit reports a cache
// hit. A result computed while ctx ended may be partial: it is returned with ctx's error, not cached.
func cached[T any](r *Reviewer, ctx context.Context, task string, pos *game.Position, size func(T) int, compute func() (T, error)) (v T, hit bool, err error) {
	k := engine.CacheKey{Task: task, Pos: pos.Key()}
	r.mu.Lock()
	got, ok := r.cache.Get(k)
	r.mu.Unlock()
	if ok {
		return got.(T), true, nil
	}
	if v, err = compute(); err != nil {
		return v, false, err
	}
	if err := ctx.Err(); err != nil {
		return v, false, err
	}
	r.mu.Lock()
	r.cache.Put(k, v, size(v))
	r.mu.Unlock()
	return v, false, nil
}

// estimatorKey names a pool of estimators configured alike.
type estimatorKey struct {
	kind     territory.Kind
	playouts int
}

// score is the territory score of pos (Stern §5.1.1): u_score = Σ_i E[s_i] − komi and
// u_win = p(Σ_i s_i − komi > 0) from Swendsen-Wang states of the model, or, for mc, from its playouts.
// An Estimator holds scratch for one goroutine, so each worker takes one from a pool; as for the app's
// score (live.Territory.Score), the states are the samples, with no separate marginal sweeps.
func (r *Reviewer) score(ctx context.Context, kind territory.Kind, playouts int, pos *game.Position) (territory.ScoreEstimate, error) {
	k := estimatorKey{kind, playouts}
	r.mu.Lock()
	pool := r.estimators[k]
	if pool == nil {
		pool = new(sync.Pool)
		r.estimators[k] = pool
	}
	r.mu.Unlock()
	e, _ := pool.Get().(*territory.Estimator)
	if e == nil {
		var err error
		if e, err = territory.NewEstimator(kind, territory.MethodSW); err != nil {
			return territory.ScoreEstimate{}, err
		}
		e.Sweeps = 0
		if playouts > 0 {
			e.MC.Playouts = playouts
		}
	}
	defer pool.Put(e)
	samples := territory.DefaultScoreSamples
	if kind == territory.KindMC {
		samples = playouts
	}
	return e.Score(ctx, pos, samples)
}

// search runs the fixed-budget search of `aji analyze --mcts-playouts` on pos.
func search(ctx context.Context, playouts int, prior string, pos *game.Position) (*SearchValue, error) {
	s, err := mcts.NewFixed(playouts, prior)
	if err != nil {
		return nil, err
	}
	res := s.Run(ctx, pos)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sv := &SearchValue{Playouts: res.Playouts, Best: board.NoPoint}
	if len(res.Candidates) > 0 && res.Candidates[0].Visits > 0 {
		c := res.Candidates[0]
		sv.Best, sv.Visits, sv.PBlackWins = c.Move, c.Visits, c.WinRate
		if pos.ToPlay == board.White {
			sv.PBlackWins = 1 - c.WinRate
		}
	}
	return sv, nil
}
