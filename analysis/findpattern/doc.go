// Package findpattern answers "where does it fire?": given a shape (a template size and its invariant
// key, as the predictors key their shapes) or a feature level by name, it streams every legal move of
// every position of a game collection where the query matches, with whether the record played it.
//
// The shape keys are analysis/pattern's: a Coulom shape (sizes 3..12, the shapes of mm, fbt and cfg)
// matches at a point when the pattern's key of that size there is the query's, read from the
// incremental Tracker; a Stern shape (templates T1..T14, the bayes predictors' patterns) when
// SternMatcher's key of that template is, local features included. A feature query reads the feature
// extractor's levels (analysis/feature), so it fires exactly where the predictors see the feature.
//
// A model's shape factor is the largest known shape at a point (Dictionary.Largest), so a shape found
// here fires in that model wherever the model knows no larger shape at the point; the search reports
// every move where the shape itself matches.
package findpattern
