// Package all registers every predictor: import it (for its side effect) wherever predictors are chosen
// by name, as the app and the aji command do.
package all

import (
	// Each predictor package registers itself with the predict registry in its init.
	_ "aji/analysis/predict"
	_ "aji/analysis/predict/bayes"
	_ "aji/analysis/predict/cfgbt"
	_ "aji/analysis/predict/cnn"
	_ "aji/analysis/predict/fbt"
	_ "aji/analysis/predict/mm"
)
