// Package planning is Stern's chapter 6, Bayesian Monte Carlo planning on synthetic game trees: lazy,
// seeded Random and P-Game trees (§6.2), their exact minimax values, and planners that choose a root
// move after a number of leaf evaluations — uniform Monte Carlo, UCT, alpha-beta, the independent
// dynamic counting model with Thompson-style selection (§6.3.1) and the inductive and dynamic inductive
// tree models (§6.3.2–6.3.3) — with the error-rate experiment of Figures 6.2, 6.6 and 6.7.
package planning
