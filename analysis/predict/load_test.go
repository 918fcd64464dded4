package predict

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"aji/models"
)

func init() { RegisterKind(testKind.Kind, newOptionsPredictor) }

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tuned.ajim")
	if err := models.WriteFile(path, testKind, []byte("γ")); err != nil {
		t.Fatal(err)
	}
	name, err := Load(path)
	if err != nil || name != "tuned" {
		t.Fatalf("Load = %q, %v", name, err)
	}
	p, err := New(name, Options{})
	if err != nil || p.Name() != "tuned" || p.(optionsPredictor).o.Model != path {
		t.Fatalf("New(%s) = %+v, %v", name, p, err)
	}
	if again, err := Load(path); err != nil || again != "tuned-2" {
		t.Errorf("loading it again: %q, %v; want tuned-2", again, err)
	}

	other := filepath.Join(dir, "playout.ajim")
	models.WriteFile(other, models.Header{Kind: "playout", FormatVersion: 1, FeatureVersion: 1}, nil)
	if _, err := Load(other); err == nil {
		t.Error("a playout model made a predictor")
	}
	bad := filepath.Join(dir, "bad.ajim")
	data, _ := os.ReadFile(path)
	data[len(data)-1] ^= 1
	os.WriteFile(bad, data, 0o644)
	if _, err := Load(bad); !errors.Is(err, models.ErrFormat) {
		t.Errorf("a corrupt file: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "none.ajim")); err == nil {
		t.Error("a missing file loaded")
	}
	for _, n := range []string{"bad", "playout", "none"} {
		if _, err := New(n, Options{}); err == nil {
			t.Errorf("a failed load registered %s", n)
		}
	}
}
