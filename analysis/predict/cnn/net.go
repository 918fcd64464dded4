package cnn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"aji/analysis/feature"
	"aji/models"
)

// Kind is the models container kind of a cnn model.
const Kind = "cnn"

const (
	formatVersion  = 1
	featureVersion = 1 // analysis/feature's planes as of NumPlanes = 27
)

var fileHeader = models.Header{Kind: Kind, FormatVersion: formatVersion, FeatureVersion: featureVersion}

// Limits on a model file's shape, so a corrupt header cannot ask for gigabytes.
const (
	MaxWidth  = 1024
	MaxLayers = 64
)

// bnEpsilon keeps batch normalisation's division finite (Ioffe & Szegedy's ε).
const bnEpsilon = 1e-5

// Config is a network's shape and the encoding it reads.
type Config struct {
	Width       int // channels of the hidden layers after the first (the paper's f9: 384)
	FirstWidth  int // channels of the first layer (the paper's f9: 92); 0 means Width
	Layers      int // convolutional layers in all: the first, Layers−2 3x3 ones, the final 1x1 (the paper: 7)
	FirstKernel int // kernel size of the first layer (the paper: 5)
	Planes      feature.PlaneOptions
}

// DefaultConfig is the embedded model's shape: the paper's 7 convolutional layers at a width that keeps
// one position under 10 ms on one core.
var DefaultConfig = Config{Width: 64, Layers: 7, FirstKernel: 5}

func (c Config) validate() error {
	switch {
	case c.Width < 1 || c.Width > MaxWidth || c.FirstWidth < 0 || c.FirstWidth > MaxWidth:
		return fmt.Errorf("widths %d, %d outside [1, %d]", c.FirstWidth, c.Width, MaxWidth)
	case c.Layers < 2 || c.Layers > MaxLayers:
		return fmt.Errorf("%d layers outside [2, %d]", c.Layers, MaxLayers)
	case c.FirstKernel < 1 || c.FirstKernel > 9 || c.FirstKernel%2 == 0:
		return fmt.Errorf("first kernel %d: want an odd size from 1 to 9", c.FirstKernel)
	}
	return nil
}

// Layer is one convolution. Hidden layers are followed by batch normalisation (Gamma, Beta, and the
// running Mean and Var used at inference) and ReLU; the last layer has a Bias instead.
type Layer struct {
	In, Out, K int       // input and output channels, kernel size
	W          []float32 // Out × In·K·K, row-major: W[o][(c·K + dy)·K + dx]
	Gamma      []float32
	Beta       []float32
	Mean       []float32
	Var        []float32
	Bias       []float32 // last layer only: one per output channel
}

// Net is a policy network and what its training has done.
type Net struct {
	Config
	L []Layer
	// Training record, kept in the file: optimiser steps, positions seen, the best validation top-1.
	Steps, Seen int64
	Top1        float64
}

// New makes a network of the given shape with He-initialised weights (He et al. 2015, for ReLU) drawn
// from seed, batch normalisation at identity.
func New(c Config, seed uint64) (*Net, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x636e6e))
	n := &Net{Config: c}
	in := feature.NumPlanes
	for i := range c.Layers {
		l := Layer{In: in, Out: c.Width, K: 3}
		switch i {
		case 0:
			l.K = c.FirstKernel
			if c.FirstWidth > 0 {
				l.Out = c.FirstWidth
			}
		case c.Layers - 1:
			l.Out, l.K = 1, 1
		}
		l.W = make([]float32, l.Out*l.In*l.K*l.K)
		std := math.Sqrt(2 / float64(l.In*l.K*l.K))
		for j := range l.W {
			l.W[j] = float32(rng.NormFloat64() * std)
		}
		if i == c.Layers-1 {
			l.Bias = make([]float32, l.Out)
		} else {
			l.Gamma, l.Beta, l.Mean, l.Var = fill(l.Out, 1), make([]float32, l.Out), make([]float32, l.Out), fill(l.Out, 1)
		}
		n.L = append(n.L, l)
		in = l.Out
	}
	return n, nil
}

