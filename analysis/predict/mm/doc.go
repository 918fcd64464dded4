// Package mm is Coulom's move predictor: a generalized Bradley-Terry model over teams of move features
// and shape patterns, trained by minorization-maximization (Coulom 2007, "Computing Elo Ratings of Move
// Patterns in the Game of Go"). The MM trainer here is generic and is reused by other team models.
package mm
