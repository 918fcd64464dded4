package cnn

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/models"
)

// tiny is a network small enough for finite differences, its first layer of another width.
var tiny = Config{Width: 4, FirstWidth: 3, Layers: 4, FirstKernel: 3}

// randomBatch makes a batch of random planes on an n×n board, each position with a random legal mask
// and a legal target.
func randomBatch(rng *rand.Rand, size, n int) *Batch {
	N := n * n
	b := &Batch{N: n, Size: size, Input: make([]float32, feature.NumPlanes*size*N), Target: make([]int32, size)}
	for i := range b.Input {
		b.Input[i] = float32(rng.NormFloat64())
	}
	for s := range size {
		mask := b.Input[(feature.PlaneLegal*size+s)*N:][:N]
		for p := range mask {
			mask[p] = float32(rng.IntN(2))
		}
		t := rng.IntN(N)
		mask[t] = 1
		b.Target[s] = int32(t)
	}
	return b
}

// TestGradient checks backpropagation against central finite differences of the loss, for every
// parameter tensor of a small network in training mode (batch statistics).
func TestGradient(t *testing.T) {
	net, err := New(tiny, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, l := range net.L { // move batch normalisation away from identity
		for o := range l.Gamma {
			l.Gamma[o], l.Beta[o] = 0.5+rng.Float32(), rng.Float32()-0.5
		}
	}
	b := randomBatch(rng, 3, 5)
	tr := NewTrainer(net, DefaultOptimizer, 2)
	tr.forward(b, false)
	tr.backward(b)
	const eps = 5e-4 // small enough to stay clear of ReLU's kinks, large enough for float32's rounding
	worst := 0.0
	for i, p := range tr.params {
		for range 6 {
			j := rng.IntN(len(p))
			orig := p[j]
			p[j] = orig + eps
			up := tr.forward(b, false).Loss
			p[j] = orig - eps
			down := tr.forward(b, false).Loss
			p[j] = orig
			numeric := (up - down) / (2 * eps)
			analytic := float64(tr.grads[i][j])
			e := math.Abs(numeric-analytic) / max(1e-2, math.Abs(numeric)+math.Abs(analytic))
			worst = max(worst, e)
			if e > 0.03 {
				t.Errorf("tensor %d [%d]: backprop %.6g, finite difference %.6g", i, j, analytic, numeric)
			}
		}
	}
	t.Logf("worst relative error %.2g", worst)
}

// TestIm2colAdjoint checks ⟨im2col(x), c⟩ = ⟨x, col2im(c)⟩, which backpropagation through a convolution
// relies on.
func TestIm2colAdjoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 3, 5} {
		in, batch, n := 3, 2, 6
		x := make([]float32, in*batch*n*n)
		c := make([]float32, in*k*k*batch*n*n)
		for i := range x {
			x[i] = rng.Float32() - 0.5
		}
		for i := range c {
			c[i] = rng.Float32() - 0.5
		}
		cols := make([]float32, len(c))
		im2col(cols, x, in, batch, n, k)
		back := make([]float32, len(x))
		col2imAdd(back, c, 0, in, batch, n, k)
		if l, r := dot(cols, c), dot(x, back); math.Abs(l-r) > 1e-4 {
			t.Errorf("k=%d: <im2col x, c> = %v, <x, col2im c> = %v", k, l, r)
		}
	}
}

func dot(a, b []float32) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestFoldedEqualsRunningStatistics checks that inference with batch normalisation folded in computes
// what the training graph computes with the running statistics in place of the batch's.
func TestFoldedEqualsRunningStatistics(t *testing.T) {
	net, _ := New(tiny, 5)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, l := range net.L {
		for o := range l.Gamma {
			l.Gamma[o], l.Beta[o], l.Mean[o], l.Var[o] = 0.5+rng.Float32(), rng.Float32()-0.5, rng.Float32()-0.5, 0.2+rng.Float32()
		}
	}
	b := randomBatch(rng, 2, 5)
	got := NewEvaluator(net, 1).ForwardPlanes(b.Input, b.Size, b.N)
	want := unfolded(net, b)
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-4*(1+math.Abs(float64(want[i]))) {
			t.Fatalf("logit %d: folded %v, unfolded %v", i, got[i], want[i])
		}
	}
}

