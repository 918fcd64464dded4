package gtp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"aji/analysis/board"
)

// ErrResigned is returned by GenMove when the engine resigns.
var ErrResigned = errors.New("gtp: engine resigned")

// colorArg is a colour as GTP writes it.
func colorArg(c board.Color) (string, error) {
	switch c {
	case board.Black:
		return "black", nil
	case board.White:
		return "white", nil
	}
	return "", fmt.Errorf("gtp: %v is not a player colour", c)
}

// parseColor reads a GTP colour ("black", "b", "white", "w", any case).
func parseColor(s string) (board.Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "black", "b":
		return board.Black, nil
	case "white", "w":
		return board.White, nil
	}
	return board.Empty, fmt.Errorf("gtp: %q is not a colour", s)
}

// Name returns the engine's name.
func (e *Engine) Name(ctx context.Context) (string, error) { return e.Send(ctx, "name") }

// Version returns the engine's version.
func (e *Engine) Version(ctx context.Context) (string, error) { return e.Send(ctx, "version") }

// ClearBoard empties the board.
func (e *Engine) ClearBoard(ctx context.Context) error {
	_, err := e.Send(ctx, "clear_board")
	return err
}

// BoardSize sets the board size (which also clears the board).
func (e *Engine) BoardSize(ctx context.Context, n int) error {
	if _, err := e.Send(ctx, "boardsize "+strconv.Itoa(n)); err != nil {
		return err
	}
	e.setSize(n)
	return nil
}

// Komi sets the komi.
func (e *Engine) Komi(ctx context.Context, komi float64) error {
	_, err := e.Send(ctx, "komi "+strconv.FormatFloat(komi, 'f', -1, 64))
	return err
}

// Play plays a move (board.Pass for a pass) for colour c.
func (e *Engine) Play(ctx context.Context, c board.Color, p board.Point) error {
	col, err := colorArg(c)
	if err != nil {
		return err
	}
	_, err = e.Send(ctx, "play "+col+" "+p.GTP(e.Size()))
	return err
}

// GenMove asks the engine for a move for colour c and plays it on the
// engine's board. It returns board.Pass for a pass and ErrResigned when the
// engine resigns.
func (e *Engine) GenMove(ctx context.Context, c board.Color) (board.Point, error) {
	col, err := colorArg(c)
	if err != nil {
		return board.NoPoint, err
	}
	text, err := e.Send(ctx, "genmove "+col)
	if err != nil {
		return board.NoPoint, err
	}
	if strings.EqualFold(text, "resign") {
		return board.NoPoint, ErrResigned
	}
	p, err := board.ParseGTP(text, e.Size())
	if err != nil {
		return board.NoPoint, fmt.Errorf("gtp genmove %s: %w", col, err)
	}
	return p, nil
}

// LoadSGF loads the game in an SGF file on the engine's board, up to but not
// including main-line move number moves (all of it when moves <= 0), and
// returns the colour to play. GTP separates arguments by blanks, so the
// path must not contain any. The board size is then asked with GNU Go's
// query_boardsize; an engine without it keeps the size believed before.
func (e *Engine) LoadSGF(ctx context.Context, path string, moves int) (board.Color, error) {
	if path == "" || strings.ContainsAny(path, " \t\n\r") {
		return board.Empty, fmt.Errorf("gtp loadsgf: path %q is empty or has blanks", path)
	}
	cmd := "loadsgf " + path
	if moves > 0 {
		cmd += " " + strconv.Itoa(moves)
	}
	text, err := e.Send(ctx, cmd)
	if err != nil {
		return board.Empty, err
	}
	c, err := parseColor(text)
	if err != nil {
		return board.Empty, fmt.Errorf("gtp %s: %w", cmd, err)
	}
	if sz, err := e.Send(ctx, "query_boardsize"); err == nil {
		n, err := strconv.Atoi(sz)
		if err != nil || n < 2 || n > board.MaxSize {
			return board.Empty, fmt.Errorf("gtp query_boardsize: bad size %q", sz)
		}
		e.setSize(n)
	} else if _, ok := errors.AsType[*Error](err); !ok {
		return board.Empty, err
	}
	return c, nil
}

// ListStones returns the points holding stones of colour c (a GNU Go
// extension).
func (e *Engine) ListStones(ctx context.Context, c board.Color) ([]board.Point, error) {
	col, err := colorArg(c)
	if err != nil {
		return nil, err
	}
	return e.vertices(ctx, "list_stones "+col)
}

// FinalScore returns the engine's score of the game, e.g. "B+3.5", "W+12"
// or "0" for a tie.
func (e *Engine) FinalScore(ctx context.Context) (string, error) {
	return e.Send(ctx, "final_score")
}

// FinalStatusList returns the points whose stones have the given status at
// the end of the game: "alive", "dead" or "seki". Engines list one group a
// line; the groups are flattened.
func (e *Engine) FinalStatusList(ctx context.Context, status string) ([]board.Point, error) {
	if status == "" || strings.ContainsAny(status, " \t\n\r") {
		return nil, fmt.Errorf("gtp final_status_list: bad status %q", status)
	}
	return e.vertices(ctx, "final_status_list "+status)
}

// vertices sends a command whose result is a list of vertices.
func (e *Engine) vertices(ctx context.Context, cmd string) ([]board.Point, error) {
	text, err := e.Send(ctx, cmd)
	if err != nil {
		return nil, err
	}
	pts, err := ParseVertices(text, e.Size())
	if err != nil {
		return nil, fmt.Errorf("gtp %s: %w", cmd, err)
	}
	return pts, nil
}

// ParseVertices reads a list of GTP vertices separated by blanks or line
// breaks on a board of the given size.
func ParseVertices(text string, size int) ([]board.Point, error) {
	fields := strings.Fields(text)
	pts := make([]board.Point, 0, len(fields))
	for _, f := range fields {
		p, err := board.ParseGTP(f, size)
		if err != nil {
			return nil, err
		}
		pts = append(pts, p)
	}
	return pts, nil
}
