package mm

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/eval"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/assets"
	"aji/models"
	"aji/models/modeltest"
)

// sampleFolder writes the embedded sample games to a folder.
func sampleFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// trainedModel harvests shapes from the sample games and trains a model on them.
func trainedModel(t *testing.T) (*Model, string) {
	t.Helper()
	dir := sampleFolder(t)
	shapes, _, err := pattern.Harvest(context.Background(), dir, pattern.Options{Threshold: 2, FilterBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(shapes, false)
	data, st, err := Collect(context.Background(), dir, m, bt.CollectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range data {
		n += d.Len()
	}
	if st.Positions == 0 || n != st.Positions {
		t.Fatalf("collected %d competitions, stats %+v", n, st)
	}
	if err := bt.TrainShards(context.Background(), data, m.Gamma, m.Groups(), bt.TrainOptions{Iterations: 10}); err != nil {
		t.Fatal(err)
	}
	return m, dir
}

func TestTrainedModelBeatsUniformAndExplains(t *testing.T) {
	m, dir := trainedModel(t)
	path := filepath.Join(t.TempDir(), "mm.ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	// Evaluated on its own training games, a trained model must rank expert moves far above uniform.
	res, err := eval.Run(context.Background(), []string{"mm", "uniform"}, dir, eval.Options{
		Predictors: map[string]predict.Options{"mm": {Model: path}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Top1 < 0.2 || res[0].MeanLogEvidence < res[1].MeanLogEvidence+1 {
		t.Errorf("mm top1 %.3f log-evidence %.3f vs uniform %.3f", res[0].Top1, res[0].MeanLogEvidence, res[1].MeanLogEvidence)
	}

	gs, err := game.LoadFile(filepath.Join(dir, "Agon-01-8.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gs[0].PositionAfter(60)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPredictor("mm", m, false)
	var d predict.Distribution
	p.Predict(pos, &d)
	sum := d.P[board.Pass]
	for _, q := range pos.Board.Points() {
		if d.P[q] > 0 && !pos.Board.Legal(q, pos.ToPlay) {
			t.Fatalf("illegal %s has probability %v", q.GTP(19), d.P[q])
		}
		sum += d.P[q]
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("probabilities sum to %v", sum)
	}
	best := d.Top(1, nil)[0]
	ex := p.Explain(pos, best.Point)
	if ex.Rank != 1 || math.Abs(ex.Probability-best.Probability) > 1e-12 || len(ex.Factors) == 0 {
		t.Fatalf("explanation of the favourite: %+v", ex)
	}
	shares := 0.0
	for _, f := range ex.Factors {
		shares += math.Abs(f.Share)
		if f.Name == "" || math.Abs(f.Elo-400*math.Log10(f.Weight)) > 1e-9 {
			t.Errorf("factor %+v", f)
		}
	}
	if math.Abs(shares-1) > 1e-9 {
		t.Errorf("absolute shares sum to %v, want 1", shares)
	}
}

func TestModelFileRoundTripAndCorruption(t *testing.T) {
	m, _ := trainedModel(t)
	m.Games, m.Positions = 3, 500
	path := filepath.Join(t.TempDir(), "mm.ajim")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Gamma) != len(m.Gamma) || back.Shapes.Len() != m.Shapes.Len() || back.Games != 3 || back.Positions != 500 {
		t.Fatalf("round trip lost data")
	}
	for i := range m.Gamma {
		if back.Gamma[i] != m.Gamma[i] {
			t.Fatalf("γ %d: %v != %v", i, back.Gamma[i], m.Gamma[i])
		}
	}
	data, _ := os.ReadFile(path)
	for _, cut := range []int{0, 10, len(data) / 2, len(data) - 1} {
		if _, err := Decode(data[:cut], "cut"); !errors.Is(err, models.ErrFormat) {
			t.Errorf("truncated at %d: %v", cut, err)
		}
	}
	bad := append([]byte(nil), data...)
	bad[len(bad)/2] ^= 1
	if _, err := Decode(bad, "flipped"); !errors.Is(err, models.ErrFormat) {
		t.Errorf("corrupted: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.ajim")); err == nil {
		t.Error("missing file accepted")
	}
}

func BenchmarkPredict19(b *testing.B) {
	m, err := Shared("")
	if err != nil {
		b.Skip("no default mm model embedded:", err)
	}
	data, _ := assets.Game("Agon-01-8.sgf")
	gs, err := game.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var positions []game.Position
	gs[0].WalkMainLine(func(pos *game.Position, _ game.Move) error {
		positions = append(positions, *pos)
		return nil
	})
	p := NewPredictor("mm", m, false)
	var d predict.Distribution
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(&positions[i%len(positions)], &d)
		i++
	}
}

// FuzzDecodePayload fuzzes Decode behind a valid checksum (see modeltest), from a model with every
// tactical γ and no shapes.
func FuzzDecodePayload(f *testing.F) {
	shapes, err := pattern.NewDictionary(nil)
	if err != nil {
		f.Fatal(err)
	}
	m := &Model{Gamma: make([]float64, feature.NumIndices), Shapes: shapes}
	for i := range m.Gamma {
		m.Gamma[i] = 1 + float64(i)/10
	}
	p, err := m.payload()
	if err != nil {
		f.Fatal(err)
	}
	modeltest.FuzzDecode(f, fileHeader, [][]byte{p}, func(file []byte) error {
		_, err := Decode(file, "fuzz")
		return err
	})
}
