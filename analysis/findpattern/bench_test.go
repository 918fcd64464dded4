package findpattern_test

import (
	"context"
	"testing"

	"aji/analysis/findpattern"
)

// BenchmarkSearch searches the three sample games (about 760 positions) on one worker for a size-8
// shape, a Stern T8 pattern and a feature, and reports positions per second. The matcher's hot loop
// allocates only for matches; what allocates here is the parsing and replay of the records.
func BenchmarkSearch(b *testing.B) {
	const dir = "../../assets/games"
	shape, err := findpattern.ParseShape("8:0123456789abcdef")
	if err != nil {
		b.Fatal(err)
	}
	stern, err := findpattern.ParseShape("T8:0123456789abcdef")
	if err != nil {
		b.Fatal(err)
	}
	feat, err := findpattern.FeatureQuery("atari: ladder atari")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		q    findpattern.Query
	}{{"shape8", shape}, {"sternT8", stern}, {"feature", feat}} {
		b.Run(c.name, func(b *testing.B) {
			positions := 0
			for b.Loop() {
				sum, err := findpattern.Search(context.Background(), dir, c.q, findpattern.Options{Workers: 1}, func(findpattern.Match) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
				positions += sum.Positions
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
