package feature

import (
	"fmt"

	"aji/analysis/board"
)

// Feature is one of the non-shape features of Coulom 2007, Table 1.
type Feature uint8

const (
	Pass             Feature = iota // the move is a pass
	Capture                         // the move captures a string
	Extension                       // the move extends a string just put in atari
	SelfAtari                       // the move leaves its own string in atari
	Atari                           // the move puts a string in atari
	BorderDistance                  // line of the move: 1 is the edge
	PrevDistance                    // distance to the previous move
	PrevPrevDistance                // distance to the move before the previous move
	MCOwner                         // how often the point ends up owned by the mover in random playouts
	NumFeatures
)

// Levels of Pass.
const (
	PassAfterMove = 1 + iota // the previous move is not a pass (or there is none)
	PassAfterPass            // the previous move is a pass
)

// Levels of Capture, in priority order: a move capturing several strings gets the first level that
// applies to any of them. The opponent's previous move is called "last" below.
const (
	// CaptureNewAtari: the captured string touches a string of the mover that last put in atari — the
	// capture saves it.
	CaptureNewAtari = 1 + iota
	// CaptureRecapture: the captured string holds the stone last played.
	CaptureRecapture
	// CapturePreventConnection: the capturing point is next to the stone last played, so the opponent
	// could have connected the string in atari to it there.
	CapturePreventConnection
	// CaptureNotLadder: the captured string could escape if its owner moved first (the ladder reader
	// says it is not caught).
	CaptureNotLadder
	// CaptureLadder: the captured string is caught in a ladder anyway.
	CaptureLadder
)

// Levels of Extension: the move is the liberty of the mover's string that the previous move put in atari
// (Coulom's "new atari"), and the string after the move is or is not capturable by a ladder.
const (
	ExtensionNotLadder = 1 + iota
	ExtensionLadder
)

// SelfAtariLevel is the only level of SelfAtari.
const SelfAtariLevel = 1

// Levels of Atari, in priority order as for Capture.
const (
	AtariLadder = 1 + iota // the string put in atari is caught in a ladder
	AtariKo                // there is a ko on the board: the mover may not retake it now
	AtariOther
)

// Distance levels: a distance d (see Distance) is its own level, and every d >= MaxDistance is level
// MaxDistance, Table 1's "≥ 17".
const (
	MinDistance = 2
	MaxDistance = 17
)

// Monte Carlo owner: OwnerPlayouts random games, and level k means the point was the mover's at the end
// of 8(k-1) to 8k-1 of them (Coulom 2007, §3.2).
const (
	OwnerPlayouts = 63
	OwnerBins     = 8
)

// levelRange is the first and last level of each feature.
var levelRange = [NumFeatures][2]uint8{
	Pass:             {1, 2},
	Capture:          {1, 5},
	Extension:        {1, 2},
	SelfAtari:        {1, 1},
	Atari:            {1, 3},
	BorderDistance:   {1, 4},
	PrevDistance:     {MinDistance, MaxDistance},
	PrevPrevDistance: {MinDistance, MaxDistance},
	MCOwner:          {1, OwnerBins},
}

// Version names the feature set: its features, levels and their meaning. A trained model records it and
// is refused by a program whose features differ, since its γ would silently mean other things.
const Version = 1

// NumIndices is the number of (feature, level) pairs: the number of γ a model of these features holds.
const NumIndices = 2 + 5 + 2 + 1 + 3 + 4 + 16 + 16 + 8

// offset is the index of the first level of each feature.
var offset = func() (o [NumFeatures + 1]uint8) {
	for f := range NumFeatures {
		o[f+1] = o[f] + levelRange[f][1] - levelRange[f][0] + 1
	}
	return o
}()

// MinLevel returns the first level of f; levels run from MinLevel to MaxLevel.
func (f Feature) MinLevel() uint8 { return levelRange[f][0] }

// MaxLevel returns the last level of f.
func (f Feature) MaxLevel() uint8 { return levelRange[f][1] }

