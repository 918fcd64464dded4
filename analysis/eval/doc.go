// Package eval measures move predictors on game records: rank of the expert move, top-k rates, mean
// log-evidence, the rank CDF and per-phase tables, computed in parallel over a game collection.
package eval
