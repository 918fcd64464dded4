package bayes

import (
	"context"
	"runtime"
	"slices"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// TrainOptions configure Train.
type TrainOptions struct {
	MaxGames int // games to read (0: all)
	// Skip is the number of games already learned from (a resumed run: Model.Games); they are read
	// but not learned from again.
	Skip int
	// Workers is the number of goroutines finding the moves' patterns (default GOMAXPROCS).
	Workers int
	// Counting learns only the counts of the independent Bernoulli model, not the ranking model's
	// beliefs (which cost the EP iterations).
	Counting bool
	// Progress, if set, is called after each game learned from, with the games done so far.
	Progress func(games int)
	// Checkpoint, if set, is called after every Every games learned from (and not at the end).
	Checkpoint func(m *Model) error
	Every      int
}

// TrainStats reports a training run.
type TrainStats struct {
	Games, Positions int
	Skipped          int     // expert moves not among the legal moves (a record against the rules here)
	Sweeps           float64 // EP sweeps per position, on average
}

// gameObs is what one game teaches: per position the slots of its legal moves, the move played first.
type gameObs struct {
	index  int
	slots  []int32
	chains []chain // of a hierarchical model: each move's patterns, beside its slot
	// A linear model's features: move j's (over the whole game) are feats[featEnd[j−1]:featEnd[j]].
	feats   []int32
	featEnd []int32
	ends    []int32 // position i's slots are slots[ends[i−1]:ends[i]]
	skip    int
}

// Train learns m from the games at path by one pass of assumed-density filtering (Stern §2.5,
// §3.2.1): after each position the beliefs of the patterns of its moves become the approximate
// posterior, by Ranker, and are the prior for the next. In a hierarchical model (§3.3) a move's
// belief is the forward pass down its chain of patterns, and the update goes back up it. The counts of the Bernoulli model (§3.2.2)
// are kept at the same time. Workers find the patterns of the games' moves concurrently; one
// goroutine applies the updates, in the games' stored order, so the model is the same whatever
// the number of workers. Expert passes are not learned from (as aji eval does not score them),
// but pass is every position's alternative. m.Games and m.Positions count what was learned.
func Train(ctx context.Context, path string, m *Model, opt TrainOptions) (TrainStats, error) {
	workers := opt.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	lookers := make([]looker, workers)
	obs := make(chan *gameObs, 4*workers)
	var walkErr error
	go func() {
		defer close(obs)
		_, walkErr = dataset.Games(ctx, path, dataset.Filter{}, opt.MaxGames, workers, func(w, index int, _ string, g *game.Game) {
			o := &gameObs{index: index}
			if index >= opt.Skip {
				lookers[w].game(m, g, o)
			}
			select {
			case obs <- o:
			case <-ctx.Done():
			}
		})
	}()

	var st TrainStats
	var rk Ranker
	var prior, out []Gauss
	beta2 := m.Beta * m.Beta
	pending := map[int]*gameObs{}
	next, sweeps := 0, 0
	learn := func(o *gameObs) error {
		if o.index < opt.Skip {
			return nil
		}
		from := int32(0)
		for _, end := range o.ends {
			slots, start := o.slots[from:end], from
			from = end
			for _, s := range slots {
				m.Seen[s]++
			}
			m.Played[slots[0]]++
			if !opt.Counting {
				var chains []chain
				if m.Hier != nil {
					chains = o.chains[start : start+int32(len(slots))]
				}
				prior, out = slices.Grow(prior[:0], len(slots))[:len(slots)], slices.Grow(out[:0], len(slots))[:len(slots)]
				feats := func(i int) []int32 { // a linear model's features of the position's move i
					j := int(start) + i
					lo := int32(0)
					if j > 0 {
						lo = o.featEnd[j-1]
					}
					return o.feats[lo:o.featEnd[j]]
				}
				noise := beta2
				for i, s := range slots {
					switch {
					case m.Linear != nil:
						prior[i] = MeanVar(m.Linear.prior(m.Belief(int(s)), feats(i), beta2))
					case chains != nil && chains[i].top > 0:
						prior[i] = m.Hier.belief(&chains[i])
					default:
						prior[i] = m.Belief(int(s))
					}
				}
				if m.Linear != nil {
					noise = 0 // the prior is the urgency's own, every term's noise in it
				}
				sweeps += rk.Rank(prior, noise, out)
				for i, s := range slots {
					msg := out[i]
					switch {
					case m.Linear != nil:
						msg = m.Linear.observe(m.Belief(int(s)), feats(i), out[i], beta2)
					case chains != nil && chains[i].top > 0:
						m.Hier.observe(&chains[i], out[i])
						continue
					}
					g := m.Belief(int(s)).Mul(msg)
					m.Mu[s], m.Var[s] = g.Mean(), g.Var()
				}
			}
		}
		st.Games++
		st.Positions += len(o.ends)
		st.Skipped += o.skip
		m.Games++
		m.Positions += len(o.ends)
		if opt.Progress != nil {
			opt.Progress(st.Games)
		}
		if opt.Checkpoint != nil && opt.Every > 0 && st.Games%opt.Every == 0 {
			return opt.Checkpoint(m)
		}
		return nil
	}
	var err error
	for o := range obs {
		pending[o.index] = o
		for err == nil {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			err = learn(p)
		}
		if err != nil {
			break
		}
	}
	for range obs { // a failed checkpoint: let the readers finish
	}
	if st.Positions > 0 {
		st.Sweeps = float64(sweeps) / float64(st.Positions)
	}
	if err == nil {
		err = walkErr
	}
	if err == nil {
		err = ctx.Err()
	}
	return st, err
}

// game collects the observations of g's main line into o.
func (l *looker) game(m *Model, g *game.Game, o *gameObs) {
	_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		if next.Point == board.Pass {
			return nil
		}
		l.look(m, pos)
		i := slices.Index(l.moves, next.Point)
		if i < 0 {
			o.skip++
			return nil
		}
		start := len(o.slots)
		o.slots = append(o.slots, l.slots...)
		o.slots[start], o.slots[start+i] = o.slots[start+i], o.slots[start]
		if m.Hier != nil {
			o.chains = append(o.chains, l.chains...)
			o.chains[start], o.chains[start+i] = o.chains[start+i], o.chains[start]
		}
		if m.Linear != nil { // the played move's features first, as its slot
			for _, k := range append([]int{i}, skipIndex(len(l.moves), i)...) {
				o.feats = append(o.feats, l.features(k)...)
				o.featEnd = append(o.featEnd, int32(len(o.feats)))
			}
		}
		o.ends = append(o.ends, int32(len(o.slots)))
		return nil
	})
}

// skipIndex lists 0..n−1 without i, in order but with 0 in i's place: the order of a position's
// moves once the played one, i, has swapped places with the first.
func skipIndex(n, i int) []int {
	out := make([]int, 0, n-1)
	for k := 1; k < n; k++ {
		if k == i {
			out = append(out, 0)
		} else {
			out = append(out, k)
		}
	}
	return out
}
