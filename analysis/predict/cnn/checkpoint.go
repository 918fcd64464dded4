package cnn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"aji/models"
)

// A checkpoint is a trainer's whole state — the network (with its step count), the optimiser's settings and moments —
// so that `aji train cnn --resume` goes on exactly where a run stopped.
var checkpointHeader = models.Header{Kind: "cnn-checkpoint", FormatVersion: 1, FeatureVersion: featureVersion}

// SaveCheckpoint writes t's state atomically.
func (t *Trainer) SaveCheckpoint(path string) error {
	net, err := t.Net.payload()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	le := binary.LittleEndian
	method := uint32(0)
	if t.Opt.Method == "adam" {
		method = 1
	}
	o := t.Opt
	for _, v := range []any{uint64(len(net)), net, method, o.LR, o.Momentum, o.Beta2, o.WeightDecay} {
		if err := binary.Write(&buf, le, v); err != nil {
			return err
		}
	}
	for i := range t.params {
		if err := binary.Write(&buf, le, t.m[i]); err != nil {
			return err
		}
		if err := binary.Write(&buf, le, t.v[i]); err != nil {
			return err
		}
	}
	return models.WriteFile(path, checkpointHeader, buf.Bytes())
}

// LoadCheckpoint makes a trainer from a checkpoint file.
func LoadCheckpoint(path string, workers int) (*Trainer, error) {
	payload, err := models.ReadFile(path, checkpointHeader)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*Trainer, error) {
		return nil, fmt.Errorf("%s: %w: %s", path, models.ErrFormat, fmt.Sprintf(format, args...))
	}
	le := binary.LittleEndian
	if len(payload) < 8 {
		return fail("checkpoint truncated")
	}
	n := le.Uint64(payload)
	if n > uint64(len(payload)-8) {
		return fail("checkpoint truncated")
	}
	net, err := decodePayload(payload[8:8+n], path)
	if err != nil {
		return nil, err
	}
	rest := payload[8+n:]
	const fixed = 4 + 4*8
	if len(rest) < fixed {
		return fail("optimiser state truncated")
	}
	f := func(i int) float64 { return math.Float64frombits(le.Uint64(rest[4+8*i:])) }
	o := Optimizer{Method: "momentum", LR: f(0), Momentum: f(1), Beta2: f(2), WeightDecay: f(3)}
	if le.Uint32(rest) == 1 {
		o.Method = "adam"
	}
	if err := o.Check(); err != nil {
		return fail("%v", err)
	}
	t := NewTrainer(net, o, workers)
	rest = rest[fixed:]
	for i := range t.params {
		for _, s := range [][]float32{t.m[i], t.v[i]} {
			if len(rest) < 4*len(s) {
				return fail("optimiser state truncated")
			}
			for j := range s {
				s[j] = math.Float32frombits(le.Uint32(rest[4*j:]))
			}
			rest = rest[4*len(s):]
		}
	}
	if len(rest) != 0 {
		return fail("%d bytes after the optimiser state", len(rest))
	}
	return t, nil
}
