package models

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoader: a model is decoded once and shared, a missing default and a corrupt file give their
// errors, and a file changed on disk is read again.
func TestLoader(t *testing.T) {
	decodes := 0
	decode := func(data []byte, name string) (*[]byte, error) {
		decodes++
		p, err := Read(bytes.NewReader(data), name, testHeader)
		return &p, err
	}
	load := func(path string) (*[]byte, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return decode(data, path)
	}
	l := NewLoader(load, decode)

	if _, err := l.Load("no-such-model", ""); !errors.Is(err, ErrNoDefault) {
		t.Errorf("missing default: %v, want ErrNoDefault", err)
	}
	path := filepath.Join(t.TempDir(), "m.ajim")
	if err := WriteFile(path, testHeader, []byte("one")); err != nil {
		t.Fatal(err)
	}
	a, err := l.Load("", path)
	if err != nil || string(*a) != "one" {
		t.Fatalf("load: %v", err)
	}
	if b, _ := l.Load("", path); b != a || decodes != 1 {
		t.Errorf("a second load decoded again (%d decodes) or gave another model", decodes)
	}

	// Rewritten (a model retrained under the same name): read again.
	if err := WriteFile(path, testHeader, []byte("two!")); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(path, later, later)
	if b, err := l.Load("", path); err != nil || string(*b) != "two!" {
		t.Errorf("after a rewrite: %v", err)
	}

	// Corrupted: an error naming the file, remembered until the file changes.
	data, _ := os.ReadFile(path)
	data[len(data)-1] ^= 1
	os.WriteFile(path, data, 0o644)
	os.Chtimes(path, later.Add(time.Second), later.Add(time.Second))
	n := decodes
	for range 2 {
		if _, err := l.Load("", path); !errors.Is(err, ErrFormat) || !bytes.Contains([]byte(err.Error()), []byte(path)) {
			t.Errorf("corrupt file: %v", err)
		}
	}
	if decodes != n+1 {
		t.Errorf("%d decodes of an unchanged corrupt file, want 1", decodes-n)
	}
}

func TestReadHeaderFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.ajim")
	if err := WriteFile(path, testHeader, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if h, err := ReadHeaderFile(path); err != nil || h != testHeader {
		t.Errorf("header %+v, %v", h, err)
	}
	os.WriteFile(path, []byte("not a model"), 0o644)
	if _, err := ReadHeaderFile(path); !errors.Is(err, ErrFormat) {
		t.Errorf("not a model: %v", err)
	}
}

// TestLoaderShared: goroutines loading one model at once get the same one, decoded once (run with -race).
func TestLoaderShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.ajim")
	if err := WriteFile(path, testHeader, []byte("γ")); err != nil {
		t.Fatal(err)
	}
	var decodes atomic.Int32
	l := NewLoader(func(path string) (*[]byte, error) {
		decodes.Add(1)
		p, err := ReadFile(path, testHeader)
		return &p, err
	}, nil)
	got := make([]*[]byte, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], _ = l.Load("", path) })
	}
	wg.Wait()
	if decodes.Load() != 1 || slices.ContainsFunc(got, func(p *[]byte) bool { return p != got[0] }) {
		t.Errorf("%d decodes; models %v", decodes.Load(), got)
	}
}
