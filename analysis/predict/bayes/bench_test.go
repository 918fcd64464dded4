package bayes

import (
	"context"
	"os"
	"testing"

	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// BenchmarkTrain learns from the first games of the training collection with a dictionary
// harvested from them: the cost of one game of assumed-density filtering (patterns, EP, updates).
func BenchmarkTrain(b *testing.B) {
	const path = "../../../../shared/data/games-train.tar.xz"
	if _, err := os.Stat(path); err != nil {
		b.Skip("no training games at", path)
	}
	const games = 50
	d, _, err := pattern.HarvestStern(context.Background(), path, pattern.Options{MaxFiles: games, FilterBytes: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		m := NewModel(d, DefaultBeta)
		if _, err := Train(context.Background(), path, m, TrainOptions{MaxGames: games, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N*games)*1e3, "ms/game")
}

// BenchmarkPredict is a full 19x19 distribution of the embedded bayes model at move 120 of the sample
// game.
func BenchmarkPredict(b *testing.B) {
	m, err := Shared("")
	if err != nil {
		b.Skip("no embedded bayes model:", err)
	}
	gs, err := game.LoadFile("../../../assets/games/Agon-01-8.sgf")
	if err != nil {
		b.Fatal(err)
	}
	pos, err := gs[0].PositionAt(gs[0].MainLine()[120])
	if err != nil {
		b.Fatal(err)
	}
	p := NewPredictor("bayes", m, false)
	var d predict.Distribution
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(pos, &d)
	}
}
