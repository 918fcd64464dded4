package models

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// ErrNoDefault says no default model of a name is embedded (a build without one): name a file instead.
var ErrNoDefault = errors.New("no embedded default model")

// A Loader decodes model files of one kind and shares each decoded model, read-only, with every caller:
// a model of many megabytes is decoded once however many predictors or playouts use it. A file is read
// again only once it has changed on disk, so a model retrained under the same name is seen; an error is
// remembered like a model.
type Loader[T any] struct {
	load   func(path string) (T, error)
	decode func(data []byte, name string) (T, error)

	mu     sync.Mutex
	loaded map[loaderKey]*loaded[T]
}

type loaderKey struct{ name, path string }

type loaded[T any] struct {
	stamp stamp
	model T
	err   error
}

// stamp identifies a version of a file: its size and modification time (zero when it cannot be read).
type stamp struct {
	size int64
	mod  time.Time
}

// NewLoader returns a Loader that reads a file with load and decodes the bytes of the embedded default
// with decode (name, "embedded NAME model", is for its error messages).
func NewLoader[T any](load func(path string) (T, error), decode func(data []byte, name string) (T, error)) *Loader[T] {
	return &Loader[T]{load: load, decode: decode, loaded: map[loaderKey]*loaded[T]{}}
}

// Load returns the model in the file at path or, when path is "", the embedded default named name
// (defaults/NAME.ajim). Calls are safe from any goroutine; a model being decoded makes the others wait.
func (l *Loader[T]) Load(name, path string) (T, error) {
	key, st := loaderKey{name: name}, stamp{}
	if path != "" {
		key = loaderKey{path: path}
		if fi, err := os.Stat(path); err == nil {
			st = stamp{fi.Size(), fi.ModTime()}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.loaded[key]; e != nil && e.stamp == st {
		return e.model, e.err
	}
	e := &loaded[T]{stamp: st}
	if path != "" {
		e.model, e.err = l.load(path)
	} else if data, ok := Default(name); ok {
		e.model, e.err = l.decode(data, "embedded "+name+" model")
	} else {
		e.err = fmt.Errorf("%w: %s (train one and name its file)", ErrNoDefault, name)
	}
	l.loaded[key] = e
	return e.model, e.err
}
