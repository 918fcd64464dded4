package models

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"aji/internal/atomicfile"
)

// magic opens every Aji model file.
const magic = "AJIMODEL"

// MaxPayload bounds a payload so a corrupted length cannot make the reader allocate without limit.
const MaxPayload = 1 << 30

// ErrFormat reports a file that is not a valid model of the expected kind and versions.
var ErrFormat = errors.New("invalid model file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header describes a model file.
type Header struct {
	Kind           string // e.g. "mm", "patterns", "boltzmann5"
	FormatVersion  uint32 // version of the kind's payload encoding
	FeatureVersion uint32 // version of the feature set the parameters refer to
}

// Write writes a model file: header, then payload.
func Write(w io.Writer, h Header, payload []byte) error {
	if len(h.Kind) == 0 || len(h.Kind) > 255 {
		return fmt.Errorf("model kind %q: length must be 1..255", h.Kind)
	}
	if len(payload) > MaxPayload {
		return fmt.Errorf("model payload of %d bytes exceeds %d", len(payload), MaxPayload)
	}
	var buf bytes.Buffer
	buf.WriteString(magic)
	buf.WriteByte(byte(len(h.Kind)))
	buf.WriteString(h.Kind)
	binary.Write(&buf, binary.LittleEndian, h.FormatVersion)
	binary.Write(&buf, binary.LittleEndian, h.FeatureVersion)
	binary.Write(&buf, binary.LittleEndian, uint64(len(payload)))
	binary.Write(&buf, binary.LittleEndian, crc32.Checksum(payload, castagnoli))
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// Read reads a model file and checks it is of the wanted kind and versions; name (a path or "embedded
// mm") is used in error messages. A truncated, corrupted or mismatched file gives an error wrapping
// ErrFormat, never a panic.
func Read(r io.Reader, name string, want Header) ([]byte, error) {
	fail := func(format string, args ...any) ([]byte, error) {
		return nil, fmt.Errorf("%s: %w: %s", name, ErrFormat, fmt.Sprintf(format, args...))
	}
	h, length, sum, err := readHeader(r, name)
	if err != nil {
		return nil, err
	}
	switch {
	case h.Kind != want.Kind:
		return fail("kind %q, want %q", h.Kind, want.Kind)
	case h.FormatVersion != want.FormatVersion:
		return fail("%s format version %d, this program reads %d", h.Kind, h.FormatVersion, want.FormatVersion)
	case h.FeatureVersion != want.FeatureVersion:
		return fail("%s feature-set version %d, this program computes %d (retrain the model)", h.Kind, h.FeatureVersion, want.FeatureVersion)
	case length > MaxPayload:
		return fail("payload length %d is implausible", length)
	}
	// Read through a limit rather than allocating the claimed length up front, so a corrupted length
	// costs no more memory than the bytes really there.
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(length))); err != nil {
		return fail("read payload: %v", err)
	}
	if uint64(buf.Len()) != length {
		return fail("truncated: %d payload bytes expected, %d found", length, buf.Len())
	}
	payload := buf.Bytes()
	if crc32.Checksum(payload, castagnoli) != sum {
		return fail("checksum mismatch (the file is corrupted)")
	}
	return payload, nil
}

// readHeader reads the header of a model file and the payload's length and checksum.
func readHeader(r io.Reader, name string) (h Header, length uint64, sum uint32, err error) {
	fail := func(what string) (Header, uint64, uint32, error) {
		return Header{}, 0, 0, fmt.Errorf("%s: %w: %s", name, ErrFormat, what)
	}
	head := make([]byte, len(magic)+1)
	if _, err := io.ReadFull(r, head); err != nil {
		return fail("truncated header")
	}
	if string(head[:len(magic)]) != magic {
		return fail("not an Aji model (bad magic)")
	}
	kind := make([]byte, head[len(magic)])
	if _, err := io.ReadFull(r, kind); err != nil {
		return fail("truncated header")
	}
	var fixed struct {
		Format, Feature uint32
		Length          uint64
		CRC             uint32
	}
	if err := binary.Read(r, binary.LittleEndian, &fixed); err != nil {
		return fail("truncated header")
	}
	return Header{string(kind), fixed.Format, fixed.Feature}, fixed.Length, fixed.CRC, nil
}

// ReadHeaderFile reads the header of the model file at path, to learn which kind of model it holds.
func ReadHeaderFile(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	h, _, _, err := readHeader(f, path)
	return h, err
}

// WriteFile writes a model file atomically, so a crash never leaves a half-written model under the
// final name.
func WriteFile(path string, h Header, payload []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, h, payload) })
}

// ReadFile reads a model file from disk.
func ReadFile(path string, want Header) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	return Read(f, path, want)
}
