// Package atomicfile writes files so that a crash, a full disk or a failed encoder never leaves a
// truncated file under the final name: data goes to a temporary file in the same folder, which is
// synced and then renamed over the target.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write creates or replaces path with what write writes. The file gets mode 0644.
func Write(path string, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	err = f.Chmod(0o644)      // CreateTemp makes the file private; these are ordinary documents
	if err == nil {
		err = write(f)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
