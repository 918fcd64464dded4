// Package review scores every move of a game — each predictor's probability and rank of the move
// played and its top choices, the territory estimate's expected score and Black's win probability
// before and after the move (Stern §5.1.1), and optionally a fixed-budget search's value — and writes
// the review into the record as SGF comments, labels and move annotations that other SGF tools read.
// The app's review panel and `aji review` both run it.
//
// A review runs on its own bounded set of worker goroutines, not on analysis/engine's pool. The engine
// serves navigation: Analyze holds one current position, cancels the previous position's tasks on every
// call and delivers only while the position is still the one shown. A review spans hundreds of
// positions at once and has to keep going while the user steps through the game, so on the engine it
// would be cancelled by the very navigation it must survive. It borrows the rest of what the window's
// analyses use: analysis/live's pooled predictors and summaries (the same rank and probability as
// `aji eval`), territory.Estimator's score, and a per-position result cache bounded in bytes like the
// engine's, so that reviewing the same positions again — the same game, or a variation sharing its
// opening — is a lookup.
//
// The territory estimate is the pooled estimator boltzmann5+mc (the app's best, see the README's
// territory table) with 512 pattern rollouts a position instead of its 1024: the rollouts are 82% of a
// review's CPU time (Swendsen-Wang's score samples 16%, mm 2%), and 512 did as well as 1024 on the
// training games (territory.DefaultPooledPlayouts).
package review
