package cfgbt

import (
	"testing"

	"aji/analysis/game"
	"aji/analysis/predict"
)

// gamePositions returns every position of the first sample game.
func gamePositions(b *testing.B) []game.Position {
	var out []game.Position
	_ = sampleGame(b).WalkMainLine(func(pos *game.Position, _ game.Move) error {
		out = append(out, *pos)
		return nil
	})
	return out
}

// BenchmarkPredict19 times a full distribution of each variant (models trained on the sample games, so
// with few path γ) on the positions of a professional game: stepping through it in order (the common
// fate graph updated by one move, Algorithm 2), jumping between distant positions (the tracker reset),
// and stepping with a graph built from scratch per position (as training does), for comparison.
func BenchmarkPredict19(b *testing.B) {
	positions := gamePositions(b)
	for _, v := range []Variant{Full, Small} {
		m := trainedModel(b, v)
		for _, mode := range []string{"step", "jump", "scratch"} {
			b.Run(v.String()+"/"+mode, func(b *testing.B) {
				p := NewPredictor("cfg", m, false)
				if mode == "scratch" {
					p.teams = newTeams(m, false, false)
				}
				var d predict.Distribution
				i := 0
				b.ReportAllocs()
				for b.Loop() {
					k := i % len(positions)
					if mode == "jump" {
						k = (i * 97) % len(positions)
					}
					p.Predict(&positions[k], &d)
					i++
				}
			})
		}
	}
}

// BenchmarkPredictDefault19 steps through a game with the embedded model of the `cfg` predictor, whose
// path and shape γ are as many as a real model's.
func BenchmarkPredictDefault19(b *testing.B) {
	m, err := Shared(Full, "")
	if err != nil {
		b.Skip(err)
	}
	positions := gamePositions(b)
	p := NewPredictor("cfg", m, false)
	var d predict.Distribution
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p.Predict(&positions[i%len(positions)], &d)
		i++
	}
}
