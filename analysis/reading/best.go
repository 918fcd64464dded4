package reading

import "math"

// The two best-first rules. Both walk down from the root and develop the leaf they reach; they
// differ in what a node stores about its subtree and so in which child they follow.

// pickPNS follows the most proving child (Allis; Stern §4.2.4): the smallest proof number at an
// OR node, the smallest disproof number at an AND node; the first in move order on a tie.
func (s *search) pickPNS(n *node, or bool) int32 {
	best, bestV := n.first, uint32(math.MaxUint32)
	for c := n.first; c < n.first+n.n; c++ {
		v := s.nodes[c].dn
		if or {
			v = s.nodes[c].pn
		}
		if v < bestV {
			best, bestV = c, v
		}
	}
	return best
}

// backUpPNS recomputes a node's proof and disproof numbers from its children: an OR node needs one
// child proved (min of pn) and all disproved (sum of dn); an AND node the reverse.
func (s *search) backUpPNS(n *node, or bool) {
	switch n.value {
	case proved:
		n.pn, n.dn = 0, infinity
		return
	case disproved:
		n.pn, n.dn = infinity, 0
		return
	}
	if n.first < 0 {
		return
	}
	var minV, sum uint32 = infinity, 0
	for c := n.first; c < n.first+n.n; c++ {
		k := &s.nodes[c]
		a, b := k.pn, k.dn // OR: min over pn, sum over dn
		if !or {
			a, b = k.dn, k.pn
		}
		minV = min(minV, a)
		sum = min(sum+b, infinity)
	}
	if or {
		n.pn, n.dn = minV, sum
	} else {
		n.pn, n.dn = sum, minV
	}
}

// pickPP follows the path of best play under probability propagation (Algorithm 2 with the root
// bias q_r = 0.5, when every downward message is 0.5): the unsolved child most likely TRUE at an OR
// node, the least likely at an AND node; the first in move order on a tie.
func (s *search) pickPP(n *node, or bool) int32 {
	best := int32(-1)
	for c := n.first; c < n.first+n.n; c++ {
		if s.nodes[c].value != unknown {
			continue
		}
		if lo := s.nodes[c].lo; best < 0 || or && lo > s.nodes[best].lo || !or && lo < s.nodes[best].lo {
			best = c
		}
	}
	return best
}

// maxLogOdds bounds an unsolved node's log-odds: far enough from 0 to rank any two subtrees, short
// of the overflow of exp.
const maxLogOdds = 700

// backUpPP recomputes a node's upward message (Algorithm 4) in the log-odds domain of Appendix B. An
// AND node's probability of TRUE is the product of its children's (eq. 4.6), an OR node's one minus
// the product of their complements (eq. 4.7): the sum of the log factors over the unsolved children
// (a solved child contributes a factor 1, or solves the node). The sum is taken afresh, not kept
// and updated by removing the changed child's old term (the ANTI-AND and ANTI-OR of B.14 and B.16):
// a near-certain child's term (−1e−26 beside −1e−6) is lost to rounding, and removing it later
// drives the sum to 0 and the message to ±∞, then NaN.
func (s *search) backUpPP(n *node, or bool) {
	switch n.value {
	case proved:
		n.lo = math.Inf(1)
		return
	case disproved:
		n.lo = math.Inf(-1)
		return
	}
	if n.first < 0 {
		return
	}
	factor := logQ // AND: log q
	if or {
		factor = log1mQ // OR: log(1 − q)
	}
	sum := 0.0
	for c := n.first; c < n.first+n.n; c++ {
		if s.nodes[c].value == unknown {
			sum += factor(s.nodes[c].lo)
		}
	}
	sum = min(sum, 0)
	if or {
		n.lo = log1mExp(sum) - sum // L(1 − e^S), S = Σ log(1 − q_c)
	} else {
		n.lo = sum - log1mExp(sum) // L(e^S), S = Σ log q_c
	}
	n.lo = max(-maxLogOdds, min(n.lo, maxLogOdds))
}

// logOdds is L(p) = ln(p / (1 − p)).
func logOdds(p float64) float64 { return math.Log(p) - math.Log1p(-p) }

// logQ is ln q for a message of log-odds l: −ln(1 + e^{−l}).
func logQ(l float64) float64 { return -softplus(-l) }

// log1mQ is ln(1 − q) for a message of log-odds l: −ln(1 + e^{l}).
func log1mQ(l float64) float64 { return -softplus(l) }

// softplus is ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// log1mExp is ln(1 − e^x) for x ≤ 0, accurate at both ends (Mächler 2012).
func log1mExp(x float64) float64 {
	if x > -math.Ln2 {
		return math.Log(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}
