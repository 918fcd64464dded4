package bayes

import (
	"aji/analysis/predict"
	"aji/models"
)

func init() {
	factory := func(bernoulli bool) predict.Factory {
		return func(name string, o predict.Options) (predict.Predictor, error) {
			m, err := Shared(o.Model)
			if err != nil {
				return nil, err
			}
			return NewPredictor(name, m, bernoulli), nil
		}
	}
	predict.Register("bayes", factory(false))
	predict.Register("bernoulli", factory(true))
	predict.RegisterKind(Kind, factory(false))
}

var shared = models.NewLoader(Load, Decode)

// Shared returns the model in the file at path, or the embedded default when path is "". It is
// decoded once and shared, read-only, by every predictor.
func Shared(path string) (*Model, error) { return shared.Load(Kind, path) }
