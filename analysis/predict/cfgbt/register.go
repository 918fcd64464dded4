package cfgbt

import (
	"fmt"

	"aji/analysis/predict"
	"aji/models"
)

// Names of the registered predictors and of their default model files (models/defaults/NAME.ajim).
const (
	Name      = "cfg"
	SmallName = "cfg-small"
)

func init() {
	predict.Register(Name, func(name string, o predict.Options) (predict.Predictor, error) {
		m, err := Shared(Full, o.Model)
		if err != nil {
			return nil, err
		}
		return NewPredictor(name, m, !o.NoOwner), nil
	})
	predict.Register(SmallName, func(name string, o predict.Options) (predict.Predictor, error) {
		m, err := Shared(Small, o.Model)
		if err != nil {
			return nil, err
		}
		return NewPredictor(name, m, false), nil
	})
	// A file of either variant, for predict.Load.
	predict.RegisterKind(Kind, func(name string, o predict.Options) (predict.Predictor, error) {
		m, err := shared.Load("", o.Model)
		if err != nil {
			return nil, err
		}
		return NewPredictor(name, m, m.Variant == Full && !o.NoOwner), nil
	})
}

var shared = models.NewLoader(Load, Decode)

// Shared returns the model of variant v in the file at path or, when path is "", the embedded default
// of that variant (the `cfg` or `cfg-small` predictor's). It is decoded once and shared, read-only, by
// every predictor. A file of the other variant is an error.
func Shared(v Variant, path string) (*Model, error) {
	name := Name
	if v == Small {
		name = SmallName
	}
	m, err := shared.Load(name, path)
	if err != nil {
		return nil, err
	}
	if m.Variant != v {
		file := path
		if file == "" {
			file = "embedded " + name + " model"
		}
		return nil, fmt.Errorf("%s: the %v variant, %s needs the %v one", file, m.Variant, name, v)
	}
	return m, nil
}
