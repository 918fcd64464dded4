package predict

import "aji/analysis/game"

func init() { Register("uniform", func(string, Options) (Predictor, error) { return uniform{}, nil }) }

// uniform gives every legal move, pass included, the same probability: the baseline every predictor must
// beat, whose top-1 rate is 0 under the pessimistic tie rule.
type uniform struct{}

func (uniform) Name() string { return "uniform" }

func (uniform) Predict(pos *game.Position, out *Distribution) { out.Uniform(pos) }
