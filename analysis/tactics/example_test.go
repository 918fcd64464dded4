package tactics_test

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/tactics"
)

// White E5 has two liberties; a black atari from either side starts a ladder that runs to the edge.
// A white stone on the path breaks it.
func ExampleLadderReader() {
	ladder := `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . X . . .
		. . . X O . . . .
		. . . . X . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	var r tactics.LadderReader
	b, _ := board.Parse(ladder)
	e5, _ := board.ParseGTP("E5", 9)
	fmt.Println(r.Read(b, e5, board.Black))

	// Breakers on both paths (the ladder can run up-left or down-right).
	b.Set(board.At(1, 1), board.White)
	b.Set(board.At(7, 7), board.White)
	fmt.Println(r.Read(b, e5, board.Black))
	// Output:
	// captured
	// escaped
}
