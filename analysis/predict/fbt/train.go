package fbt

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"time"

	"aji/analysis/bt"
)

// Collect turns the games under path into competitions between the feature groups of the legal moves of
// the sampled positions, for model m (bt.Collect with the predictor's own groups); owner adds the Monte
// Carlo owner levels.
func Collect(ctx context.Context, path string, m *Model, owner bool, opt bt.CollectOptions) ([]*bt.Competitions, bt.CollectStats, error) {
	return bt.Collect(ctx, path, len(m.W), func() bt.TeamBuilder { return newTeams(m, owner) }, opt)
}

// TrainOptions are the settings of SGD (Xiao §4.1.1's by default).
type TrainOptions struct {
	Alpha   float64 // learning rate (default 0.001)
	LambdaW float64 // L2 regularization of w (default 0.001)
	LambdaV float64 // L2 regularization of v (default 0.002)
	// Samples is m of FBT_Sm, the sampled approximate gradient (eq. 3.13); 0 takes the full gradient.
	Samples int
	Seed    uint64 // the shuffles and the samples; pass p shuffles with (Seed, p), so a resumed run repeats
	// MaxPasses bounds the passes over the data (default 100); Patience stops training once the
	// validation top-1 has not improved for that many passes (default 3).
	MaxPasses, Patience int
	Workers             int // goroutines for validation (default GOMAXPROCS)
	// Best is, when resuming from a checkpoint, the best model of the run so far (nil: none yet).
	Best *Model
	// Only, if set, says which features SGD may change; the others stay as they are (an owner stage
	// fits the Monte Carlo owner levels around a trained model, as Coulom §3.5 suggests for slow
	// features).
	Only func(f int32) bool
	// Progress, if set, is called as positions are trained on (from the training goroutine).
	Progress func(positions int)
	// Pass, if set, is called after each pass with the model as it is then, and whether it is the best
	// so far; a checkpoint is saved here.
	Pass func(PassResult, *Model)
}

// PassResult reports one pass over the training data.
type PassResult struct {
	N        int     // passes done in all, a resumed run's included
	Loss     float64 // mean −log P of the expert's move over the pass, before each step (eq. 3.4)
	Top1     float64 // validation top-1 after the pass
	LogEv    float64 // validation mean log-probability of the expert's move
	Best     bool
	Duration time.Duration // the pass's SGD and its validation
}

// InitV draws the interaction vectors at random, N(0, std²), as factorization machines start (w stays 0).
func (m *Model) InitV(seed uint64, std float64) {
	rng := rand.New(rand.NewPCG(seed, 0xfb7))
	for i := range m.V {
		m.V[i] = float32(rng.NormFloat64() * std)
	}
}

