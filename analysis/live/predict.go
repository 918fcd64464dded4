package live

import (
	"context"
	"sort"
	"sync"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// MaxTop is how many candidates a prediction keeps for the labels; the
// window's top-k setting shows a prefix of them.
const MaxTop = 20

// Prediction is one predictor's result for a position, already in the
// board's terms so that showing it is a copy. It is shared with the engine's
// cache: never modified after it is made.
type Prediction struct {
	Predictor string
	Size      int
	Heat      []float64 // index y*size+x: probability of a legal move, -1 where the move is illegal
	Rank      []int32   // index y*size+x: rank of a legal move (1 = most probable; ties count against)
	Pass      float64   // probability of passing
	PassRank  int
	Max       float64             // largest probability of a legal move: the top of the linear scale
	Top       []predict.Candidate // most probable first, at most MaxTop
}

// RankOf returns the rank and probability of move, or false when the
// predictor considered it illegal.
func (pr *Prediction) RankOf(move board.Point) (rank int, p float64, ok bool) {
	if move == board.Pass {
		return pr.PassRank, pr.Pass, true
	}
	x, y := move.XY()
	if x < 0 || y < 0 || x >= pr.Size || y >= pr.Size {
		return 0, 0, false
	}
	i := y*pr.Size + x
	if pr.Heat[i] < 0 {
		return 0, 0, false
	}
	return int(pr.Rank[i]), pr.Heat[i], true
}

// Bytes estimates the prediction's size, for the bound of a result cache.
func (pr *Prediction) Bytes() int { return 12*len(pr.Heat) + 16*len(pr.Top) + 128 }

// Summarize turns a distribution into a prediction: per-point probabilities
// with illegal points marked, the rank of every legal move as
// predict.Distribution.Rank defines it, and the top candidates.
func Summarize(name string, pos *game.Position, d *predict.Distribution) *Prediction {
	b := &pos.Board
	n := b.Size()
	pr := &Prediction{
		Predictor: name, Size: n, Pass: d.P[board.Pass],
		Heat: make([]float64, n*n), Rank: make([]int32, n*n),
	}
	legal := make([]float64, 0, n*n+1)
	legal = append(legal, pr.Pass)
	for _, p := range b.Points() {
		x, y := p.XY()
		i := y*n + x
		if b.Legal(p, pos.ToPlay) {
			pr.Heat[i] = d.P[p]
			pr.Max = max(pr.Max, d.P[p])
			legal = append(legal, d.P[p])
		} else {
			pr.Heat[i] = -1
		}
	}
	// rank(v) = number of legal moves with probability >= v, itself included.
	sort.Float64s(legal)
	rankOf := func(v float64) int { return len(legal) - sort.SearchFloat64s(legal, v) }
	for i, v := range pr.Heat {
		if v >= 0 {
			pr.Rank[i] = int32(rankOf(v))
		}
	}
	pr.PassRank = rankOf(pr.Pass)
	pr.Top = d.Top(MaxTop, make([]predict.Candidate, 0, MaxTop))
	return pr
}

// Predictors makes the engine tasks that run predictors. Predictors keep
// scratch state, so each worker takes its own from a pool per name.
type Predictors struct {
	mu    sync.Mutex
	pools map[string]*sync.Pool
	dists sync.Pool // *predict.Distribution, a few KB each
}

// NewPredictors returns empty pools.
func NewPredictors() *Predictors {
	return &Predictors{
		pools: map[string]*sync.Pool{},
		dists: sync.Pool{New: func() any { return new(predict.Distribution) }},
	}
}

func (a *Predictors) pool(name string) *sync.Pool {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.pools[name]
	if p == nil {
		p = new(sync.Pool)
		a.pools[name] = p
	}
	return p
}

// get takes a predictor of the given name from its pool, or makes one; put
// gives it back. Prediction and explanation share the pool: an explainer
// that remembers its last position may find it computed already.
func (a *Predictors) get(name string) (pred predict.Predictor, put func(), err error) {
	pool := a.pool(name)
	pred, _ = pool.Get().(predict.Predictor)
	if pred == nil {
		if pred, err = predict.New(name, predict.Options{}); err != nil {
			return nil, nil, err
		}
	}
	return pred, func() { pool.Put(pred) }, nil
}

// Predict runs the named predictor on pos: the compute step of
// PredictTask, which runs on an engine worker.
func (a *Predictors) Predict(_ context.Context, name string, pos *game.Position) (*Prediction, error) {
	pred, put, err := a.get(name)
	if err != nil {
		return nil, err
	}
	defer put()
	// Tasks of one navigation share the engine's copy of the position; a
	// predictor gets its own so none can disturb another's.
	own := *pos
	d := a.dists.Get().(*predict.Distribution)
	defer a.dists.Put(d)
	pred.Predict(&own, d)
	return Summarize(name, &own, d), nil
}

// PredictTask makes the engine task for one predictor; deliver runs on the
// UI thread with its result.
func (a *Predictors) PredictTask(name string, deliver func(*Prediction, error)) engine.Task {
	return engine.NewTask("predict/"+name,
		func(ctx context.Context, pos *game.Position) (*Prediction, error) { return a.Predict(ctx, name, pos) },
		(*Prediction).Bytes, deliver)
}
