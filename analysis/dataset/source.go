package dataset

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ulikunitz/xz"
)

// MaxFileSize bounds the bytes read for one .sgf file. Real game records are a
// few kilobytes; a larger member is reported as a per-file error instead of
// being loaded, so one absurd member cannot exhaust memory.
const MaxFileSize = 16 << 20

// fileLimit is MaxFileSize, lowered by tests.
var fileLimit int64 = MaxFileSize

// ErrArchive marks an archive that cannot be read to its end: truncated,
// corrupt compressed data, or a damaged tar header.
var ErrArchive = errors.New("corrupt or truncated archive")

// ErrTooLarge is the per-file error of a file larger than MaxFileSize.
var ErrTooLarge = errors.New("file too large")

// kind is the layout of a collection path.
type kind int

const (
	kindDir kind = iota
	kindSGF
	kindTar
	kindTarGz
	kindTarXz
)

// kindOf tells what path holds, by stat for folders and by name otherwise.
func kindOf(p string) (kind, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	if fi.IsDir() {
		return kindDir, nil
	}
	lower := strings.ToLower(p)
	switch {
	case strings.HasSuffix(lower, ".sgf"):
		return kindSGF, nil
	case strings.HasSuffix(lower, ".tar.xz"), strings.HasSuffix(lower, ".txz"):
		return kindTarXz, nil
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		return kindTarGz, nil
	case strings.HasSuffix(lower, ".tar"):
		return kindTar, nil
	}
	return 0, fmt.Errorf("%s: not a folder, .sgf file or .tar/.tar.gz/.tgz/.tar.xz archive", p)
}

// isSGF reports whether a member or file name is a game record. macOS tar
// adds "._name" AppleDouble metadata members next to real files; they are
// not SGF, so they are skipped rather than counted as parse errors.
func isSGF(name string) bool {
	base := path.Base(filepath.ToSlash(name))
	return strings.EqualFold(path.Ext(base), ".sgf") && !strings.HasPrefix(base, "._")
}

// file is one .sgf file of a collection, as stored.
type file struct {
	index int    // position among the collection's .sgf files, from 0
	name  string // see Record.Name
	data  []byte
	err   error // reading this one file failed; the walk goes on
}

// eachFile calls fn with every .sgf file of the collection at p, in stored
// order, reading one file at a time. It stops at the first error fn returns,
// at a corrupt archive, or when ctx is done.
func eachFile(ctx context.Context, p string, fn func(file) error) error {
	k, err := kindOf(p)
	if err != nil {
		return fmt.Errorf("open collection: %w", err)
	}
	switch k {
	case kindDir:
		return eachDirFile(ctx, p, fn, true)
	case kindSGF:
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := readFile(p)
		return fn(file{name: filepath.Base(p), data: data, err: err})
	default:
		return eachTarFile(ctx, p, k, fn, true)
	}
}

// readFile reads one .sgf file, refusing files over the size limit.
func readFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, fileLimit+1))
	if err != nil {
		return nil, err // an *fs.PathError, naming the file
	}
	if int64(len(data)) > fileLimit {
		return nil, fmt.Errorf("%w (over %d bytes)", ErrTooLarge, fileLimit)
	}
	return data, nil
}

// eachDirFile walks a folder recursively in lexical order. Names are the
// folder's base name joined with the slash-separated relative path, so a
// folder extracted from an archive yields the archive's member names.
// With read false, data is left nil (for counting).
func eachDirFile(ctx context.Context, root string, fn func(file) error, read bool) error {
	base := filepath.Base(filepath.Clean(root))
	index := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isSGF(d.Name()) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			// Follow a symlink to a file, but skip sockets, devices and
			// links to folders.
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		f := file{index: index, name: path.Join(base, filepath.ToSlash(rel))}
		index++
		if read {
			f.data, f.err = readFile(p)
		}
		if err := fn(f); err != nil {
			return callerError{err}
		}
		return nil
	})
	var ce callerError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return ce.err
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("walk %s: %w", root, err)
}