// Train runs SGD (Xiao Algorithm 1) on data from m's parameters, one step per competition in a shuffled
// order, until the top-1 on validation has not improved for Patience passes; m ends with the best
// weights seen (its Top1 and Passes set). Passes resume from m.Passes. SGD runs on one goroutine: a
// position's step costs O(k·Σ|G|), ~50 µs, and parallel steps would race on the shared features (every
// move has a 3x3 class and a distance level) — validation, which only reads, uses every core.
func Train(ctx context.Context, data, validation []*bt.Competitions, m *Model, opt TrainOptions) error {
	if opt.Alpha <= 0 {
		opt.Alpha = 0.001
	}
	if opt.LambdaW <= 0 {
		opt.LambdaW = 0.001
	}
	if opt.LambdaV <= 0 {
		opt.LambdaV = 0.002
	}
	if opt.MaxPasses <= 0 {
		opt.MaxPasses = 100
	}
	if opt.Patience <= 0 {
		opt.Patience = 3
	}
	type ref struct{ shard, j int32 }
	var order []ref
	ordered := func() { // the data's own order, which each pass shuffles afresh
		order = order[:0]
		for s, d := range data {
			for j := range d.Len() {
				order = append(order, ref{int32(s), int32(j)})
			}
		}
	}
	best := &Model{Top1: -1}
	keep := func(from *Model) {
		best.W, best.V = append(best.W[:0], from.W...), append(best.V[:0], from.V...)
		best.Top1, best.Passes = from.Top1, from.Passes
	}
	stale := 0
	if opt.Best != nil {
		keep(opt.Best)
		stale = m.Passes - opt.Best.Passes
	}
	restore := func() { // m takes the best weights, if a pass has been judged
		if best.Top1 >= 0 {
			m.W, m.V, m.Top1, m.Passes = best.W, best.V, best.Top1, best.Passes
		}
	}
	sgd := newStepper(m, opt)
	for pass := m.Passes + 1; pass <= opt.MaxPasses && stale < opt.Patience; pass++ {
		start := time.Now()
		ordered()
		rng := rand.New(rand.NewPCG(opt.Seed, uint64(pass)))
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		sgd.rng = rng
		loss := 0.0
		for i, r := range order {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					restore()
					return err
				}
				if opt.Progress != nil && i > 0 {
					opt.Progress(1024)
				}
			}
			loss += sgd.step(data[r.shard], int(r.j))
		}
		m.Passes = pass
		res := Evaluate(validation, m, opt.Workers)
		m.Top1 = res.Top1
		pr := PassResult{N: pass, Loss: loss / float64(max(len(order), 1)), Top1: res.Top1, LogEv: res.LogEvidence,
			Duration: time.Since(start)}
		if m.Top1 > best.Top1 {
			keep(m)
			pr.Best, stale = true, 0
		} else {
			stale++
		}
		if opt.Pass != nil {
			opt.Pass(pr, m)
		}
	}
	restore()
	return nil
}

// stepper holds the scratch of SGD steps, so a step allocates nothing once warm.
type stepper struct {
	m   *Model
	opt TrainOptions
	rng *rand.Rand

	e, p    []float64 // per team of the competition: strength, then probability
	sum     []float64 // per team: Σ_f v_fq, q < k
	cum     []float64 // cumulative probabilities, for sampling
	gw, gv  []float64 // the gradient, dense over the features; only touched entries are non-zero
	touched []int32
	mark    []uint32 // mark[f] == stamp: f is in touched
	stamp   uint32
}

func newStepper(m *Model, opt TrainOptions) *stepper {
	n := len(m.W)
	return &stepper{m: m, opt: opt, gw: make([]float64, n), gv: make([]float64, n*m.K), mark: make([]uint32, n)}
}

// step takes one SGD step on competition j of c and returns its loss l_j (eq. 3.4) before the step.
func (s *stepper) step(c *bt.Competitions, j int) float64 {
	loss := s.gradient(c, j)
	s.apply()
	return loss
}

// gradient puts ∇l_j of competition j of c in gw and gv (their entries of the features in touched) and
// returns l_j.
func (s *stepper) gradient(c *bt.Competitions, j int) float64 {
	m, k := s.m, s.m.K
	lo, hi, win := c.Competition(j)
	n := hi - lo
	s.e = grow(s.e, n)
	s.p = grow(s.p, n)
	s.sum = grow(s.sum, n*k)
	top := math.Inf(-1)
	for t := range n {
		team, _ := c.Team(lo + t)
		s.e[t] = m.Strength(team, s.sum[t*k:])
		top = max(top, s.e[t])
	}
	z := 0.0
	for t := range n {
		_, w := c.Team(lo + t)
		s.p[t] = float64(w) * math.Exp(s.e[t]-top)
		z += s.p[t]
	}
	for t := range n {
		s.p[t] /= z
	}
	loss := -(s.e[win-lo] - top) + math.Log(z)

	// ∇l_j (eqs. 3.8–3.9): −h of the winner's group plus the expectation of h under the model, with
	// h = 1 for w_f and h = Σ_{g∈G, g≠f} v_gq = sum_q − v_fq for v_fq, f ∈ G (the full derivative of
	// eq. 3.1: the thesis's h carries a factor ½ that its own eq. 3.1 does not give).
	s.stamp++
	s.touched = s.touched[:0]
	s.addGroup(c, lo, win-lo, -1)
	if draws := s.opt.Samples; draws > 0 {
		// FBT_Sm (eq. 3.13): m groups drawn from the model's P_j in place of the expectation.
		s.cum = grow(s.cum, n)
		acc := 0.0
		for t := range n {
			acc += s.p[t]
			s.cum[t] = acc
		}
		for range draws {
			t := sort.SearchFloat64s(s.cum[:n], s.rng.Float64()*acc)
			s.addGroup(c, lo, min(t, n-1), 1/float64(draws))
		}
	} else {
		for t := range n {
			s.addGroup(c, lo, t, s.p[t])
		}
	}
	return loss
}

