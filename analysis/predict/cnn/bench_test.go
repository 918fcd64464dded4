package cnn

import (
	"testing"

	"aji/analysis/game"
	"aji/analysis/predict"
)

// BenchmarkPredictDefault19 times one full 19x19 distribution of a network of the default shape.
func BenchmarkPredictDefault19(b *testing.B) {
	games, err := game.LoadFile("../../../assets/games/Agon-01-8.sgf")
	if err != nil {
		b.Fatal(err)
	}
	pos, err := games[0].PositionAfter(100)
	if err != nil {
		b.Fatal(err)
	}
	net, _ := New(DefaultConfig, 1)
	p := NewPredictor("cnn", net)
	var d predict.Distribution
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(pos, &d)
	}
}

// BenchmarkTrainStep times one update of a default-shape network on a batch of 32 19x19 positions.
func BenchmarkTrainStep(b *testing.B) {
	net, _ := New(DefaultConfig, 1)
	tr := NewTrainer(net, DefaultOptimizer, 0)
	batch := randomBatch(newRand(), 32, 19)
	for b.Loop() {
		tr.Train(batch)
	}
	b.ReportMetric(float64(b.N*32)/b.Elapsed().Seconds(), "positions/s")
}
