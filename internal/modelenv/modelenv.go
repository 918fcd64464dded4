// Package modelenv reads the environment variables that name model files, once, for the two programs
// (app and cmd/aji), and turns them into options; no analysis package reads the environment.
package modelenv

import (
	"os"

	"aji/analysis/mcts"
	"aji/analysis/predict"
)

// Predictors maps each predictor to the variable naming its model file (models/README.md).
var Predictors = map[string]string{
	"mm":        "AJI_MM_MODEL",
	"cfg":       "AJI_CFG_MODEL",
	"cfg-small": "AJI_CFG_SMALL_MODEL",
}

// Playout names the pattern playout policy's model file.
const Playout = "AJI_PLAYOUT_MODEL"

// Apply configures the registered predictors and the playout policy with the model files the
// environment names; unset or empty variables leave the embedded models. Call it once, at start.
func Apply() {
	for name, env := range Predictors {
		if path := os.Getenv(env); path != "" {
			// A predictor this program does not register has no model to replace.
			_ = predict.Configure(name, predict.Options{Model: path})
		}
	}
	if path := os.Getenv(Playout); path != "" {
		mcts.SetPatternModelFile(path)
	}
}
