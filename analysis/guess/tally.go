package guess

import "slices"

// Tally is a score over many moves: the user's, and each predictor's on the same moves. It is what the
// history file keeps.
type Tally struct {
	Moves    int `json:"moves"`     // moves finished: found or revealed
	FirstTry int `json:"first_try"` // found with no wrong guess
	Right    int `json:"right"`     // found, first try or after wrong guesses
	Revealed int `json:"revealed"`  // given up
	Wrong    int `json:"wrong"`     // wrong guesses
	Hints    int `json:"hints"`     // hints given (each move 0..MaxHints)
	Peeked   int `json:"peeked"`    // moves where the predictors' guesses were shown before the end
	// Predictors are the predictors' top-1 on the same moves, in the order first met.
	Predictors []PredictorTally `json:"predictors,omitempty"`
}

// PredictorTally is one predictor's top-1 count: Top1 of Moves were its favourite (aji eval's top-1).
// Moves falls short of the user's when a move was finished before its predictions arrived.
type PredictorTally struct {
	Name  string `json:"name"`
	Moves int    `json:"moves"`
	Top1  int    `json:"top1"`
}

// addResult counts one finished move and the predictors' guesses for it.
func (t *Tally) addResult(r *Result, gs []PredictorGuess) {
	t.Moves++
	if r.FirstTry() {
		t.FirstTry++
	}
	if r.Right {
		t.Right++
	} else {
		t.Revealed++
	}
	t.Wrong += r.Wrong
	t.Hints += r.Hints
	if r.Peeked {
		t.Peeked++
	}
	for _, g := range gs {
		if g.Err != "" {
			continue
		}
		p := t.predictor(g.Name)
		p.Moves++
		if g.Right() {
			p.Top1++
		}
	}
}

// predictor is the tally of the named predictor, added when missing.
func (t *Tally) predictor(name string) *PredictorTally {
	i := slices.IndexFunc(t.Predictors, func(p PredictorTally) bool { return p.Name == name })
	if i < 0 {
		t.Predictors = append(t.Predictors, PredictorTally{Name: name})
		i = len(t.Predictors) - 1
	}
	return &t.Predictors[i]
}

// Add adds o's counts to t.
func (t *Tally) Add(o Tally) {
	t.Moves += o.Moves
	t.FirstTry += o.FirstTry
	t.Right += o.Right
	t.Revealed += o.Revealed
	t.Wrong += o.Wrong
	t.Hints += o.Hints
	t.Peeked += o.Peeked
	for _, q := range o.Predictors {
		p := t.predictor(q.Name)
		p.Moves += q.Moves
		p.Top1 += q.Top1
	}
}

// Predictor is the named predictor's tally, or false when it has none.
func (t *Tally) Predictor(name string) (PredictorTally, bool) {
	i := slices.IndexFunc(t.Predictors, func(p PredictorTally) bool { return p.Name == name })
	if i < 0 {
		return PredictorTally{}, false
	}
	return t.Predictors[i], true
}
