package cnn

import (
	"fmt"
	"math"

	"aji/analysis/feature"
	"aji/internal/sgemm"
)

// Batch is a minibatch of encoded training positions, all of one n×n board: Input holds the planes
// channel-major over the batch (conv.go's layout, the legal-move plane feature.PlaneLegal among them)
// and Target each position's expert move as y·n + x in the frame of its encoding.
type Batch struct {
	N      int // board size
	Size   int // positions
	Input  []float32
	Target []int32
}

// Optimizer chooses the update rule.
type Optimizer struct {
	Method      string  // "momentum" (SGD with momentum) or "adam" (Kingma & Ba 2015)
	LR          float64 // learning rate
	Momentum    float64 // momentum's μ, or Adam's β1
	Beta2       float64 // Adam's β2
	WeightDecay float64 // L2 penalty on the convolution weights
}

// DefaultOptimizer is Adam at the paper's first learning rate: on 60,000 positions it beat SGD with
// momentum at 1e-3 and 1e-2 (docs/notes/cnn-optimizers).
var DefaultOptimizer = Optimizer{Method: "adam", LR: 1e-3, Momentum: 0.9, Beta2: 0.999, WeightDecay: 1e-4}

// bnMomentum is the weight of a batch's statistics in the running mean and variance (PyTorch's default;
// a batch of 128 positions is 46,208 points per channel, so its statistics are precise).
const bnMomentum = 0.1

// Trainer fits a network by minibatch gradient descent on the cross-entropy of the expert's move, the
// softmax taken over the legal moves (§3.3). Its buffers are sized for one batch size and board; a
// different one reallocates them.
type Trainer struct {
	Net     *Net // its Steps and Seen count the updates made (Adam's bias correction uses them) and the positions
	Opt     Optimizer
	Workers int

	params, grads, m, v [][]float32 // trainable tensors and their gradients and optimiser state
	decay               []bool      // which tensors the weight decay applies to

	batch, n    int
	x           [][]float32 // x[i]: the input of layer i (x[0] the planes), channel-major
	xhat        [][]float32 // hidden layer i's normalised pre-activations
	invStd      [][]float32 // hidden layer i's 1/σ per channel
	cols, dcols []float32
	dx, dprev   []float32
	dlogits     []float32
}

// NewTrainer makes a trainer of net.
func NewTrainer(net *Net, opt Optimizer, workers int) *Trainer {
	t := &Trainer{Net: net, Opt: opt, Workers: max(1, workers)}
	for _, l := range net.L {
		t.params = append(t.params, l.W)
		t.decay = append(t.decay, true)
		if l.Bias != nil {
			t.params = append(t.params, l.Bias)
			t.decay = append(t.decay, false)
		} else {
			t.params = append(t.params, l.Gamma, l.Beta)
			t.decay = append(t.decay, false, false)
		}
	}
	for _, p := range t.params {
		t.grads = append(t.grads, make([]float32, len(p)))
		t.m = append(t.m, make([]float32, len(p)))
		t.v = append(t.v, make([]float32, len(p)))
	}
	return t
}

// size allocates the buffers for a batch of the given size and board.
func (t *Trainer) size(batch, n int) {
	if t.batch == batch && t.n == n {
		return
	}
	t.batch, t.n = batch, n
	bn := batch * n * n
	L := t.Net.L
	t.x, t.xhat, t.invStd = make([][]float32, len(L)), make([][]float32, len(L)-1), make([][]float32, len(L)-1)
	maxRows, maxC := 0, 0
	for i, l := range L {
		if i > 0 {
			t.x[i] = make([]float32, l.In*bn)
		}
		if i < len(L)-1 {
			t.xhat[i] = make([]float32, l.Out*bn)
			t.invStd[i] = make([]float32, l.Out)
		}
		maxRows = max(maxRows, l.In*l.K*l.K)
		maxC = max(maxC, l.In, l.Out)
	}
	t.cols, t.dcols = make([]float32, maxRows*bn), make([]float32, maxRows*bn)
	t.dx, t.dprev = make([]float32, maxC*bn), make([]float32, maxC*bn)
	t.dlogits = make([]float32, bn)
}

// Result is what one batch scored before the update.
type Result struct {
	Loss    float64 // mean cross-entropy of the expert moves, nats
	Correct int     // positions whose expert move had the highest probability
}