// unfolded is the forward pass written out plainly: convolution, (z − μ)/σ·γ + β, ReLU.
func unfolded(net *Net, b *Batch) []float32 {
	n, N := b.N, b.N*b.N
	x := b.Input
	for li, l := range net.L {
		out := make([]float32, l.Out*b.Size*N)
		r := l.K / 2
		for o := range l.Out {
			for s := range b.Size {
				for y := range n {
					for xx := range n {
						sum := float32(0)
						for c := range l.In {
							for dy := range l.K {
								for dx := range l.K {
									sy, sx := y+dy-r, xx+dx-r
									if sy < 0 || sy >= n || sx < 0 || sx >= n {
										continue
									}
									sum += l.W[((o*l.In+c)*l.K+dy)*l.K+dx] * x[(c*b.Size+s)*N+sy*n+sx]
								}
							}
						}
						if li == len(net.L)-1 {
							sum += l.Bias[o]
						} else {
							sum = (sum-l.Mean[o])/float32(math.Sqrt(float64(l.Var[o])+bnEpsilon))*l.Gamma[o] + l.Beta[o]
							sum = max(0, sum)
						}
						out[(o*b.Size+s)*N+y*n+xx] = sum
					}
				}
			}
		}
		x = out
	}
	return x
}

// TestTrainingLearns checks that both optimisers drive the loss of a fixed batch down (a network can
// memorise a few positions).
func TestTrainingLearns(t *testing.T) {
	for _, method := range []string{"momentum", "adam"} {
		net, _ := New(Config{Width: 8, Layers: 3, FirstKernel: 3}, 7)
		opt := DefaultOptimizer
		opt.Method, opt.LR = method, 0.01
		tr := NewTrainer(net, opt, 2)
		b := randomBatch(rand.New(rand.NewPCG(7, 8)), 4, 5)
		first := tr.Train(b).Loss
		var last Result
		for range 200 {
			last = tr.Train(b)
		}
		if !(last.Loss < first/4) || last.Correct != b.Size {
			t.Errorf("%s: loss %.3f after 200 steps (first %.3f), %d of %d right", method, last.Loss, first, last.Correct, b.Size)
		}
	}
}

// TestCheckpointResume checks that a run stopped, saved and resumed makes the same updates as one that
// went straight on.
func TestCheckpointResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	batches := []*Batch{randomBatch(rng, 3, 5), randomBatch(rng, 3, 5), randomBatch(rng, 3, 5)}
	for _, method := range []string{"momentum", "adam"} {
		opt := DefaultOptimizer
		opt.Method = method
		straightNet, _ := New(tiny, 11)
		straight := NewTrainer(straightNet, opt, 1)
		for _, b := range batches {
			straight.Train(b)
		}
		firstNet, _ := New(tiny, 11)
		first := NewTrainer(firstNet, opt, 1)
		first.Train(batches[0])
		path := filepath.Join(t.TempDir(), "run.ckpt")
		if err := first.SaveCheckpoint(path); err != nil {
			t.Fatal(err)
		}
		resumed, err := LoadCheckpoint(path, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range batches[1:] {
			resumed.Train(b)
		}
		for i := range straight.params {
			for j := range straight.params[i] {
				if straight.params[i][j] != resumed.params[i][j] {
					t.Fatalf("%s: tensor %d [%d]: straight %v, resumed %v", method, i, j, straight.params[i][j], resumed.params[i][j])
				}
			}
		}
	}
}

