package bayes

import "math"

// Gauss is a Gaussian density, or a Gaussian message, in natural parameters: precision Pi = 1/σ²
// and precision-adjusted mean Tau = μ/σ². Messages multiply and divide by adding and subtracting
// them (Stern 2008, Figure 2.5 and eq. 2.26); Pi = 0 is the flat message.
type Gauss struct{ Pi, Tau float64 }

// MeanVar is the Gaussian N(μ, σ²).
func MeanVar(mu, variance float64) Gauss { return Gauss{Pi: 1 / variance, Tau: mu / variance} }

// Mean is μ (0 for a flat message).
func (g Gauss) Mean() float64 {
	if g.Pi == 0 {
		return 0
	}
	return g.Tau / g.Pi
}

// Var is σ² (+Inf for a flat message).
func (g Gauss) Var() float64 { return 1 / g.Pi }

// Mul is the product of two Gaussians (eq. 2.18).
func (g Gauss) Mul(h Gauss) Gauss { return Gauss{g.Pi + h.Pi, g.Tau + h.Tau} }

// Div is the quotient of two Gaussians (eq. 2.26), the message that g's belief holds beyond h.
func (g Gauss) Div(h Gauss) Gauss { return Gauss{g.Pi - h.Pi, g.Tau - h.Tau} }

// Noisy is the message through a Gaussian noise factor N(y; x, β²) (eq. 2.19): the variance grows
// by β². A flat message stays flat.
func (g Gauss) Noisy(beta2 float64) Gauss {
	if g.Pi == 0 {
		return g
	}
	return MeanVar(g.Mean(), g.Var()+beta2)
}

const invSqrt2Pi = 0.3989422804014327

// phi is the standard normal density.
func phi(t float64) float64 { return invSqrt2Pi * math.Exp(-t*t/2) }

// Phi is the standard normal distribution function.
func Phi(t float64) float64 { return 0.5 * math.Erfc(-t/math.Sqrt2) }

// vw are the additive and multiplicative corrections of a Gaussian truncated to t > 0 in units of
// its standard deviation: v = φ(t)/Φ(t), w = v(v + t). Below t = −30, where Φ underflows, v takes
// its asymptotic series −t − 1/t + 2/t³.
func vw(t float64) (v, w float64) {
	if t < -30 {
		v = -t - 1/t + 2/(t*t*t)
	} else {
		v = phi(t) / Phi(t)
	}
	w = v * (v + t)
	return v, min(max(w, 0), 1)
}

// vwFast is vw for the inner loop of the ranking model's EP: linear interpolation in a table on
// [vwLo, vwHi] (relative error below 1e-6, far under what ADF's approximations leave), the series
// beyond — above vwHi a constraint is met beyond doubt (v, w < 1e-8), and the message flat.
func vwFast(t float64) (v, w float64) {
	switch {
	case t >= vwHi:
		return 0, 0
	case t <= vwLo:
		return vw(t)
	}
	x := (t - vwLo) * vwStep
	i := int(x)
	f := x - float64(i)
	a, b := vwTable[i], vwTable[i+1]
	return a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1])
}

const (
	vwLo, vwHi = -12, 6
	vwStep     = 1024 // table entries per unit of t
)

var vwTable = func() [][2]float64 {
	tab := make([][2]float64, (vwHi-vwLo)*vwStep+2)
	for i := range tab {
		v, w := vw(vwLo + float64(i)/vwStep)
		tab[i] = [2]float64{v, w}
	}
	return tab
}()

// Truncate is the moment match of eq. 2.28: the mean and variance of the Gaussian closest to
// p(y) ∝ [q·I(y > 0) + (1 − q)·I(y < 0)]·N(y; μ, σ²), by eqs. 2.29–2.31. q = 1 (the constraint
// y > 0 of the ranking model) takes the numerically stable form μ + σv, σ²(1 − w); the general q
// is for the coupling of binary and continuous models.
func Truncate(mu, variance, q float64) (mean, v float64) {
	sigma := math.Sqrt(variance)
	t := mu / sigma
	if q == 1 {
		vt, wt := vw(t)
		return mu + sigma*vt, variance * (1 - wt)
	}
	P, n := Phi(t), phi(t)
	z := (1-q)*(1-P) + q*P                                                              // eq. 2.31
	m := (P*(2*q*mu-mu) + n*(2*q*sigma-sigma) + mu - q*mu) / z                          // eq. 2.29
	s := (P*(mu*mu+variance)*(2*q-1)+n*sigma*mu*(2*q-1)+(mu*mu+variance)*(1-q))/z - m*m // eq. 2.30
	return m, s
}
