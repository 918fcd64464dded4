package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"aji/analysis/board"
	"aji/analysis/game"
)

// runReplay prints the position after move N of the first game's main line: SIZE lines of X, O and .,
// top row first, then "captures B=<stones black captured> W=<stones white captured>".
func runReplay(_ context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	move := fs.Int("move", -1, "number of main-line moves to play (default: all)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return fmt.Errorf("%w: replay takes one FILE.sgf", errUsage)
	}
	g, err := loadFirstGame(files[0])
	if err != nil {
		return err
	}
	pos, err := g.PositionAfter(*move)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	_, err = fmt.Fprintf(stdout, "%scaptures B=%d W=%d\n", pos.Board.String(),
		pos.Board.Captures(board.Black), pos.Board.Captures(board.White))
	return err
}

// loadFirstGame loads the first game of an SGF file: the one replay and analyze read.
func loadFirstGame(path string) (*game.Game, error) {
	games, err := game.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("%s: no game in file", path)
	}
	return games[0], nil
}
