package bayes

import (
	"context"
	"runtime"
	"sync"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// Diagnostics are Stern's diagnostic figures of a pattern model on a game collection: which
// template is the largest to match at the expert's move, by game phase (Figure 3.5), and the mean
// rank error — the expert move's rank over the number of legal moves — by that template and by phase
// (Figure 3.6, middle and bottom). Phases are eval.PhaseLength moves long.
type Diagnostics struct {
	Positions int
	// ByPhase[ph][t] counts the expert moves of phase ph whose largest pattern is template t+1; an
	// expert move matching no pattern counts in Unmatched.
	ByPhase   [][pattern.NumStern]int
	Unmatched []int
	// RankError sums, by template and by phase, for the means.
	ErrByTemplate   [pattern.NumStern]float64
	CountByTemplate [pattern.NumStern]int
	ErrByPhase      []float64
	CountByPhase    []int
}

// MeanErrorByTemplate is Figure 3.6 (middle): the mean rank error of the expert moves whose largest
// pattern is each template (NaN where none is).
func (d *Diagnostics) MeanErrorByTemplate() [pattern.NumStern]float64 {
	var out [pattern.NumStern]float64
	for t := range out {
		out[t] = d.ErrByTemplate[t] / float64(d.CountByTemplate[t])
	}
	return out
}

// Diagnose predicts every position of the games at path (maxGames of them, 0: all) with m's
// ranking model (or its Bernoulli model) and gathers the Diagnostics.
func Diagnose(ctx context.Context, path string, m *Model, bernoulli bool, maxGames, workers int, progress func()) (*Diagnostics, error) {
	var mu sync.Mutex
	total := &Diagnostics{}
	type worker struct {
		p *Predictor
		d predict.Distribution
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	ws := make([]*worker, workers)
	for i := range ws {
		ws[i] = &worker{p: NewPredictor("bayes", m, bernoulli)}
	}
	_, err := dataset.Games(ctx, path, dataset.Filter{}, maxGames, workers, func(w, _ int, _ string, g *game.Game) {
		wk := ws[w]
		local := &Diagnostics{}
		_ = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			if next.Point == board.Pass || !pos.Board.Legal(next.Point, pos.ToPlay) {
				return nil
			}
			wk.p.Predict(pos, &wk.d)
			i := -1
			for k, mv := range wk.p.l.moves {
				if mv == next.Point {
					i = k
				}
			}
			if i < 0 {
				return nil
			}
			template := 0
			if slot := int(wk.p.l.slots[i]); slot < m.Patterns.Len() {
				template = m.Patterns.Entry(slot).Size
			}
			rankErr := float64(wk.d.Rank(pos, next.Point)) / float64(len(wk.p.l.moves))
			local.add(pos.MoveNumber/eval.PhaseLength, template, rankErr) // the expert's move is number MoveNumber+1
			return ctx.Err()
		})
		mu.Lock()
		total.merge(local)
		mu.Unlock()
		if progress != nil {
			progress()
		}
	})
	return total, err
}

// add counts one expert move of phase ph whose largest pattern is template (0: none).
func (d *Diagnostics) add(ph, template int, rankErr float64) {
	d.grow(ph + 1)
	d.Positions++
	d.ErrByPhase[ph] += rankErr
	d.CountByPhase[ph]++
	if template == 0 {
		d.Unmatched[ph]++
		return
	}
	d.ByPhase[ph][template-1]++
	d.ErrByTemplate[template-1] += rankErr
	d.CountByTemplate[template-1]++
}

// grow makes room for phases phases.
func (d *Diagnostics) grow(phases int) {
	for len(d.ByPhase) < phases {
		d.ByPhase = append(d.ByPhase, [pattern.NumStern]int{})
		d.Unmatched = append(d.Unmatched, 0)
		d.ErrByPhase = append(d.ErrByPhase, 0)
		d.CountByPhase = append(d.CountByPhase, 0)
	}
}

func (d *Diagnostics) merge(o *Diagnostics) {
	d.grow(len(o.ByPhase))
	d.Positions += o.Positions
	for ph := range o.ByPhase {
		for t, n := range o.ByPhase[ph] {
			d.ByPhase[ph][t] += n
		}
		d.Unmatched[ph] += o.Unmatched[ph]
		d.ErrByPhase[ph] += o.ErrByPhase[ph]
		d.CountByPhase[ph] += o.CountByPhase[ph]
	}
	for t := range d.ErrByTemplate {
		d.ErrByTemplate[t] += o.ErrByTemplate[t]
		d.CountByTemplate[t] += o.CountByTemplate[t]
	}
}
