package bayes

import "math"

// Predictive computes the move probabilities of eq. 3.1, the probability that each move's urgency
// is the highest, for urgencies taken as independent Gaussians N(m_k, s_k²), s_k² = σ_k² + β²:
//
//	P(k) = ∫ N(u; m_k, s_k²) · Π_{j≠k} Φ((u − m_j)/s_j) du.
//
// Moves that share a pattern share its value, so their urgencies are correlated; treating them
// as independent is the approximation (measured by aji eval's log-evidence). The integral is the
// trapezoid rule on a grid that spans where the largest urgency can lie; the product over every
// move, F(u), is computed once per grid point, and each move's integrand divides its own factor
// out. Moves come grouped: count[k] moves share (m_k, s_k), as the moves whose largest pattern is
// the same do, so the work grows with the number of distinct patterns, not of moves. The
// probabilities are rescaled to sum to 1 over every move, which absorbs the rule's small error.
type Predictive struct {
	grid []float64 // the points u_g
	logF []float64 // log F(u_g) = Σ_k count_k log Φ((u_g − m_k)/s_k)
	// The spacing of the grid and the sum the probabilities were divided by, for LogWith.
	h, total float64
}

// gridPoints is the grid's size: over the 16 standard deviations the grid spans, a spacing of a third
// of one. The trapezoid rule on a smooth integrand with Gaussian tails errs by about
// exp(−2π²σ²/h²), here below 1e−70: far under what the model's approximations leave.
const gridPoints = 48

// tails is how many standard deviations from its mean an urgency is taken to reach.
const tails = 8

// Probabilities writes into out[k] the probability that one given move of group k is the most
// urgent, for groups of count[k] moves with urgencies N(m[k], s[k]²).
func (pr *Predictive) Probabilities(m, s []float64, count []int32, out []float64) {
	n := len(m)
	if n == 0 {
		return
	}
	lo, hi := math.Inf(-1), math.Inf(-1)
	for k := range n {
		lo = math.Max(lo, m[k]-tails*s[k]) // below lo, F(u) ≤ Φ(−tails) for some move
		hi = math.Max(hi, m[k]+tails*s[k]) // above hi, every move's density is below φ(tails)
	}
	if cap(pr.grid) < gridPoints {
		pr.grid, pr.logF = make([]float64, gridPoints), make([]float64, gridPoints)
	}
	grid, logF := pr.grid[:gridPoints], pr.logF[:gridPoints]
	h := (hi - lo) / (gridPoints - 1)
	for g := range grid {
		grid[g] = lo + float64(g)*h
		logF[g] = 0
	}
	for k := range n {
		c, inv := float64(count[k]), 1/s[k]
		for g, u := range grid {
			logF[g] += c * logPhi((u-m[k])*inv)
		}
	}
	total := 0.0
	for k := range n {
		inv := 1 / s[k]
		from := max(0, int(math.Ceil((m[k]-tails*s[k]-lo)/h)))
		to := min(gridPoints-1, int(math.Floor((m[k]+tails*s[k]-lo)/h)))
		sum := 0.0
		for g := from; g <= to; g++ {
			t := (grid[g] - m[k]) * inv
			w := 1.0
			if g == 0 || g == gridPoints-1 {
				w = 0.5
			}
			sum += w * math.Exp(logF[g]-logPhi(t)-t*t/2)
		}
		out[k] = sum * h * inv * invSqrt2Pi
		total += float64(count[k]) * out[k]
	}
	if total > 0 {
		for k := range n {
			out[k] /= total
		}
	}
	pr.h, pr.total = h, total
}

// LogWith is the log of the probability the last Probabilities would have given one move of urgency
// N(mk, sk²) had its urgency been N(m, s²), every other move staying as it was: its own factor of F
// divided out, the same grid, the same normalisation. It is −Inf where the grid cannot see such an
// urgency (far below the field). The linear model splits a move's log-probability between its
// pattern and its features with it.
func (pr *Predictive) LogWith(mk, sk, m, s float64) float64 {
	if len(pr.grid) < gridPoints || !(pr.total > 0) {
		return math.Inf(-1)
	}
	grid, logF := pr.grid[:gridPoints], pr.logF[:gridPoints]
	inv, own := 1/s, 1/sk
	sum := 0.0
	for g, u := range grid {
		t := (u - m) * inv
		if math.Abs(t) > tails {
			continue
		}
		w := 1.0
		if g == 0 || g == gridPoints-1 {
			w = 0.5
		}
		sum += w * math.Exp(logF[g]-logPhi((u-mk)*own)-t*t/2)
	}
	return math.Log(sum * pr.h * inv * invSqrt2Pi / pr.total)
}

// logPhi is log Φ(t), from a table with linear interpolation on [−logPhiRange, logPhiRange], 0
// above it, and below it, where Φ underflows, the asymptotic series of Mills' ratio,
// log φ(t) − log(−t) + log(1 − 1/t² + 3/t⁴).
func logPhi(t float64) float64 {
	switch {
	case t >= logPhiRange:
		return 0
	case t <= -logPhiRange:
		t2 := t * t
		return -t2/2 - math.Log(-t) - 0.9189385332046727 + math.Log1p(-1/t2+3/(t2*t2)) // log √(2π)
	}
	x := (t + logPhiRange) * logPhiStep
	i := int(x)
	f := x - float64(i)
	return logPhiTable[i] + f*(logPhiTable[i+1]-logPhiTable[i])
}

const (
	logPhiRange = 37
	logPhiStep  = 64 // table entries per unit of t
)

var logPhiTable = func() []float64 {
	n := 2*logPhiRange*logPhiStep + 2
	tab := make([]float64, n)
	for i := range tab {
		tab[i] = math.Log(Phi(float64(i)/logPhiStep - logPhiRange))
	}
	return tab
}()
