package gtp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/gtp"
)

// pipeClient talks to a Server in this process over pipes, as a controller would.
type pipeClient struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
	id   int
}

func startPipe(t *testing.T, srv *gtp.Server) *pipeClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeClient{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() { c.done <- srv.Serve(context.Background(), inR, outW); outW.Close() }()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *pipeClient) send(cmd string) (string, error) {
	c.id++
	if _, err := fmt.Fprintf(c.in, "%d %s\n", c.id, cmd); err != nil {
		return "", err
	}
	r, err := gtp.ReadResponse(c.out)
	if err != nil {
		return "", err
	}
	if !r.HasID || r.ID != c.id {
		return "", fmt.Errorf("response id %d to command %d", r.ID, c.id)
	}
	if !r.OK {
		return "", &gtp.Error{Command: cmd, Message: r.Text}
	}
	return r.Text, nil
}

// TestRulesAgainstGNUGo plays random games into GNU Go and into Aji's server side by side and checks
// that they agree, move after move, on which moves are legal (is_legal on random points, and play), on
// the stones (list_stones) and the captures, also after undo. The only allowed difference is positional
// superko, which GNU Go does not check.
func TestRulesAgainstGNUGo(t *testing.T) {
	prog, err := gtp.LookPath("gnugo")
	if err != nil {
		t.Skipf("gnugo not installed (%v); install Debian's gnugo package to run this test", err)
	}
	ctx := t.Context()
	gnu, err := gtp.Start(ctx, strconv.Quote(prog)+" --mode gtp --chinese-rules")
	if err != nil {
		t.Fatal(err)
	}
	defer gnu.Close()
	aji := startPipe(t, newTestServer(nil))

	both := func(cmd string) (g, a string, gerr, aerr error) {
		g, gerr = gnu.Send(ctx, cmd)
		a, aerr = aji.send(cmd)
		return
	}
	sameStones := func(where string) {
		for _, col := range []string{"black", "white"} {
			g, a, gerr, aerr := both("list_stones " + col)
			if gerr != nil || aerr != nil {
				t.Fatalf("%s: list_stones: %v %v", where, gerr, aerr)
			}
			gs, as := strings.Fields(g), strings.Fields(a)
			slices.Sort(gs)
			slices.Sort(as)
			if !slices.Equal(gs, as) {
				t.Fatalf("%s: %s stones differ:\nGNU Go %v\nAji    %v", where, col, gs, as)
			}
			g, a, _, _ = both("captures " + col)
			if g != a {
				t.Fatalf("%s: %s captures: GNU Go %s, Aji %s", where, col, g, a)
			}
		}
	}

	rng := rand.New(rand.NewPCG(7, 7))
	superko, checks, undos := 0, 0, 0
	for gameNo, size := range []int{5, 7, 9} {
		if _, _, gerr, aerr := both(fmt.Sprintf("boardsize %d", size)); gerr != nil || aerr != nil {
			t.Fatal(gerr, aerr)
		}
		both("clear_board")
		b, _ := board.New(size)
		pts := b.Points()
		hist := []uint64{b.Hash()}
		var boards []board.Board
		var hists [][]uint64
		c := board.Black
		for move := range 12 * size * size / 5 {
			where := fmt.Sprintf("game %d (%dx%d) move %d", gameNo, size, size, move+1)
			// Ask both about a few random points, legal or not.
			for range 3 {
				p := pts[rng.IntN(len(pts))]
				v := p.GTP(size)
				g, a, gerr, aerr := both("is_legal " + c.String() + " " + v)
				if gerr != nil || aerr != nil {
					t.Fatalf("%s: is_legal: %v %v", where, gerr, aerr)
				}
				checks++
				if g != a {
					if g == "1" && a == "0" && b.Legal(p, c) && b.RepeatsPosition(p, c, hist) {
						superko++
						continue
					}
					t.Fatalf("%s: is_legal %v %s: GNU Go %s, Aji %s\n%s", where, c, v, g, a, b.String())
				}
			}
			// A random legal move (no superko: GNU Go would allow it, Aji not), played into both.
			var p board.Point = board.Pass
			for range 20 {
				q := pts[rng.IntN(len(pts))]
				if b.Legal(q, c) && !b.IsEye(q, c) && !b.RepeatsPosition(q, c, hist) {
					p = q
					break
				}
			}
			cmd := "play " + c.String() + " " + p.GTP(size)
			if _, _, gerr, aerr := both(cmd); gerr != nil || aerr != nil {
				t.Fatalf("%s: %s: GNU Go %v, Aji %v", where, cmd, gerr, aerr)
			}
			boards = append(boards, *b)
			hists = append(hists, slices.Clone(hist))
			b.PlayLegal(p, c)
			hist = append(hist, b.Hash())
			c = c.Opponent()
			if move%7 == 6 {
				sameStones(where)
			}
			// Now and then take back two moves on both.
			if move%11 == 10 {
				for range 2 {
					if _, _, gerr, aerr := both("undo"); gerr != nil || aerr != nil {
						t.Fatalf("%s: undo: %v %v", where, gerr, aerr)
					}
					*b = boards[len(boards)-1]
					hist = hists[len(hists)-1]
					boards, hists = boards[:len(boards)-1], hists[:len(hists)-1]
					c = c.Opponent()
					undos++
				}
				sameStones(where + " after undo")
			}
		}
		sameStones(fmt.Sprintf("end of game %d", gameNo))
		// A pass, a bad size, a bad vertex and an undo: both succeed or both fail.
		for _, cmd := range []string{"play black " + board.Pass.GTP(size), "boardsize 26", "play black Z99", "undo"} {
			_, _, gerr, aerr := both(cmd)
			var ge, ae *gtp.Error
			if errors.As(gerr, &ge) != errors.As(aerr, &ae) {
				t.Errorf("%s: GNU Go %v, Aji %v", cmd, gerr, aerr)
			}
		}
	}
	t.Logf("%d is_legal checks agreed (%d differences are positional superko), %d moves taken back", checks, superko, undos)
}
