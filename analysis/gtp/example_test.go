package gtp_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"aji/analysis/board"
	"aji/analysis/gtp"
)

// Start GNU Go, replay a game and list the black stones.
func ExampleEngine() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, err := gtp.Start(ctx, "gnugo --mode gtp --level 10")
	if err != nil {
		log.Fatal(err)
	}
	defer e.Close()
	if _, err := e.LoadSGF(ctx, "game.sgf", 0); err != nil {
		log.Fatal(err)
	}
	stones, err := e.ListStones(ctx, board.Black)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(stones), "black stones")
}
