package board

import (
	"fmt"
	"strings"
)

// String draws the board as Size lines of X (black), O (white) and . (empty), top row first — the format
// of `aji replay` and of the tests.
func (b *Board) String() string {
	var sb strings.Builder
	sb.Grow(b.size * (b.size + 1))
	for y := range b.size {
		for x := range b.size {
			sb.WriteByte(".XO"[b.color[At(x, y)]])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Parse reads a board drawn as by String: one line per row, X or # for black, O for white, . or + for
// empty; spaces are ignored and blank lines skipped. A chain without liberties is an error.
func Parse(drawing string) (*Board, error) {
	var rows []string
	for line := range strings.SplitSeq(drawing, "\n") {
		if line = strings.ReplaceAll(strings.TrimSpace(line), " ", ""); line != "" {
			rows = append(rows, line)
		}
	}
	b, err := New(len(rows))
	if err != nil {
		return nil, err
	}
	for y, row := range rows {
		if len(row) != len(rows) {
			return nil, fmt.Errorf("parse board: row %d has %d points, want %d", y+1, len(row), len(rows))
		}
		for x, r := range []byte(row) {
			switch r {
			case 'X', 'x', '#':
				b.color[At(x, y)] = Black
			case 'O', 'o':
				b.color[At(x, y)] = White
			case '.', '+':
			default:
				return nil, fmt.Errorf("parse board: row %d: unexpected %q", y+1, r)
			}
		}
	}
	b.rebuild()
	for _, p := range b.Points() {
		if c := b.color[p]; c != Empty && b.chains[b.head[p]].nlibs == 0 {
			return nil, fmt.Errorf("parse board: chain at %s has no liberty", p.GTP(b.size))
		}
	}
	return b, nil
}
