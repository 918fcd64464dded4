// Package cfgbt is the `cfg` move predictor: Coulom's generalized Bradley-Terry model (analysis/predict/mm)
// with the path features of the common fate graph added to every move's team (Graf & Platzner, "Common
// Fate Graph Patterns in Monte Carlo Tree Search for Computer Go", §III-A, §IV-B): one binary feature
// per path label that fired for the move ("at least one walk with that label"), kept when it was seen
// more than 10 times at the experts' moves of the training positions, and trained with mm's
// minorization-maximization and its prior of one virtual win and loss per γ.
//
// Two variants share the code (Model.Variant): Full adds the paths to mm's tree-search features (the
// tactical levels of Coulom's Table 1 and the largest shape pattern, optionally the Monte Carlo owner),
// as the paper's "tree-search patterns + CFG"; Small adds them to a playout-policy set (the 3x3 shape
// with atari bits and the local tactical levels: capture, extension, self-atari, atari, distance to the
// previous move), the paper's "playout patterns + CFG".
//
// Choices where the paper is silent: labels after one neighbourhood-hash iteration (cfg.DefaultIterations,
// its Figure 4(c); two iterations gave a worse model, on 16,000 training positions and on 481,136:
// models/README.md);
// the "seen more than 10 times" count runs over the expert moves of the positions trained on; and since
// a move has several path features at once, the path γ form Overlap groups of mm's trainer (a minorizer
// that stays valid when a team holds several members of a group) instead of the paper's stochastic MM
// (Mairal 2013), spread by a hash over 8 groups so that each group's update is close to Coulom's.
package cfgbt
