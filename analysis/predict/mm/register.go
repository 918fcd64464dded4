package mm

import (
	"aji/analysis/predict"
	"aji/models"
)

func init() {
	f := func(name string, o predict.Options) (predict.Predictor, error) {
		m, err := Shared(o.Model)
		if err != nil {
			return nil, err
		}
		return NewPredictor(name, m, !o.NoOwner), nil
	}
	predict.Register("mm", f)
	predict.RegisterKind(Kind, f)
}

var shared = models.NewLoader(Load, Decode)

// Shared returns the mm model in the file at path, or the embedded default when path is "". It is
// decoded once and shared, read-only, by every predictor.
func Shared(path string) (*Model, error) { return shared.Load(Kind, path) }