func fill(n int, v float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// NumParams counts the trained parameters (the running statistics excluded).
func (n *Net) NumParams() int {
	total := 0
	for _, l := range n.L {
		total += len(l.W) + len(l.Gamma) + len(l.Beta) + len(l.Bias)
	}
	return total
}

// Folded returns each layer's weights and bias with batch normalisation folded in (inference:
// γ·(Wx − μ)/σ + β = (γ/σ)·W x + (β − γμ/σ)).
func (n *Net) Folded() (w, b [][]float32) {
	for _, l := range n.L {
		fw := append([]float32(nil), l.W...)
		var fb []float32
		if l.Bias != nil {
			fb = append(fb, l.Bias...)
		} else {
			fb = make([]float32, l.Out)
			row := l.In * l.K * l.K
			for o := range l.Out {
				s := l.Gamma[o] / float32(math.Sqrt(float64(l.Var[o])+bnEpsilon))
				for j := range row {
					fw[o*row+j] *= s
				}
				fb[o] = l.Beta[o] - s*l.Mean[o]
			}
		}
		w, b = append(w, fw), append(b, fb)
	}
	return w, b
}

// tensors lists every parameter slice in file order.
func (n *Net) tensors() [][]float32 {
	var ts [][]float32
	for _, l := range n.L {
		ts = append(ts, l.W)
		if l.Bias != nil {
			ts = append(ts, l.Bias)
		} else {
			ts = append(ts, l.Gamma, l.Beta, l.Mean, l.Var)
		}
	}
	return ts
}

func (n *Net) payload() ([]byte, error) {
	var buf bytes.Buffer
	le := binary.LittleEndian
	flags := uint32(0)
	if n.Planes.OpponentPlus {
		flags |= 1
	}
	if n.Planes.HistoryLastFive {
		flags |= 2
	}
	for _, v := range []any{uint32(n.Width), uint32(n.FirstWidth), uint32(n.Layers), uint32(n.FirstKernel), flags, n.Steps, n.Seen, n.Top1} {
		if err := binary.Write(&buf, le, v); err != nil {
			return nil, err
		}
	}
	for _, t := range n.tensors() {
		if err := binary.Write(&buf, le, t); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// headerBytes is the payload's fixed part before the parameters.
const headerBytes = 5*4 + 8 + 8 + 8

// Save writes the model file atomically.
func (n *Net) Save(path string) error {
	p, err := n.payload()
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return models.WriteFile(path, fileHeader, p)
}

// Load reads a model file.
func Load(path string) (*Net, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load cnn model: %w", err)
	}
	return Decode(data, path)
}

// Decode reads a network from the bytes of a model file; name is used in error messages. A truncated,
// corrupted or mismatched file gives an error wrapping models.ErrFormat.
func Decode(data []byte, name string) (*Net, error) {
	payload, err := models.Read(bytes.NewReader(data), name, fileHeader)
	if err != nil {
		return nil, err
	}
	return decodePayload(payload, name)
}

// decodePayload reads a network from a model file's payload (a checkpoint holds one too).
func decodePayload(payload []byte, name string) (*Net, error) {
	fail := func(format string, args ...any) (*Net, error) {
		return nil, fmt.Errorf("%s: %w: %s", name, models.ErrFormat, fmt.Sprintf(format, args...))
	}
	if len(payload) < headerBytes {
		return fail("cnn header truncated")
	}
	le := binary.LittleEndian
	flags := le.Uint32(payload[16:])
	c := Config{
		Width: int(le.Uint32(payload)), FirstWidth: int(le.Uint32(payload[4:])), Layers: int(le.Uint32(payload[8:])),
		FirstKernel: int(le.Uint32(payload[12:])),
		Planes:      feature.PlaneOptions{OpponentPlus: flags&1 != 0, HistoryLastFive: flags&2 != 0},
	}
	if err := c.validate(); err != nil {
		return fail("%v", err)
	}
	n, err := New(c, 0)
	if err != nil {
		return fail("%v", err)
	}
	n.Steps, n.Seen = int64(le.Uint64(payload[20:])), int64(le.Uint64(payload[28:]))
	n.Top1 = math.Float64frombits(le.Uint64(payload[36:]))
	rest := payload[headerBytes:]
	for _, t := range n.tensors() {
		if len(rest) < 4*len(t) {
			return fail("parameters truncated: a %d-layer width-%d network needs more bytes", c.Layers, c.Width)
		}
		for i := range t {
			v := math.Float32frombits(le.Uint32(rest[4*i:]))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fail("parameter is %v", v)
			}
			t[i] = v
		}
		rest = rest[4*len(t):]
	}
	if len(rest) != 0 {
		return fail("%d bytes after the parameters", len(rest))
	}
	for _, l := range n.L {
		for _, v := range l.Var {
			if v < 0 {
				return fail("negative running variance %v", v)
			}
		}
	}
	return n, nil
}
