// Package feature computes the tactical move features of Coulom's Bradley-Terry move predictor (Coulom
// 2007, "Computing Elo Ratings of Move Patterns in the Game of Go", Table 1) for every legal move of a
// position in one pass: pass, capture, extension, self-atari, atari, distance to the border, distances
// to the previous two moves, and the Monte Carlo owner.
//
// Each feature takes at most one level per move, so the features of a move fit in a Levels array of
// NumFeatures bytes (0 = absent), and a Set holds them for every point, indexed by board.Point. Index
// numbers every (feature, level) pair from 0 to NumIndices-1, the slot of its γ in a trained model. An
// Extractor reuses its scratch boards and ladder reader, so extracting a position allocates nothing.
package feature