// Index returns the global index (0..NumIndices-1) of level of f; level must be in f's range.
func Index(f Feature, level uint8) int { return int(offset[f] + level - levelRange[f][0]) }

// FromIndex is the inverse of Index.
func FromIndex(i int) (Feature, uint8) {
	f := Feature(0)
	for int(offset[f+1]) <= i {
		f++
	}
	return f, uint8(i-int(offset[f])) + levelRange[f][0]
}

var featureNames = [NumFeatures]string{
	Pass:             "pass",
	Capture:          "capture",
	Extension:        "extension",
	SelfAtari:        "self-atari",
	Atari:            "atari",
	BorderDistance:   "distance to border",
	PrevDistance:     "distance to previous move",
	PrevPrevDistance: "distance to the move before",
	MCOwner:          "Monte Carlo owner",
}

func (f Feature) String() string {
	if f < NumFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", int(f))
}

// levelNames are Table 1's descriptions of the levels that have one.
var levelNames = [NumFeatures][]string{
	Pass: {"", "previous move is not a pass", "previous move is a pass"},
	Capture: {"", "string contiguous to new string in atari", "re-capture previous move",
		"prevent connection to previous move", "string not in a ladder", "string in a ladder"},
	Extension: {"", "new atari, not in a ladder", "new atari, in a ladder"},
	Atari:     {"", "ladder atari", "atari when there is a ko", "other atari"},
}

// Name describes level of f for a Go player: "capture: string contiguous to new string in atari",
// "distance to previous move: 3", "Monte Carlo owner: 16-23 of 63".
func Name(f Feature, level uint8) string {
	switch {
	case f >= NumFeatures || level < f.MinLevel() || level > f.MaxLevel():
		return fmt.Sprintf("%v: level %d", f, level)
	case f == SelfAtari:
		return f.String()
	case int(level) < len(levelNames[f]):
		return f.String() + ": " + levelNames[f][level]
	case f == MCOwner:
		lo := int(level-1) * (OwnerPlayouts + 1) / OwnerBins
		hi := int(level)*(OwnerPlayouts+1)/OwnerBins - 1
		return fmt.Sprintf("%v: %d-%d of %d", f, lo, hi, OwnerPlayouts)
	case (f == PrevDistance || f == PrevPrevDistance) && level == MaxDistance:
		return fmt.Sprintf("%v: %d or more", f, level)
	}
	return fmt.Sprintf("%v: %d", f, level)
}

// IndexName is Name of the pair with global index i.
func IndexName(i int) string { return Name(FromIndex(i)) }

// Levels are the features of one move: Levels[f] is the level of feature f, 0 when absent.
type Levels [NumFeatures]uint8

// AppendIndices appends the global index of every present feature to dst and returns it: the team of
// γ that play this move in Coulom's generalized Bradley-Terry model.
func (l *Levels) AppendIndices(dst []int) []int {
	for f, lv := range l {
		if lv != 0 {
			dst = append(dst, Index(Feature(f), lv))
		}
	}
	return dst
}

// Set holds the features of every legal move of a position.
type Set struct {
	// At[p] holds the features of the move at p, At[board.Pass] those of passing; zero for points that
	// are not legal moves.
	At    [board.NumCells]Levels
	legal board.PointSet
	moves [board.MaxPoints + 1]board.Point
	n     int
}

// Moves returns the legal moves, on-board points in board order and then board.Pass. The slice aliases
// the set: it is valid until the set is filled again.
func (s *Set) Moves() []board.Point { return s.moves[:s.n] }

// Legal reports whether p is a legal move of the position the set was filled from.
func (s *Set) Legal(p board.Point) bool { return uint(p) < board.NumCells && s.legal.Has(p) }

// reset empties s before it is filled.
func (s *Set) reset() {
	clear(s.At[:])
	s.legal.Clear()
	s.n = 0
}

// add records p as a legal move and returns its levels to fill.
func (s *Set) add(p board.Point) *Levels {
	s.legal.Add(p)
	s.moves[s.n] = p
	s.n++
	return &s.At[p]
}
