package mcts

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// TrainOptions choose the training positions of TrainPatternModel and tune MM.
type TrainOptions struct {
	MaxGames int // games to read (0: all)
	// PositionsPerGame samples this many positions of each game (0: every position); consecutive
	// positions of a game are far from independent (Coulom §5), so sampling spreads a memory budget.
	PositionsPerGame int
	Iterations       int // MM iterations at most (default 25)
	Workers          int // goroutines (default GOMAXPROCS)
	Seed             uint64
	Filter           dataset.Filter
	Progress         func(games int)     // after each game read, from several goroutines
	MMProgress       func(bt.Iteration)  // after each MM iteration
	Checkpoint       func(*PatternModel) // after each MM iteration, with the model so far
}

// TrainStats count what TrainPatternModel used.
type TrainStats struct {
	Games, Positions int
	// Skipped counts sampled positions whose expert move the policy never plays (an own eye: the
	// playouts exclude it) and so cannot be a competition.
	Skipped int
	Teams   int // distinct teams stored
	Collect time.Duration
	MM      time.Duration
}

// TrainPatternModel fits the playout policy on the games under path: every sampled expert move (passes
// skipped) is a competition won by the expert's move against every other move the policy allows, each
// move being the team of its 3x3 shape and its features (Coulom 2007 §2.2 and §4.1), and the γ are
// found by minorization-maximization with one virtual win and loss per γ (bt.Train, Coulom §3.3).
func TrainPatternModel(ctx context.Context, path string, opt TrainOptions) (*PatternModel, TrainStats, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	m := NewPatternModel()
	shards, cst, err := bt.Collect(ctx, path, len(m.Gamma), func() bt.TeamBuilder { return &moveTeams{} }, bt.CollectOptions{
		MaxGames: opt.MaxGames, PositionsPerGame: opt.PositionsPerGame, Workers: workers,
		Filter: opt.Filter, Seed: opt.Seed, Progress: opt.Progress,
	})
	if err != nil {
		return nil, TrainStats{}, err
	}
	st := TrainStats{Games: cst.Games, Positions: cst.Positions, Skipped: cst.Skipped}
	for _, d := range shards {
		st.Teams += d.Teams()
	}
	st.Collect = time.Since(start)
	if st.Positions == 0 {
		return nil, st, fmt.Errorf("train playout: no usable positions in %s", path)
	}
	m.Games, m.Positions = st.Games, st.Positions

	nc := pattern.NumClasses3()
	groups := []bt.Group{
		{Name: "3x3 shape", Lo: 0, Hi: nc},
		{Name: "capture", Lo: nc + featCaptureSave, Hi: nc + featExtension},
		{Name: "extension", Lo: nc + featExtension, Hi: nc + featSelfAtari1},
		{Name: "self-atari", Lo: nc + featSelfAtari1, Hi: nc + featContig2},
		{Name: "contiguity", Lo: nc + featContig2, Hi: nc + numFeats},
	}
	mmStart := time.Now()
	err = bt.TrainShards(ctx, shards, m.Gamma, groups, bt.TrainOptions{
		Iterations: opt.Iterations,
		Workers:    workers,
		Progress: func(it bt.Iteration) {
			if opt.MMProgress != nil {
				opt.MMProgress(it)
			}
			if opt.Checkpoint != nil {
				opt.Checkpoint(m)
			}
		},
	})
	st.MM = time.Since(mmStart)
	if err != nil {
		return nil, st, err
	}
	return m, st, nil
}

// moveTeams holds the teams of γ indices of every move the policy allows in one position, computed
// from scratch by the same functions the playouts use.
type moveTeams struct {
	moves   []board.Point
	members [][4]int32
	sizes   []int8
	ctx     ctxMoves
	index   [board.NumCells]int32 // move's entry + 1; 0 when not allowed
}

