package mm

import (
	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// TeamBuilder gives the team of γ indices of each legal move of a position (Coulom 2007 §3: a move is a
// team of features). Collect builds mm's own teams with MoveTeams; a model trained by the same MM code on
// other or more features (cfgbt adds the common fate graph's path features) supplies its own through
// CollectOptions.Teams.
type TeamBuilder interface {
	// Position computes the features of pos and returns its legal moves, pass included; the slice is
	// valid until the next call.
	Position(pos *game.Position) []board.Point
	// Team appends to dst the γ indices of the legal move mv of the last position, each once, and
	// returns it.
	Team(dst []int32, mv board.Point) []int32
}

// MoveTeams is mm's TeamBuilder: a move's feature levels and its largest matching shape, with the Monte
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

// Position implements TeamBuilder.
func (t *MoveTeams) Position(pos *game.Position) []board.Point {
	t.ext.Extract(pos, &t.set)
	if t.owner {
		t.ext.AddOwner(pos, &t.set)
	}
	t.tracker.Sync(&pos.Board)
	t.toPlay = pos.ToPlay
	return t.set.Moves()
}

// Team implements TeamBuilder.
func (t *MoveTeams) Team(dst []int32, mv board.Point) []int32 {
	return teamOf(dst, t.m, &t.set, &t.tracker, mv, t.toPlay, t.owner)
}

// Set returns the feature levels of the last position's legal moves.
func (t *MoveTeams) Set() *feature.Set { return &t.set }
