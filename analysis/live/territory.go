package live

import (
	"context"
	"fmt"
	"math"
	"sync"

	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/territory"
)

// Defaults. Swendsen-Wang is Stern's method for interactive use: its 3000
// sweeps take ~60 ms of CPU on a 19x19 game position here and stay within
// ~0.013 (mean) of exact inference, while loopy BP (~6 ms) is overconfident
// (§5.3.2, Fig. 5.8), Gibbs (~100 ms) mixes poorly and exact inference
// takes over a second. Boltzmann5 is the model that is always there:
// without an embedded model file it falls back to Stern's Table 5.1.
// Models and methods go by their names here, as menus, preferences and
// flags give them; territory.ParseEstimator reads them.
var (
	DefaultTerritoryModel  = territory.KindBoltzmann5.String()
	DefaultTerritoryMethod = territory.MethodSW.String()
)

// The score draws scoreSamples Swendsen-Wang states of the model (a win
// probability with a standard error under 0.012), or plays as many
// playouts as mc's estimate does.
const scoreSamples = territory.DefaultScoreSamples

// sampleBurnin is how many Swendsen-Wang sweeps precede a sample: the
// estimator's own burn-in, ~2 ms on 19x19.
const sampleBurnin = territory.DefaultBurnin

// Ownership is one territory estimate of a position, in board coordinates.
// Shared with the engine's cache: never modified after it is made.
type Ownership struct {
	Model, Method string
	Size          int
	Komi          float64
	Mean          []float64 // index y*size+x: E[s], +1 Black
	// Lives is, on each stone, the probability that its chain lives
	// (territory.ChainSafety); NaN on empty points.
	Lives  []float64
	Stones []int16 // on each stone, its chain's number of stones
}

func (o *Ownership) bytes() int { return 18*len(o.Mean) + 128 }

// Score is the expected area score by these marginals, komi included,
// positive when Black leads: u_score = Σ E[s_i] − komi (Stern §5.1.1).
func (o *Ownership) Score() float64 {
	s := -o.Komi
	for _, v := range o.Mean {
		s += v
	}
	return s
}

// ScoreResult is the win probability and the spread of the score over
// sampled states.
type ScoreResult struct {
	Model    string
	Estimate territory.ScoreEstimate
}

func (*ScoreResult) bytes() int { return 96 }

// Sample is one Swendsen-Wang state with its bonds (Stern Fig. 5.6), in
// board coordinates.
type Sample struct {
	Model       string
	Seed        uint64
	Size        int
	Owner       []int8 // index y*size+x: +1 Black, -1 White
	Right, Down []bool // the point is bonded to its neighbour on the right, below
}

func (s *Sample) bytes() int { return 3*len(s.Owner) + 128 }

// Territory runs territory estimates. It keeps estimators by model and
// method; each holds scratch for one goroutine at a time, so workers take
// one from a pool. The zero value is ready to use.
type Territory struct {
	mu    sync.Mutex
	pools map[string]*sync.Pool

	// Started, when set, is called as each estimate and score starts, on
	// its worker, with its task's key: tests hold a task with it.
	Started func(ctx context.Context, key string)
}

// get takes an estimator from its pool, or makes one; put gives it back.
// For the score (forScore) the samplers average no more sweeps than the
// samples it asks for.
func (t *Territory) get(model, method string, forScore bool) (e *territory.Estimator, put func(), err error) {
	key := fmt.Sprint(model, "/", method, "/", forScore)
	t.mu.Lock()
	if t.pools == nil {
		t.pools = map[string]*sync.Pool{}
	}
	pool := t.pools[key]
	if pool == nil {
		pool = new(sync.Pool)
		t.pools[key] = pool
	}
	t.mu.Unlock()
	e, _ = pool.Get().(*territory.Estimator)
	if e == nil {
		kind, m, err := territory.ParseEstimator(model, method)
		if err != nil {
			return nil, nil, err
		}
		if e, err = territory.NewEstimator(kind, m); err != nil {
			return nil, nil, err
		}
		if forScore {
			// Score runs max(samples, Sweeps) sweeps; the samples are enough.
			e.Sweeps = 0
		}
	}
	return e, func() { pool.Put(e) }, nil
}

// methodOf is the method an estimate of model runs: none for mc, which
// takes no method, so that its results are cached under one key.
func methodOf(model, method string) string {
	if model == territory.KindMC.String() {
		return ""
	}
	return method
}

