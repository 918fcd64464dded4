package models

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

var testHeader = Header{Kind: "mm", FormatVersion: 2, FeatureVersion: 7}

func encode(t testing.TB, payload []byte) []byte {
	var buf bytes.Buffer
	if err := Write(&buf, testHeader, payload); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTripAndDamage(t *testing.T) {
	payload := []byte("the γ of every feature")
	file := encode(t, payload)
	got, err := Read(bytes.NewReader(file), "m", testHeader)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("round trip: %q %v", got, err)
	}
	// Every truncation and every single-byte corruption is refused with ErrFormat.
	for n := range len(file) {
		if _, err := Read(bytes.NewReader(file[:n]), "m", testHeader); !errors.Is(err, ErrFormat) {
			t.Errorf("truncated to %d bytes: %v", n, err)
		}
	}
	for i := range file {
		bad := bytes.Clone(file)
		bad[i] ^= 0x40
		if _, err := Read(bytes.NewReader(bad), "m", testHeader); !errors.Is(err, ErrFormat) {
			t.Errorf("byte %d flipped: %v", i, err)
		}
	}
	for _, want := range []Header{{"fbt", 2, 7}, {"mm", 3, 7}, {"mm", 2, 8}} {
		if _, err := Read(bytes.NewReader(file), "m", want); !errors.Is(err, ErrFormat) {
			t.Errorf("read as %+v: %v", want, err)
		}
	}
}

func TestWriteFileIsAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.ajim")
	if err := WriteFile(path, testHeader, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path, testHeader); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), testHeader); err == nil {
		t.Error("missing file accepted")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(encode(f, []byte("payload")))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		payload, err := Read(bytes.NewReader(data), "fuzz", testHeader)
		if err == nil && !bytes.Equal(encode(t, payload), data[:len(encode(t, payload))]) {
			t.Fatal("accepted a file that does not re-encode to itself")
		}
	})
}
