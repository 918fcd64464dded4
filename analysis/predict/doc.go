// Package predict defines move predictors: the Predictor interface, the Distribution a predictor fills,
// a registry of predictors by name, and the uniform baseline.
package predict
