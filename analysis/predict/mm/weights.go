package mm

import (
	"aji/analysis/feature"
	"aji/analysis/predict"
)

// Weights implements predict.Lister.
func (p *Predictor) Weights() *predict.Weights { return p.m.Weights(p.name) }

// Weights lists the model's γ: its feature levels (the Monte Carlo owner's only in a model trained
// with it) and its shapes, with the harvest's count of each.
func (m *Model) Weights(name string) *predict.Weights {
	w := predict.NewWeights(name, Kind, predict.Gamma, feature.NumIndices+m.Shapes.Len())
	for i := range feature.NumIndices {
		if f, _ := feature.FromIndex(i); f != feature.MCOwner || m.Owner {
			w.AddFeature(i, m.Gamma[i], 0, -1, -1)
		}
	}
	w.AddShapes(m.Shapes, feature.NumIndices, func(id int) (float64, float64, int64, int64) {
		return m.Gamma[ShapeIndex(id)], 0, int64(m.Shapes.Entry(id).Count), -1
	})
	return w
}

var _ predict.Lister = (*Predictor)(nil)

// Model returns the model the predictor reads.
func (p *Predictor) Model() *Model { return p.m }
