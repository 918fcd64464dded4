// Package mcts is Aji's Monte Carlo tree search: playouts to the end of the game scored by Chinese area
// counting with komi, a light policy (uniform with capture and atari-escape heuristics) and a 3x3-pattern
// Bradley-Terry policy with Coulom 2007 §4.1's light-weight features, trained by the mm package's
// minorization-maximization; and a tree with three selection rules — UCT (UCB1), PUCT with a predictor's
// prior (Xiao 2016 eq. 3.15 with its lower cut λ) and UCT+RAVE with progressive bias (Graf & Platzner
// §IV-A) — progressive widening (Coulom 2007 §4.2), tree parallelism with virtual loss, playout, time and
// node limits, and reuse of the subtree after a move.
//
// A search with one thread and a fixed seed is deterministic, which the tests rely on.
package mcts
