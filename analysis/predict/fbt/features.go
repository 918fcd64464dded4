package fbt

import (
	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict/mm"
)

// teams gives the feature group of each legal move of a position (Xiao §4.1.2): mm's tactical levels
// (the Monte Carlo owner's only when asked for) and, for F_large, the largest matching shape of the
// model's dictionary (mm.MoveTeams computes both), plus the move's 3x3 class. It implements bt.TeamBuilder, so training
// sees exactly the groups the predictor computes. One per goroutine; it allocates nothing per position.
type teams struct {
	m      *Model
	mm     *mm.MoveTeams
	class3 [board.NumCells]int32 // the 3x3 class feature of each legal move; -1: none (pass)
}

// newTeams makes the groups of model m; owner adds the Monte Carlo owner levels (63 playouts per
// position).
func newTeams(m *Model, owner bool) *teams {
	return &teams{m: m, mm: mm.NewMoveTeams(m.base, owner)}
}

// Position implements bt.TeamBuilder.
func (t *teams) Position(pos *game.Position) []board.Point {
	moves := t.mm.Position(pos)
	for _, mv := range moves {
		t.class3[mv] = -1
		if mv == board.Pass {
			continue
		}
		if c := pattern.Class3(pattern.Code3At(&pos.Board, mv, pos.ToPlay)); c != pattern.NoClass3 {
			t.class3[mv] = t.m.class3Index(c)
		}
	}
	return moves
}

// Team implements bt.TeamBuilder.
func (t *teams) Team(dst []int32, mv board.Point) []int32 {
	dst = t.mm.Team(dst, mv)
	if c := t.class3[mv]; c >= 0 {
		dst = append(dst, c)
	}
	return dst
}
