package eval

import "math"

// OwnerClamp bounds the probability given to a label, p ∈ [OwnerClamp, 1−OwnerClamp], so that an
// estimate of exactly ±1 costs −ln(1e-6) = 13.8 nats when wrong instead of infinity (exact marginals of
// a chain with w_chains ≈ 3 come within 1e-9 of ±1). Both ends are clamped, as `aji territory-eval`
// always did; training's evaluation clamped only below, which moves a point's cost by at most 1e-6 nats.
const OwnerClamp = 1e-6

// OwnerScore scores expected final owners against final-territory labels (Stern §5.5, Figs. 5.9–5.11):
// the per-point cross-entropy −ln p(label), natural log, with p(±1) = (1 ± E[s])/2, and the sign
// agreement, over the labelled points; dame (label 0) are skipped. Sums, so that scores of several
// goroutines or positions Merge exactly.
type OwnerScore struct {
	Positions int
	Points    int
	LogLoss   float64 // Σ −ln p(label) over the points
	Agree     int     // points whose E[s] has the label's sign (0 counts as a miss)
}

// Add scores one position: mean[i] is E[s_i] (+1 Black) and labels[i] ∈ {−1, 0, +1} its final owner,
// in the same order (SGF order, row-major from the top left).
func (s *OwnerScore) Add(mean []float64, labels []int8) {
	s.Positions++
	for i, l := range labels {
		if l == 0 {
			continue
		}
		v := float64(l) * mean[i] // E[s] in the label's direction
		s.LogLoss -= math.Log(min(max((1+v)/2, OwnerClamp), 1-OwnerClamp))
		if v > 0 {
			s.Agree++
		}
		s.Points++
	}
}

// Merge adds the sums of o to s.
func (s *OwnerScore) Merge(o OwnerScore) {
	s.Positions += o.Positions
	s.Points += o.Points
	s.LogLoss += o.LogLoss
	s.Agree += o.Agree
}

// CrossEntropy is the mean of −ln p(label) over the points, in nats; 0 without points.
func (s OwnerScore) CrossEntropy() float64 {
	if s.Points == 0 {
		return 0
	}
	return s.LogLoss / float64(s.Points)
}

// Agreement is the share of points whose E[s] has the label's sign; 0 without points.
func (s OwnerScore) Agreement() float64 {
	if s.Points == 0 {
		return 0
	}
	return float64(s.Agree) / float64(s.Points)
}
