// Package mm is Coulom's move predictor: a generalized Bradley-Terry model over teams of move features
// and shape patterns (Coulom 2007, "Computing Elo Ratings of Move Patterns in the Game of Go"), trained
// by package bt's minorization-maximization on the teams MoveTeams gives.
package mm
