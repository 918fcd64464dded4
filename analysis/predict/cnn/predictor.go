package cnn

import (
	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// Predictor is the cnn as a predict.Predictor: one network evaluation per position, on the calling
// goroutine. It is not safe for concurrent use; make one per goroutine (they share the network).
type Predictor struct {
	name  string
	eval  *Evaluator
	one   [1]*game.Position
	moves [board.MaxPoints]board.Point
}

// NewPredictor makes a predictor of net reporting the given name.
func NewPredictor(name string, net *Net) *Predictor {
	return &Predictor{name: name, eval: NewEvaluator(net, 1)}
}

// Name implements predict.Predictor.
func (p *Predictor) Name() string { return p.name }

// Predict implements predict.Predictor.
func (p *Predictor) Predict(pos *game.Position, out *predict.Distribution) {
	p.one[0] = pos
	logits := p.eval.Forward(p.one[:], 0)
	softmax(out, logits, pos, 0, p.moves[:])
	p.one[0] = nil
}

// PredictBatch fills out[i] with the distribution of positions[i], evaluating them as one batch (all of
// one board size); it is what aji eval calls.
func (p *Predictor) PredictBatch(positions []*game.Position, out []predict.Distribution) {
	logits := p.eval.Forward(positions, 0)
	N := positions[0].Board.Size() * positions[0].Board.Size()
	for b, pos := range positions {
		softmax(&out[b], logits[b*N:(b+1)*N], pos, 0, p.moves[:])
	}
}
