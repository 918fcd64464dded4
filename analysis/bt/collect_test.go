package bt

import (
	"context"
	"testing"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/assets"
)

// lineTeams makes each legal move (pass excluded) the team of its distance to the edge, 0..9, and leaves
// out the first line, so that expert moves there cannot be competitions.
type lineTeams struct {
	moves []board.Point
	size  int
}

func line(mv board.Point, size int) int32 {
	x, y := mv.XY()
	return int32(min(x, y, size-1-x, size-1-y))
}

func (l *lineTeams) Position(pos *game.Position) []board.Point {
	l.moves, l.size = l.moves[:0], pos.Board.Size()
	for _, p := range pos.Board.Points() {
		if pos.Board.Legal(p, pos.ToPlay) && line(p, l.size) > 0 {
			l.moves = append(l.moves, p)
		}
	}
	return l.moves
}

func (l *lineTeams) Team(dst []int32, mv board.Point) []int32 { return append(dst, line(mv, l.size)) }

// TestCollect: one competition per sampled expert move the builder offers, won by the expert move's team,
// the others counted as skipped, and the same sample from the same seed.
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	var experts []int32 // the expert moves' lines, in game order with one worker
	var skipped int
	games, err := game.LoadFile(dir + "/Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	size := games[0].Info.Size
	opt := CollectOptions{Workers: 1, MaxGames: 1, PositionsPerGame: 30, Seed: 7}
	picks := dataset.SamplePositions(nil, games[0].NumMoves(), opt.PositionsPerGame, opt.Seed, 0)
	_ = games[0].WalkMainLine(func(pos *game.Position, next game.Move) error {
		if !picks[pos.MoveNumber] || next.Point == board.Pass {
			return nil
		}
		if l := line(next.Point, size); l > 0 {
			experts = append(experts, l)
		} else {
			skipped++
		}
		return nil
	})
	data, st, err := Collect(context.Background(), dir+"/Agon-01-8.sgf", 10, func() TeamBuilder { return &lineTeams{} }, opt)
	if err != nil {
		t.Fatal(err)
	}
	c := data[0]
	if st.Games != 1 || st.Positions != len(experts) || st.Skipped != skipped || c.Len() != len(experts) {
		t.Fatalf("stats %+v, %d competitions; want %d positions, %d skipped", st, c.Len(), len(experts), skipped)
	}
	for j, l := range experts {
		if w := c.team(c.winner[j]); len(w) != 1 || w[0] != l {
			t.Errorf("competition %d: winner %v, want [%d]", j, w, l)
		}
	}
	if c.Teams() > 10*c.Len() {
		t.Errorf("%d teams in %d competitions: identical losers were not merged", c.Teams(), c.Len())
	}
}
