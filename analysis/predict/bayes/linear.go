package bayes

import (
	"aji/analysis/feature"
)

// The linear feature model (Stern §3.4): a move's urgency is the sum of the values of its features,
// u = Σ s_i, each s_i ~ N(t_i, β²) about the feature's underlying value t_i ~ N(μ_i, σ_i²), so the
// prior of u is N(Σ μ_i, Σ (σ_i² + β²)). The features are the move's largest pattern (its slot's
// belief, as in the flat model) and Coulom's tactical features — Stern's Table 3.1 is "similar to
// those used by Coulom (2007)", and Aji computes them once, in analysis/feature: capture, extension
// (escape atari), self-atari, atari, distance to the edge and to the two previous moves, pass. The
// Monte Carlo owner (Table 3.1's territory feature, 63 playouts a position) is left out.
type Linear struct {
	Mu, Var []float64 // per feature.Index
}

func newLinear() *Linear {
	l := &Linear{Mu: make([]float64, feature.NumIndices), Var: make([]float64, feature.NumIndices)}
	for i := range l.Var {
		l.Mu[i], l.Var[i] = PriorMu, PriorVar
	}
	return l
}

// moveFeatures appends the feature indices of a move (the owner feature left out) to dst.
func moveFeatures(dst []int32, lv *feature.Levels) []int32 {
	for f, level := range lv {
		if level != 0 && feature.Feature(f) != feature.MCOwner {
			dst = append(dst, int32(feature.Index(feature.Feature(f), level)))
		}
	}
	return dst
}

// linearPrior is the prior of the urgency of a move with the pattern belief pat and the features
// feats: N(μ_pat + Σ μ_i, σ_pat² + β² + Σ (σ_i² + β²)).
func (l *Linear) prior(pat Gauss, feats []int32, beta2 float64) (mean, variance float64) {
	mean, variance = pat.Mean(), pat.Var()+beta2
	for _, f := range feats {
		mean += l.Mu[f]
		variance += l.Var[f] + beta2
	}
	return mean, variance
}

// observe takes the message obs about a move's urgency u = s_pat + Σ s_i to each term (the linear
// projection factor's message, eq. 2.20, then the noise, eq. 2.19), and multiplies it into the
// feature's belief; it returns the message for the pattern's belief, which the caller keeps.
func (l *Linear) observe(pat Gauss, feats []int32, obs Gauss, beta2 float64) Gauss {
	if obs.Pi == 0 {
		return Gauss{}
	}
	mean, variance := l.prior(pat, feats, beta2)
	um, uv := obs.Mean(), obs.Var()
	toTerm := func(m, v float64) Gauss { // the message to a term of prior N(m, v) (the noise included)
		return MeanVar(um-(mean-m), uv+(variance-v)+beta2)
	}
	for _, f := range feats {
		msg := toTerm(l.Mu[f], l.Var[f]+beta2)
		g := MeanVar(l.Mu[f], l.Var[f]).Mul(msg)
		l.Mu[f], l.Var[f] = g.Mean(), g.Var()
	}
	return toTerm(pat.Mean(), pat.Var()+beta2)
}