// callerError carries an error returned by the caller's fn through
// filepath.WalkDir, so it comes back unchanged rather than wrapped as a
// walking failure.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }

// eachTarFile streams the members of a tar archive, optionally compressed,
// through a decompressor; only the current member is held in memory. With
// read false, member data is skipped (for counting).
func eachTarFile(ctx context.Context, p string, k kind, fn func(file) error, read bool) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("open collection: %w", err)
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	switch k {
	case kindTarGz:
		zr, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("%s: %w: gzip: %w", p, ErrArchive, err)
		}
		defer zr.Close()
		r = zr
	case kindTarXz:
		if err := checkXZFooter(f); err != nil {
			return fmt.Errorf("%s: %w: xz: %w", p, ErrArchive, err)
		}
		zr, err := xz.NewReader(r)
		if err != nil {
			return fmt.Errorf("%s: %w: xz: %w", p, ErrArchive, err)
		}
		r = zr
	}
	tail := &tarTail{r: r}
	tr := tar.NewReader(tail)
	index := 0
	last := "(start of archive)"
	corrupt := func(err error) error {
		return fmt.Errorf("%s: %w after member %q: %w", p, ErrArchive, last, err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			if !tail.ended() {
				return corrupt(errors.New("no end-of-archive block"))
			}
			break
		}
		if err != nil {
			return corrupt(err)
		}
		last = hdr.Name
		if !hdr.FileInfo().Mode().IsRegular() || !isSGF(hdr.Name) {
			continue
		}
		m := file{index: index, name: hdr.Name}
		index++
		switch {
		case !read:
		case hdr.Size > fileLimit:
			m.err = fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, hdr.Size, fileLimit)
		default:
			m.data = make([]byte, hdr.Size)
			if _, err := io.ReadFull(tr, m.data); err != nil {
				return corrupt(err)
			}
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	// tar stops at its end-of-archive marker; reading the compressed stream
	// to its end makes the decompressor verify its trailer and checksum, so
	// a damaged tail is reported instead of silently ignored.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return corrupt(err)
	}
	return nil
}

// tarTail watches the bytes the tar reader consumes. archive/tar reports a
// clean end both at its end-of-archive marker (zero blocks) and when the
// input merely stops between two members, so a cut at a member boundary
// would otherwise pass unnoticed. One zero block is accepted as the end, as
// GNU tar does.
type tarTail struct {
	r     io.Reader
	n     int64 // bytes consumed
	zeros int64 // zero bytes at the end of them
}

func (t *tarTail) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.n += int64(n)
	i := n
	for i > 0 && p[i-1] == 0 {
		i--
	}
	if i == 0 {
		t.zeros += int64(n)
	} else {
		t.zeros = int64(n - i)
	}
	return n, err
}

func (t *tarTail) ended() bool { return t.n%512 == 0 && t.zeros >= 512 }

// checkXZFooter checks that an .xz file ends with a stream footer (after
// any stream padding). github.com/ulikunitz/xz v0.5 takes input that stops
// at a block boundary for a clean end of stream, so without this check an
// archive cut there would read as a shorter, valid one.
func checkXZFooter(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	const footerLen = 12
	n := min(fi.Size(), 1<<16)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, fi.Size()-n); err != nil {
		return err
	}
	// Stream padding is zero bytes in groups of four.
	for len(buf) >= footerLen+4 && bytes.Equal(buf[len(buf)-4:], []byte{0, 0, 0, 0}) {
		buf = buf[:len(buf)-4]
	}
	if len(buf) < footerLen {
		return errors.New("no stream footer: truncated")
	}
	footer := buf[len(buf)-footerLen:]
	if string(footer[10:]) != "YZ" || crc32.ChecksumIEEE(footer[4:10]) != binary.LittleEndian.Uint32(footer[:4]) {
		return errors.New("no valid stream footer at the end of the file: truncated or damaged")
	}
	return nil
}
