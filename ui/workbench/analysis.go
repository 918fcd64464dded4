package workbench

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/ui/goban"
)

// maxTop is how many candidates a prediction keeps for the labels; the
// top-k setting shows a prefix of them.
const maxTop = 20

// prediction is one predictor's result for a position, already in the
// board's terms so that showing it is a copy. It is shared with the engine's
// cache: never modified after it is made.
type prediction struct {
	predictor string
	size      int
	heat      []float64 // index y*size+x: probability of a legal move, -1 where the move is illegal
	rank      []int32   // index y*size+x: rank of a legal move (1 = most probable; ties count against)
	pass      float64   // probability of passing
	passRank  int
	max       float64             // largest probability of a legal move: the top of the linear scale
	top       []predict.Candidate // most probable first, at most maxTop
}

// rankOf returns the rank and probability of move, or false when the
// predictor considered it illegal.
func (pr *prediction) rankOf(move board.Point) (rank int, p float64, ok bool) {
	if move == board.Pass {
		return pr.passRank, pr.pass, true
	}
	x, y := move.XY()
	if x < 0 || y < 0 || x >= pr.size || y >= pr.size {
		return 0, 0, false
	}
	i := y*pr.size + x
	if pr.heat[i] < 0 {
		return 0, 0, false
	}
	return int(pr.rank[i]), pr.heat[i], true
}

func (pr *prediction) bytes() int { return 12*len(pr.heat) + 16*len(pr.top) + 128 }

// summarize turns a distribution into a prediction: per-point probabilities
// with illegal points marked, the rank of every legal move as
// predict.Distribution.Rank defines it, and the top candidates.
func summarize(name string, pos *game.Position, d *predict.Distribution) *prediction {
	b := &pos.Board
	n := b.Size()
	pr := &prediction{
		predictor: name, size: n, pass: d.P[board.Pass],
		heat: make([]float64, n*n), rank: make([]int32, n*n),
	}
	legal := make([]float64, 0, n*n+1)
	legal = append(legal, pr.pass)
	for _, p := range b.Points() {
		x, y := p.XY()
		i := y*n + x
		if b.Legal(p, pos.ToPlay) {
			pr.heat[i] = d.P[p]
			pr.max = max(pr.max, d.P[p])
			legal = append(legal, d.P[p])
		} else {
			pr.heat[i] = -1
		}
	}
	// rank(v) = number of legal moves with probability >= v, itself included.
	sort.Float64s(legal)
	rankOf := func(v float64) int { return len(legal) - sort.SearchFloat64s(legal, v) }
	for i, v := range pr.heat {
		if v >= 0 {
			pr.rank[i] = int32(rankOf(v))
		}
	}
	pr.passRank = rankOf(pr.pass)
	pr.top = d.Top(maxTop, make([]predict.Candidate, 0, maxTop))
	return pr
}

// analysis makes the engine tasks that run predictors. Predictors keep
// scratch state, so each worker takes its own from a pool per name.
type analysis struct {
	mu    sync.Mutex
	pools map[string]*sync.Pool
	dists sync.Pool // *predict.Distribution, a few KB each
}

func newAnalysis() *analysis {
	return &analysis{
		pools: map[string]*sync.Pool{},
		dists: sync.Pool{New: func() any { return new(predict.Distribution) }},
	}
}

