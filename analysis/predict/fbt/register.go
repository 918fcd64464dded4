package fbt

import (
	"aji/analysis/predict"
	"aji/models"
)

// fbt is the large feature set's embedded default (F_large, k = 10), fbt-small the small set's.
func init() {
	for _, name := range []string{"fbt", "fbt-small"} {
		predict.Register(name, func(as string, o predict.Options) (predict.Predictor, error) {
			m, err := shared.Load(name, o.Model)
			if err != nil {
				return nil, err
			}
			return NewPredictor(as, m, !o.NoOwner), nil
		})
	}
	predict.RegisterKind(Kind, func(as string, o predict.Options) (predict.Predictor, error) {
		m, err := Shared(o.Model)
		if err != nil {
			return nil, err
		}
		return NewPredictor(as, m, !o.NoOwner), nil
	})
}

var shared = models.NewLoader(Load, Decode)

// Shared returns the fbt model in the file at path, or the embedded default fbt when path is "". It is
// decoded once and shared, read-only, by every predictor.
func Shared(path string) (*Model, error) { return shared.Load("fbt", path) }