// Estimate runs a territory estimate: the compute step of EstimateTask.
func (t *Territory) Estimate(ctx context.Context, model, method string, pos *game.Position) (*Ownership, error) {
	method = methodOf(model, method)
	if t.Started != nil {
		t.Started(ctx, "territory/"+model+"/"+method)
	}
	e, put, err := t.get(model, method, false)
	if err != nil {
		return nil, err
	}
	defer put()
	var m territory.Marginals
	if err := e.Estimate(ctx, pos, &m); err != nil {
		return nil, err
	}
	b := &pos.Board
	n := b.Size()
	o := &Ownership{
		Model: model, Method: method, Size: n, Komi: pos.Komi,
		Mean: make([]float64, n*n), Lives: make([]float64, n*n), Stones: make([]int16, n*n),
	}
	for _, p := range b.Points() {
		x, y := p.XY()
		i := y*n + x
		o.Mean[i] = m.Mean[p]
		o.Lives[i] = math.NaN()
		if lives, ok := territory.ChainSafety(b, &m, p); ok {
			o.Lives[i] = lives
			o.Stones[i] = int16(b.ChainSize(p))
		}
	}
	return o, nil
}

// EstimateTask makes the engine task of a territory estimate; deliver runs
// on the UI thread with its result.
func (t *Territory) EstimateTask(model, method string, deliver func(*Ownership, error)) engine.Task {
	method = methodOf(model, method)
	return engine.NewTask("territory/"+model+"/"+method,
		func(ctx context.Context, pos *game.Position) (*Ownership, error) {
			return t.Estimate(ctx, model, method, pos)
		},
		(*Ownership).bytes, deliver)
}

// Score estimates the win probability: the compute step of ScoreTask. It
// needs joint states, so it draws Swendsen-Wang states of the model
// whatever the estimate's method (territory.Estimator.Score), and one
// score serves every method.
func (t *Territory) Score(ctx context.Context, model string, pos *game.Position) (*ScoreResult, error) {
	if t.Started != nil {
		t.Started(ctx, "territory-score/"+model)
	}
	e, put, err := t.get(model, methodOf(model, DefaultTerritoryMethod), true)
	if err != nil {
		return nil, err
	}
	defer put()
	samples := scoreSamples
	if model == territory.KindMC.String() {
		samples = territory.DefaultMCPlayouts // as many as its estimate plays: ~25 ms
	}
	est, err := e.Score(ctx, pos, samples)
	if err != nil {
		return nil, err
	}
	return &ScoreResult{Model: model, Estimate: est}, nil
}

// ScoreTask makes the engine task of the win probability; deliver runs on
// the UI thread with its result.
func (t *Territory) ScoreTask(model string, deliver func(*ScoreResult, error)) engine.Task {
	return engine.NewTask("territory-score/"+model,
		func(ctx context.Context, pos *game.Position) (*ScoreResult, error) { return t.Score(ctx, model, pos) },
		(*ScoreResult).bytes, deliver)
}

// DrawSample draws one Swendsen-Wang state of the model on pos, with the
// bonds of its last move (Stern Fig. 5.6): territory.Estimator.Sample, so
// the state comes from the distribution the estimate shows (for
// boltzmann5+mc, its pool with the same playouts).
func (t *Territory) DrawSample(ctx context.Context, model, method string, seed uint64, pos *game.Position) (*Sample, error) {
	e, put, err := t.get(model, method, false)
	if err != nil {
		return nil, err
	}
	defer put()
	smp := new(territory.Sample)
	if err := e.Sample(ctx, pos, sampleBurnin, seed, smp); err != nil {
		return nil, err
	}
	n := pos.Board.Size()
	s := &Sample{Model: model, Seed: seed, Size: n, Owner: make([]int8, n*n), Right: make([]bool, n*n), Down: make([]bool, n*n)}
	for _, p := range pos.Board.Points() {
		x, y := p.XY()
		i := y*n + x
		s.Owner[i] = smp.S[p]
		s.Right[i], s.Down[i] = smp.Bond[p][territory.Right], smp.Bond[p][territory.Down]
	}
	return s, ctx.Err()
}

// SampleTask makes the engine task that draws a sample with seed; deliver
// runs on the UI thread with its result.
func (t *Territory) SampleTask(model, method string, seed uint64, deliver func(*Sample, error)) engine.Task {
	return engine.NewTask(fmt.Sprintf("territory-sample/%s/%d", model, seed),
		func(ctx context.Context, pos *game.Position) (*Sample, error) {
			return t.DrawSample(ctx, model, method, seed, pos)
		},
		(*Sample).bytes, deliver)
}
