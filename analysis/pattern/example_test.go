package pattern_test

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/pattern"
)

// A predictor keeps a Tracker per goroutine, syncs it with each position and reads the keys of the
// points it scores; the largest pattern a dictionary knows is the shape feature.
func ExampleTracker() {
	b, _ := board.New(19)
	var tr pattern.Tracker
	tr.Sync(b)

	// Harvest would build the dictionary from games; here it knows the 3x3 to 5 patterns of the 4-4
	// point of an empty corner.
	k := tr.Keys(board.At(3, 3), board.Black)
	dict, _ := pattern.NewDictionary([]pattern.Entry{
		{Key: k.Of(3), Size: 3, Count: 900}, {Key: k.Of(4), Size: 4, Count: 700}, {Key: k.Of(5), Size: 5, Count: 400},
	})

	// Every 4-4 point of the empty board, for either player, is that pattern.
	for _, p := range []board.Point{board.At(15, 3), board.At(3, 15)} {
		id, size, ok := dict.Largest(tr.Keys(p, board.White))
		fmt.Println(p.GTP(19), id, size, ok)
	}

	// After a stone at distance 5 (a knight's move away), only the sizes below 5 still match.
	_ = b.Play(board.At(5, 4), board.Black)
	tr.Sync(b)
	id, size, ok := dict.Largest(tr.Keys(board.At(3, 3), board.White))
	fmt.Println("D16 after F15:", id, size, ok)
	// Output:
	// Q16 2 5 true
	// D4 2 5 true
	// D16 after F15: 1 4 true
}

// Cells gives a pattern's points for a diagram: here the size-5 template around a point on the top edge,
// drawn with X for the player to move, O for the opponent, # off the board and - outside the template.
func ExampleCells() {
	b, _ := board.Parse(`
		. . . . . . .
		. . X O . . .
		. . . . X . .
		. . . . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`)
	var rows [5][5]byte
	for y := range rows {
		for x := range rows[y] {
			rows[y][x] = '-'
		}
	}
	rows[2][2] = '*' // the move
	for _, c := range pattern.Cells(b, board.Black, board.At(3, 0), 5) {
		rows[c.DY+2][c.DX+2] = ".XO#"[c.State]
	}
	for _, r := range rows {
		fmt.Println(string(r[:]))
	}
	// Output:
	// -###-
	// #####
	// ..*..
	// .XO..
	// -..X-
}
