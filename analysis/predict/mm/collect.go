package mm

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// CollectOptions choose the training positions.
type CollectOptions struct {
	MaxGames int // games to read (0: all)
	// PositionsPerGame samples this many positions of each game (0: every position). Consecutive
	// positions of one game are far from independent (Coulom §5 suggests sampling), so sampling
	// spreads a memory budget over more games.
	PositionsPerGame int
	Workers          int
	Filter           dataset.Filter
	Seed             uint64
	Progress         func(games int) // called after each game, from several goroutines
}

// CollectStats count what Collect used.
type CollectStats struct {
	Games, Positions, SkippedGames int
}

type collectJob struct {
	index int
	g     *game.Game
}

// Collect turns the games under path into competitions for model m: one per sampled expert move (passes
// skipped), whose teams are all legal moves (Coulom §3: the expert's move wins against every other legal
// move). The shapes come from m's dictionary and the Monte Carlo owner feature is computed if m.Owner.
func Collect(ctx context.Context, path string, m *Model, opt CollectOptions) (*Competitions, CollectStats, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan collectJob, 2*workers)
	parts := make([]*Competitions, workers)
	stats := make([]CollectStats, workers)
	errs := make([]error, workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := range workers {
		parts[w] = NewCompetitions(len(m.Gamma))
		wg.Go(func() {
			c := collector{m: m, data: parts[w], stats: &stats[w]}
			for j := range jobs {
				if ctx.Err() == nil {
					c.game(ctx, j, opt)
				}
				if opt.Progress != nil {
					opt.Progress(1)
				}
			}
			errs[w] = c.err
		})
	}
	errEnough := errors.New("enough games")
	sent := 0
	_, err := dataset.Walk(ctx, path, opt.Filter, func(rec dataset.Record) error {
		if rec.Err != nil {
			return nil // counted by the walk; a training run goes on past a bad file
		}
		for _, g := range rec.Games {
			if opt.MaxGames > 0 && sent >= opt.MaxGames {
				return errEnough
			}
			select {
			case jobs <- collectJob{sent, g}:
				sent++
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	if err != nil && !errors.Is(err, errEnough) {
		return nil, CollectStats{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, CollectStats{}, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, CollectStats{}, err
	}
	all := parts[0]
	var total CollectStats
	for w, p := range parts {
		if w > 0 {
			all.Append(p)
		}
		total.Games += stats[w].Games
		total.Positions += stats[w].Positions
		total.SkippedGames += stats[w].SkippedGames
	}
	return all, total, nil
}

// collector is one worker's state.
type collector struct {
	m       *Model
	data    *Competitions
	stats   *CollectStats
	ext     feature.Extractor
	set     feature.Set
	tracker pattern.Tracker
	team    []int32
	picks   []bool
	err     error
}

func (c *collector) game(ctx context.Context, j collectJob, opt CollectOptions) {
	n := j.g.NumMoves()
	c.picks = c.picks[:0]
	for range n {
		c.picks = append(c.picks, opt.PositionsPerGame <= 0)
	}
	if k := opt.PositionsPerGame; k > 0 {
		rng := rand.New(rand.NewPCG(opt.Seed, uint64(j.index)))
		for _, i := range rng.Perm(n)[:min(k, n)] {
			c.picks[i] = true
		}
	}
	before := c.data.Len()
	err := j.g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		i := pos.MoveNumber
		if i >= len(c.picks) || !c.picks[i] || next.Point == board.Pass {
			return ctx.Err()
		}
		c.position(pos, next.Point)
		return ctx.Err()
	})
	if err != nil {
		// An illegal record: keep the positions before the bad move, which are sound.
		c.stats.SkippedGames++
	}
	c.stats.Games++
	c.stats.Positions += c.data.Len() - before
}

// position adds one competition: every legal move of pos, the expert's move winning.
func (c *collector) position(pos *game.Position, expert board.Point) {
	c.ext.Extract(pos, &c.set)
	if c.m.Owner {
		c.ext.AddOwner(pos, &c.set)
	}
	c.tracker.Sync(&pos.Board)
	c.data.Begin()
	for _, mv := range c.set.Moves() {
		c.team = teamOf(c.team[:0], c.m, &c.set, &c.tracker, mv, pos.ToPlay, c.m.Owner)
		if err := c.data.AddTeam(c.team, mv == expert); err != nil && c.err == nil {
			c.err = err // a programming error: indices come from the model itself
		}
	}
	c.data.End()
}
