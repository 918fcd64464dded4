package cfgbt

import (
	"fmt"

	"aji/analysis/cfg"
	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// Weights implements predict.Lister.
func (p *Predictor) Weights() *predict.Weights { return p.m.Weights(p.name) }

// Weights lists the model's γ: the feature levels of its MM groups, its shapes (Full) or 3x3 classes
// (Small), and its path labels with the expert moves each was seen at.
func (m *Model) Weights(name string) *predict.Weights {
	family := Name
	if m.Variant == Small {
		family = SmallName
	}
	w := predict.NewWeights(name, family, predict.Gamma, len(m.Gamma))
	for _, g := range m.Groups() {
		if g.Hi <= feature.NumIndices {
			for i := g.Lo; i < g.Hi; i++ {
				w.AddFeature(i, m.Gamma[i], 0, -1, -1)
			}
		}
	}
	if m.Variant == Small {
		for c := range pattern.NumClasses3() {
			w.AddShape3(c, feature.NumIndices+c, m.Gamma[feature.NumIndices+c], 0)
		}
	} else {
		w.AddShapes(m.Shapes, feature.NumIndices, func(id int) (float64, float64, int64, int64) {
			return m.Gamma[feature.NumIndices+id], 0, int64(m.Shapes.Entry(id).Count), -1
		})
	}
	base := m.PathBase()
	for k, l := range m.Labels {
		w.AddPath(l, pathName(l, m.Counts[k]), base+k, m.Gamma[base+k], int64(m.Counts[k]))
	}
	return w
}

// pathName names path label l, seen count times in training, as explanations do.
func pathName(l, count uint32) string {
	return fmt.Sprintf("CFG path %s (seen %d times in training)", cfg.FeatureString(l), count)
}

var _ predict.Lister = (*Predictor)(nil)
