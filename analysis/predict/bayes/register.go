package bayes

import (
	"aji/analysis/predict"
	"aji/models"
)

// HierName and LinearName are the names of the hierarchical and the linear feature model's
// predictors and of their embedded defaults.
const (
	HierName   = "bayes-hier"
	LinearName = "bayes-linear"
)

func init() {
	factory := func(def string, bernoulli bool) predict.Factory {
		return func(name string, o predict.Options) (predict.Predictor, error) {
			m, err := shared.Load(def, o.Model)
			if err != nil {
				return nil, err
			}
			return NewPredictor(name, m, bernoulli), nil
		}
	}
	predict.Register("bayes", factory(Kind, false))
	predict.Register("bernoulli", factory(Kind, true))
	predict.Register(HierName, factory(HierName, false))
	predict.Register(LinearName, factory(LinearName, false))
	predict.RegisterKind(Kind, factory(Kind, false)) // a loaded file: flat or hierarchical, as it says
}

var shared = models.NewLoader(Load, Decode)

// Shared returns the model in the file at path, or the embedded default of the flat model when path
// is "". It is decoded once and shared, read-only, by every predictor.
func Shared(path string) (*Model, error) { return shared.Load(Kind, path) }
