package cfgbt

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/cfg"
	"aji/analysis/dataset"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict/mm"
)

// DefaultMinCount keeps a path label when it was seen more than 10 times at the experts' moves: "only
// features that occur more than 10 times in moves chosen by experts are learned" (Graf §IV-B).
const DefaultMinCount = 11

// DefaultPathGroups is the number of MM groups the path γ are split into (see PathGroup). A move has
// 10-20 path features (§III-A.3); spread over 8 groups a team rarely holds more than two of one group,
// so each group's update is close to Coulom's full step (see bt.Group.Overlap).
const DefaultPathGroups = 8

// TrainOptions choose the training positions, the features and MM's settings.
type TrainOptions struct {
	Variant Variant
	Shapes  *pattern.Dictionary // Full: the shape dictionary (mm's)
	Owner   bool                // Full: train with the Monte Carlo owner feature (63 playouts per position)
	// HashIterations of Algorithm 1 (default cfg.DefaultIterations; negative: 0).
	HashIterations int
	MinCount       int // keep path labels seen at least this many times (default DefaultMinCount)
	PathGroups     int // MM groups of the path γ (default DefaultPathGroups)

	// Init, if set, is an mm model with the same shapes (Full) whose tactical and shape γ the training
	// starts from instead of 1; with FixShapes the shape γ stay at Init's (trained on more positions than
	// a cfg model's memory allows) and only the tactical and path γ are fitted.
	Init      *mm.Model
	FixShapes bool

	// From, if set, is a trained model whose labels, shapes and γ are kept: the owner stage (Coulom
	// §3.5: slow features are trained afterwards over fewer games) trains the groups Refit names on
	// From's features with the Monte Carlo owner added.
	From  *Model
	Refit func(bt.Group) bool

	MaxGames         int // games to read (0: all)
	PositionsPerGame int // positions sampled per game (0: all), as bt.Collect
	Workers          int
	Seed             uint64
	Filter           dataset.Filter
	Iterations       int // MM iterations at most (default 25)

	CountProgress   func(games int) // after each game of the label-counting pass, from several goroutines
	CollectProgress func(games int) // after each game of the collection pass
	MMProgress      func(bt.Iteration)
	Checkpoint      func(*Model) // after each MM iteration
}

// TrainStats say what Train used.
type TrainStats struct {
	Games, Positions, SkippedGames int
	Moves                          int // expert moves the labels were counted at
	DistinctLabels                 int // path labels seen at them
	Labels                         int // path labels kept (a γ each)
	Teams                          int // distinct teams stored
	Bytes                          int // memory of the stored competitions
	Count, Collect, MM             time.Duration
}

