package territory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"aji/models"
)

// ParamLen returns the parameter count of a model kind.
func ParamLen(kind Kind) (int, error) {
	switch kind {
	case KindBoltzmann5:
		return Boltzmann5Len, nil
	case KindBoltzmann12:
		return Len12, nil
	case KindLiberties:
		return LenLiberties, nil
	}
	return 0, fmt.Errorf("territory: no parameters for model %v (boltzmann5, boltzmann12, boltzmann-lib)", kind)
}

// NewModel wraps a parameter vector as the Model of its kind.
func NewModel(kind Kind, params []float64) (Model, error) {
	n, err := ParamLen(kind)
	if err != nil {
		return nil, err
	}
	if len(params) != n {
		return nil, fmt.Errorf("territory: %s has %d parameters, got %d", kind, n, len(params))
	}
	switch kind {
	case KindBoltzmann5:
		return Boltzmann5Params(params), nil
	case KindBoltzmann12:
		return Boltzmann12Params(params), nil
	}
	return BoltzmannLibertiesParams(params), nil
}

// Trained is a trained model of one kind with one parameter vector per game phase: Stern trains one model
// per move number because the couplings change as the game goes on (Table 5.1).
type Trained struct {
	Kind   Kind
	Moves  []int       // ascending; a position uses the vector of the nearest move
	Params [][]float64 // one vector per entry of Moves
}

// At returns the model for a position before the given move number.
func (t *Trained) At(move int) Model {
	best := 0
	for i, m := range t.Moves {
		if abs(m-move) < abs(t.Moves[best]-move) {
			best = i
		}
	}
	m, _ := NewModel(t.Kind, t.Params[best]) // lengths were checked when t was made or loaded
	return m
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Check reports a malformed Trained.
func (t *Trained) Check() error {
	n, err := ParamLen(t.Kind)
	if err != nil {
		return err
	}
	if len(t.Moves) == 0 || len(t.Moves) != len(t.Params) {
		return fmt.Errorf("territory: %s model with %d moves and %d parameter vectors", t.Kind, len(t.Moves), len(t.Params))
	}
	for i, p := range t.Params {
		if len(p) != n {
			return fmt.Errorf("territory: %s vector %d has %d parameters, want %d", t.Kind, i, len(p), n)
		}
		if i > 0 && t.Moves[i] <= t.Moves[i-1] {
			return fmt.Errorf("territory: %s moves not ascending: %v", t.Kind, t.Moves)
		}
		for _, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("territory: %s vector %d holds %v", t.Kind, i, v)
			}
		}
	}
	return nil
}

// formatVersion of the Trained payload: u32 phases, then per phase u32 move, u32 n, n × f64.
const formatVersion = 1

func header(kind Kind) models.Header {
	return models.Header{Kind: kind.String(), FormatVersion: formatVersion, FeatureVersion: 1}
}

// Save writes t as a model file of kind t.Kind, atomically.
func (t *Trained) Save(path string) error {
	if err := t.Check(); err != nil {
		return err
	}
	return models.WriteFile(path, header(t.Kind), t.payload())
}

// payload encodes t in the format of formatVersion.
func (t *Trained) payload() []byte {
	le := binary.LittleEndian
	var buf bytes.Buffer
	binary.Write(&buf, le, uint32(len(t.Moves)))
	for i, m := range t.Moves {
		binary.Write(&buf, le, uint32(m))
		binary.Write(&buf, le, uint32(len(t.Params[i])))
		binary.Write(&buf, le, t.Params[i])
	}
	return buf.Bytes()
}

// LoadTrained reads a model file of the given kind.
func LoadTrained(path string, kind Kind) (*Trained, error) {
	if _, err := ParamLen(kind); err != nil {
		return nil, err
	}
	data, err := models.ReadFile(path, header(kind))
	if err != nil {
		return nil, err
	}
	return decodeTrained(data, path, kind)
}

// defaults decodes each kind's embedded default once; a file (LoadTrained) is read afresh each time,
// as training rewrites it.
var defaults = func() map[Kind]*models.Loader[*Trained] {
	m := map[Kind]*models.Loader[*Trained]{}
	for _, kind := range Kinds {
		m[kind] = models.NewLoader(
			func(path string) (*Trained, error) { return LoadTrained(path, kind) },
			func(data []byte, name string) (*Trained, error) {
				payload, err := models.Read(bytes.NewReader(data), name, header(kind))
				if err != nil {
					return nil, err
				}
				return decodeTrained(payload, name, kind)
			})
	}
	return m
}()

// DefaultTrained returns the embedded default model of a kind, shared read-only. Without one,
// boltzmann5 falls back to Stern's published Table 5.1.
func DefaultTrained(kind Kind) (*Trained, error) {
	if _, err := ParamLen(kind); err != nil {
		return nil, err
	}
	t, err := defaults[kind].Load(kind.String(), "")
	if !errors.Is(err, models.ErrNoDefault) {
		return t, err
	}
	if kind != KindBoltzmann5 {
		return nil, fmt.Errorf("territory: no default %s model is embedded", kind)
	}
	t = &Trained{Kind: kind, Moves: []int{20, 80, 150}}
	for _, m := range t.Moves {
		p, _ := Boltzmann5Table51(m)
		t.Params = append(t.Params, p)
	}
	return t, nil
}

func decodeTrained(data []byte, name string, kind Kind) (*Trained, error) {
	fail := func() (*Trained, error) {
		return nil, fmt.Errorf("%s: %w: truncated %s payload", name, models.ErrFormat, kind)
	}
	le := binary.LittleEndian
	r := bytes.NewReader(data)
	var phases uint32
	if binary.Read(r, le, &phases) != nil || phases == 0 || phases > 1000 {
		return fail()
	}
	t := &Trained{Kind: kind}
	for range phases {
		var move, n uint32
		if binary.Read(r, le, &move) != nil || binary.Read(r, le, &n) != nil || int(n)*8 > r.Len() {
			return fail()
		}
		p := make([]float64, n)
		if binary.Read(r, le, p) != nil {
			return fail()
		}
		t.Moves = append(t.Moves, int(move))
		t.Params = append(t.Params, p)
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%s: %w: %d trailing bytes", name, models.ErrFormat, r.Len())
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, models.ErrFormat, err)
	}
	return t, nil
}
