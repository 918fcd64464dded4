package tactics

import (
	"math/rand/v2"
	"strings"
	"testing"

	"aji/analysis/board"
)

func mustParse(t testing.TB, s string) *board.Board {
	t.Helper()
	b, err := board.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustPoint(t testing.TB, s string, size int) board.Point {
	t.Helper()
	p, err := board.ParseGTP(s, size)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ladder9 is a ladder atari: white E5 has two liberties, and whichever side Black ataris from, F6 makes
// every extension end with two liberties again, so the chain staircases to an edge and dies.
const ladder9 = `
	. . . . . . . . .
	. . . . . . . . .
	. . . . . . . . .
	. . . . . X . . .
	. . . X O . . . .
	. . . . X . . . .
	. . . . . . . . .
	. . . . . . . . .
	. . . . . . . . .`

func TestLadder(t *testing.T) {
	tests := []struct {
		name     string
		board    string
		chain    string
		attacker board.Color
		want     Result
	}{
		{"ladder atari, two liberties", ladder9, "E5", board.Black, Captured},
		{"in atari, defender to move", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X X . . .
			. . . X O . . . .
			. . . . X . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`, "E5", board.Black, Captured},
		{"breaker on the path", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X X . . .
			. . . X O . . . .
			. . . . X . . . .
			. . . . . . . . .
			. . . . . . O . .
			. . . . . . . . .`, "E5", board.Black, Escaped},
		{"attacker stone on the path helps", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X X . . .
			. . . X O . . . .
			. . . . X . . . .
			. . . . . . . . .
			. . . . . . X . .
			. . . . . . . . .`, "E5", board.Black, Captured},
		{"defender captures an atari-ing stone", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X X . . .
			. . . X O . . . .
			. . . O X . . . .
			. . . . O . . . .
			. . . . . . . . .
			. . . . . . . . .`, "E5", board.Black, Escaped},
		{"three liberties", `
			. . . . .
			. . . . .
			. . O X .
			. . . . .
			. . . . .`, "C3", board.Black, Escaped},
		{"white attacks", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . O . . .
			. . . O X . . . .
			. . . . O . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`, "E5", board.White, Captured},
		{"crawling on the first line", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X . . . .
			. . . X O . . . .`, "E1", board.Black, Captured},
		{"first line crawl reaches a friend", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X . . O .
			. . . X O . . . .`, "E1", board.Black, Escaped},
		{"second line ladder toward the edge", `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . X . . . .
			. . . X O . . . .
			. . . . . . . . .`, "E2", board.Black, Captured},
		{"wrong colour", ladder9, "E5", board.White, Escaped},
		{"empty point", ladder9, "A1", board.Black, Escaped},
	}
	var r LadderReader
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, tt.board)
			before := *b
			got := r.Read(b, mustPoint(t, tt.chain, b.Size()), tt.attacker)
			if got != tt.want {
				t.Errorf("Read = %v, want %v (%d nodes)\n%s", got, tt.want, r.Nodes(), b)
			}
			if *b != before {
				t.Error("Read modified the board")
			}
		})
	}
}

// long19 is a ladder from the upper left that runs diagonally to the lower right corner of a 19x19
// board (white D16 in atari, to move). With breaker set, a white stone waits on its path.
func long19(breaker bool) string {
	rows := make([][]byte, 19)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(".", 19))
	}
	rows[3][3] = 'O'
	rows[2][3], rows[2][4], rows[3][2], rows[4][3] = 'X', 'X', 'X', 'X'
	if breaker {
		rows[15][14] = 'O'
	}
	var sb strings.Builder
	for _, r := range rows {
		sb.Write(r)
		sb.WriteByte('\n')
	}
	return sb.String()
}

func TestLongLadder(t *testing.T) {
	var r LadderReader
	b := mustParse(t, long19(false))
	d16 := mustPoint(t, "D16", 19)
	if got := r.Read(b, d16, board.Black); got != Captured {
		t.Fatalf("long ladder: %v, want captured\n%s", got, b)
	}
	t.Logf("long ladder read in %d nodes", r.Nodes())
	if got := r.Read(mustParse(t, long19(true)), d16, board.Black); got != Escaped {
		t.Errorf("long ladder with breaker: %v, want escaped", got)
	}
	for _, lim := range []LadderReader{{MaxNodes: 10}, {MaxDepth: 6}} {
		if got := lim.Read(b, d16, board.Black); got != Unknown {
			t.Errorf("limits %d nodes %d plies: %v, want unknown", lim.MaxNodes, lim.MaxDepth, got)
		}
		if lim.Captured(b, d16, board.Black) {
			t.Errorf("limits %d nodes %d plies: Captured is true on an unfinished read", lim.MaxNodes, lim.MaxDepth)
		}
	}
}

func TestLadderDoesNotAllocate(t *testing.T) {
	var r LadderReader
	b := mustParse(t, long19(false))
	d16 := mustPoint(t, "D16", 19)
	r.Read(b, d16, board.Black) // grow the stack
	if n := testing.AllocsPerRun(10, func() { r.Read(b, d16, board.Black) }); n != 0 {
		t.Errorf("Read allocates %v times per call", n)
	}
}

func BenchmarkLongLadder(b *testing.B) {
	var r LadderReader
	pos := mustParse(b, long19(false))
	d16 := mustPoint(b, "D16", 19)
	for b.Loop() {
		r.Read(pos, d16, board.Black)
	}
	b.ReportMetric(float64(r.Nodes()), "nodes/read")
}

// naiveCaptured is the ladder rule read the plain way, with no shortcut and a fresh board per move.
func naiveCaptured(b *board.Board, target board.Point, attacker board.Color, depth int) bool {
	if depth > 200 {
		return false
	}
	defender := attacker.Opponent()
	switch b.Liberties(target, 3) {
	case 1: // defender to move
		moves := []board.Point{b.AtariLiberty(target)}
		for _, s := range b.Points() {
			if b.At(s) != defender || b.ChainHead(s) != b.ChainHead(target) {
				continue
			}
			for _, n := range s.Neighbours() {
				if b.At(n) == attacker && b.InAtari(n) {
					moves = append(moves, b.AtariLiberty(n))
				}
			}
		}
		for _, m := range moves {
			if !b.Legal(m, defender) {
				continue
			}
			nb := *b
			nb.PlayLegal(m, defender)
			switch nb.Liberties(target, 3) {
			case 1:
				if !nb.Legal(nb.AtariLiberty(target), attacker) {
					return false
				}
			case 2:
				if !naiveCaptured(&nb, target, attacker, depth+1) {
					return false
				}
			default:
				return false
			}
		}
		return true
	case 2: // attacker to move
		for _, l := range b.LibertyPoints(target, nil) {
			if !b.Legal(l, attacker) {
				continue
			}
			nb := *b
			nb.PlayLegal(l, attacker)
			if naiveCaptured(&nb, target, attacker, depth+1) {
				return true
			}
		}
	}
	return false
}

// TestLadderMatchesNaiveReading compares the reader with naiveCaptured on every chain with one or two
// liberties of random positions.
func TestLadderMatchesNaiveReading(t *testing.T) {
	rng := rand.NewPCG(5, 6)
	var r LadderReader
	counts := map[Result]int{}
	for i := range 300 {
		size := []int{7, 9, 13, 19}[i%4]
		b, _ := board.New(size)
		c := board.Black
		for range rng.Uint64() % uint64(size*size*2) {
			b.PlayLegal(b.RandomMove(rng, c), c)
			c = c.Opponent()
		}
		for _, p := range b.Points() {
			if b.At(p) == board.Empty || b.ChainHead(p) != p || b.Liberties(p, 3) > 2 {
				continue
			}
			attacker := b.At(p).Opponent()
			got := r.Read(b, p, attacker)
			counts[got]++
			if got == Unknown {
				continue
			}
			if want := naiveCaptured(b, p, attacker, 0); (got == Captured) != want {
				t.Fatalf("position %d: chain %s: reader says %v, naive reading captured=%v\n%s",
					i, p.GTP(size), got, want, b)
			}
		}
	}
	t.Logf("reads: %v", counts)
	if counts[Captured] == 0 || counts[Escaped] == 0 {
		t.Errorf("random positions gave no variety: %v", counts)
	}
}
