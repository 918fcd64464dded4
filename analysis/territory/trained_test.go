package territory

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"aji/models"
	"aji/models/modeltest"
)

func TestTrainedRoundTrip(t *testing.T) {
	want := &Trained{Kind: KindLiberties, Moves: []int{20, 150}}
	for i := range want.Moves {
		p := make([]float64, LenLiberties)
		for j := range p {
			p[j] = float64(i*100+j) / 7
		}
		want.Params = append(want.Params, p)
	}
	path := filepath.Join(t.TempDir(), "lib.ajim")
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadTrained(path, KindLiberties)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Moves, want.Moves) || !slices.Equal(got.Params[1], want.Params[1]) {
		t.Fatalf("round trip: got %v %v", got.Moves, got.Params[1][:3])
	}
	// The nearest phase is used: move 90 is nearer 150 than 20.
	if m := got.At(90).(BoltzmannLibertiesParams); m[0] != want.Params[1][0] {
		t.Errorf("At(90) used the wrong phase: %v", m[0])
	}
	if _, err := LoadTrained(path, KindBoltzmann5); !errors.Is(err, models.ErrFormat) {
		t.Errorf("loading as the wrong kind: %v, want ErrFormat", err)
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-9], 0o644)
	if _, err := LoadTrained(path, KindLiberties); !errors.Is(err, models.ErrFormat) {
		t.Errorf("truncated file: %v, want ErrFormat", err)
	}
}

func TestDefaultBoltzmann5(t *testing.T) {
	tr, err := DefaultTrained(KindBoltzmann5)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Moves) == 0 {
		t.Fatal("no phases")
	}
	if _, err := DefaultTrained(KindMC); err == nil {
		t.Error("unknown kind accepted")
	}
	if _, err := NewModel(KindBoltzmann12, make([]float64, 3)); err == nil {
		t.Error("short parameter vector accepted")
	}
}

// FuzzDecodeTrained fuzzes the decoding of trained territory models behind a valid checksum (see
// modeltest), from the embedded Boltzmann5 model and a BoltzmannLiberties one; every payload is decoded
// as each kind, since the kinds differ only in their parameter counts.
func FuzzDecodeTrained(f *testing.F) {
	b5, err := DefaultTrained(KindBoltzmann5)
	if err != nil {
		f.Fatal(err)
	}
	n, _ := ParamLen(KindLiberties)
	lib := &Trained{Kind: KindLiberties, Moves: []int{80}, Params: [][]float64{make([]float64, n)}}
	modeltest.FuzzDecode(f, header(KindLiberties), [][]byte{b5.payload(), lib.payload()}, func(file []byte) error {
		payload, err := models.Read(bytes.NewReader(file), "fuzz", header(KindLiberties))
		if err != nil {
			return err
		}
		for _, kind := range []Kind{KindBoltzmann5, KindBoltzmann12, KindLiberties} {
			if _, err := decodeTrained(payload, "fuzz", kind); err != nil && !errors.Is(err, models.ErrFormat) {
				return err
			}
		}
		return nil
	})
}

// The trained defaults (models/defaults, see models/README.md) are embedded for every kind, with a vector
// for each of the moves the validation figures are taken at.
func TestDefaultModelsEmbedded(t *testing.T) {
	for _, kind := range Kinds {
		tr, err := DefaultTrained(kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []int{20, 80, 150} {
			if !slices.Contains(tr.Moves, m) {
				t.Errorf("default %s has moves %v, lacks %d", kind, tr.Moves, m)
			}
		}
	}
}
