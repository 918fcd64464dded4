// Package modeltest fuzzes the decoders of model payloads. A damaged model file fails its checksum
// before a decoder sees it (models.Read), so fuzzing whole files mostly tests the checksum; FuzzDecode
// wraps each fuzzed payload in a valid file, and so reaches the decoder with bytes no writer made.
package modeltest

import (
	"bytes"
	"errors"
	"testing"

	"aji/models"
)

// FuzzDecode fuzzes decode, which reads a whole model file of header h, on payloads grown from seeds:
// any payload must give a model or an error wrapping models.ErrFormat, never a panic or another error.
func FuzzDecode(f *testing.F, h models.Header, seeds [][]byte, decode func(file []byte) error) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var file bytes.Buffer
		if err := models.Write(&file, h, payload); err != nil {
			t.Skip(err) // larger than models.MaxPayload
		}
		if err := decode(file.Bytes()); err != nil && !errors.Is(err, models.ErrFormat) {
			t.Fatalf("decoding gave %v, which does not wrap models.ErrFormat", err)
		}
	})
}
