package cnn

import (
	"aji/analysis/predict"
	"aji/models"
)

func init() {
	factory := func(as string, o predict.Options) (predict.Predictor, error) {
		n, err := Shared(o.Model)
		if err != nil {
			return nil, err
		}
		return NewPredictor(as, n), nil
	}
	predict.Register(Kind, factory)
	predict.RegisterKind(Kind, factory)
}

var shared = models.NewLoader(Load, Decode)

// Shared returns the network in the file at path, or the embedded default when path is "". It is
// decoded once and shared, read-only, by every predictor.
func Shared(path string) (*Net, error) { return shared.Load(Kind, path) }
