package bt

import (
	"math"
	"slices"
)

// Groups whose members share teams (Group.Overlap). Coulom's update of γ_i (§2.5) treats the product of a
// team's other γ as a constant, which holds only if no team mate is updated in the same pass. For a team
// holding k members of the group, the inequality of arithmetic and geometric means bounds the product of
// their ratios to the current values, ∏ x_m/γ_m ≤ (1/k) Σ (x_m/γ_m)^k, with equality at x = γ. Put
// into Coulom's tangent minorizer of −log E_j, the bound keeps it a minorizer of the log-likelihood and
// separates the members: for each γ_i of the group, with u = x_i/γ_i,
//
//	m(u) = (W_i + 1) log u − Σ_k a_k u^k / k,   a_k = γ_i Σ_{j, teams with k members} C_ij/E_j
//
// (the prior's two virtual games add 2γ_i/(γ_i + 1) to a_1). Its maximum solves Σ_k a_k u^k = W_i + 1,
// which for k = 1 alone is Coulom's formula. Every pass still cannot lower the likelihood (Hunter 2004's
// MM argument); the larger the overlaps, the shorter the steps, so callers split such features into
// several groups that rarely share a team.

// maxMembers returns the largest number of members of group g in one team of the data, at least 1.
func maxMembers(shards []*Competitions, g Group) int {
	k := 1
	for _, c := range shards {
		for t := range int32(len(c.teamEnd)) {
			lo, hi := groupSpan(c.team(t), g)
			k = max(k, hi-lo)
		}
	}
	return k
}

// groupSpan returns the range of team (sorted, as AddTeam stores it) whose members are in group g.
func groupSpan(team []int32, g Group) (lo, hi int) {
	lo, _ = slices.BinarySearch(team, int32(g.Lo))
	hi, _ = slices.BinarySearch(team[lo:], int32(g.Hi))
	return lo, lo + hi
}

// passOverlap is pass for an Overlap group: den holds, for the i-th γ of g and k = 1..kmax,
// Σ_j C_ij/E_j over the teams holding k members of g at den[i·kmax + k−1].
func passOverlap(shards []*Competitions, gamma []float64, g Group, kmax, workers int) (den []float64, logLik float64) {
	return runPass(shards, (g.Hi-g.Lo)*kmax, workers, func(c *Competitions, lo, hi int, den []float64) float64 {
		return c.passRangeOverlap(gamma, g, kmax, lo, hi, den)
	})
}

func (c *Competitions) passRangeOverlap(gamma []float64, g Group, kmax, lo, hi int, den []float64) (logLik float64) {
	var strength []float64
	for j := lo; j < hi; j++ {
		var first, last int32
		var inv float64
		strength, first, last, inv = c.strengths(j, gamma, strength)
		for t := first; t < last; t++ {
			team := c.team(t)
			a, b := groupSpan(team, g)
			if a == b {
				continue
			}
			k := b - a
			ws := float64(c.weight[t]) * strength[t-first] * inv
			for _, m := range team[a:b] {
				den[int(m-int32(g.Lo))*kmax+k-1] += ws / gamma[m]
			}
		}
		logLik += math.Log(strength[c.winner[j]-first] * inv)
	}
	return logLik
}

// overlapUpdate returns the new γ_i of an Overlap group: γ_i·u with u > 0 the root of
// Σ_k a_k u^k = W_i + 1, a_k = γ_i den[k−1] (plus the prior's 2γ_i/(γ_i + 1) in a_1). In v = log u the
// left side S(v) is increasing and convex. With r = log((W_i + 1)/Σ_k a_k) and K = len(den), the root
// lies between r and r/K (every power lies between u and u^K), and S ≥ W_i + 1 at the upper end, from
// where Newton's steps fall monotonically onto the root; a step that would leave the bracket (rounding,
// overflow of e^{kv}) bisects instead.
func overlapUpdate(gamma, wins float64, den []float64) float64 {
	w := wins + 1
	prior := 2 * gamma / (gamma + 1)
	sum := prior
	for _, d := range den {
		sum += gamma * d
	}
	r := math.Log(w / sum)
	k := float64(max(len(den), 1))
	lo, hi := min(r, r/k), max(r, r/k)
	v := hi
	for range 200 {
		s := prior * math.Exp(v)
		ds := s
		for k, d := range den {
			if d == 0 {
				continue
			}
			t := gamma * d * math.Exp(float64(k+1)*v)
			s += t
			ds += float64(k+1) * t
		}
		if s > w {
			hi = v
		} else {
			lo = v
		}
		next := v + (w-s)/ds
		if !(next >= lo && next <= hi) { // NaN or outside the bracket
			next = (lo + hi) / 2
		}
		if math.Abs(next-v) < 1e-13*(1+math.Abs(v)) || hi-lo < 1e-13*(1+math.Abs(v)) {
			v = next
			break
		}
		v = next
	}
	return gamma * math.Exp(v)
}
