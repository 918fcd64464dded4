package eval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Result is the report for one predictor, in the JSON shape of the `aji eval` contract.
type Result struct {
	Predictor          string    `json:"predictor"`
	Games              int       `json:"games"`
	Positions          int       `json:"positions"`
	Skipped            int       `json:"skipped"`
	SkippedGames       int       `json:"skipped_games"`
	Top1               float64   `json:"top1"`
	Top5               float64   `json:"top5"`
	Top10              float64   `json:"top10"`
	Top20              float64   `json:"top20"`
	MeanLogEvidence    float64   `json:"mean_log_evidence"`
	PositionsPerSecond float64   `json:"positions_per_second"`
	RankCDF            []float64 `json:"rank_cdf"`
	ByPhase            []Phase   `json:"by_phase"`
}

// Options tune Run.
type Options struct {
	MaxGames int            // stop after this many games (0: all)
	Workers  int            // goroutines predicting (0: GOMAXPROCS)
	Filter   dataset.Filter // which games to read
	// Progress, if set, is called after each game with the number of games done (from several goroutines).
	Progress func(games int)
}

// job is one game to score.
type job struct {
	name string
	g    *game.Game
}

// tally is what one worker has counted.
type tally struct {
	scores       []Score
	games        int
	skipped      int
	skippedGames int
}

// Run scores the named predictors on every main-line move of every game under path. A pass in a record
// is skipped and counted; a game that fails to load or holds an illegal move is skipped whole (its moves
// counted as skipped) and logged. Games are decoded in order by one goroutine and scored by Workers
// goroutines, each with its own predictors, so MaxGames always selects the same games.
func Run(ctx context.Context, names []string, path string, opt Options) ([]Result, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Make every worker's predictors up front so a bad name or model fails before any work.
	preds := make([][]predict.Predictor, workers)
	for w := range preds {
		for _, name := range names {
			p, err := predict.New(name)
			if err != nil {
				return nil, err
			}
			preds[w] = append(preds[w], p)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job, 4*workers)
	tallies := make([]tally, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { tallies[w] = score(ctx, preds[w], jobs, opt.Progress) })
	}

	errStop := errors.New("enough games")
	loadErrors := 0
	sent := 0
	_, err := dataset.Walk(ctx, path, opt.Filter, func(rec dataset.Record) error {
		if rec.Err != nil {
			loadErrors++
			slog.Warn("skipping record", "name", rec.Name, "err", rec.Err)
			return nil
		}
		for _, g := range rec.Games {
			if opt.MaxGames > 0 && sent >= opt.MaxGames {
				return errStop
			}
			select {
			case jobs <- job{rec.Name, g}:
				sent++
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	total := tally{scores: make([]Score, len(names)), skippedGames: loadErrors}
	for _, t := range tallies {
		total.games += t.games
		total.skipped += t.skipped
		total.skippedGames += t.skippedGames
		for i := range t.scores {
			total.scores[i].Merge(&t.scores[i])
		}
	}
	results := make([]Result, len(names))
	for i, name := range names {
		s := &total.scores[i]
		cdf := s.RankCDF()
		results[i] = Result{
			Predictor:       name,
			Games:           total.games,
			Positions:       s.Positions,
			Skipped:         total.skipped,
			SkippedGames:    total.skippedGames,
			Top1:            cdf[0],
			Top5:            cdf[4],
			Top10:           cdf[9],
			Top20:           cdf[19],
			MeanLogEvidence: s.MeanLogEvidence(),
			RankCDF:         cdf,
			ByPhase:         s.Phases(),
		}
		// Throughput of this predictor alone on all workers: positions over its per-worker time.
		if s.Seconds > 0 {
			results[i].PositionsPerSecond = float64(s.Positions) * float64(workers) / s.Seconds
		}
	}
	return results, nil
}

// score is one worker: it scores games from jobs until the channel closes or ctx ends.
func score(ctx context.Context, preds []predict.Predictor, jobs <-chan job, progress func(int)) tally {
	t := tally{scores: make([]Score, len(preds))}
	perGame := make([]Score, len(preds))
	var dist predict.Distribution
	for j := range jobs {
		if ctx.Err() != nil {
			continue // drain so the producer is never blocked
		}
		for i := range perGame {
			perGame[i].Reset()
		}
		passes, moves := 0, 0
		err := j.g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			moves++
			if next.Point == board.Pass {
				passes++
				return nil
			}
			for i, p := range preds {
				start := time.Now()
				p.Predict(pos, &dist)
				rank := dist.Rank(pos, next.Point)
				perGame[i].Seconds += time.Since(start).Seconds()
				perGame[i].Add(pos.MoveNumber+1, rank, dist.P[next.Point])
			}
			return ctx.Err()
		})
		switch {
		case ctx.Err() != nil:
			continue
		case err != nil:
			slog.Warn("skipping game", "name", j.name, "err", fmt.Sprint(err))
			t.skippedGames++
			t.skipped += j.g.NumMoves()
		default:
			t.games++
			t.skipped += passes
			for i := range perGame {
				t.scores[i].Merge(&perGame[i])
			}
		}
		if progress != nil {
			progress(1)
		}
	}
	return t
}