// apply takes the step from the gradient, and clears it.
func (s *stepper) apply() {
	m, k := s.m, s.m.K
	// θ ← θ − α(∇l_j + λθ) on the parameters of the features in play (regularizing only those, as
	// sparse SGD does: the others' gradient is λθ alone, applied when they next appear).
	a, lw, lv := s.opt.Alpha, s.opt.LambdaW, s.opt.LambdaV
	for _, f := range s.touched {
		if s.opt.Only != nil && !s.opt.Only(f) {
			s.gw[f] = 0
			clear(s.gv[int(f)*k : int(f)*k+k])
			continue
		}
		w := float64(m.W[f])
		m.W[f] = float32(w - a*(s.gw[f]+lw*w))
		s.gw[f] = 0
		v, g := m.V[int(f)*k:int(f)*k+k], s.gv[int(f)*k:int(f)*k+k]
		for q := range v {
			x := float64(v[q])
			v[q] = float32(x - a*(g[q]+lv*x))
			g[q] = 0
		}
	}
}

// addGroup adds coef·h of team t (of the competition starting at team lo) to the gradient.
func (s *stepper) addGroup(c *bt.Competitions, lo, t int, coef float64) {
	m, k := s.m, s.m.K
	team, _ := c.Team(lo + t)
	sum := s.sum[t*k : t*k+k]
	for _, f := range team {
		if s.mark[f] != s.stamp {
			s.mark[f] = s.stamp
			s.touched = append(s.touched, f)
		}
		s.gw[f] += coef
		v, g := m.V[int(f)*k:int(f)*k+k], s.gv[int(f)*k:int(f)*k+k]
		for q := range g {
			g[q] += coef * (sum[q] - float64(v[q]))
		}
	}
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n, 2*n)
	}
	return b[:n]
}

// Result is a model's move prediction on competitions.
type Result struct {
	Positions   int
	Top1        float64 // the expert's move ranked first, ties shared
	LogEvidence float64 // mean log P of the expert's move
}

// Evaluate measures m on data with workers goroutines (0: GOMAXPROCS). An expert's move tied for first
// with t others counts 1/(t+1).
func Evaluate(data []*bt.Competitions, m *Model, workers int) Result {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type part struct{ top1, logEv float64 }
	parts := make([]part, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e, sum []float64
			sum = make([]float64, MaxK)
			i := 0
			for _, d := range data {
				for j := range d.Len() {
					i++
					if i%workers != w {
						continue
					}
					lo, hi, win := d.Competition(j)
					e = grow(e, hi-lo)
					top := math.Inf(-1)
					for t := range hi - lo {
						team, _ := d.Team(lo + t)
						e[t] = m.Strength(team, sum)
						top = max(top, e[t])
					}
					z, ties, above := 0.0, 0.0, false
					ew := e[win-lo]
					for t := range hi - lo {
						_, wt := d.Team(lo + t)
						z += float64(wt) * math.Exp(e[t]-top)
						switch {
						case t == win-lo:
						case e[t] > ew:
							above = true
						case e[t] == ew:
							ties += float64(wt)
						}
					}
					if !above {
						parts[w].top1 += 1 / (1 + ties)
					}
					parts[w].logEv += ew - top - math.Log(z)
				}
			}
		}()
	}
	wg.Wait()
	var r Result
	for _, d := range data {
		r.Positions += d.Len()
	}
	for _, p := range parts {
		r.Top1 += p.top1
		r.LogEvidence += p.logEv
	}
	if r.Positions > 0 {
		r.Top1 /= float64(r.Positions)
		r.LogEvidence /= float64(r.Positions)
	}
	return r
}
