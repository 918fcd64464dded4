package dataset

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// ErrNoMember is the error of Member for a name the collection does not hold.
var ErrNoMember = errors.New("no such file in the collection")

// Member returns the bytes of the file named name (a Record.Name) of the collection at collection, and
// where it lies on disk when it is a file of its own (a folder's file, or the collection itself when it
// is one .sgf file); disk is empty for an archive's member. A search over a collection hands out names,
// and this is how a match is opened again: an archive is streamed up to the member.
func Member(ctx context.Context, collection, name string) (data []byte, disk string, err error) {
	k, err := kindOf(collection)
	if err != nil {
		return nil, "", fmt.Errorf("open collection: %w", err)
	}
	switch k {
	case kindSGF:
		if name != filepath.Base(collection) {
			return nil, "", fmt.Errorf("%s: %w: %s", collection, ErrNoMember, name)
		}
		data, err = readFile(collection)
		return data, collection, err
	case kindDir:
		root := filepath.Clean(collection)
		rel, ok := strings.CutPrefix(name, filepath.Base(root)+"/")
		if !ok || rel == "" || !isSGF(rel) || !filepath.IsLocal(filepath.FromSlash(rel)) || path.Clean(rel) != rel {
			return nil, "", fmt.Errorf("%s: %w: %s", collection, ErrNoMember, name)
		}
		disk = filepath.Join(root, filepath.FromSlash(rel))
		if data, err = readFile(disk); errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("%s: %w: %s", collection, ErrNoMember, name)
		} else if err != nil {
			return nil, "", err
		}
		return data, disk, nil
	}
	found := errors.New("found")
	var readErr error
	err = eachTarFile(ctx, collection, k, func(f file) error {
		if f.name != name {
			return nil
		}
		data, readErr = f.data, f.err
		return found
	}, true)
	switch {
	case err == found && readErr != nil:
		return nil, "", fmt.Errorf("%s: %w", name, readErr)
	case err == found:
		return data, "", nil
	case err != nil:
		return nil, "", err
	}
	return nil, "", fmt.Errorf("%s: %w: %s", collection, ErrNoMember, name)
}
