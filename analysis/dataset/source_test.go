package dataset

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// member is one entry of a test collection; a name ending in "/" is a folder.
type member struct{ name, data string }

// testMembers holds SGF files, a folder, and files that must be skipped.
var testMembers = []member{
	{"games/", ""},
	{"games/a.sgf", "(;SZ[9];B[cc];W[gg];B[cg])"},
	{"games/b.SGF", "(;SZ[19]HA[2]AB[dd][pp];W[qd])"},
	{"games/notes.txt", "not a game"},
	{"games/._a.sgf", "\x00\x05\x16\x07 AppleDouble"},
	{"games/sub/", ""},
	{"games/sub/c.sgf", "(;B[pd];W[dp];B[pp];W[dd];B[])(;SZ[13];B[dd])"},
	{"games/sub/d.sgf", "this is not SGF"},
}

// wantFiles are the .sgf files of testMembers in stored order.
var wantFiles = []member{
	{"games/a.sgf", testMembers[1].data},
	{"games/b.SGF", testMembers[2].data},
	{"games/sub/c.sgf", testMembers[6].data},
	{"games/sub/d.sgf", testMembers[7].data},
}

// tarBytes writes members as a tar archive.
func tarBytes(t testing.TB, members []member) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		hdr := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.data)), Typeflag: tar.TypeReg}
		if strings.HasSuffix(m.name, "/") {
			hdr.Typeflag, hdr.Mode, hdr.Size = tar.TypeDir, 0o755, 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writeArchive writes members to dir/name, compressed as the name says.
func writeArchive(t testing.TB, dir, name string, members []member) string {
	t.Helper()
	raw := tarBytes(t, members)
	var buf bytes.Buffer
	var w io.WriteCloser
	switch {
	case strings.HasSuffix(name, ".xz"):
		xw, err := xz.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w = xw
	case strings.HasSuffix(name, ".gz"), strings.HasSuffix(name, ".tgz"):
		w = gzip.NewWriter(&buf)
	}
	if w != nil {
		if _, err := w.Write(raw); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		raw = buf.Bytes()
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeFolder writes members as files below dir and returns dir/games.
func writeFolder(t testing.TB, dir string, members []member) string {
	t.Helper()
	for _, m := range members {
		p := filepath.Join(dir, filepath.FromSlash(m.name))
		if strings.HasSuffix(m.name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(m.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "games")
}

// collect returns the files eachFile yields.
func collect(t *testing.T, p string) ([]member, error) {
	t.Helper()
	var got []member
	err := eachFile(t.Context(), p, func(f file) error {
		if f.index != len(got) {
			t.Errorf("%s: index %d, want %d", f.name, f.index, len(got))
		}
		if f.err != nil {
			t.Errorf("%s: %v", f.name, f.err)
		}
		got = append(got, member{f.name, string(f.data)})
		return nil
	})
	return got, err
}

// collections writes the test members in every supported layout.
func collections(t *testing.T) map[string]string {
	dir := t.TempDir()
	return map[string]string{
		"folder": writeFolder(t, filepath.Join(dir, "folder"), testMembers),
		"tar":    writeArchive(t, dir, "games.tar", testMembers),
		"tar.gz": writeArchive(t, dir, "games.tar.gz", testMembers),
		"tgz":    writeArchive(t, dir, "games.tgz", testMembers),
		"tar.xz": writeArchive(t, dir, "games.tar.xz", testMembers),
	}
}

func TestEachFileLayouts(t *testing.T) {
	for layout, p := range collections(t) {
		t.Run(layout, func(t *testing.T) {
			got, err := collect(t, p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, wantFiles) {
				t.Errorf("files\n got %q\nwant %q", got, wantFiles)
			}
			n, err := Count(context.Background(), p)
			if err != nil || n != len(wantFiles) {
				t.Errorf("Count = %d, %v; want %d", n, err, len(wantFiles))
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := Count(ctx, p); !errors.Is(err, context.Canceled) {
				t.Errorf("Count after cancel: %v, want context.Canceled", err)
			}
		})
	}
}

func TestEachFileSingleSGF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "one.sgf")
	if err := os.WriteFile(p, []byte(wantFiles[0].data), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := collect(t, p)
	want := []member{{"one.sgf", wantFiles[0].data}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if n, err := Count(context.Background(), p); n != 1 || err != nil {
		t.Errorf("Count = %d, %v; want 1", n, err)
	}
}

func TestEachFileBadPath(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "games.zip")
	if err := os.WriteFile(other, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing.tar.xz"), other} {
		err := eachFile(t.Context(), p, func(file) error { return nil })
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("eachFile(%s): %v, want an error naming the path", p, err)
		}
		if _, err := Count(context.Background(), p); err == nil {
			t.Errorf("Count(%s): no error", p)
		}
	}
}

func TestTooLargeFile(t *testing.T) {
	old := fileLimit
	fileLimit = 20
	defer func() { fileLimit = old }()
	for layout, p := range collections(t) {
		t.Run(layout, func(t *testing.T) {
			var tooLarge []string
			err := eachFile(t.Context(), p, func(f file) error {
				if errors.Is(f.err, ErrTooLarge) {
					tooLarge = append(tooLarge, f.name)
				} else if f.err != nil {
					t.Errorf("%s: %v", f.name, f.err)
				}
				return nil
			})
			want := []string{"games/a.sgf", "games/b.SGF", "games/sub/c.sgf"}
			if err != nil || !slices.Equal(tooLarge, want) {
				t.Errorf("too large: %q, %v; want %q", tooLarge, err, want)
			}
		})
	}
}

// TestCorruptArchives cuts and damages archives: every one must end in an
// error that wraps ErrArchive and names the archive, never a panic and
// never a silent early end.
func TestCorruptArchives(t *testing.T) {
	dir := t.TempDir()
	// Enough members that cuts land inside data as well as headers.
	var members []member
	for i := range 50 {
		members = append(members, member{
			name: "g/" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".sgf",
			data: "(;SZ[19]" + strings.Repeat(";B[pd];W[dp]", 5+i) + ")",
		})
	}
	for _, name := range []string{"c.tar.xz", "c.tar.gz", "c.tar"} {
		good, err := os.ReadFile(writeArchive(t, dir, name, members))
		if err != nil {
			t.Fatal(err)
		}
		type damaged struct {
			label string
			data  []byte
		}
		var cases []damaged
		for _, frac := range []float64{0.01, 0.3, 0.5, 0.9, 0.999} {
			n := int(float64(len(good)) * frac)
			if name == "c.tar" {
				// Plain tar cut exactly at a block boundary between members
				// is indistinguishable from a short archive; cut mid-block.
				n = n/512*512 + 100
			}
			cases = append(cases, damaged{fmt.Sprintf("cut at %g", frac), good[:n]})
		}
		if name != "c.tar" {
			flipped := slices.Clone(good)
			flipped[len(flipped)/2] ^= 0x55
			cases = append(cases,
				damaged{"byte flipped", flipped},
				damaged{"not compressed", []byte("garbage, not an archive at all")})
		}
		for _, c := range cases {
			t.Run(name+"/"+c.label, func(t *testing.T) {
				p := filepath.Join(dir, "bad-"+name)
				if err := os.WriteFile(p, c.data, 0o644); err != nil {
					t.Fatal(err)
				}
				err := eachFile(t.Context(), p, func(f file) error {
					if f.err != nil {
						t.Errorf("%s: per-file error %v", f.name, f.err)
					}
					return nil
				})
				if !errors.Is(err, ErrArchive) || !strings.Contains(err.Error(), p) {
					t.Errorf("error %v, want one wrapping ErrArchive naming %s", err, p)
				}
				if _, err := Count(context.Background(), p); !errors.Is(err, ErrArchive) {
					t.Errorf("Count: %v, want ErrArchive", err)
				}
			})
		}
	}
}

func TestEachFileCallerErrorAndCancel(t *testing.T) {
	stop := errors.New("stop")
	for layout, p := range collections(t) {
		t.Run(layout, func(t *testing.T) {
			n := 0
			err := eachFile(t.Context(), p, func(file) error { n++; return stop })
			if err != stop || n != 1 {
				t.Errorf("caller error: %v after %d files, want stop after 1", err, n)
			}
			ctx, cancel := context.WithCancel(t.Context())
			n = 0
			err = eachFile(ctx, p, func(file) error { n++; cancel(); return nil })
			if !errors.Is(err, context.Canceled) || n != 1 {
				t.Errorf("cancel: %v after %d files, want context.Canceled after 1", err, n)
			}
		})
	}
}
