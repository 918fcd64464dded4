// Package cfg is the common fate graph of a Go position (Graf & Platzner, "Common Fate Graph Patterns in
// Monte Carlo Tree Search for Computer Go", §III): every chain is one vertex, every empty point its own
// vertex, edges join neighbours. Vertex labels are enriched by the neighbourhood hash of Algorithm 1, and
// the walks of length two from an empty point, labelled by the lower 8 bits of their three vertices'
// labels, are that point's path features (2^24 of them, binary: "at least one such walk").
//
// Graph builds all of it from scratch, for drawing and for predictors that see one position at a time.
// Tracker keeps the walk counts of every empty point up to date as stones are played (Algorithm 2), for
// search and playouts, and counts the walk removals and additions of each move (the paper's Table II).
//
// Colour convention: Algorithm 1 labels chains BLACK or WHITE. Here the initial labels are OWN (the
// player to move), OPP and EMPTY, so a position and its colour-swapped twin with the other player to move
// have the same features and a predictor is colour-symmetric without doubling its weights. The paper does
// not say which it used; for a Bradley-Terry model over moves of both players this is the usual choice
// (Coulom's and Stern's patterns are relative to the player to move too).
package cfg
