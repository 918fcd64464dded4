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
	MeanRank           float64   `json:"mean_rank"`
	PositionsPerSecond float64   `json:"positions_per_second"`
	RankCDF            []float64 `json:"rank_cdf"`
	ByPhase            []Phase   `json:"by_phase"`
	// ByPatternSize is asked for by Options.BySize, for a predictor that explains its moves with patterns.
	ByPatternSize []SizeRow `json:"by_pattern_size,omitempty"`
	// Worst are the Options.Worst positions whose expert move ranked worst, worst first.
	Worst []Worst `json:"worst,omitempty"`
}

// Options tune Run.
type Options struct {
	MaxGames int            // stop after this many games (0: all)
	Workers  int            // goroutines predicting (0: GOMAXPROCS)
	Filter   dataset.Filter // which games to read
	// Predictors are the options of each named predictor (predict.New's); a name not here gets none.
	Predictors map[string]predict.Options
	// Worst, when positive, keeps that many positions per predictor where the expert's move ranked worst
	// (Result.Worst): a bounded list per worker, so memory does not grow with the collection.
	Worst int
	// BySize asks for the figures by the size of the largest pattern matched at the expert's move
	// (Result.ByPatternSize) of every predict.Explainer, at the cost of an Explain of the move per position.
	BySize bool
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
	index        int // the game being scored: its number, file name and record
	name         string
	game         *game.Game
	games        int
	skipped      int
	skippedGames int

	// Options.Worst and Options.BySize: per predictor, for the run and for the game being scored.
	worst, gameWorst []worstList
	sizes, gameSizes []sizeScore
	bySize           bool
}

// newWorker makes a worker for preds.
func newWorker(preds []predict.Predictor, opt *Options) worker {
	n := len(preds)
	t := worker{preds: preds, scores: make([]Score, n), perGame: make([]Score, n), bySize: opt.BySize}
	for _, p := range preds {
		_, b := p.(predict.Batcher)
		t.batching = t.batching || b
	}
	if opt.Worst > 0 {
		t.worst, t.gameWorst = make([]worstList, n), make([]worstList, n)
		for i := range n {
			t.worst[i], t.gameWorst[i] = newWorstList(opt.Worst), newWorstList(opt.Worst)
		}
	}
	if opt.BySize {
		t.sizes, t.gameSizes = make([]sizeScore, n), make([]sizeScore, n)
	}
	return t
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
		workers[w] = newWorker(preds[w], &opt)
	}
	st, err := dataset.Games(ctx, path, opt.Filter, opt.MaxGames, n, func(w, index int, name string, g *game.Game) {
		workers[w].score(ctx, index, name, g)
		if opt.Progress != nil {
			opt.Progress(1)
		}
	})
	if err != nil {
		return nil, err
	}

	total := newWorker(preds[0], &opt)
	total.skippedGames = st.Errors
	for _, t := range workers {
		total.games += t.games
		total.skipped += t.skipped
		total.skippedGames += t.skippedGames
		for i := range t.scores {
			total.scores[i].Merge(&t.scores[i])
			if t.worst != nil {
				total.worst[i].merge(&t.worst[i])
			}
			if t.sizes != nil {
				total.sizes[i].merge(&t.sizes[i])
			}
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
			MeanRank:        s.MeanRank(),
			RankCDF:         cdf,
			ByPhase:         s.Phases(),
		}
		if total.worst != nil {
			results[i].Worst = total.worst[i].items
			for k := range results[i].Worst {
				w := &results[i].Worst[k]
				w.Coord = w.Point.GTP(w.Record.Size())
			}
		}
		if _, ok := preds[0][i].(predict.Explainer); ok && total.sizes != nil {
			results[i].ByPatternSize = total.sizes[i].rows(s.Positions)
		}
		// Throughput of this predictor alone on all workers: positions over its per-worker time.
		if s.Seconds > 0 {
			results[i].PositionsPerSecond = float64(s.Positions) * float64(n) / s.Seconds
		}
	}
	return results, nil
}

// score scores one game. A game with an illegal move is skipped whole, its moves counted as skipped.
func (t *worker) score(ctx context.Context, index int, name string, g *game.Game) {
	for i := range t.perGame {
		t.perGame[i].Reset()
		if t.gameWorst != nil {
			t.gameWorst[i].reset()
		}
		if t.gameSizes != nil {
			t.gameSizes[i] = sizeScore{}
		}
	}
	t.index, t.name, t.game = index, name, g
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
			t.observe(i, pos, next.Point, rank, t.dist.P[next.Point])
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
			if t.worst != nil {
				t.worst[i].merge(&t.gameWorst[i])
			}
			if t.sizes != nil {
				t.sizes[i].merge(&t.gameSizes[i])
			}
		}
	}
}

// observe records what Options.Worst and Options.BySize ask of predictor i's score of move at pos;
// its counts join the run's only if the whole game scores.
func (t *worker) observe(i int, pos *game.Position, move board.Point, rank int, p float64) {
	if t.gameWorst != nil {
		t.gameWorst[i].add(Worst{Game: t.name, Index: t.index, Move: pos.MoveNumber + 1, Point: move,
			Rank: rank, Probability: p, Record: t.game})
	}
	if t.bySize {
		if e, ok := t.preds[i].(predict.Explainer); ok {
			// The predictor has just predicted pos, which its Explain reuses.
			t.gameSizes[i].add(e.Explain(pos, move).PatternSize, rank, p)
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
				t.observe(i, pos, t.moves[j].Point, rank, d.P[t.moves[j].Point])
			}
			t.perGame[i].Seconds += elapsed
		}
	}
}
