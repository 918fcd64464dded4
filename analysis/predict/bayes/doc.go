// Package bayes is Stern's Bayesian pattern ranking (Stern 2008, chapter 3): every pattern, the
// largest of Stern's nested templates T1–T14 known at a move (analysis/pattern), has a Gaussian
// belief N(μ, σ²) about its value, learned from expert games by assumed-density filtering (§2.5)
// with expectation propagation inside each position (§2.4, §3.2.1); a move's urgency is its
// pattern's value plus noise of variance β², and the move played is the one with the highest
// urgency (eq. 3.1). Beside it, the independent Bernoulli model of §3.2.2 learns a Beta belief per
// pattern by counting.
//
// What sets these models apart for a workbench is the uncertainty: a pattern seen in thousands of
// games has a small σ, one seen twice a σ near its prior's, and the predictive spread of a move's
// urgency says where the model is guessing.
package bayes
