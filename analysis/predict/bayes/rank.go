package bayes

import "math"

// Ranker performs the inference of Stern's full ranking model (§3.2.1, Figure 3.3) for one
// position: n moves with Gaussian beliefs about their values y_i, urgencies u_i = y_i + N(0, β²),
// and the observation that the move played, index 0, had the highest urgency — n − 1 constraints
// r_i = u_0 − u_i > 0. The constraint messages are approximated by moment matching (EP, eqs.
// 2.28–2.31 with q = 1) and iterated over the part of the graph above the u_i until they settle;
// then the messages go down to the y_i. A Ranker keeps its scratch space between positions, so
// ranking allocates nothing once it has seen the largest position; it is not safe for concurrent
// use.
type Ranker struct {
	// Tolerance ends the iteration once no message to u_0 moves its mean by more than this (in
	// units of the values) nor its precision by more than this relatively. Default 1e-4.
	Tolerance float64
	// MaxSweeps bounds the iteration. Default 20.
	MaxSweeps int

	u    []Gauss // the messages up from y_i through the noise: N(μ_i, σ_i² + β²)
	toU0 []Gauss // the message from each difference factor to u_0
	r    []Gauss // the EP message from each constraint r_i > 0
}

// Rank computes, from the beliefs about the moves' values (prior[0] the move played), the message
// that the observation sends to each y_i, into out (len(prior) long): multiplying it into prior[i]
// gives the approximate posterior of y_i, and into the belief of the pattern behind move i gives
// that belief's assumed-density update (§2.5). beta2 is β². It returns the number of sweeps made.
func (rk *Ranker) Rank(prior []Gauss, beta2 float64, out []Gauss) int {
	n := len(prior)
	if n < 2 {
		for i := range out[:n] {
			out[i] = Gauss{}
		}
		return 0
	}
	tol, maxSweeps := rk.Tolerance, rk.MaxSweeps
	if tol <= 0 {
		tol = 1e-4
	}
	if maxSweeps <= 0 {
		maxSweeps = 20
	}
	rk.u = grow(rk.u, n)
	rk.toU0 = grow(rk.toU0, n)
	rk.r = grow(rk.r, n)
	for i, p := range prior {
		rk.u[i] = p.Noisy(beta2)
		rk.toU0[i], rk.r[i] = Gauss{}, Gauss{}
	}
	u0 := rk.u[0] // the marginal of u_0: its prior times every difference factor's message
	sweeps := 0
	for sweeps < maxSweeps {
		sweeps++
		moved := 0.0
		for i := 1; i < n; i++ {
			cavity := u0.Div(rk.toU0[i])
			m0, v0 := cavity.Mean(), cavity.Var()
			mi, vi := rk.u[i].Mean(), rk.u[i].Var()
			// The difference factor's message to r_i is N(m0 − mi, v0 + vi) (eq. 2.20); the
			// constraint's EP message is its moment-matched truncation divided by it.
			inM, inV := m0-mi, v0+vi
			sd := math.Sqrt(inV)
			v, w := vwFast(inM / sd)
			if w > 0 {
				rk.r[i] = MeanVar(inM+sd*v, inV*(1-w)).Div(MeanVar(inM, inV)) // Truncate(inM, inV, 1)
			} else {
				rk.r[i] = Gauss{}
			}
			// u_0 = r_i + u_i: the message to u_0 is N(mean(r) + mi, var(r) + vi). A constraint
			// already met beyond doubt leaves the moments as they were: its message is flat.
			msg := Gauss{}
			if rk.r[i].Pi > flatPi {
				msg = MeanVar(rk.r[i].Mean()+mi, rk.r[i].Var()+vi)
			}
			old := rk.toU0[i]
			moved = math.Max(moved, change(old, msg))
			rk.toU0[i] = msg
			u0 = cavity.Mul(msg)
		}
		if moved < tol {
			break
		}
	}
	// Down: u_i = u_0 − r_i for the alternatives; u_0 collects every difference factor's message.
	for i := 1; i < n; i++ {
		out[i] = Gauss{}
		if rk.r[i].Pi > flatPi {
			cavity := u0.Div(rk.toU0[i])
			out[i] = MeanVar(cavity.Mean()-rk.r[i].Mean(), cavity.Var()+rk.r[i].Var()).Noisy(beta2)
		}
	}
	out[0] = u0.Div(rk.u[0]).Noisy(beta2)
	return sweeps
}

// flatPi is the precision below which a constraint's message counts as flat: rounding in the
// quotient of two nearly equal Gaussians must not turn into a huge or negative variance.
const flatPi = 1e-10

// change measures how far a message moved: its mean's shift, or the relative change of its
// precision, whichever is larger; from flat, any message is a large change.
func change(a, b Gauss) float64 {
	switch {
	case a.Pi == 0 && b.Pi == 0:
		return 0
	case a.Pi == 0 || b.Pi == 0:
		return math.Inf(1)
	}
	return math.Max(math.Abs(a.Mean()-b.Mean()), math.Abs(a.Pi-b.Pi)/b.Pi)
}

func grow(s []Gauss, n int) []Gauss {
	if cap(s) < n {
		return make([]Gauss, n)
	}
	return s[:n]
}