// Train makes one update on b and returns how the network did on it before the update.
func (t *Trainer) Train(b *Batch) Result {
	r := t.forward(b, true)
	t.backward(b)
	t.Net.Steps++
	t.Net.Seen += int64(b.Size)
	t.apply()
	return r
}

// forward runs the network in training mode (batch statistics), leaving in dlogits the loss's gradient
// with respect to the logits; update says whether to move the running statistics.
func (t *Trainer) forward(b *Batch, update bool) Result {
	t.size(b.Size, b.N)
	bn := b.Size * b.N * b.N
	t.x[0] = b.Input
	L := t.Net.L
	for i, l := range L[:len(L)-1] {
		rows := l.In * l.K * l.K
		im2col(t.cols, t.x[i], l.In, b.Size, b.N, l.K)
		z := t.xhat[i]
		convForward(z, l.W, t.cols, nil, l.Out, rows, bn, t.Workers)
		out := t.x[i+1]
		split(l.Out, 1, t.Workers, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				zo := z[o*bn : (o+1)*bn]
				mean, vari := meanVar(zo)
				inv := float32(1 / math.Sqrt(vari+bnEpsilon))
				t.invStd[i][o] = inv
				g, beta := l.Gamma[o], l.Beta[o]
				yo := out[o*bn : (o+1)*bn]
				m32 := float32(mean)
				for j, v := range zo {
					h := (v - m32) * inv
					zo[j] = h
					yo[j] = max(0, g*h+beta)
				}
				if update {
					l.Mean[o] += bnMomentum * (m32 - l.Mean[o])
					l.Var[o] += bnMomentum * (float32(vari*float64(bn)/float64(max(1, bn-1))) - l.Var[o])
				}
			}
		})
	}
	last := L[len(L)-1]
	convForward(t.dlogits, last.W, t.x[len(L)-1], last.Bias, 1, last.In, bn, t.Workers)
	return t.softmaxLoss(b)
}

// meanVar returns the mean and the (biased) variance of s.
func meanVar(s []float32) (mean, vari float64) {
	var sum, sq float64
	for _, v := range s {
		sum += float64(v)
	}
	mean = sum / float64(len(s))
	for _, v := range s {
		d := float64(v) - mean
		sq += d * d
	}
	return mean, sq / float64(len(s))
}

// softmaxLoss turns the logits in dlogits into the gradient of the mean cross-entropy, p − 1[target]
// over the legal points (divided by the batch size), and returns the loss.
func (t *Trainer) softmaxLoss(b *Batch) Result {
	N := b.N * b.N
	var r Result
	legal := b.Input[feature.PlaneLegal*b.Size*N:]
	for s := range b.Size {
		z := t.dlogits[s*N : (s+1)*N]
		_, arg, total := maskedSoftmax(z, legal[s*N:(s+1)*N], true)
		target := int(b.Target[s])
		if arg == target {
			r.Correct++
		}
		r.Loss -= math.Log(float64(z[target])/total + 1e-30)
		scale := 1 / (total * float64(b.Size))
		for p := range z {
			z[p] = float32(float64(z[p]) * scale)
		}
		z[target] -= float32(1 / float64(b.Size))
	}
	r.Loss /= float64(b.Size)
	return r
}

// maskedSoftmax takes the logits z of one position over its legal points (mask ≠ 0) and returns the
// largest logit, its point and Σ exp(z − best) over them; with write, z becomes exp(z − best) on the legal
// points and 0 elsewhere.
func maskedSoftmax(z, mask []float32, write bool) (best float32, arg int, total float64) {
	best, arg = float32(math.Inf(-1)), -1
	for p, v := range z {
		if mask[p] != 0 && v > best {
			best, arg = v, p
		}
	}
	for p, v := range z {
		e := 0.0
		if mask[p] != 0 {
			e = math.Exp(float64(v - best))
			total += e
		}
		if write {
			z[p] = float32(e)
		}
	}
	return best, arg, total
}

