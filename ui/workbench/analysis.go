package workbench

import (
	"fmt"
	"slices"

	"aji/analysis/board"
	"aji/analysis/engine"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/ui/goban"
)

// analyze starts the predictors of the boards shown on the current
// position, and the tabs' tasks. Until their results arrive the boards and
// the tabs keep showing the previous ones.
func (wb *Workbench) analyze() {
	node := wb.doc.cursor.Node()
	seq := wb.nav.seq
	move := wb.doc.cursor.Position().MoveNumber
	var tasks []engine.Task
	for i, v := range wb.views {
		name, ok := wb.predictorOf(i)
		if !ok || name == "" {
			continue
		}
		tasks = append(tasks, wb.an.PredictTask(name, func(pr *live.Prediction, err error) {
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
	}
	// Heat maps first: they are what navigation waits for.
	wb.engine.Analyze(wb.doc.cursor.Position(), append(tasks, wb.tabTasks()...)...)
}

// predictorOf is the predictor of board i, and whether board i is shown.
func (wb *Workbench) predictorOf(i int) (name string, shown bool) {
	if i == 1 {
		return wb.settings.compareWith, wb.settings.compare
	}
	return wb.settings.predictor, true
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
	s := wb.present.settings(&wb.settings) // the presenter's heat and k while presenting
	hidden := wb.nextHidden()              // the user is guessing the next move, or the teacher hides it
	blind := wb.tabHidesNext()             // the user is guessing: no hints either
	var lines []string
	for i, v := range wb.views {
		if i == 1 && !s.compare {
			break
		}
		if blind {
			v.board.SetHeat(nil)
			v.board.SetLabels(nil)
			continue
		}
		v.board.SetHeat(heatOf(v.shown, s))
		v.board.SetLabels(labelsWith(v.shown, s.topK, next, hasNext && !hidden, wb.present.labelText()))
		if hasNext && !hidden && v.shown != nil && v.node == c.Node() {
			lines = append(lines, rankLine(v.shown, next, c.Game().Size()))
		}
	}
	if pr := wb.views[0].shown; pr != nil {
		wb.panel.legend.SetMax(pr.Max)
	}
	if hidden {
		setText(wb.panel.next, "Next move: hidden while you guess it")
	} else {
		wb.panel.showNext(lines, next, hasNext, c)
	}
	status := ""
	if v := wb.views[0]; hasNext && !hidden && v.shown != nil && v.node == c.Node() {
		if r, p, ok := v.shown.RankOf(next); ok {
			status = fmt.Sprintf("Next %s: rank %d, %s", next.GTP(c.Game().Size()), r, percent(p))
		}
	}
	wb.status.showNext(status)
	for _, t := range wb.tabs {
		t.render()
	}
	wb.present.render()
}

// heatOf is the heat layer of pr with the display settings, or nil to hide it.
func heatOf(pr *live.Prediction, s *settings) *goban.Heat {
	if pr == nil || !s.heat {
		return nil
	}
	return &goban.Heat{Size: pr.Size, P: pr.Heat, Scale: s.scale, Palette: s.palette, HideBelow: s.hideBelow}
}

// labelsOf are the candidates of pr ranked k or better, with their
// percentages and the favourite emphasised, and a ring on the record's next
// move. Ranks count ties against the prediction, so moves tied with the
// (k+1)-th are not labelled: a uniform predictor labels nothing rather than
// k arbitrary points.
func labelsOf(pr *live.Prediction, k int, next board.Point, hasNext bool) []goban.Label {
	return labelsWith(pr, k, next, hasNext, percentLabel)
}

// percentLabel is a candidate's label text as a percentage (labelText).
func percentLabel(_ int, p float64) string { return labelText(p) }

// labelsWith are labelsOf with each candidate's text given by text, from
// its rank and probability.
func labelsWith(pr *live.Prediction, k int, next board.Point, hasNext bool, text func(rank int, p float64) string) []goban.Label {
	var ls []goban.Label
	if pr != nil {
		for _, c := range pr.Top {
			r, _, ok := pr.RankOf(c.Point)
			if !ok || r > k {
				break // top is sorted: the rest rank no better
			}
			if c.Point == board.Pass {
				continue
			}
			x, y := c.Point.XY()
			ls = append(ls, goban.Label{Point: goban.Point{X: x, Y: y}, Text: text(r, c.Probability), Best: r == 1})
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
func rankLine(pr *live.Prediction, next board.Point, size int) string {
	r, p, ok := pr.RankOf(next)
	if !ok {
		return fmt.Sprintf("%s: %s is illegal here", pr.Predictor, next.GTP(size))
	}
	return fmt.Sprintf("%s: rank %d, %s", pr.Predictor, r, percent(p))
}
