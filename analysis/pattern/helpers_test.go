package pattern

import (
	"math/rand/v2"
	"strings"
	"testing"

	"aji/analysis/board"
)

// randomPlay plays up to n random legal moves (no eye filling) from b, colours alternating from c,
// calling fn after each; passes are played too. It returns the colour to play next.
func randomPlay(b *board.Board, rng *rand.PCG, c board.Color, n int, fn func(p board.Point, c board.Color)) board.Color {
	for range n {
		p := b.RandomMove(rng, c)
		b.PlayLegal(p, c)
		if fn != nil {
			fn(p, c)
		}
		c = c.Opponent()
	}
	return c
}

// symPoint maps (x, y) by symmetry t of the whole board of side n.
func symPoint(t, n, x, y int) (int, int) {
	// Work in doubled coordinates centred on the board's centre, so even sizes need no special case.
	dx, dy := transform(t, 2*x-(n-1), 2*y-(n-1))
	return (dx + n - 1) / 2, (dy + n - 1) / 2
}

// transformBoard returns b mapped by symmetry t, with colours swapped if swap.
func transformBoard(tb testing.TB, b *board.Board, t int, swap bool) *board.Board {
	tb.Helper()
	n := b.Size()
	rows := make([][]byte, n)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(".", n))
	}
	for _, p := range b.Points() {
		x, y := p.XY()
		c := b.At(p)
		if swap {
			c = c.Opponent()
		}
		tx, ty := symPoint(t, n, x, y)
		rows[ty][tx] = ".XO"[c]
	}
	var sb strings.Builder
	for _, r := range rows {
		sb.Write(r)
		sb.WriteByte('\n')
	}
	out, err := board.Parse(sb.String())
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// canonical is an explicit canonical form of the pattern of the given size at p for toPlay, read from a
// grid: the least, over the 8 symmetries, of the string of states along the template. Two patterns are
// one invariant pattern exactly when their canonical forms are equal.
func canonical(g *grid, p board.Point, toPlay board.Color, size int) string {
	rel := &relative[perspective(toPlay)]
	best := ""
	for t := range numSyms {
		s := make([]byte, TemplateLen(size))
		for i, o := range offsets[:len(s)] {
			dx, dy := transform(t, int(o.dx), int(o.dy))
			s[i] = "eoxz"[rel[g.c[int(gridIndex[p])+dy*gridStride+dx]]]
		}
		if t == 0 || string(s) < best {
			best = string(s)
		}
	}
	return best
}

func mustBoard(tb testing.TB, size int) *board.Board {
	tb.Helper()
	b, err := board.New(size)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
