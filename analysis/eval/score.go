package eval

import "math"

const (
	// MaxRank is the largest rank the CDF reports.
	MaxRank = 20
	// PhaseLength is the number of moves in each by-phase bucket.
	PhaseLength = 30
	// minProbability floors a predicted probability before taking its log, so one zero from a predictor
	// costs a large but finite penalty (ln 1e-12 ≈ -27.6) instead of making the mean -Inf.
	minProbability = 1e-12
)

// Score accumulates the ranks and log-evidence of the expert moves of many positions.
type Score struct {
	Positions int
	ranks     [MaxRank + 1]int // ranks[r-1] counts rank r for r <= MaxRank; ranks[MaxRank] counts worse ranks
	logSum    float64
	rankSum   float64 // of every rank, those past MaxRank included, for the mean rank
	phases    []phase
	Seconds   float64 // time spent predicting and ranking, summed over workers
}

type phase struct {
	positions int
	top1      int
	logSum    float64
}

// Add records one position: the expert's move number (1 for the first move), the rank the predictor gave
// that move and the probability it gave it.
func (s *Score) Add(moveNumber, rank int, p float64) {
	logp := math.Log(max(p, minProbability))
	s.Positions++
	s.ranks[min(rank, MaxRank+1)-1]++
	s.logSum += logp
	s.rankSum += float64(rank)
	i := max(moveNumber-1, 0) / PhaseLength
	for len(s.phases) <= i {
		s.phases = append(s.phases, phase{})
	}
	s.phases[i].positions++
	s.phases[i].logSum += logp
	if rank == 1 {
		s.phases[i].top1++
	}
}

// Merge adds o's counts to s.
func (s *Score) Merge(o *Score) {
	s.Positions += o.Positions
	for i := range s.ranks {
		s.ranks[i] += o.ranks[i]
	}
	s.logSum += o.logSum
	s.rankSum += o.rankSum
	for len(s.phases) < len(o.phases) {
		s.phases = append(s.phases, phase{})
	}
	for i, ph := range o.phases {
		s.phases[i].positions += ph.positions
		s.phases[i].top1 += ph.top1
		s.phases[i].logSum += ph.logSum
	}
	s.Seconds += o.Seconds
}

// Reset clears s, keeping its phase storage.
func (s *Score) Reset() {
	*s = Score{phases: s.phases[:0]}
}

// RankCDF returns, for k = 1..MaxRank, the fraction of positions whose expert move ranked k or better.
func (s *Score) RankCDF() []float64 {
	cdf := make([]float64, MaxRank)
	n := 0
	for k := range MaxRank {
		n += s.ranks[k]
		cdf[k] = ratio(n, s.Positions)
	}
	return cdf
}

// MeanLogEvidence returns the mean natural log of the probability given to the expert move.
func (s *Score) MeanLogEvidence() float64 { return ratioF(s.logSum, s.Positions) }

// MeanRank returns the mean rank of the expert move (1 for the predictor's first choice).
func (s *Score) MeanRank() float64 { return ratioF(s.rankSum, s.Positions) }

// Phases returns the per-phase table: moves From..To (1-based, inclusive) of every game.
func (s *Score) Phases() []Phase {
	out := make([]Phase, 0, len(s.phases))
	for i, ph := range s.phases {
		if ph.positions == 0 {
			continue
		}
		out = append(out, Phase{
			From:            i*PhaseLength + 1,
			To:              (i + 1) * PhaseLength,
			Positions:       ph.positions,
			Top1:            ratio(ph.top1, ph.positions),
			MeanLogEvidence: ratioF(ph.logSum, ph.positions),
		})
	}
	return out
}

// Phase is one row of the per-phase table.
type Phase struct {
	From            int     `json:"from"`
	To              int     `json:"to"`
	Positions       int     `json:"positions"`
	Top1            float64 `json:"top1"`
	MeanLogEvidence float64 `json:"mean_log_evidence"`
}

func ratio(a, b int) float64 { return ratioF(float64(a), b) }

func ratioF(a float64, b int) float64 {
	if b == 0 {
		return 0
	}
	return a / float64(b)
}
