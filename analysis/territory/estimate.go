package territory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
)

// Defaults of the samplers and of boltzmann5+mc, each the cheapest setting that reached the accuracy
// measured in docs/notes/territory-defaults.md: SW's mean error of E[s] ~0.01 after 3000 sweeps (~40 ms);
// Gibbs, which thaws slowly, is Fig. 5.5's baseline rather than a method for interactive use.
const (
	DefaultSWSweeps    = 3000
	DefaultGibbsSweeps = 2000
	DefaultBurnin      = 100
	// DefaultScoreSamples is the number of Swendsen-Wang states (or playouts, for mc) behind a win
	// probability: a standard error of 0.011 for independent states.
	DefaultScoreSamples = 2000
	// DefaultMCWeight and DefaultModelWeight are β and α of boltzmann5+mc (see Estimator.MCWeight), with
	// the pattern playouts of DefaultPooledPolicy: the Boltzmann factor is flattened to a fifth, since the
	// near-critical couplings over-polarise once every point has a field. Tuned on training games.
	DefaultMCWeight    = 1.0
	DefaultModelWeight = 0.2
	// DefaultPooledPlayouts and DefaultPooledPolicy are the playouts of boltzmann5+mc: 512 did as well
	// as 1024 on training games; a position takes ~0.5 s on a busy core, as GNU Go's estimate does.
	DefaultPooledPlayouts = 1024
	DefaultPooledPolicy   = mcts.PolicyPattern
)

// Estimator is the one entry point to territory estimation for the command line, the app and GTP: a
// model (a Boltzmann model with its trained parameters, mc, or boltzmann5+mc) with an inference
// method, and the scratch of every method. Set its exported fields before use to change the defaults.
// It is not safe for concurrent use; use one per goroutine.
type Estimator struct {
	Model  Kind   // one of EstimatorKinds
	Method Method // one of Methods; 0 for mc

	Sweeps int    // sweeps averaged by gibbs and sw
	Burnin int    // sweeps discarded first
	Seed   uint64 // seed of the samplers (MC.Seed seeds the playouts)
	// Chains is the number of independent Swendsen-Wang chains run on as many goroutines, each with
	// Sweeps/Chains sweeps after its own burn-in; ≤ 1 runs one chain on the caller's goroutine.
	Chains int
	// MC plays the rollouts of mc and boltzmann5+mc; set MC.Playouts, MC.Policy and MC.Workers to
	// change them.
	MC MC
	// MCWeight is β of boltzmann5+mc: p(s|c) ∝ p_B5(s|c) · Π_i q_i(s_i)^β, a log-linear pool of the
	// Boltzmann model with the rollout marginals q_i, which adds β·atanh(E_mc[s_i]) to each field h_i.
	MCWeight float64
	// ModelWeight is α of boltzmann5+mc, the power of the Boltzmann factor in the pool:
	// p(s|c) ∝ p_B5(s|c)^α · Π_i q_i(s_i)^β.
	ModelWeight float64

	trained *Trained
	models  []Model // trained.At of each phase, made once: a Model made per position would allocate
	f       Field
	infer   [MethodSW + 1]Inferer // the implementation of each Method
	gibbs   Gibbs
	sw      swChains
	mcm     Marginals
}

// NewEstimator returns an Estimator for a model kind and an inference method, with the model's default
// trained parameters (DefaultTrained). The method is ignored for mc.
func NewEstimator(model Kind, method Method) (*Estimator, error) {
	kind := model
	switch model {
	case KindMC:
		return newEstimator(model, method, nil)
	case KindBoltzmann5MC:
		kind = KindBoltzmann5
	}
	t, err := DefaultTrained(kind)
	if err != nil {
		return nil, err
	}
	return newEstimator(model, method, t)
}

