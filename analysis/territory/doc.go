// Package territory predicts the final owner of every point of a Go position with Stern's Boltzmann
// territory models (Stern 2008, ch. 5).
//
// # Models
//
// p(s|c) is a conditional Markov random field over owners s_i ∈ {−1,+1} (+1 Black) with one factor per
// pair of neighbouring points (§5.2.1). For a given position every model reduces to an Ising-type Field,
// p(s|c) = exp(Const + Σ_i h_i s_i + Σ_(i,j) w_ij s_i s_j)/Z, built without allocation by Model.Field:
//
//   - Boltzmann5Params (§5.2.2): w_chains, w_inter-chain, w_chain-empty, w_empty, h_stones (indices B5*).
//     Stern's factor is exp(w(c_i,c_j) s_i s_j + h(c_i) s_i + h(c_j) s_j), so a stone's field is ±h_stones
//     times its number of neighbours; we keep that literal reading, the one Table 5.1 was trained under.
//   - Boltzmann12Params (§5.2.3): a free table w(c_i,c_j,s_i,s_j) per factor, 12 entries after direction
//     reversal (i↔j) and colour reversal (black↔white with s → −s). Four of the 12 only shift the factor of
//     one colour pair by a constant: they move log Z (Field.Const) but not p(s|c).
//   - BoltzmannLibertiesParams (§5.2.4): a free table w(x_i,x_j,s_i,s_j) over point states x ∈ {E, B1..B4,
//     W1..W4} (colour and liberty class 1, 2, 3, ≥4 of the chain). The orbits of the same symmetries number
//     90, less 24 for neighbouring same-colour stones with different liberty classes, which cannot occur
//     (they are one chain): 66 parameters. Stern states 78; we could not derive that count from the
//     symmetries he names, and we keep every reachable orbit once.
//
// Table parameters are numbered in order of first appearance as (x_i, x_j, s_i, s_j) run through states
// in the order above and spins −, + (s_j fastest); Boltzmann12Name and LibertiesName name each entry, e.g.
// "w(B2,W1,+,-)" is the log-factor between a black stone whose chain has 2 liberties and a white stone with
// 1, when the black one ends Black's and the white one White's.
//
// # Inference
//
// Each method turns a Field into Marginals, E[s_i] per point and E[s_i s_j] per neighbouring pair, as an
// Inferer; each is a struct holding its settings and scratch, to be reused across positions (no
// allocation per run after the first). Method names them:
//
//   - Exact (§5.3.1): variable elimination along rows with a frontier of Size points, forward-backward,
//     O(Size²·2^Size); also log Z. Redone in log space when huge parameters underflow the float pass.
//   - LBP (§5.3.2): loopy belief propagation, damping λ = 0.5, tolerance and sweep limit, convergence flag;
//     saturated messages are kept as fields, so huge parameters give no NaN or ±Inf.
//   - Gibbs (§5.3.3, eq. 5.1): single-site sweeps, Rao-Blackwellised or plain averages.
//   - SW (§5.3.4, eq. 5.3): generalised Swendsen-Wang with bonds for both signs of coupling, each sweep
//     preceded by a block move on the chains (see SW); SW.Sample returns one state with its bonds (Fig. 5.6).
//
// RunTrace records a sampler's running averages sweep by sweep, the data of Stern's Fig. 5.5 (drawn by
// `aji plot mixing`).
//
// Estimator (estimate.go) is the one entry point for callers: a Kind of model, or `mc` (Monte Carlo
// ownership, mc.go), with a Method, giving marginals, the score distribution and chain safety. Package
// train fits the models' parameters (§5.4).
package territory
