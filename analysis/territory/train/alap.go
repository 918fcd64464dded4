package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"aji/analysis/territory"
)

// Method is a training method. Its String is the name used on the command line.
type Method int

const (
	MAP Method = iota + 1 // maximum a posteriori, eq. 5.12 with the prior eq. 5.13
	CD                    // contrastive divergence, eq. 5.15, one Swendsen-Wang step from the labels
)

var methodNames = [...]string{MAP: "map", CD: "cd"}

func (m Method) String() string {
	if m > 0 && int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod reads "map" or "cd".
func ParseMethod(s string) (Method, error) {
	for i, n := range methodNames {
		if i > 0 && n == s {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("train: unknown method %q (map, cd)", s)
}

// Options configure Train. Zero fields take the defaults named.
type Options struct {
	Method Method // MAP (default) or CD
	// Inference gives MAP's model expectations: territory.MethodSW (default; persistent Swendsen-Wang
	// chains, Rao-Blackwellised), MethodExact or MethodLBP.
	Inference  territory.Method
	Iterations int     // gradient steps; 300
	Batch      int     // examples per step, cycling through the data in a fixed shuffled order; 0: all
	Sweeps     int     // MAP with territory.MethodSW: sweeps per example and step, averaged; 2
	Alpha      float64 // prior precision α of eq. 5.13 over the whole data set; Stern's CD value 0.001
	Step       float64 // first step of every parameter, in parameter units; 0.1
	Mu, Gamma  float64 // ALAP meta-parameters (§5.4.3); Stern's 0.9 and 0.01
	// Average is the fraction of the last steps whose parameters are averaged into the result; 0 gives
	// 0.25 with sampled gradients (sw, cd) and none with deterministic ones (exact, lbp); < 0 none.
	Average float64
	Seed    uint64
	Workers int // goroutines; 1 when < 1
	// Progress, when set, is called after every step; an error from it stops training.
	Progress func(Step) error
}

// Step reports one gradient step.
type Step struct {
	N        int       // 1-based
	Params   []float64 // after the step (not a copy: read it during the call)
	GradNorm float64   // Euclidean norm of the mean gradient per position
	// LogLik is the mean log-likelihood per position of the step's examples, log p(ŝ_L|c), with exact
	// inference; NaN with the other methods.
	LogLik float64
}

func (o *Options) defaults() error {
	if o.Method == 0 {
		o.Method = MAP
	}
	if o.Inference == 0 {
		o.Inference = territory.MethodSW
	}
	switch o.Method {
	case MAP:
		switch o.Inference {
		case territory.MethodExact, territory.MethodLBP, territory.MethodSW:
		default:
			return fmt.Errorf("train: no MAP expectations by %v (exact, lbp, sw)", o.Inference)
		}
	case CD:
	default:
		return fmt.Errorf("train: unknown training method %v (map, cd)", o.Method)
	}
	if o.Iterations <= 0 {
		o.Iterations = 300
	}
	if o.Sweeps <= 0 {
		o.Sweeps = 2
	}
	if o.Alpha == 0 {
		o.Alpha = 0.001
	}
	if o.Step <= 0 {
		o.Step = 0.1
	}
	if o.Mu == 0 {
		o.Mu = 0.9
	}
	if o.Gamma == 0 {
		o.Gamma = 0.01
	}
	if o.Average == 0 && (o.Method == CD || o.Inference == territory.MethodSW) {
		o.Average = 0.25
	}
	o.Average = max(o.Average, 0)
	o.Workers = max(o.Workers, 1)
	return nil
}

// Trainer fits one parameter vector of a model kind to a set of examples.
type Trainer struct {
	d     *design
	data  []*prepared
	Drops int // examples dropped: a neutral component too large to enumerate
	works []*work
	ising [][4]float64
	maxN  int
}

// NewTrainer prepares the examples for a model kind.
func NewTrainer(kind territory.Kind, data []Example, seed uint64) (*Trainer, error) {
	d, err := newDesign(kind)
	if err != nil {
		return nil, err
	}
	t := &Trainer{d: d, ising: make([][4]float64, d.k*d.k)}
	for i := range data {
		p, err := d.prepare(&data[i], seed, i)
		if errors.Is(err, errBigDame) {
			t.Drops++
			continue
		}
		if err != nil {
			return nil, err
		}
		t.data = append(t.data, p)
		t.maxN = max(t.maxN, p.N)
	}
	if len(t.data) == 0 {
		return nil, fmt.Errorf("train: no training examples")
	}
	return t, nil
}

// Len is the number of examples kept.
func (t *Trainer) Len() int { return len(t.data) }

func (t *Trainer) workers(n int) []*work {
	for len(t.works) < n {
		t.works = append(t.works, newWork(t.d, t.maxN))
	}
	return t.works[:n]
}

// Train fits the parameters from init (zeros when nil) by gradient ascent with ALAP step sizes
// (Stern §5.4.3) and returns them.
//
// ALAP (Almeida et al. 1998) as used here: θ_i += δ_i ∇_i; δ_i ← δ_i·(1 + γ ∇_i^n ∇_i^{n−1} / τ_i) with
// τ_i ← μ τ_i + (1 − μ)(∇_i^n)², the running mean square of the gradient. Stern prints an additive δ
// update and τ as the running mean of ∇^n ∇^{n−1}; that τ can be zero or negative, and Almeida's
// multiplicative form with the mean square is the one that is scale-free, so we use it (the factor is
// kept in [0.5, 2]). The first step of every parameter is Step in parameter units, δ_i = Step/|∇_i^1|, and
// no step moves a parameter further than Step.
// The result is the mean of the parameters over the last Average of the steps (Polyak averaging), which
// removes most of the noise of sampled gradients.
func (t *Trainer) Train(ctx context.Context, init []float64, o Options) ([]float64, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	n := t.d.n
	theta := make([]float64, n)
	if init != nil {
		if len(init) != n {
			return nil, fmt.Errorf("train: %s has %d parameters, got %d", t.d.kind, n, len(init))
		}
		copy(theta, init)
	}
	order := make([]int, len(t.data))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(o.Seed, 99))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	batch := o.Batch
	if batch <= 0 || batch > len(order) {
		batch = len(order)
	}
	delta := make([]float64, n)
	tau := make([]float64, n)
	prev := make([]float64, n)
	avg := make([]float64, n)
	avgFrom := o.Iterations - int(float64(o.Iterations)*o.Average)
	navg := 0
	pos := 0
	idx := make([]int, batch)
	for it := 1; it <= o.Iterations; it++ {
		for b := range idx {
			idx[b] = order[pos]
			pos = (pos + 1) % len(order)
		}
		grad, ll, err := t.Gradient(ctx, theta, idx, o)
		if err != nil {
			return nil, err
		}
		var norm float64
		for k, g := range grad {
			norm += g * g
			if it == 1 {
				tau[k] = g * g
				delta[k] = o.Step / max(math.Abs(g), 1e-9)
			} else {
				tau[k] = o.Mu*tau[k] + (1-o.Mu)*g*g
				if tau[k] > 0 {
					delta[k] *= min(2, max(0.5, 1+o.Gamma*g*prev[k]/tau[k]))
				}
			}
			// A trust region: no parameter moves more than Step at once, so that one unlucky sampled
			// gradient after the step sizes have grown cannot throw the parameters far. A capped step
			// also caps δ: otherwise δ, far above what the step used, would keep the step at the cap
			// while ALAP's slow (γ = 0.01) shrinking catches up, and a stiff direction — w_empty early
			// in the game, near the Ising critical coupling — would oscillate by ±Step for hundreds of
			// steps.
			if math.Abs(delta[k]*g) > o.Step {
				delta[k] = o.Step / math.Abs(g)
			}
			theta[k] += delta[k] * g
			prev[k] = g
		}
		if it > avgFrom {
			navg++
			for k, v := range theta {
				avg[k] += (v - avg[k]) / float64(navg)
			}
		}
		if o.Progress != nil {
			if err := o.Progress(Step{N: it, Params: theta, GradNorm: math.Sqrt(norm), LogLik: ll}); err != nil {
				return nil, err
			}
		}
	}
	if navg == 0 {
		return theta, nil
	}
	return avg, nil
}
