package predict

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"aji/models"
)

// RegisterKind says that f makes predictors of model files of a kind (models.Header.Kind), given the
// file as Options.Model, so that Load can take any such file. It panics on a duplicate kind.
func RegisterKind(kind string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := kinds[kind]; dup {
		panic("predict: RegisterKind called twice for " + kind)
	}
	kinds[kind] = f
}

// Load registers a predictor for the model file at path, made by the factory of the kind of model the
// file holds, and returns its name: the file's base name without its extension, with -2, -3… added if
// that is taken. The model is loaded here, so a bad file fails now rather than at first use; on a large
// model that takes a while, so keep it off a UI thread.
func Load(path string) (string, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the working directory may change before the predictor is made
	}
	h, err := models.ReadHeaderFile(path)
	if err != nil {
		return "", err
	}
	registryMu.RLock()
	f, ok := kinds[h.Kind]
	known := make([]string, 0, len(kinds))
	for k := range kinds {
		known = append(known, k)
	}
	registryMu.RUnlock()
	if !ok {
		slices.Sort(known)
		return "", fmt.Errorf("%s: a %s model, not a move predictor's (%s)", path, h.Kind, strings.Join(known, ", "))
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	o := Options{Model: path}
	if _, err := f(base, o); err != nil {
		return "", err
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	name := base
	for n := 2; ; n++ {
		if _, taken := registry[name]; !taken {
			break
		}
		name = base + "-" + strconv.Itoa(n)
	}
	registry[name] = entry{f: f, o: o}
	return name, nil
}
