package game_test

import (
	"fmt"
	"os"

	"aji/analysis/board"
	"aji/analysis/game"
)

func Example() {
	games, err := game.Parse([]byte(`(;GM[1]SZ[9]KM[7]PB[Black]PW[White]
		;B[ee];W[ec];B[ce]
		(;W[gc]C[main line])
		(;W[cc]C[a variation]))`))
	if err != nil {
		fmt.Println(err)
		return
	}
	g := games[0]
	err = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		fmt.Printf("move %d: %v %s\n", pos.MoveNumber+1, next.Color, next.Point.GTP(g.Size()))
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	variation, _ := g.NodeAt([]int{0, 0, 0, 1})
	pos, _ := g.PositionAt(variation)
	fmt.Printf("%s: %v to play, last move %s\n", variation.Comment, pos.ToPlay, pos.Last.GTP(g.Size()))
	fmt.Print(pos.Board.String())
	// Output:
	// move 1: B E5
	// move 2: W E7
	// move 3: B C5
	// move 4: W G7
	// a variation: B to play, last move C7
	// .........
	// .........
	// ..O.O....
	// .........
	// ..X.X....
	// .........
	// .........
	// .........
	// .........
}

func ExampleGame_Save() {
	g, _ := game.New(9)
	g.Info.Komi = 7
	n := g.Root.AddChild(&game.Node{Move: &game.Move{Color: board.Black, Point: board.At(4, 4)}})
	n.Comment = `a comment with "]" and "\"`
	if err := g.Save(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// (;FF[4]CA[UTF-8]GM[1]SZ[9]KM[7]
	//  ;B[ee]C[a comment with "\]" and "\\"])
}