// Train fits a cfg model on the games under path: a first pass counts the path labels at the experts'
// moves of the sampled positions and keeps those seen MinCount times or more, a second turns those
// positions into competitions (bt.Collect with this model's teams), and bt.TrainShards fits the γ by
// minorization-maximization with one virtual win and loss per γ (Coulom §2.5, §3.3; Graf §IV-B).
func Train(ctx context.Context, path string, opt TrainOptions) (*Model, TrainStats, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	var st TrainStats
	var m *Model
	groups := []bt.Group(nil)
	if opt.From != nil {
		f := opt.From
		m = &Model{Variant: f.Variant, Owner: opt.Owner && f.Variant == Full, HashIterations: f.HashIterations,
			Shapes: f.Shapes, Labels: f.Labels, Counts: f.Counts, GroupEnd: f.GroupEnd, Gamma: slices.Clone(f.Gamma)}
		if err := m.prepare(); err != nil {
			return nil, st, err
		}
		for _, g := range m.Groups() {
			if g.Name == feature.MCOwner.String() || (opt.Refit != nil && opt.Refit(g)) {
				groups = append(groups, g)
			}
		}
		st.Labels = len(m.Labels)
	} else {
		if opt.HashIterations == 0 {
			opt.HashIterations = cfg.DefaultIterations
		}
		opt.HashIterations = max(opt.HashIterations, 0)
		if opt.MinCount <= 0 {
			opt.MinCount = DefaultMinCount
		}
		if opt.PathGroups <= 0 {
			opt.PathGroups = DefaultPathGroups
		}
		start := time.Now()
		counts, cst, err := CountLabels(ctx, path, opt)
		if err != nil {
			return nil, st, err
		}
		st.Count = time.Since(start)
		st.Moves = cst.Moves
		kept := map[uint32]uint32{}
		var labels []uint32
		for l, n := range counts {
			if n > 0 {
				st.DistinctLabels++
			}
			if int(n) >= opt.MinCount {
				labels = append(labels, uint32(l))
				kept[uint32(l)] = n
			}
		}
		st.Labels = len(labels)
		if opt.Init != nil && opt.Variant == Full {
			if opt.Shapes != nil && opt.Shapes != opt.Init.Shapes {
				return nil, st, fmt.Errorf("train cfg: Init has its own shapes; give no others")
			}
			opt.Shapes = opt.Init.Shapes
		}
		m, err = NewModel(opt.Variant, opt.Shapes, opt.Owner, opt.HashIterations, pathGroups(labels, opt.PathGroups), kept)
		if err != nil {
			return nil, st, err
		}
		if opt.Init != nil && opt.Variant == Full {
			copy(m.Gamma[:m.PathBase()], opt.Init.Gamma)
		}
		for _, g := range m.Groups() {
			if !(opt.FixShapes && g.Name == "shape") {
				groups = append(groups, g)
			}
		}
	}

	start := time.Now()
	data, cst, err := bt.Collect(ctx, path, len(m.Gamma), func() bt.TeamBuilder { return newTeams(m, m.Owner, false) },
		bt.CollectOptions{
			MaxGames: opt.MaxGames, PositionsPerGame: opt.PositionsPerGame, Workers: opt.Workers,
			Filter: opt.Filter, Seed: opt.Seed, Progress: opt.CollectProgress,
		})
	if err != nil {
		return nil, st, err
	}
	st.Collect = time.Since(start)
	st.Games, st.Positions, st.SkippedGames = cst.Games, cst.Positions, cst.SkippedGames
	for _, d := range data {
		st.Teams += d.Teams()
		st.Bytes += d.Bytes()
	}
	if st.Positions == 0 {
		return nil, st, fmt.Errorf("train cfg: no positions in %s", path)
	}
	m.Games, m.Positions = st.Games, st.Positions

	start = time.Now()
	err = bt.TrainShards(ctx, data, m.Gamma, groups, bt.TrainOptions{
		Iterations: opt.Iterations,
		Workers:    opt.Workers,
		Progress: func(it bt.Iteration) {
			if opt.MMProgress != nil {
				opt.MMProgress(it)
			}
			if opt.Checkpoint != nil {
				opt.Checkpoint(m)
			}
		},
	})
	st.MM = time.Since(start)
	if err != nil {
		return nil, st, err
	}
	return m, st, nil
}

// CountStats say what CountLabels read.
type CountStats struct {
	Games, Moves int
}

// CountLabels counts, for every path label, the expert moves of the sampled positions (bt.Collect's
// sample: opt.MaxGames, PositionsPerGame, Seed; passes skipped) at which it fired, with
// opt.HashIterations iterations of Algorithm 1. The counts are indexed by label (2^24 of them, 64 MB).
func CountLabels(ctx context.Context, path string, opt TrainOptions) ([]uint32, CountStats, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	counts := make([]uint32, cfg.NumPathFeatures)
	type counter struct {
		graph        cfg.Graph
		feats        []uint32
		picks        []bool
		games, moves int
	}
	cs := make([]counter, workers)
	_, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, workers, func(w, index int, _ string, g *game.Game) {
		c := &cs[w]
		c.picks = dataset.SamplePositions(c.picks, g.NumMoves(), opt.PositionsPerGame, opt.Seed, index)
		// An illegal record stops the walk; the positions before it are sound, as in bt.Collect.
		_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			i := pos.MoveNumber
			if i >= len(c.picks) || !c.picks[i] || next.Point == board.Pass {
				return ctx.Err()
			}
			c.graph.Build(&pos.Board, pos.ToPlay, opt.HashIterations)
			c.feats = c.graph.PathFeatures(next.Point, c.feats[:0])
			for _, l := range c.feats {
				atomic.AddUint32(&counts[l], 1)
			}
			c.moves++
			return ctx.Err()
		})
		c.games++
		if opt.CountProgress != nil {
			opt.CountProgress(1)
		}
	})
	if err != nil {
		return nil, CountStats{}, err
	}
	var st CountStats
	for _, c := range cs {
		st.Games += c.games
		st.Moves += c.moves
	}
	return counts, st, nil
}
