package predict

import (
	"path/filepath"
	"testing"

	"aji/models"
)

// optionsPredictor is uniform, remembering the options it was made with.
type optionsPredictor struct {
	uniform
	name string
	o    Options
}

func (p optionsPredictor) Name() string { return p.name }

var testKind = models.Header{Kind: "predict-test", FormatVersion: 1, FeatureVersion: 1}

func init() { Register("options-test", newOptionsPredictor) }

func newOptionsPredictor(name string, o Options) (Predictor, error) {
	if o.Model != "" {
		if _, err := models.ReadFile(o.Model, testKind); err != nil {
			return nil, err
		}
	}
	return optionsPredictor{name: name, o: o}, nil
}

func TestConfigure(t *testing.T) {
	made := func(o Options) Options {
		t.Helper()
		p, err := New("options-test", o)
		if err != nil {
			t.Fatal(err)
		}
		return p.(optionsPredictor).o
	}
	if got := made(Options{NoOwner: true}); got != (Options{NoOwner: true}) {
		t.Errorf("unconfigured: %+v", got)
	}
	path := filepath.Join(t.TempDir(), "m.ajim")
	if err := models.WriteFile(path, testKind, []byte("γ")); err != nil {
		t.Fatal(err)
	}
	if err := Configure("options-test", Options{Model: path}); err != nil {
		t.Fatal(err)
	}
	defer Configure("options-test", Options{})
	if o, err := Configured("options-test"); err != nil || o.Model != path {
		t.Errorf("Configured = %+v, %v", o, err)
	}
	if got := made(Options{NoOwner: true}); got != (Options{Model: path, NoOwner: true}) {
		t.Errorf("configured with a file, asked without the owner: %+v", got)
	}
	other := filepath.Join(t.TempDir(), "other.ajim")
	models.WriteFile(other, testKind, nil)
	if got := made(Options{Model: other}); got.Model != other {
		t.Errorf("New's model does not override the configured one: %+v", got)
	}
	if err := Configure("nope", Options{}); err == nil {
		t.Error("configured an unknown predictor")
	}
}
