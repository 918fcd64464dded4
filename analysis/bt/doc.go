// Package bt is generalized Bradley-Terry ratings of teams by Coulom's MM (Coulom 2007, "Computing Elo
// Ratings of Move Patterns in the Game of Go", §2): competitions between teams of γ indices collected
// from game records, and the minorization-maximization iterations that fit the γ. The move predictors
// (mm, cfgbt) and mcts's playout policy each supply their own teams.
package bt
