package cfgbt

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"aji/analysis/predict"
	"aji/models"
)

// Environment variables that point the predictors at model files instead of the embedded defaults.
const (
	ModelEnv      = "AJI_CFG_MODEL"
	SmallModelEnv = "AJI_CFG_SMALL_MODEL"
)

// Names of the registered predictors and of their default model files (models/defaults/NAME.ajim).
const (
	Name      = "cfg"
	SmallName = "cfg-small"
)

func init() {
	predict.Register(Name, func() (predict.Predictor, error) {
		m, err := DefaultModel()
		if err != nil {
			return nil, err
		}
		return NewPredictor(Name, m, m.Owner), nil
	})
	predict.Register(SmallName, func() (predict.Predictor, error) {
		m, err := DefaultSmallModel()
		if err != nil {
			return nil, err
		}
		return NewPredictor(SmallName, m, false), nil
	})
}

// ErrNoModel says no model is embedded and none is named by the environment.
var ErrNoModel = errors.New("no cfg model")

// DefaultModel returns the model of the `cfg` predictor: the file named by $AJI_CFG_MODEL, else the one
// embedded in models/. It is loaded once and shared (read-only) by every predictor; a failure is not
// remembered, so a model named later (as `aji train cfg --validation` does) is found.
func DefaultModel() (*Model, error) { return cached(Name, ModelEnv, "aji train cfg", Full) }

// DefaultSmallModel returns the model of the `cfg-small` predictor (the Small variant, for playouts):
// the file named by $AJI_CFG_SMALL_MODEL, else the one embedded in models/, loaded once as DefaultModel.
func DefaultSmallModel() (*Model, error) {
	return cached(SmallName, SmallModelEnv, "aji train cfg --small", Small)
}

var loaded struct {
	sync.Mutex
	m map[string]*Model
}

func cached(name, env, train string, v Variant) (*Model, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if m := loaded.m[name]; m != nil {
		return m, nil
	}
	m, err := defaultModel(name, env, train, v)
	if err != nil {
		return nil, err
	}
	if loaded.m == nil {
		loaded.m = map[string]*Model{}
	}
	loaded.m[name] = m
	return m, nil
}

func defaultModel(name, env, train string, v Variant) (*Model, error) {
	var m *Model
	var err error
	if path := os.Getenv(env); path != "" {
		m, err = Load(path)
	} else if data, ok := models.Default(name); ok {
		m, err = Decode(data, "embedded "+name+" model")
	} else {
		return nil, fmt.Errorf("%w: run %s and set %s to its output (none is embedded)", ErrNoModel, train, env)
	}
	if err != nil {
		return nil, err
	}
	if m.Variant != v {
		return nil, fmt.Errorf("%s model: the %v variant, %s needs the %v one", name, m.Variant, name, v)
	}
	return m, nil
}
