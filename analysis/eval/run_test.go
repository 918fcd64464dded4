package eval

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/assets"
)

// sampleFolder writes the embedded sample games to a folder, as a user's collection would be.
func sampleFolder(t *testing.T) (dir string, games []*game.Game) {
	t.Helper()
	dir = t.TempDir()
	for _, name := range assets.Games() {
		data, err := assets.Game(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		gs, err := game.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, gs...)
	}
	return dir, games
}

// TestUniformBaseline checks the harness on the uniform predictor: top-1 is 0 under the pessimistic tie
// rule, and the mean log-evidence equals the mean of -ln(legal moves + pass), counted here independently
// by trying every point with Board.Play on a copy.
func TestUniformBaseline(t *testing.T) {
	dir, games := sampleFolder(t)
	want, positions, passes := 0.0, 0, 0
	for _, g := range games {
		err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			if next.Point == board.Pass {
				passes++
				return nil
			}
			legal := 1 // pass
			for _, p := range pos.Board.Points() {
				b := pos.Board
				if b.Play(p, pos.ToPlay) == nil {
					legal++
				}
			}
			want -= math.Log(float64(legal))
			positions++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want /= float64(positions)

	res, err := Run(context.Background(), []string{"uniform"}, dir, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Games != len(games) || r.Positions != positions || r.Skipped != passes {
		t.Errorf("games %d positions %d skipped %d, want %d %d %d", r.Games, r.Positions, r.Skipped, len(games), positions, passes)
	}
	if r.Top1 != 0 || r.Top20 != 0 {
		t.Errorf("uniform top1 %v top20 %v, want 0", r.Top1, r.Top20)
	}
	if math.Abs(r.MeanLogEvidence-want) > 1e-9 {
		t.Errorf("mean log evidence %v, want %v", r.MeanLogEvidence, want)
	}
	if len(r.RankCDF) != MaxRank || r.PositionsPerSecond <= 0 {
		t.Errorf("rank cdf %d entries, %v positions/s", len(r.RankCDF), r.PositionsPerSecond)
	}
}

func TestMaxGamesAndBadInput(t *testing.T) {
	dir, _ := sampleFolder(t)
	res, err := Run(context.Background(), []string{"uniform", "uniform"}, dir, Options{MaxGames: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Games != 1 || res[0].Positions != res[1].Positions {
		t.Errorf("max-games 1: %+v", res)
	}
	if _, err := Run(context.Background(), []string{"no-such-predictor"}, dir, Options{}); err == nil {
		t.Error("unknown predictor accepted")
	}
	if _, err := Run(context.Background(), []string{"uniform"}, filepath.Join(dir, "missing"), Options{}); err == nil {
		t.Error("missing collection accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []string{"uniform"}, dir, Options{}); err == nil {
		t.Error("cancelled run reported success")
	}
}
