// Package pattern matches the shapes around candidate moves: nested circular templates with
// symmetry-invariant Zobrist keys, the 3x3 pattern of playout policies, and the harvesting of the shapes
// seen often enough in expert games into a Dictionary. The mm, bayes, fbt and cfg predictors and the
// Monte Carlo playout policy share it.
//
// Templates (Coulom 2007 §3.2, Stern 2008 §3.1.1): the template of size s holds every point at Coulom's
// distance |dx|+|dy|+max(|dx|,|dy|) ≤ s from the move, for s = MinSize (3, the 3x3 neighbourhood) to
// MaxSize (12, 104 points). Each point's state is relative to the player to move (own stone, opponent
// stone, empty, off the board), so a pattern and its colour swap with the other player to move are one
// pattern.
//
// Keys (Stern 2008 §3.1.3): a pattern's key is the XOR of one random 64-bit number per (state, template
// point); the invariant key is the least key among the pattern's 8 images under the symmetries of the
// square. Two engines compute them, tested against each other:
//
//   - Scanner (and KeysAt) computes the keys at one point from scratch, about 0.5 µs for all ten sizes.
//     Harvesting works this way, since it needs the keys at the move played only (1 µs a move with the
//     copy of the board, against 4 µs for a Tracker's update).
//   - Tracker keeps, for every point, both players to move, every size and the 8 variants, the keys up
//     to date as stones come and go (a stone XORs its difference into the keys of the 104 points whose
//     templates hold it); Keys is then a minimum over 8 words per size. Predictors, which need every
//     point's keys after every move, use it: 11 µs a move for the update and every empty point's keys
//     on 19x19, against 140 µs from scratch.
//
// Harvesting (Stern 2008 §3.1.4): Harvest counts the pattern of every size at every expert move in a
// spectral Bloom filter, then counts exactly, in a second pass, the patterns the filter lets through,
// and keeps those seen at least Threshold times. Dictionary.Largest gives the largest known pattern at a
// point, the shape feature of the predictors; dictionaries are saved in the models container format.
//
// Stern's templates (Stern 2008 §3.1): SternKeys holds the keys of his 14 nested templates T1..T14 at a
// point, each XORed with a constant of its template and the key of the move's 8 local-feature bits
// (SternFeatures: liberties of the new chain and of the closest opponent chain, ko, escaping atari,
// distance to the edge). T1 is the move's point alone (the features), T2 the four orthogonal
// neighbours, T3..T12 the Coulom sizes 3..12, T13 Coulom distance ≤ 13, T14 the whole board up to its
// symmetries; stern.go tells how each is computed. SternMatcher keeps them up to date incrementally (a
// Tracker inside), SternKeysAt computes them from scratch, HarvestStern harvests them into a Stern
// dictionary (its entries' Size is the template number, its file kind SternKind) and
// Dictionary.LargestStern finds the largest known one. The Coulom keys, TemplateVersion and the Coulom
// dictionary format are unchanged by them.
//
// Code3At gives the 3x3 pattern as a 20-bit code (2 bits per neighbour and atari bits for the four
// orthogonal neighbours), and Class3 its dense symmetry class, for gamma tables of playout policies.
package pattern
