// Package surrogate learns priors for probability-propagation reading (Stern 2008 §4.4): surrogate
// tree models that give a new leaf its probability of being TRUE (the target captured) from the
// exact patterns around the move that made it — Stern's eight nested templates T0–T7 over five
// vertex states (attacker, defender, goal stone, empty, off-board), symmetry-invariant Zobrist keys,
// two partial-transposition tables (attacker moves, defender moves) harvested during search — and
// that learn from the trees the searches leave: the Beta model with back-off, learning by counts and
// assumed-density filtering (eqs. 4.12–4.13, Appendix A.2), and the hierarchical Gaussian model of
// §3.3 with the sign constraint of eq. 4.14. Both implement reading.Prior and save to the model
// container.
package surrogate