// TestModelFile round-trips a network and checks that damaged files give clear errors.
func TestModelFile(t *testing.T) {
	net, _ := New(Config{Width: 5, FirstWidth: 3, Layers: 3, FirstKernel: 5, Planes: feature.PlaneOptions{OpponentPlus: true}}, 1)
	net.Steps, net.Seen, net.Top1 = 12, 1536, 0.25
	path := filepath.Join(t.TempDir(), "cnn.ajim")
	if err := net.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Config != net.Config || got.Steps != 12 || got.Seen != 1536 || got.Top1 != 0.25 {
		t.Errorf("loaded %+v, saved %+v", got, net)
	}
	for i, l := range net.L {
		if !slices.Equal(l.W, got.L[i].W) || !slices.Equal(l.Var, got.L[i].Var) || !slices.Equal(l.Bias, got.L[i].Bias) {
			t.Errorf("layer %d differs after the round trip", i)
		}
	}
	data, _ := os.ReadFile(path)
	for _, bad := range [][]byte{data[:len(data)/2], data[:20], append(bytes.Clone(data[:len(data)-1]), data[len(data)-1]^0xff)} {
		if _, err := Decode(bad, "bad.ajim"); !errors.Is(err, models.ErrFormat) {
			t.Errorf("damaged file (%d bytes): %v, want models.ErrFormat", len(bad), err)
		}
	}
}

// FuzzDecode checks that no model file makes Decode panic.
func FuzzDecode(f *testing.F) {
	net, _ := New(Config{Width: 2, Layers: 2, FirstKernel: 1}, 1)
	p, _ := net.payload()
	var buf bytes.Buffer
	_ = models.Write(&buf, fileHeader, p)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, err := Decode(data, "fuzz"); err == nil && len(n.L) != n.Layers {
			t.Errorf("%d layers decoded, header says %d", len(n.L), n.Layers)
		}
	})
}

// TestPredictor checks the distribution on a real position: legal moves only, summing to 1, and no
// allocation once warm.
func TestPredictor(t *testing.T) {
	games, err := game.LoadFile("../../../assets/games/Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := games[0].PositionAfter(60)
	if err != nil {
		t.Fatal(err)
	}
	net, _ := New(Config{Width: 8, Layers: 4, FirstKernel: 5}, 2)
	p := NewPredictor("cnn", net)
	var d predict.Distribution
	p.Predict(pos, &d)
	sum := 0.0
	for _, q := range pos.Board.Points() {
		if !pos.Board.Legal(q, pos.ToPlay) && d.P[q] != 0 {
			t.Errorf("illegal %v has %v", q, d.P[q])
		}
		sum += d.P[q]
	}
	if math.Abs(sum-1) > 1e-9 || d.P[board.Pass] != 0 {
		t.Errorf("sum %v, pass %v", sum, d.P[board.Pass])
	}
	if a := testing.AllocsPerRun(10, func() { p.Predict(pos, &d) }); a != 0 && !raceEnabled {
		t.Errorf("%v allocations per Predict", a)
	}
	batch := []*game.Position{pos, pos}
	out := make([]predict.Distribution, 2)
	p.PredictBatch(batch, out)
	for _, q := range pos.Board.Points() {
		if math.Abs(out[1].P[q]-d.P[q]) > 1e-6 {
			t.Fatalf("batched %v: %v, alone %v", q, out[1].P[q], d.P[q])
		}
	}
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(42, 43)) }

