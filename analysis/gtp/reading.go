package gtp

import (
	"context"
	"fmt"
	"strings"

	"aji/analysis/board"
	"aji/analysis/reading"
)

// readString answers GNU Go's attack and defend: "1 G1" (the result code and the key move) or "0",
// for the string at the vertex in the current position.
func (s *Server) readString(goal reading.Goal) Handler {
	return func(ctx context.Context, args []string) (string, error) {
		res, err := s.readProblem(ctx, goal, args)
		if err != nil {
			return "", err
		}
		return res.Answer(s.pos.Board.Size()), nil
	}
}

// readProblem solves the capture problem of the string at args[0].
func (s *Server) readProblem(ctx context.Context, goal reading.Goal, args []string) (reading.Result, error) {
	if len(args) != 1 {
		return reading.Result{}, errSyntax
	}
	b := &s.pos.Board
	p, err := board.ParseGTP(args[0], b.Size())
	if err != nil || p == board.Pass {
		return reading.Result{}, errSyntax
	}
	if b.At(p) != board.Black && b.At(p) != board.White {
		return reading.Result{}, fmt.Errorf("vertex must not be empty")
	}
	if s.reader == nil {
		s.reader = reading.NewSolver(s.opts.Reading)
	}
	res, err := s.reader.Solve(ctx, b, p, goal)
	if err != nil && ctx.Err() != nil {
		return reading.Result{}, ctx.Err()
	}
	return res, err
}

// readingGfx draws a read for GoGui: the key move marked, the main line as numbered labels, and a
// status line with the answer, whether it was proved and what it cost.
func (s *Server) readingGfx(goal reading.Goal) Handler {
	return func(ctx context.Context, args []string) (string, error) {
		res, err := s.readProblem(ctx, goal, args)
		if err != nil {
			return "", err
		}
		size := s.pos.Board.Size()
		var sb strings.Builder
		if len(res.Line) > 0 {
			sb.WriteString("LABEL")
			for i, m := range res.Line {
				if m != board.Pass {
					fmt.Fprintf(&sb, " %s %d", m.GTP(size), i+1)
				}
			}
			sb.WriteString("\n")
		}
		fmt.Fprintf(&sb, "TEXT %s %s", res.Goal, res.Describe(size))
		return sb.String(), nil
	}
}
