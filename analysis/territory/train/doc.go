// Package train fits the Boltzmann territory models of package territory to final-territory labels
// (Stern §5.4). Every model here is log-linear in its parameters: log f_ij(s_i, s_j) =
// Σ_k J(c, s_i, s_j, k) θ_k, where the edge class c = x_i·K + x_j is the pair of point states (K = 3
// colours for Boltzmann5 and Boltzmann12, K = 9 colour × liberty classes for BoltzmannLiberties). So
// log p(s|c) = θ·φ(s, c) − log Z with the sufficient statistics φ = Jᵀ T, where T counts the edges of
// each (class, s_i, s_j). The gradient of the log-likelihood (eq. 5.12) is Jᵀ(T(ŝ) − E[T]); E[T] needs
// only the pair marginals, P(s_i = a, s_j = b) = (1 + a E[s_i] + b E[s_j] + ab E[s_i s_j])/4.
//
// Neutral points (label 0). Stern: "Neutral territory is ignored." We read that as "unobserved": the
// likelihood of a position is that of its labelled points, p(ŝ_L|c) = Σ_{s_D} p(ŝ_L, s_D|c), so the data
// term of the gradient is E[T | ŝ_L] instead of T(ŝ). Given every labelled spin, the neutral points split
// into connected components (dame are mostly single points) that are independent; each is enumerated.
// Examples with a component larger than maxDame points are dropped (4 of 649 training games).
//
// Model expectations E[T]: exact (territory.Exact, ~1 s a 19x19 position), loopy BP, or — what makes
// training on hundreds of positions affordable — one persistent chain of territory.SW per position
// (SampleOptions.Start), advanced a few sweeps per gradient step (stochastic approximation, as Stern's
// SW-based MAP) with Rao-Blackwellised averages, plus heat-bath flips of chains with their liberties and
// of groups (see flipBlocks). Contrastive divergence (eq. 5.15) takes E under q_1: one SW sweep from the
// labels. Tests check the gradient against finite differences of brute-force likelihoods and that
// training on samples of a known Boltzmann5 recovers it.
package train
