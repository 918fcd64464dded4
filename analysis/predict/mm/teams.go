package mm

import (
	"context"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// Collect turns the games under path into competitions between the legal moves of the sampled
// positions, each move the team MoveTeams gives it for model m (with the Monte Carlo owner if m.Owner).
func Collect(ctx context.Context, path string, m *Model, opt bt.CollectOptions) ([]*bt.Competitions, bt.CollectStats, error) {
	return bt.Collect(ctx, path, len(m.Gamma), func() bt.TeamBuilder { return NewMoveTeams(m, m.Owner) }, opt)
}

// MoveTeams is mm's bt.TeamBuilder: a move's feature levels and its largest matching shape, with the Monte
// Carlo owner level when asked for and the model has it. It allocates nothing per position; one per
// goroutine.
type MoveTeams struct {
	m       *Model
	owner   bool
	toPlay  board.Color
	ext     feature.Extractor
	set     feature.Set
	tracker pattern.Tracker
}

// NewMoveTeams returns mm's team builder for model m; owner asks for the Monte Carlo owner feature (63
// playouts per position), used only if m has it.
func NewMoveTeams(m *Model, owner bool) *MoveTeams {
	return &MoveTeams{m: m, owner: owner && m.Owner}
}

// Position implements bt.TeamBuilder.
func (t *MoveTeams) Position(pos *game.Position) []board.Point {
	t.ext.Extract(pos, &t.set)
	if t.owner {
		t.ext.AddOwner(pos, &t.set)
	}
	if t.m.Shapes.Len() > 0 { // the shape keys are most of the work when the moves are few
		t.tracker.Sync(&pos.Board)
	}
	t.toPlay = pos.ToPlay
	return t.set.Moves()
}

// Team implements bt.TeamBuilder.
func (t *MoveTeams) Team(dst []int32, mv board.Point) []int32 {
	return teamOf(dst, t.m, &t.set, &t.tracker, mv, t.toPlay, t.owner)
}

// Set returns the feature levels of the last position's legal moves.
func (t *MoveTeams) Set() *feature.Set { return &t.set }
