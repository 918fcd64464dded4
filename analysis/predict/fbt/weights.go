package fbt

import (
	"math"

	"aji/analysis/feature"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// Weights implements predict.Lister.
func (p *Predictor) Weights() *predict.Weights { return p.m.Weights(p.name) }

// Weights lists every feature's strength w and the norm of its interaction vector v (Xiao eq. 3.1):
// the tactical levels (the Monte Carlo owner's only after an owner stage), the shapes (F_large) and
// the 3x3 classes. A diff reads the vectors themselves through the listing.
func (m *Model) Weights(name string) *predict.Weights {
	family := "fbt"
	if !m.Large() {
		family = "fbt-small"
	}
	w := predict.NewWeights(name, family, predict.Factorized, len(m.W))
	owner := m.Owner()
	for i := range feature.NumIndices {
		if owner || !IsOwner(int32(i)) {
			w.AddFeature(i, float64(m.W[i]), m.norm(i), -1, -1)
		}
	}
	w.AddShapes(m.Shapes, feature.NumIndices, func(id int) (float64, float64, int64, int64) {
		f := feature.NumIndices + id
		return float64(m.W[f]), m.norm(f), int64(m.Shapes.Entry(id).Count), -1
	})
	for c := range pattern.NumClasses3() {
		f := int(m.class3Index(uint16(c)))
		w.AddShape3(c, f, float64(m.W[f]), m.norm(f))
	}
	w.SetVectors(func(f int32) []float32 { return m.V[int(f)*m.K : int(f)*m.K+m.K] })
	return w
}

// norm is ‖v_f‖.
func (m *Model) norm(f int) float64 {
	s := 0.0
	for _, x := range m.V[f*m.K : f*m.K+m.K] {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

var _ predict.Lister = (*Predictor)(nil)

// Model returns the model the predictor reads.
func (p *Predictor) Model() *Model { return p.m }
