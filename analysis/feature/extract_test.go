package feature

import (
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
)

// setup returns the position after the moves ("W D3 B pass") are played on the drawn board, with Last
// and Prev set from them and the opponent of the last mover to play (Black when there are no moves).
func setup(t testing.TB, drawing, moves string) *game.Position {
	t.Helper()
	b, err := board.Parse(drawing)
	if err != nil {
		t.Fatal(err)
	}
	pos := &game.Position{Board: *b, ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint}
	f := strings.Fields(moves)
	for i := 0; i+1 < len(f); i += 2 {
		c := map[string]board.Color{"B": board.Black, "W": board.White}[f[i]]
		p := point(t, f[i+1], b.Size())
		if err := pos.Board.Play(p, c); err != nil || c == board.Empty {
			t.Fatalf("move %s %s: %v", f[i], f[i+1], err)
		}
		pos.Prev, pos.Last = pos.Last, p
		pos.ToPlay = c.Opponent()
		pos.MoveNumber++
	}
	return pos
}

func point(t testing.TB, s string, size int) board.Point {
	t.Helper()
	p, err := board.ParseGTP(s, size)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Positions shared by several tests.
const (
	// White D3 put black C3 in atari; white C4 is in atari too, so C5 captures it and saves C3.
	newAtari5 = `
		. . . . .
		. X O X .
		. O X . .
		. . . . .
		. . . . .`
	// White E5 is in atari and caught in a ladder (its extension F5 gets two liberties, and so on to
	// the lower right edge).
	ladderInAtari9 = `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . X X . . .
		. . . X O . . . .
		. . . . X . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// The same with colours swapped, before white's E4 puts black E5 in atari.
	blackLadder9 = `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . O O . . .
		. . . O X . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// Black E5 with white on two sides: white F5 puts it in atari, and E4 escapes into open space.
	openAtari9 = `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . O . . . .
		. . . O X . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// Upper left: a ko that white B8 takes by capturing C8 (black may not retake at once). Lower
	// right: white G2 with two liberties; black's atari at G3 does not catch it.
	ko9 = `
		. X O . . . . . .
		X . X O . . . . .
		. X O . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . X . . .
		. . . . . X O . .
		. . . . . . X . .`
	// A two-liberty white stone at E5 that a black atari from either side ladders.
	ladder9 = `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . X . . .
		. . . X O . . . .
		. . . . X . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
)

func TestFeatureLevels(t *testing.T) {
	tests := []struct {
		name    string
		board   string
		moves   string
		at      string // the move, or "pass"
		feature Feature
		want    uint8
	}{
		{"pass after a move", newAtari5, "W D3", "pass", Pass, PassAfterMove},
		{"pass at the start", newAtari5, "", "pass", Pass, PassAfterMove},
		{"pass after a pass", newAtari5, "W D3 B pass", "pass", Pass, PassAfterPass},
		{"no pass feature on the board", newAtari5, "W D3", "C5", Pass, 0},

		{"capture saving a new atari", newAtari5, "W D3", "C5", Capture, CaptureNewAtari},
		{"capture of an old atari", newAtari5, "W D3 B A1 W E1", "C5", Capture, CaptureNotLadder},
		{"re-capture previous move", `
			. . . . .
			. X . . .
			X . X . .
			. . . . .
			. . . . .`, "W B3", "B2", Capture, CaptureRecapture},
		{"prevent connection to previous move", `
			. . . . . .
			. X X . . .
			X O . X . .
			. X . . . .
			. . . . . .
			. . . . . .`, "W C3", "C4", Capture, CapturePreventConnection},
		{"capture of a string not in a ladder", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X . . . .
			. . . X O X . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`, "", "E4", Capture, CaptureNotLadder},
		{"capture of a string in a ladder", ladderInAtari9, "", "F5", Capture, CaptureLadder},
		{"capture taking a ko", ko9, "W B8 B pass W pass", "C8", Capture, CaptureNotLadder},
		{"no capture", newAtari5, "W D3", "E5", Capture, 0},

		{"extension into open space", openAtari9, "W F5", "E4", Extension, ExtensionNotLadder},
		{"extension into a ladder", blackLadder9, "W E4", "F5", Extension, ExtensionLadder},
		{"extension of an old atari", blackLadder9, "W E4 B A1 W J1", "F5", Extension, 0},
		{"extension that saves by capturing", newAtari5, "W D3", "C2", Extension, ExtensionNotLadder},

		{"self-atari", `
			. O . . .
			O . O . .
			. . . . .
			. . . . .
			. . . . .`, "", "B4", SelfAtari, SelfAtariLevel},
		{"self-atari joining a chain", `
			. . . . .
			. . . . .
			O O O . .
			X X . O .
			. O O . .`, "", "C2", SelfAtari, SelfAtariLevel},
		{"joining a chain with another liberty", `
			. . . . .
			. . . . .
			O O O . .
			X X . . .
			. O O . .`, "", "C2", SelfAtari, 0},
		{"taking a ko is not self-atari", ko9, "W B8 B pass W pass", "C8", SelfAtari, 0},
		{"retaking a ko is illegal", ko9, "W B8", "C8", SelfAtari, 0},
		{"extending into atari", blackLadder9, "W E4 B A1 W F4", "F5", SelfAtari, SelfAtariLevel},

		{"ladder atari", ladder9, "", "E6", Atari, AtariLadder},
		{"ladder atari the other way", ladder9, "", "F5", Atari, AtariLadder},
		{"atari when there is a ko", ko9, "W B8", "G3", Atari, AtariKo},
		{"other atari", ko9, "", "G3", Atari, AtariOther},
		{"no atari on a three-liberty string", ladder9, "", "A1", Atari, 0},

		{"first line", ladder9, "", "A1", BorderDistance, 1},
		{"third line", ladder9, "", "C7", BorderDistance, 3},
		{"second line", ladder9, "", "H6", BorderDistance, 2},
		{"fourth line", ladder9, "", "D6", BorderDistance, 4},
		{"fourth line on 19x19", strings.Repeat(strings.Repeat(".", 19)+"\n", 19), "", "D16", BorderDistance, 4},
		{"fifth line", strings.Repeat(strings.Repeat(".", 19)+"\n", 19), "", "E15", BorderDistance, 0},

		{"adjacent to previous move", ladder9, "B A1 W C3", "D3", PrevDistance, 2},
		{"diagonal to previous move", ladder9, "B A1 W C3", "D4", PrevDistance, 3},
		{"two-space jump from previous move", ladder9, "B A1 W C3", "C5", PrevDistance, 4},
		{"knight's move from previous move", ladder9, "B A1 W C3", "B5", PrevDistance, 5},
		{"far from previous move", ladder9, "B A1 W C3", "J9", PrevDistance, MaxDistance},
		{"no previous move", ladder9, "", "D3", PrevDistance, 0},
		{"previous move a pass", ladder9, "B A1 W pass", "D3", PrevDistance, 0},
		{"move before previous", ladder9, "B A1 W C3", "B2", PrevPrevDistance, 3},
		{"no move before previous", ladder9, "W C3", "B2", PrevPrevDistance, 0},
	}
	var e Extractor
	var set Set
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := setup(t, tt.board, tt.moves)
			e.Extract(pos, &set)
			p := point(t, tt.at, pos.Board.Size())
			if got := set.At[p][tt.feature]; got != tt.want {
				t.Errorf("%v at %s = %d, want %d (levels %v, legal %v)\n%s",
					tt.feature, tt.at, got, tt.want, set.At[p], set.Legal(p), pos.Board.String())
			}
		})
	}
}
