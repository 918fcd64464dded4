package feature_test

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/game"
)

// White's D3 has just put black C3 in atari; black's C5 captures white C4 and saves it.
func ExampleExtractor() {
	b, _ := board.Parse(`
		. . . . .
		. X O X .
		. O X . .
		. . . . .
		. . . . .`)
	pos := &game.Position{Board: *b, ToPlay: board.White, Last: board.NoPoint, Prev: board.NoPoint}
	d3, _ := board.ParseGTP("D3", 5)
	pos.Board.Play(d3, board.White)
	pos.Last, pos.ToPlay = d3, board.Black

	var e feature.Extractor
	var set feature.Set
	e.Extract(pos, &set)
	c5, _ := board.ParseGTP("C5", 5)
	for f, level := range set.At[c5] {
		if level != 0 {
			fmt.Println(feature.Name(feature.Feature(f), level))
		}
	}
	fmt.Println(len(set.Moves()), "legal moves")
	// Output:
	// capture: string contiguous to new string in atari
	// distance to border: 1
	// distance to previous move: 5
	// 20 legal moves
}