func (a *analysis) pool(name string) *sync.Pool {
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
func (a *analysis) get(name string) (pred predict.Predictor, put func(), err error) {
	pool := a.pool(name)
	pred, _ = pool.Get().(predict.Predictor)
	if pred == nil {
		if pred, err = predict.New(name, predict.Options{}); err != nil {
			return nil, nil, err
		}
	}
	return pred, func() { pool.Put(pred) }, nil
}

// predict runs the named predictor on pos; it is the compute step of a task
// and runs on an engine worker.
func (a *analysis) predict(_ context.Context, name string, pos *game.Position) (*prediction, error) {
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
	return summarize(name, &own, d), nil
}

// task makes the engine task for one predictor; deliver runs on the UI
// thread with its result.
func (a *analysis) task(name string, deliver func(*prediction, error)) engine.Task {
	return engine.NewTask("predict/"+name,
		func(ctx context.Context, pos *game.Position) (*prediction, error) { return a.predict(ctx, name, pos) },
		(*prediction).bytes, deliver)
}

// analyze starts the predictors of the boards shown on the current position,
// and their explanations while the inspector is shown. Until their results
// arrive the boards and the inspector keep showing the previous ones.
func (wb *Workbench) analyze() {
	node := wb.doc.cursor.Node()
	seq := wb.nav.seq
	move := wb.doc.cursor.Position().MoveNumber
	var tasks, explain []engine.Task
	for i, v := range wb.views {
		if i == 1 && !wb.settings.compare {
			break
		}
		name := wb.settings.predictor
		if i == 1 {
			name = wb.settings.compareWith
		}
		if name == "" {
			continue
		}
		tasks = append(tasks, wb.an.task(name, func(pr *prediction, err error) {
			if err != nil {
				wb.predictorFailed(i, name, err)
				return
			}
			v.shown, v.node = pr, node
			if i == 0 && seq == wb.nav.seq {
				wb.nav.delivered(name, move)
			}
			wb.render()
		}))
		if wb.inspecting() {
			explain = append(explain, wb.an.explainTask(name, func(ex *explanations, err error) {
				if err != nil {
					return // the prediction task reports the failure and switches
				}
				v.explained, v.explainedFor = ex, node
				wb.showInspector()
			}))
		}
	}
	// Heat maps first: they are what navigation waits for; then the
	// territory estimates, before the explanations only the inspector shows.
	tasks = append(tasks, wb.terr.tasks()...)
	tasks = append(tasks, wb.cfgv.tasks()...)
	wb.engine.Analyze(wb.doc.cursor.Position(), append(tasks, explain...)...)
}

// predictorFailed switches board i from a predictor that cannot run (mm
// without a model, say) to the first one that has not failed, and says so.
func (wb *Workbench) predictorFailed(i int, name string, err error) {
	if wb.broken == nil {
		wb.broken = map[string]error{}
	}
	wb.broken[name] = err
	for _, n := range predict.Names() {
		if _, bad := wb.broken[n]; !bad {
			wb.setStatus("%v — showing %s instead", err, n)
			wb.panel.replace(i, n)
			return
		}
	}
	wb.setStatus("%v", err)
}

// render draws the current results with the current settings: heat maps,
// candidate labels and the ring on the record's next move, and the next
// move's rank in the panel and the status bar.
func (wb *Workbench) render() {
	c := wb.doc.cursor
	next, hasNext := nextMove(c)
	s := &wb.settings
	var lines []string
	for i, v := range wb.views {
		if i == 1 && !s.compare {
			break
		}
		v.board.SetHeat(heatOf(v.shown, s))
		v.board.SetLabels(labelsOf(v.shown, s.topK, next, hasNext))
		if hasNext && v.shown != nil && v.node == c.Node() {
			lines = append(lines, rankLine(v.shown, next, c.Game().Size()))
		}
	}
	if pr := wb.views[0].shown; pr != nil {
		wb.panel.legend.SetMax(pr.max)
	}
	wb.panel.showNext(lines, next, hasNext, c)
	status := ""
	if v := wb.views[0]; hasNext && v.shown != nil && v.node == c.Node() {
		if r, p, ok := v.shown.rankOf(next); ok {
			status = fmt.Sprintf("Next %s: rank %d, %s", next.GTP(c.Game().Size()), r, percent(p))
		}
	}
	wb.status.showNext(status)
	wb.terr.render()
	wb.cfgv.render()
}

// heatOf is the heat layer of pr with the display settings, or nil to hide it.
func heatOf(pr *prediction, s *settings) *goban.Heat {
	if pr == nil || !s.heat {
		return nil
	}
	return &goban.Heat{Size: pr.size, P: pr.heat, Scale: s.scale, Palette: s.palette, HideBelow: s.hideBelow}
}

// labelsOf are the candidates of pr ranked k or better, with their
// percentages and the favourite emphasised, and a ring on the record's next
// move. Ranks count ties against the prediction, so moves tied with the
// (k+1)-th are not labelled: a uniform predictor labels nothing rather than
// k arbitrary points.
func labelsOf(pr *prediction, k int, next board.Point, hasNext bool) []goban.Label {
	var ls []goban.Label
	if pr != nil {
		for _, c := range pr.top {
			r, _, ok := pr.rankOf(c.Point)
			if !ok || r > k {
				break // top is sorted: the rest rank no better
			}
			if c.Point == board.Pass {
				continue
			}
			x, y := c.Point.XY()
			ls = append(ls, goban.Label{Point: goban.Point{X: x, Y: y}, Text: labelText(c.Probability), Best: r == 1})
		}
	}
	if hasNext && next != board.Pass {
		x, y := next.XY()
		gp := goban.Point{X: x, Y: y}
		if i := slices.IndexFunc(ls, func(l goban.Label) bool { return l.Point == gp }); i >= 0 {
			ls[i].Mark = goban.MarkRing
		} else {
			ls = append(ls, goban.Label{Point: gp, Mark: goban.MarkRing})
		}
	}
	return ls
}

// labelText is a probability as a percentage short enough for a stone:
// "23", "8.2".
func labelText(p float64) string {
	if v := 100 * p; v >= 9.95 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", 100*p)
}

// percent is a probability for reading: "8.2%", "0.04%".
func percent(p float64) string {
	switch v := 100 * p; {
	case v >= 0.995:
		return fmt.Sprintf("%.1f%%", v)
	case v >= 0.00995:
		return fmt.Sprintf("%.2f%%", v)
	default:
		return "<0.01%"
	}
}

// rankLine is "mm: rank 3, 8.2%" for the record's next move.
func rankLine(pr *prediction, next board.Point, size int) string {
	r, p, ok := pr.rankOf(next)
	if !ok {
		return fmt.Sprintf("%s: %s is illegal here", pr.predictor, next.GTP(size))
	}
	return fmt.Sprintf("%s: rank %d, %s", pr.predictor, r, percent(p))
}