// TestEvalBatches checks that aji eval's batched scoring of the cnn gives what predicting each position
// alone gives.
func TestEvalBatches(t *testing.T) {
	net, _ := New(Config{Width: 8, Layers: 3, FirstKernel: 5}, 4)
	path := filepath.Join(t.TempDir(), "cnn.ajim")
	if err := net.Save(path); err != nil {
		t.Fatal(err)
	}
	games := "../../../assets/games/Agon-01-8.sgf"
	res, err := eval.Run(context.Background(), []string{Kind}, games, eval.Options{Workers: 1, Predictors: map[string]predict.Options{Kind: {Model: path}}})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := game.LoadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPredictor(Kind, net)
	var d predict.Distribution
	n, top1, logEv := 0, 0, 0.0
	_ = gs[0].WalkMainLine(func(pos *game.Position, next game.Move) error {
		if next.Point == board.Pass {
			return nil
		}
		p.Predict(pos, &d)
		n++
		if d.Rank(pos, next.Point) == 1 {
			top1++
		}
		logEv += math.Log(d.P[next.Point])
		return nil
	})
	r := res[0]
	if r.Positions != n || math.Abs(r.Top1-float64(top1)/float64(n)) > 1e-12 || math.Abs(r.MeanLogEvidence-logEv/float64(n)) > 1e-6 {
		t.Errorf("eval: %d positions, top-1 %v, log-evidence %v; one at a time: %d, %v, %v",
			r.Positions, r.Top1, r.MeanLogEvidence, n, float64(top1)/float64(n), logEv/float64(n))
	}
}

// TestStreamWithoutPositions checks that a collection with no game of the board size ends the stream
// with an error instead of looping over it for ever.
func TestStreamWithoutPositions(t *testing.T) {
	out := make(chan *Batch, 1)
	err := Stream(context.Background(), "../../../assets/games", feature.PlaneOptions{}, StreamOptions{Size: 13, Batch: 4, Shuffle: 8, Workers: 1}, out)
	if err == nil || !strings.Contains(err.Error(), "no 13x13 positions") {
		t.Errorf("Stream over no 13x13 game: %v", err)
	}
	if _, open := <-out; open {
		t.Error("the batch channel is still open")
	}
}

// TestStream checks the batches streamed from real games: full, in the batch layout, each expert move
// legal and on an empty point of its own (rotated) encoding.
func TestStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan *Batch)
	done := make(chan error, 1)
	go func() {
		done <- Stream(ctx, "../../../assets/games", feature.PlaneOptions{}, StreamOptions{Size: 19, PerGame: 30, Batch: 16, Shuffle: 32, Workers: 2, Seed: 1}, out)
	}()
	for range 5 {
		b := <-out
		N := b.N * b.N
		if b.N != 19 || b.Size != 16 || len(b.Input) != feature.NumPlanes*16*N || len(b.Target) != 16 {
			t.Fatalf("batch of %d on %dx%d, %d inputs, %d targets", b.Size, b.N, b.N, len(b.Input), len(b.Target))
		}
		for s, target := range b.Target {
			at := func(plane int) float32 { return b.Input[(plane*b.Size+s)*N+int(target)] }
			if at(feature.PlaneLegal) != 1 || at(feature.PlaneEmpty) != 1 || at(feature.PlaneOwnStones) != 0 {
				t.Errorf("position %d: the expert move %d is not a legal empty point of its encoding", s, target)
			}
		}
	}
	cancel()
	for range out { // drain until the stream closes it
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("stream ended with %v, want context.Canceled", err)
	}
}

// TestF9Trains builds the paper's f9 shape (a 5x5 layer of 92 channels, then 3x3 layers of 384) and makes
// one update on it: the widths the issue asks to be trainable on a bigger machine.
func TestF9Trains(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3 GFLOP network")
	}
	net, err := New(Config{Width: 384, FirstWidth: 92, Layers: 6, FirstKernel: 5}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if net.L[0].Out != 92 || net.L[1].In != 92 || net.L[1].Out != 384 || net.L[5].In != 384 {
		t.Fatalf("layers %+v", net.L)
	}
	tr := NewTrainer(net, DefaultOptimizer, 2)
	b := randomBatch(newRand(), 2, 19)
	first := tr.Train(b).Loss
	if !(first > 0) || math.IsInf(first, 0) || net.Steps != 1 {
		t.Errorf("loss %v after %d steps", first, net.Steps)
	}
}
