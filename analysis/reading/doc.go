// Package reading answers capture problems about one string — can it be captured if its opponent
// moves first, can it be saved if its owner does — by best-first search of the AND/OR tree, as in
// Stern's thesis, chapter 4: proof-number search or probability propagation over the same tree,
// goal function (§4.5: captured or caught in a ladder is TRUE, more than L liberties is FALSE, L
// deepened iteratively), move generator and transposition table, with GNU Go's result codes for
// kos. Surrogate priors learned from earlier searches (§4.4) guide probability propagation.
package reading
