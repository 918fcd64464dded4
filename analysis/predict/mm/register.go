package mm

import (
	"errors"
	"os"
	"sync"

	"aji/analysis/predict"
	"aji/models"
)

// ModelEnv names an environment variable that points the `mm` predictor at a model file instead of the
// embedded default.
const ModelEnv = "AJI_MM_MODEL"

func init() {
	predict.Register("mm", func() (predict.Predictor, error) {
		m, err := DefaultModel()
		if err != nil {
			return nil, err
		}
		return NewPredictor("mm", m, m.Owner), nil
	})
}

// DefaultModel returns the model the `mm` predictor uses: the file named by $AJI_MM_MODEL, else the one
// embedded in models/. It is loaded once and shared (read-only) by every predictor.
var DefaultModel = sync.OnceValues(func() (*Model, error) {
	if path := os.Getenv(ModelEnv); path != "" {
		return Load(path)
	}
	data, ok := models.Default(Kind)
	if !ok {
		return nil, errors.New("no default mm model is embedded: train one with `aji train mm` and set " + ModelEnv)
	}
	return Decode(data, "embedded mm model")
})