// Position implements bt.TeamBuilder: the moves the policy allows.
func (t *moveTeams) Position(pos *game.Position) []board.Point {
	b := &pos.Board
	c := pos.ToPlay
	cls := codeClass()
	for _, p := range t.moves {
		t.index[p] = 0
	}
	t.moves, t.members, t.sizes = t.moves[:0], t.members[:0], t.sizes[:0]
	ko, forbidden := b.Ko()
	for _, p := range b.Points() {
		if b.At(p) != board.Empty || (p == ko && forbidden == c) {
			continue
		}
		k := cls[codeFor(code3Black(b, p), c)]
		if k == noMove {
			continue
		}
		var team [4]int32
		team[0] = int32(k)
		n := int8(1)
		if f := selfAtari(b, p, c); f >= 0 {
			team[n] = int32(featIndex(f))
			n++
		}
		t.moves = append(t.moves, p)
		t.members = append(t.members, team)
		t.sizes = append(t.sizes, n)
		t.index[p] = int32(len(t.moves))
	}
	findContext(b, pos.Last, c, &t.ctx)
	for i := range t.ctx.n {
		e := t.index[t.ctx.point[i]] - 1
		if e < 0 {
			continue
		}
		for _, f := range t.ctx.feats[i] {
			if f >= 0 && t.sizes[e] < 4 {
				t.members[e][t.sizes[e]] = int32(featIndex(int(f)))
				t.sizes[e]++
			}
		}
	}
	return t.moves
}

// Team implements bt.TeamBuilder.
func (t *moveTeams) Team(dst []int32, mv board.Point) []int32 {
	k := t.index[mv] - 1
	return append(dst, t.members[k][:t.sizes[k]]...)
}

// EvalStats measure a playout policy as a move predictor on expert games.
type EvalStats struct {
	Positions int
	// Skipped: positions whose expert move the policy never plays (an own eye) or passes.
	Skipped int
	// Top1 is the share of positions where the expert's move had the highest weight (ties count against
	// it, as in aji eval); MeanLogEvidence the mean natural log of its probability.
	Top1, MeanLogEvidence float64
	// UniformLogEvidence is the same for a uniform choice among the policy's moves, the light policy's
	// baseline.
	UniformLogEvidence float64
}

// EvaluatePattern measures model as a predictor of the expert moves of the games under path, on the
// positions TrainOptions samples (MaxGames, PositionsPerGame, Seed; Workers).
func EvaluatePattern(ctx context.Context, path string, model *PatternModel, opt TrainOptions) (EvalStats, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type acc struct {
		pl                  *Playout
		w                   [board.NumCells]float64
		picks               []bool
		n, skipped, top1    int
		logEv, uniformLogEv float64
	}
	accs := make([]*acc, workers)
	for i := range accs {
		accs[i] = &acc{pl: NewPatternPlayout(model)}
	}
	var mu sync.Mutex
	_, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, workers, func(w, index int, _ string, g *game.Game) {
		a := accs[w]
		a.picks = dataset.SamplePositions(a.picks, g.NumMoves(), opt.PositionsPerGame, opt.Seed, index)
		_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			i := pos.MoveNumber
			if i >= len(a.picks) || !a.picks[i] || next.Color != pos.ToPlay {
				return ctx.Err()
			}
			a.pl.Reset(pos)
			sum := a.pl.moveWeights(&a.w)
			pe := a.w[next.Point]
			if next.Point == board.Pass || pe == 0 || sum <= 0 {
				a.skipped++
				return ctx.Err()
			}
			a.n++
			a.logEv += math.Log(pe / sum)
			moves, better := 0, 0
			for _, p := range pos.Board.Points() {
				if a.w[p] > 0 {
					moves++
					if p != next.Point && a.w[p] >= pe {
						better++
					}
				}
			}
			if better == 0 {
				a.top1++
			}
			a.uniformLogEv -= math.Log(float64(moves))
			return ctx.Err()
		})
		if opt.Progress != nil {
			mu.Lock()
			opt.Progress(1)
			mu.Unlock()
		}
	})
	if err != nil {
		return EvalStats{}, err
	}
	var st EvalStats
	var top1 int
	var logEv, uni float64
	for _, a := range accs {
		st.Positions += a.n
		st.Skipped += a.skipped
		top1 += a.top1
		logEv += a.logEv
		uni += a.uniformLogEv
	}
	if st.Positions > 0 {
		n := float64(st.Positions)
		st.Top1, st.MeanLogEvidence, st.UniformLogEvidence = float64(top1)/n, logEv/n, uni/n
	}
	return st, nil
}
