package cnn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/feature"
	"aji/analysis/game"
)

// StreamOptions choose the training positions.
type StreamOptions struct {
	Size     int // board size; games of other sizes are skipped
	PerGame  int // positions sampled per game and epoch (0: every one)
	Batch    int // positions per batch
	Shuffle  int // positions in the shuffle buffer: consecutive positions of a game are far from independent
	MaxGames int // games to read per epoch (0: all)
	Workers  int // goroutines decoding and encoding games
	Seed     uint64
	Filter   dataset.Filter
}

// Stream sends batches of training positions of the games at path to out, epoch after epoch — each
// epoch a new sample of positions, each position under a random one of the 8 symmetries (§3.3's
// rotations and reflections) — until ctx is done, and closes out. Its error is ctx's or a reading error.
func Stream(ctx context.Context, path string, planes feature.PlaneOptions, opt StreamOptions, out chan<- *Batch) error {
	defer close(out)
	n := opt.Size
	N := n * n
	s := &shuffler{
		opt: opt, planes: planes, n: n, out: out, ctx: ctx,
		slab: make([]float32, 0, opt.Shuffle*feature.NumPlanes*N), targets: make([]int32, 0, opt.Shuffle),
		rng: rand.New(rand.NewPCG(opt.Seed, 0x73687566)),
	}
	workers := max(1, opt.Workers)
	encs := make([]encoder, workers)
	for w := range encs {
		encs[w].one = make([]float32, feature.NumPlanes*N)
	}
	for epoch := 0; ; epoch++ {
		before := s.added.Load()
		seed := opt.Seed + uint64(epoch)*0x9E3779B97F4A7C15
		_, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, workers, func(w, index int, _ string, g *game.Game) {
			if g.Size() == n {
				encs[w].game(s, g, index, seed)
			}
		})
		if err != nil {
			return err
		}
		if s.added.Load() == before && ctx.Err() == nil {
			return fmt.Errorf("%s: no %dx%d positions to train on", path, n, n)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// encoder is one worker's scratch.
type encoder struct {
	planes feature.Planes
	one    []float32
	picks  []bool
}

func (e *encoder) game(s *shuffler, g *game.Game, index int, seed uint64) {
	e.picks = dataset.SamplePositions(e.picks, g.NumMoves(), s.opt.PerGame, seed, index)
	rng := rand.New(rand.NewPCG(seed, uint64(index)^0x73796d))
	_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		i := pos.MoveNumber
		if i >= len(e.picks) || !e.picks[i] || next.Point == board.Pass {
			return s.ctx.Err()
		}
		sym := feature.Symmetry(rng.IntN(8))
		e.planes.Encode(e.one, pos, sym, s.planes)
		x, y := next.Point.XY()
		tx, ty := sym.Apply(x, y, s.n)
		return s.add(e.one, int32(ty*s.n+tx))
	})
}

// shuffler is a shuffle buffer: once full, each new position takes the place of a random one, which goes
// into the batch being filled.
type shuffler struct {
	opt    StreamOptions
	planes feature.PlaneOptions
	n      int
	ctx    context.Context
	out    chan<- *Batch

	added atomic.Int64 // positions encoded

	mu      sync.Mutex
	slab    []float32 // the buffer's positions, NumPlanes·N floats each
	targets []int32
	rng     *rand.Rand
	batch   *Batch
}

// add puts one encoded position into the buffer, and sends a batch when one is full.
func (s *shuffler) add(one []float32, target int32) error {
	s.added.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	size := len(one)
	if len(s.targets) < s.opt.Shuffle {
		s.slab = append(s.slab, one...)
		s.targets = append(s.targets, target)
		return nil
	}
	i := s.rng.IntN(len(s.targets))
	if s.batch == nil {
		s.batch = &Batch{N: s.n, Input: make([]float32, 0, s.opt.Batch*size)}
	}
	b := s.batch
	b.Input = append(b.Input, s.slab[i*size:(i+1)*size]...)
	b.Target = append(b.Target, s.targets[i])
	copy(s.slab[i*size:], one)
	s.targets[i] = target
	if len(b.Target) < s.opt.Batch {
		return nil
	}
	s.batch = nil
	b.Size = len(b.Target)
	b.Input = channelMajor(b.Input, b.Size, s.n*s.n)
	select {
	case s.out <- b:
		return nil
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// channelMajor reorders positions stored one after another (position-major, plane-major within) into
// the batch layout of conv.go.
func channelMajor(in []float32, batch, N int) []float32 {
	out := make([]float32, len(in))
	for b := range batch {
		for c := range feature.NumPlanes {
			copy(out[(c*batch+b)*N:(c*batch+b+1)*N], in[(b*feature.NumPlanes+c)*N:(b*feature.NumPlanes+c+1)*N])
		}
	}
	return out
}

// Examples reads a fixed sample of positions, unrotated, in batches of opt.Batch: a validation set.
func Examples(ctx context.Context, path string, planes feature.PlaneOptions, opt StreamOptions) ([]*Batch, error) {
	n := opt.Size
	N := n * n
	var (
		mu      sync.Mutex
		all     []float32
		targets []int32
	)
	workers := max(1, opt.Workers)
	encs := make([]encoder, workers)
	for w := range encs {
		encs[w].one = make([]float32, feature.NumPlanes*N)
	}
	_, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, workers, func(w, index int, _ string, g *game.Game) {
		if g.Size() != n {
			return
		}
		e := &encs[w]
		e.picks = dataset.SamplePositions(e.picks, g.NumMoves(), opt.PerGame, opt.Seed, index)
		_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			i := pos.MoveNumber
			if i >= len(e.picks) || !e.picks[i] || next.Point == board.Pass {
				return nil
			}
			e.planes.Encode(e.one, pos, 0, planes)
			x, y := next.Point.XY()
			mu.Lock()
			all = append(all, e.one...)
			targets = append(targets, int32(y*n+x))
			mu.Unlock()
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	var batches []*Batch
	size := feature.NumPlanes * N
	for lo := 0; lo < len(targets); lo += opt.Batch {
		hi := min(len(targets), lo+opt.Batch)
		batches = append(batches, &Batch{N: n, Size: hi - lo, Input: channelMajor(all[lo*size:hi*size], hi-lo, N), Target: targets[lo:hi]})
	}
	return batches, nil
}

// Score is how a network predicts a set of positions.
type Score struct {
	Positions   int
	Top1        float64 // share of positions whose expert move has the highest probability
	LogEvidence float64 // mean log probability of the expert moves
}

// Evaluate scores the network of e (inference mode: running statistics) on batches.
func Evaluate(e *Evaluator, batches []*Batch) Score {
	var s Score
	for _, b := range batches {
		N := b.N * b.N
		logits := e.ForwardPlanes(b.Input, b.Size, b.N)
		legal := b.Input[feature.PlaneLegal*b.Size*N:]
		for i := range b.Size {
			z := logits[i*N : (i+1)*N]
			best, arg, total := maskedSoftmax(z, legal[i*N:(i+1)*N], false)
			t := int(b.Target[i])
			if arg == t {
				s.Top1++
			}
			s.LogEvidence += float64(z[t]-best) - math.Log(total)
			s.Positions++
		}
	}
	if s.Positions > 0 {
		s.Top1 /= float64(s.Positions)
		s.LogEvidence /= float64(s.Positions)
	}
	return s
}
