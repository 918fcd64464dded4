package eval

import (
	"context"
	"log/slog"
	"runtime"
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
	// Predictors are the options of each named predictor (predict.New's); a name not here gets none.
	Predictors map[string]predict.Options
	// Progress, if set, is called after each game with the number of games done (from several goroutines).
	Progress func(games int)
}

// worker is one goroutine's predictors, scratch and counts.
type worker struct {
	preds   []predict.Predictor
	scores  []Score
	perGame []Score
	dist    predict.Distribution
	// A predictor that is a predict.Batcher scores a game's positions in batches after the walk.
	batching     bool
	held         []game.Position
	moves        []game.Move
	dists        []predict.Distribution
	games        int
	skipped      int
	skippedGames int
}

// Run scores the named predictors on every main-line move of every game under path. A pass in a record
// is skipped and counted; a game that fails to load or holds an illegal move is skipped whole (its moves
// counted as skipped) and logged. Games are decoded in order by one goroutine and scored by Workers
// goroutines, each with its own predictors, so MaxGames always selects the same games.
func Run(ctx context.Context, names []string, path string, opt Options) ([]Result, error) {
	n := opt.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	// Make every worker's predictors up front so a bad name or model fails before any work.
	preds := make([][]predict.Predictor, n)
	for w := range preds {
		for _, name := range names {
			p, err := predict.New(name, opt.Predictors[name])
			if err != nil {
				return nil, err
			}
			preds[w] = append(preds[w], p)
		}
	}
	workers := make([]worker, n)
	for w := range workers {
		workers[w] = worker{preds: preds[w], scores: make([]Score, len(names)), perGame: make([]Score, len(names))}
		for _, p := range preds[w] {
			_, b := p.(predict.Batcher)
			workers[w].batching = workers[w].batching || b
		}
	}
	st, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, n, func(w, _ int, name string, g *game.Game) {
		workers[w].score(ctx, name, g)
		if opt.Progress != nil {
			opt.Progress(1)
		}
	})
	if err != nil {
		return nil, err
	}

	total := worker{scores: make([]Score, len(names)), skippedGames: st.Errors}
	for _, t := range workers {
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
			results[i].PositionsPerSecond = float64(s.Positions) * float64(n) / s.Seconds
		}
	}
	return results, nil
}

// score scores one game. A game with an illegal move is skipped whole, its moves counted as skipped.
func (t *worker) score(ctx context.Context, name string, g *game.Game) {
	for i := range t.perGame {
		t.perGame[i].Reset()
	}
	passes := 0
	t.held, t.moves = t.held[:0], t.moves[:0]
	err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		if next.Point == board.Pass {
			passes++
			return nil
		}
		if t.batching {
			t.held = append(t.held, *pos)
			t.moves = append(t.moves, next)
		}
		for i, p := range t.preds {
			if _, ok := p.(predict.Batcher); ok {
				continue
			}
			start := time.Now()
			p.Predict(pos, &t.dist)
			rank := t.dist.Rank(pos, next.Point)
			t.perGame[i].Seconds += time.Since(start).Seconds()
			t.perGame[i].Add(pos.MoveNumber+1, rank, t.dist.P[next.Point])
		}
		return ctx.Err()
	})
	if err == nil {
		t.scoreBatches()
	}
	switch {
	case ctx.Err() != nil:
	case err != nil:
		slog.Warn("skipping game", "name", name, "err", err)
		t.skippedGames++
		t.skipped += g.NumMoves()
	default:
		t.games++
		t.skipped += passes
		for i := range t.perGame {
			t.scores[i].Merge(&t.perGame[i])
		}
	}
}

// evalBatch is how many positions a predict.Batcher gets at once.
const evalBatch = 32

// scoreBatches scores the held positions of a game with the predictors that predict in batches.
func (t *worker) scoreBatches() {
	var ptrs [evalBatch]*game.Position
	for i, p := range t.preds {
		b, ok := p.(predict.Batcher)
		if !ok {
			continue
		}
		if len(t.dists) < evalBatch {
			t.dists = make([]predict.Distribution, evalBatch)
		}
		for lo := 0; lo < len(t.held); lo += evalBatch {
			hi := min(len(t.held), lo+evalBatch)
			for j := lo; j < hi; j++ {
				ptrs[j-lo] = &t.held[j]
			}
			start := time.Now()
			b.PredictBatch(ptrs[:hi-lo], t.dists[:hi-lo])
			elapsed := time.Since(start).Seconds()
			for j := lo; j < hi; j++ {
				pos, d := &t.held[j], &t.dists[j-lo]
				rank := d.Rank(pos, t.moves[j].Point)
				t.perGame[i].Add(pos.MoveNumber+1, rank, d.P[t.moves[j].Point])
			}
			t.perGame[i].Seconds += elapsed
		}
	}
}
