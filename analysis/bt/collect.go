package bt

import (
	"context"
	"runtime"
	"slices"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// TeamBuilder gives the team of γ indices of each move of a position (Coulom 2007 §3: a move is a team
// of features).
type TeamBuilder interface {
	// Position computes the features of pos and returns the moves that compete, pass included where it
	// does; the slice is valid until the next call.
	Position(pos *game.Position) []board.Point
	// Team appends to dst the γ indices of the move mv of the last position, each once, and returns it.
	Team(dst []int32, mv board.Point) []int32
}

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
	// Skipped counts sampled positions whose expert move is not among the builder's moves (a move a
	// playout policy never plays), which cannot be a competition.
	Skipped int
}

// Collect turns the games under path into competitions over numGamma γ, one store per worker (train them
// with TrainShards; joining them would double the peak memory of a large run): one per sampled expert
// move (passes skipped), won by the expert's move against every other move of the position (Coulom §3),
// each move the team teams() gives it; teams is called once per worker.
func Collect(ctx context.Context, path string, numGamma int, teams func() TeamBuilder, opt CollectOptions) ([]*Competitions, CollectStats, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cs := make([]collector, workers)
	for w := range cs {
		cs[w] = collector{data: NewCompetitions(numGamma), teams: teams()}
	}
	_, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, workers, func(w, index int, _ string, g *game.Game) {
		cs[w].game(ctx, index, g, opt)
		if opt.Progress != nil {
			opt.Progress(1)
		}
	})
	if err != nil {
		return nil, CollectStats{}, err
	}
	var total CollectStats
	shards := make([]*Competitions, 0, workers)
	for w := range cs {
		c := &cs[w]
		if c.err != nil {
			return nil, CollectStats{}, c.err
		}
		shards = append(shards, c.data)
		total.Games += c.stats.Games
		total.Positions += c.stats.Positions
		total.SkippedGames += c.stats.SkippedGames
		total.Skipped += c.stats.Skipped
	}
	return shards, total, nil
}

// collector is one worker's state.
type collector struct {
	data  *Competitions
	stats CollectStats
	teams TeamBuilder
	team  []int32
	picks []bool
	err   error
}

func (c *collector) game(ctx context.Context, index int, g *game.Game, opt CollectOptions) {
	c.picks = dataset.SamplePositions(c.picks, g.NumMoves(), opt.PositionsPerGame, opt.Seed, index)
	before := c.data.Len()
	err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
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

// position adds one competition: every move of pos, the expert's move winning.
func (c *collector) position(pos *game.Position, expert board.Point) {
	moves := c.teams.Position(pos)
	if !slices.Contains(moves, expert) {
		c.stats.Skipped++
		return
	}
	c.data.Begin()
	for _, mv := range moves {
		c.team = c.teams.Team(c.team[:0], mv)
		if err := c.data.AddTeam(c.team, mv == expert); err != nil && c.err == nil {
			c.err = err // a programming error: indices come from the model itself
		}
	}
	c.data.End()
}