// backward fills t.grads from the gradient forward left in dlogits.
func (t *Trainer) backward(b *Batch) {
	bn := b.Size * b.N * b.N
	L := t.Net.L
	g := len(t.grads) - 2 // the last layer's W and Bias
	last := L[len(L)-1]
	xl := t.x[len(L)-1]
	sgemm.Gemm(false, true, 1, last.In, bn, 1, t.dlogits, bn, xl, bn, 0, t.grads[g], last.In)
	sum := 0.0
	for _, v := range t.dlogits {
		sum += float64(v)
	}
	t.grads[g+1][0] = float32(sum)
	dx := t.dx[:last.In*bn]
	split(bn, 64, t.Workers, func(lo, hi int) {
		sgemm.Gemm(true, false, last.In, hi-lo, 1, 1, last.W, last.In, t.dlogits[lo:], bn, 0, dx[lo:], bn)
	})
	for i := len(L) - 2; i >= 0; i-- {
		l := L[i]
		g -= 3 // W, Gamma, Beta
		dW, dGamma, dBeta := t.grads[g], t.grads[g+1], t.grads[g+2]
		out, xhat := t.x[i+1], t.xhat[i]
		// Through ReLU and batch normalisation (Ioffe & Szegedy 2015, §3): dz = γ/σ·(dy − mean dy − x̂·mean(dy·x̂)).
		split(l.Out, 1, t.Workers, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				dy, yo, h := dx[o*bn:(o+1)*bn], out[o*bn:(o+1)*bn], xhat[o*bn:(o+1)*bn]
				var sdy, sdyx float64
				for j := range dy {
					if yo[j] <= 0 {
						dy[j] = 0
						continue
					}
					sdy += float64(dy[j])
					sdyx += float64(dy[j]) * float64(h[j])
				}
				dGamma[o], dBeta[o] = float32(sdyx), float32(sdy)
				k := float64(l.Gamma[o]) * float64(t.invStd[i][o])
				mdy, mdyx := float32(sdy/float64(bn)), float32(sdyx/float64(bn))
				for j := range dy {
					dy[j] = float32(k) * (dy[j] - mdy - h[j]*mdyx)
				}
			}
		})
		rows := l.In * l.K * l.K
		im2col(t.cols, t.x[i], l.In, b.Size, b.N, l.K)
		split(l.Out, 1, t.Workers, func(lo, hi int) {
			sgemm.Gemm(false, true, hi-lo, rows, bn, 1, dx[lo*bn:], bn, t.cols, bn, 0, dW[lo*rows:], rows)
		})
		if i == 0 {
			break
		}
		dcols := t.dcols[:rows*bn]
		split(bn, 64, t.Workers, func(lo, hi int) {
			sgemm.Gemm(true, false, rows, hi-lo, l.Out, 1, l.W, rows, dx[lo:], bn, 0, dcols[lo:], bn)
		})
		prev := t.dprev[:l.In*bn]
		clear(prev)
		split(l.In, 1, t.Workers, func(lo, hi int) { col2imAdd(prev, dcols, lo, hi, b.Size, b.N, l.K) })
		t.dx, t.dprev = t.dprev, t.dx
		dx = prev
	}
}

// apply updates the parameters from t.grads.
func (t *Trainer) apply() {
	o := t.Opt
	lr, mu, wd := float32(o.LR), float32(o.Momentum), float32(o.WeightDecay)
	adam := o.Method == "adam"
	var c1, c2 float64
	if adam {
		c1 = 1 - math.Pow(o.Momentum, float64(t.Net.Steps))
		c2 = 1 - math.Pow(o.Beta2, float64(t.Net.Steps))
	}
	for i, p := range t.params {
		g, m, v := t.grads[i], t.m[i], t.v[i]
		d := float32(0)
		if t.decay[i] {
			d = wd
		}
		if !adam {
			for j := range p {
				m[j] = mu*m[j] - lr*(g[j]+d*p[j])
				p[j] += m[j]
			}
			continue
		}
		b2 := float32(o.Beta2)
		step := float32(o.LR * math.Sqrt(c2) / c1)
		for j := range p {
			gj := g[j] + d*p[j]
			m[j] = mu*m[j] + (1-mu)*gj
			v[j] = b2*v[j] + (1-b2)*gj*gj
			p[j] -= step * m[j] / (float32(math.Sqrt(float64(v[j]))) + 1e-8)
		}
	}
}

// Check reports an optimiser setting that cannot train.
func (o Optimizer) Check() error {
	switch {
	case o.Method != "momentum" && o.Method != "adam":
		return fmt.Errorf("optimizer %q: want momentum or adam", o.Method)
	case !(o.LR > 0):
		return fmt.Errorf("learning rate %v: want > 0", o.LR)
	case o.Momentum < 0 || o.Momentum >= 1 || o.Beta2 < 0 || o.Beta2 >= 1:
		return fmt.Errorf("momentum %v, β2 %v: want [0, 1)", o.Momentum, o.Beta2)
	}
	return nil
}
