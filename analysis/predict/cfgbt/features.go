package cfgbt

import (
	"aji/analysis/board"
	"aji/analysis/cfg"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict/mm"
)

// teams computes the teams of γ indices of a position's legal moves for a model: its variant's features
// and the move's path features that have a γ. It implements bt.TeamBuilder, so Collect trains on exactly
// what the predictor computes. One per goroutine; it allocates nothing per position.
type teams struct {
	m      *Model
	toPlay board.Color

	full *mm.MoveTeams // Full: mm's features

	// Small: tactical levels and each legal move's 3x3 class γ (-1: none).
	ext    feature.Extractor
	set    feature.Set
	shape3 [board.NumCells]int32

	// The common fate graph: kept up to date along a game (Tracker, Algorithm 2) while the positions
	// follow one another by single moves, as when evaluating or stepping through a record, and built from
	// scratch (Graph) otherwise: after a jump, and always in training, which samples a few positions per
	// game (a tracker's start costs more than a graph).
	incremental bool
	graph       cfg.Graph
	tracker     *cfg.Tracker
	tracked     bool        // the tracker holds the current position; else the graph does
	prev        board.Board // the stones of the last position
	hasPrev     bool
	feats       []uint32
}

func newTeams(m *Model, owner, incremental bool) *teams {
	t := &teams{m: m, incremental: incremental, feats: make([]uint32, 0, 256)}
	if m.Variant == Full {
		t.full = mm.NewMoveTeams(m.base, owner)
	}
	if incremental {
		t.tracker = cfg.NewTracker(m.HashIterations)
	}
	return t
}

// Position implements bt.TeamBuilder.
func (t *teams) Position(pos *game.Position) []board.Point {
	t.toPlay = pos.ToPlay
	t.syncGraph(pos)
	if t.full != nil {
		return t.full.Position(pos)
	}
	t.ext.Extract(pos, &t.set)
	moves := t.set.Moves()
	for _, mv := range moves {
		if mv == board.Pass {
			continue
		}
		t.shape3[mv] = -1
		if c := pattern.Class3(pattern.Code3At(&pos.Board, mv, pos.ToPlay)); c != pattern.NoClass3 {
			t.shape3[mv] = int32(feature.NumIndices) + int32(c)
		}
	}
	return moves
}

// Set returns the tactical levels of the last position's legal moves.
func (t *teams) Set() *feature.Set {
	if t.full != nil {
		return t.full.Set()
	}
	return &t.set
}

// Team implements bt.TeamBuilder.
func (t *teams) Team(dst []int32, mv board.Point) []int32 {
	if t.full != nil {
		dst = t.full.Team(dst, mv)
	} else {
		lv := &t.set.At[mv]
		for _, f := range SmallFeatures {
			if l := lv[f]; l != 0 {
				dst = append(dst, int32(feature.Index(f, l)))
			}
		}
		if mv != board.Pass && t.shape3[mv] >= 0 {
			dst = append(dst, t.shape3[mv])
		}
	}
	if mv == board.Pass {
		return dst
	}
	for _, l := range t.paths(mv) {
		if i, ok := t.m.PathIndex(l); ok {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// paths returns the path features of a move at mv in the current position, sorted and each once. The
// slice is reused by the next call.
func (t *teams) paths(mv board.Point) []uint32 {
	if t.tracked {
		t.feats = t.tracker.PathFeatures(mv, t.toPlay, t.feats[:0])
	} else {
		t.feats = t.graph.PathFeatures(mv, t.feats[:0])
	}
	return t.feats
}

// syncGraph makes the common fate graph that of pos: by playing pos's last move on the tracker when it
// holds the position before, by starting the tracker when pos follows the last position but the tracker
// was not following, and from scratch after a jump.
func (t *teams) syncGraph(pos *game.Position) {
	follows := false
	if t.incremental && t.hasPrev && t.prev.Size() == pos.Board.Size() {
		follows = t.prev.Hash() == pos.Board.Hash() || oneMoveAfter(&t.prev, pos)
	}
	switch {
	case follows && t.tracked && t.advance(pos):
	case follows:
		t.tracker.Reset(&pos.Board)
		t.tracked = true
	default:
		t.graph.Build(&pos.Board, pos.ToPlay, t.m.HashIterations)
		t.tracked = false
	}
	if t.incremental {
		t.prev.CopyFrom(&pos.Board)
		t.hasPrev = true
	}
}

// oneMoveAfter reports whether pos's stones are those of prev after pos's last move.
func oneMoveAfter(prev *board.Board, pos *game.Position) bool {
	nb := &pos.Board
	if !nb.OnBoard(pos.Last) || prev.At(pos.Last) != board.Empty {
		return false
	}
	c := nb.At(pos.Last) // the record's colour: SGF allows two moves of one colour in a row
	return (c == board.Black || c == board.White) && prev.HashAfter(pos.Last, c) == nb.Hash()
}

// advance reports whether the tracker holds pos's stones, after playing pos's last move on it when
// that gets there. A false return may leave the tracker anywhere; the caller resets it.
func (t *teams) advance(pos *game.Position) bool {
	b, nb := t.tracker.Board(), &pos.Board
	if b.Size() != nb.Size() {
		return false
	}
	if b.Hash() == nb.Hash() {
		return true
	}
	if !nb.OnBoard(pos.Last) {
		return false
	}
	c := nb.At(pos.Last)
	if c != board.Black && c != board.White || b.At(pos.Last) != board.Empty {
		return false
	}
	if err := t.tracker.Play(pos.Last, c); err != nil {
		return false
	}
	return t.tracker.Board().Hash() == nb.Hash()
}