// NewTrainedEstimator returns an Estimator for an explicit trained Boltzmann model (for example one read
// with LoadTrained) and an inference method.
func NewTrainedEstimator(t *Trained, method Method) (*Estimator, error) {
	if t == nil {
		return nil, fmt.Errorf("territory: no trained model")
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	return newEstimator(t.Kind, method, t)
}

func newEstimator(model Kind, method Method, t *Trained) (*Estimator, error) {
	e := &Estimator{Model: model, Method: method, Burnin: DefaultBurnin, Seed: 1, trained: t, MCWeight: DefaultMCWeight, ModelWeight: DefaultModelWeight}
	if t != nil {
		for _, mv := range t.Moves {
			e.models = append(e.models, t.At(mv))
		}
	}
	if model == KindMC {
		e.Method = 0
		return e, nil
	}
	if model == KindBoltzmann5MC {
		e.MC.Playouts, e.MC.Policy = DefaultPooledPlayouts, DefaultPooledPolicy
	}
	switch method {
	case MethodExact, MethodLBP:
	case MethodGibbs:
		e.Sweeps = DefaultGibbsSweeps
	case MethodSW:
		e.Sweeps = DefaultSWSweeps
	default:
		return nil, fmt.Errorf("territory: unknown method %v (%s)", method, strings.Join(Names(Methods), ", "))
	}
	e.infer = [...]Inferer{MethodExact: &Exact{}, MethodLBP: NewLBP(), MethodGibbs: &e.gibbs, MethodSW: &e.sw}
	return e, nil
}

// Estimate writes the expected owner E[s_p] of every point of pos into m.Mean (+1 Black) and, for the
// Boltzmann models, E[s_p s_q] of neighbouring points into m.Pair (mc leaves m.Pair 0). Boltzmann
// models with one parameter vector per game phase use the phase nearest pos.MoveNumber (Table 5.1).
// It returns ctx.Err() promptly, leaving m unspecified, when ctx ends a long run.
func (e *Estimator) Estimate(ctx context.Context, pos *game.Position, m *Marginals) error {
	if e.Model == KindMC {
		return e.MC.Run(ctx, pos, m)
	}
	if err := e.field(ctx, pos); err != nil {
		return err
	}
	if e.Method < MethodExact || e.Method > MethodSW {
		return fmt.Errorf("territory: unknown method %v", e.Method)
	}
	e.gibbs.Options = e.options(e.Sweeps)
	e.sw.set(e, e.Sweeps, false)
	return e.infer[e.Method].Infer(ctx, &e.f, m)
}

// Field writes into f the field that Estimate and Score infer on for pos: the Boltzmann model of pos's
// phase and, for boltzmann5+mc, its pool with the rollout ownership (ModelWeight, MCWeight). mc has none.
func (e *Estimator) Field(ctx context.Context, pos *game.Position, f *Field) error {
	if e.Model == KindMC {
		return fmt.Errorf("territory: %s has no field", KindMC)
	}
	if err := e.field(ctx, pos); err != nil {
		return err
	}
	*f = e.f
	return nil
}

// Sample draws one state of the estimator's distribution on pos, whatever its method: burnin
// Swendsen-Wang sweeps on Field's field from a start seeded by seed, and the state with the bonds of the
// last move (Stern Fig. 5.6). mc has no joint distribution to sample.
func (e *Estimator) Sample(ctx context.Context, pos *game.Position, burnin int, seed uint64, out *Sample) error {
	if e.Model == KindMC {
		return fmt.Errorf("territory: %s has no joint distribution to sample", KindMC)
	}
	if err := e.field(ctx, pos); err != nil {
		return err
	}
	e.sw.grow(1)
	e.sw.sw[0].Sample(&e.f, burnin, seed, out)
	return ctx.Err()
}

// field builds the Field of pos into e.f: the one home of the pool of boltzmann5+mc.
func (e *Estimator) field(ctx context.Context, pos *game.Position) error {
	e.modelAt(pos.MoveNumber).Field(&pos.Board, &e.f)
	if e.Model != KindBoltzmann5MC {
		return nil
	}
	if err := e.MC.Run(ctx, pos, &e.mcm); err != nil {
		return err
	}
	// Laplace's rule keeps |E_mc[s]| < 1, so atanh is finite.
	for _, p := range pos.Board.Points() {
		e.f.H[p] = e.ModelWeight*e.f.H[p] + e.MCWeight*math.Atanh(e.mcm.Mean[p])
		e.f.W[p][0] *= e.ModelWeight
		e.f.W[p][1] *= e.ModelWeight
	}
	return nil
}

// modelAt is the model of the phase nearest move, as Trained.At chooses it.
func (e *Estimator) modelAt(move int) Model {
	best := 0
	for i, m := range e.trained.Moves {
		if abs(m-move) < abs(e.trained.Moves[best]-move) {
			best = i
		}
	}
	return e.models[best]
}

// options are the Rao-Blackwellised sample options of e for a number of sweeps.
func (e *Estimator) options(sweeps int) SampleOptions {
	return SampleOptions{Burnin: e.Burnin, Sweeps: sweeps, Seed: e.Seed, RaoBlack: true}
}

// swChains is the Inferer of MethodSW in the Estimator: Chains independent Swendsen-Wang chains on as
// many goroutines, their marginals averaged. With Trace each chain keeps its magnetisation after every
// sweep (for Score).
type swChains struct {
	Options SampleOptions // for all the sweeps: each chain runs Sweeps/Chains, chain j with seed Seed+j
	Chains  int
	Trace   bool
	sw      []SW
	m       []Marginals
}

// set configures c from e for a number of sweeps in all.
func (c *swChains) set(e *Estimator, sweeps int, trace bool) {
	c.Options, c.Chains, c.Trace = e.options(sweeps), e.Chains, trace
}

func (c *swChains) grow(k int) {
	if len(c.sw) < k {
		c.sw, c.m = make([]SW, k), make([]Marginals, k)
	}
}

// Infer implements Inferer.
func (c *swChains) Infer(ctx context.Context, f *Field, m *Marginals) error {
	k := max(1, c.Chains)
	c.grow(k)
	per := max(1, (c.Options.Sweeps+k-1)/k)
	if k == 1 {
		if err := c.run(ctx, f, 0, per); err != nil {
			return err
		}
		*m = c.m[0]
		return nil
	}
	errs := make([]error, k)
	var wg sync.WaitGroup
	for j := range k {
		wg.Go(func() { errs[j] = c.run(ctx, f, j, per) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return ctx.Err()
	}
	*m = c.m[0]
	for j := 1; j < k; j++ {
		for _, p := range board.PointsOf(m.Size) {
			m.Mean[p] += c.m[j].Mean[p]
			m.Pair[p][0] += c.m[j].Pair[p][0]
			m.Pair[p][1] += c.m[j].Pair[p][1]
		}
	}
	inv := 1 / float64(k)
	for _, p := range board.PointsOf(m.Size) {
		m.Mean[p] *= inv
		m.Pair[p][0] *= inv
		m.Pair[p][1] *= inv
	}
	return nil
}

// run runs chain j: seed Seed+j, so that the result does not depend on scheduling.
func (c *swChains) run(ctx context.Context, f *Field, j, sweeps int) error {
	c.sw[j].TraceMagnetisation = c.Trace
	o := c.Options
	o.Sweeps, o.Seed = sweeps, o.Seed+uint64(j)
	return c.sw[j].RunContext(ctx, f, &c.m[j], o)
}

// ScoreEstimate is the evaluation of a position by its territory distribution (Stern §5.1.1), by area,
// komi included, positive when Black is ahead.
type ScoreEstimate struct {
	Mean       float64 // expected score u_score = Σ_i E[s_i] − komi
	StdDev     float64 // standard deviation of the score over the samples
	PBlackWins float64 // u_win = p(Σ_i s_i − komi > 0), a tie counting half
	Samples    int     // samples behind StdDev and PBlackWins
}

// Score evaluates pos: the expected area score from the marginals of the estimator's method, and the
// win probability from the distribution of Σ_i s_i over samples (≤ 0: DefaultScoreSamples) joint
// states of the model — Swendsen-Wang states whatever the method, since exact inference and LBP give
// marginals only — or, for mc, over that many playouts, whose own mean score is then the expectation.
func (e *Estimator) Score(ctx context.Context, pos *game.Position, samples int) (ScoreEstimate, error) {
	if samples <= 0 {
		samples = DefaultScoreSamples
	}
	komi := pos.Komi
	var est ScoreEstimate
	var scores []float64
	if e.Model == KindMC {
		playouts := e.MC.Playouts
		e.MC.Playouts = samples
		var m Marginals
		err := e.MC.Run(ctx, pos, &m)
		e.MC.Playouts = playouts
		if err != nil {
			return est, err
		}
		for _, s := range e.MC.Scores() {
			scores = append(scores, float64(s))
		}
		return scoreStats(scores, komi), nil
	}
	var m Marginals
	if e.Method == MethodSW {
		// One run gives both: the Rao-Blackwellised marginals and the magnetisation of every sweep.
		if err := e.field(ctx, pos); err != nil {
			return est, err
		}
		e.sw.set(e, max(samples, e.Sweeps), true)
		if err := e.sw.Infer(ctx, &e.f, &m); err != nil {
			return est, err
		}
	} else {
		if err := e.Estimate(ctx, pos, &m); err != nil {
			return est, err
		}
		e.sw.set(e, samples, true)
		if err := e.sw.Infer(ctx, &e.f, &Marginals{}); err != nil {
			return est, err
		}
	}
	for j := range max(1, e.Chains) {
		scores = append(scores, e.sw.sw[j].Magnetisation()...)
	}
	est = scoreStats(scores, komi)
	est.Mean = -komi
	for _, p := range pos.Board.Points() {
		est.Mean += m.Mean[p]
	}
	return est, nil
}

// scoreStats summarises sampled area scores (before komi).
func scoreStats(scores []float64, komi float64) ScoreEstimate {
	est := ScoreEstimate{Samples: len(scores)}
	if len(scores) == 0 {
		return est
	}
	var sum, sq, win float64
	for _, s := range scores {
		d := s - komi
		sum += d
		sq += d * d
		switch {
		case d > 0:
			win++
		case d == 0:
			win += 0.5
		}
	}
	n := float64(len(scores))
	est.Mean = sum / n
	est.StdDev = math.Sqrt(max(0, sq/n-est.Mean*est.Mean))
	est.PBlackWins = win / n
	return est
}

// ChainSafety is the probability that the chain of the stone at p lives (Stern §5.1.3): that its
// stones end as its colour's area, p(s_i = colour), averaged over its stones. The stones of a chain are
// coupled so strongly (w_chains ≈ 2–3) that their marginals agree to within sampling error, so the
// average is the chain's own marginal. It reports false when p holds no stone.
func ChainSafety(b *board.Board, m *Marginals, p board.Point) (float64, bool) {
	c := b.At(p)
	if c != board.Black && c != board.White {
		return 0, false
	}
	sign := 1.0
	if c == board.White {
		sign = -1
	}
	var sum float64
	n := 0
	q := p
	for {
		sum += (1 + sign*m.Mean[q]) / 2
		n++
		if q = b.NextStone(q); q == p {
			break
		}
	}
	return sum / float64(n), true
}
