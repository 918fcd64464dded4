package main

import (
	"fmt"
	"os"
	"strings"

	"aji/analysis/game"
	"aji/assets"
	"aji/ui/goban"
)

// record is the game the window shows and the position picked from it.
type record struct {
	source   string // file path or sample name, for messages
	info     game.Info
	move     int // moves played to reach position
	total    int // moves in the main line
	position goban.Position
}

// open loads the first game of path, or of the embedded sample when path is
// empty, and the position after move main-line moves (negative: the last).
func open(path string, move int) (*record, error) {
	var (
		data []byte
		err  error
	)
	source := path
	if path == "" {
		source, data, err = assets.Sample()
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	games, err := game.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("%s: no game in file", source)
	}
	g := games[0]
	pos, err := g.PositionAfter(move)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &record{
		source:   source,
		info:     g.Info,
		move:     pos.MoveNumber,
		total:    countMoves(g.MainLine()),
		position: goban.FromBoard(&pos.Board, pos.Last),
	}, nil
}

// title names the players, as players search for a game by them.
func (r *record) title() string {
	if r.info.Black == "" && r.info.White == "" {
		return "Aji — " + r.source
	}
	return fmt.Sprintf("Aji — %s vs %s", player(r.info.Black, r.info.BlackRank), player(r.info.White, r.info.WhiteRank))
}

// status is the line under the board: players, result and where we are.
func (r *record) status() string {
	parts := []string{
		"Black: " + player(r.info.Black, r.info.BlackRank),
		"White: " + player(r.info.White, r.info.WhiteRank),
	}
	if r.info.Komi != 0 {
		parts = append(parts, fmt.Sprintf("Komi %g", r.info.Komi))
	}
	if r.info.Result != "" {
		parts = append(parts, "Result "+r.info.Result)
	}
	parts = append(parts, fmt.Sprintf("Move %d of %d", r.move, r.total))
	return strings.Join(parts, "   ·   ")
}

func player(name, rank string) string {
	if name == "" {
		name = "?"
	}
	if rank != "" {
		name += " " + rank
	}
	return name
}

// countMoves counts the nodes that play a move, passes included, as
// Position.MoveNumber does.
func countMoves(line []*game.Node) int {
	n := 0
	for _, node := range line {
		if node.Move != nil {
			n++
		}
	}
	return n
}
