package game

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
)

// drawing strips the indentation of a board drawn in a raw string.
func drawing(s string) string {
	var sb strings.Builder
	for line := range strings.SplitSeq(strings.TrimSpace(s), "\n") {
		sb.WriteString(strings.TrimSpace(line))
		sb.WriteByte('\n')
	}
	return sb.String()
}

func TestPositionAfter(t *testing.T) {
	// Black captures the white stone at ba; then a mid-game setup node clears aa and adds a white stone.
	g := parseOne(t, "(;SZ[5]KM[0.5];B[aa];W[ba];B[ca];W[ee];B[bb];AE[aa]AW[ed];W[])")
	tests := []struct {
		n          int
		board      string
		toPlay     board.Color
		moveNumber int
		last, prev string // SGF points; "-" for none, "tt" for a pass
		capsB      int
	}{
		{0, `
			.....
			.....
			.....
			.....
			.....`, board.Black, 0, "-", "-", 0},
		{2, `
			XO...
			.....
			.....
			.....
			.....`, board.Black, 2, "ba", "aa", 0},
		{4, `
			XOX..
			.....
			.....
			.....
			....O`, board.Black, 4, "ee", "ca", 0},
		// Before move 6 the setup node is already applied: it is part of the path to the move.
		{5, `
			..X..
			.X...
			.....
			....O
			....O`, board.White, 5, "bb", "ee", 1},
		{-1, `
			..X..
			.X...
			.....
			....O
			....O`, board.Black, 6, "tt", "bb", 1},
		{99, `
			..X..
			.X...
			.....
			....O
			....O`, board.Black, 6, "tt", "bb", 1},
	}
	name := func(s string) board.Point {
		switch s {
		case "-":
			return board.NoPoint
		case "tt":
			return board.Pass
		}
		return pt(s)
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			p, err := g.PositionAfter(tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := p.Board.String(), drawing(tc.board); got != want {
				t.Errorf("board\n%s\nwant\n%s", got, want)
			}
			if p.ToPlay != tc.toPlay || p.MoveNumber != tc.moveNumber || p.Komi != 0.5 {
				t.Errorf("to play %v, move %d, komi %v", p.ToPlay, p.MoveNumber, p.Komi)
			}
			if p.Last != name(tc.last) || p.Prev != name(tc.prev) {
				t.Errorf("last %v prev %v, want %s %s", p.Last, p.Prev, tc.last, tc.prev)
			}
			if p.Board.Captures(board.Black) != tc.capsB {
				t.Errorf("black captured %d", p.Board.Captures(board.Black))
			}
		})
	}
}

func TestIllegalMoves(t *testing.T) {
	tests := []struct {
		name  string
		input string
		cause error
		msg   string
	}{
		{"occupied", "(;SZ[9];B[aa];W[bb];B[bb])", board.ErrOccupied, "move 3: illegal move: B B8"},
		{"suicide", "(;SZ[9]AB[ba][ab];W[aa])", board.ErrSuicide, "move 1: illegal move: W A9"},
		// White's stone at bb is captured by B[cb]; retaking at once is illegal.
		{"ko", "(;SZ[9]AB[ba][ab][bc]AW[bb][ca][db][cc];B[cb];W[bb])", board.ErrKo, "move 2: illegal move: W B8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parseOne(t, tc.input)
			moves := 0
			err := g.WalkMainLine(func(*Position, Move) error { moves++; return nil })
			if !errors.Is(err, ErrIllegalMove) || !errors.Is(err, tc.cause) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("WalkMainLine = %v, want %v and %v with %q", err, ErrIllegalMove, tc.cause, tc.msg)
			}
			if _, err2 := g.PositionAfter(-1); !errors.Is(err2, ErrIllegalMove) {
				t.Errorf("PositionAfter = %v", err2)
			}
			if _, err2 := g.PositionAt(g.MainLine()[len(g.MainLine())-1]); !errors.Is(err2, ErrIllegalMove) {
				t.Errorf("PositionAt = %v", err2)
			}
		})
	}
}

func TestSideToMove(t *testing.T) {
	tests := []struct {
		name  string
		input string
		path  []int
		want  board.Color
	}{
		{"root: Black", "(;SZ[9])", nil, board.Black},
		{"root with PL", "(;SZ[9]PL[W])", nil, board.White},
		{"handicap stones", "(;SZ[9]HA[2]AB[cc][gg])", nil, board.White},
		{"handicap without setup stones", "(;SZ[9]HA[2])", nil, board.Black},
		{"setup stones without handicap", "(;SZ[9]AB[cc][gg])", nil, board.Black},
		{"after a move", "(;SZ[9];B[cc])", []int{0}, board.White},
		{"after a pass", "(;SZ[9];B[cc];W[])", []int{0, 0}, board.Black},
		{"PL after a move", "(;SZ[9];B[cc]PL[B])", []int{0}, board.Black},
		{"PL on a setup node", "(;SZ[9];B[cc];AB[dd]PL[W])", []int{0, 0}, board.White},
		{"two black moves", "(;SZ[9];B[cc];B[dd])", []int{0, 0}, board.White},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parseOne(t, tc.input)
			n, err := g.NodeAt(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := g.PositionAt(n)
			if err != nil {
				t.Fatal(err)
			}
			if p.ToPlay != tc.want {
				t.Errorf("to play %v, want %v", p.ToPlay, tc.want)
			}
		})
	}
}

func TestWalkMainLine(t *testing.T) {
	// Two black moves in a row are allowed; the walk says who plays each move.
	g := parseOne(t, "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[ce];B[ec];W[];B[eg](;W[ge])(;W[aa]))")
	var got []string
	err := g.WalkMainLine(func(p *Position, next Move) error {
		if p.ToPlay != next.Color {
			t.Errorf("move %d: to play %v, next %v", p.MoveNumber+1, p.ToPlay, next.Color)
		}
		got = append(got, fmt.Sprintf("%d:%v%s:%d", p.MoveNumber, next.Color, next.Point.GTP(9), len(p.Board.EmptyPoints())))
		if len(p.Moves) != p.MoveNumber || p.Info != &g.Info {
			t.Errorf("move %d: %d moves of history, info %p (the game's %p)", p.MoveNumber+1, len(p.Moves), p.Info, &g.Info)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "0:WE5:79 1:BC5:78 2:BE7:77 3:Wpass:76 4:BE3:76 5:WG5:75"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("walk %s\nwant %s", s, want)
	}

	stop := errors.New("stop here")
	calls := 0
	err = g.WalkMainLine(func(*Position, Move) error {
		if calls++; calls == 3 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 3 {
		t.Errorf("walk stopped with %v after %d calls", err, calls)
	}
}

func TestPositionAtVariation(t *testing.T) {
	g := parseOne(t, "(;SZ[5];B[aa](;W[bb])(;W[cc];B[dd]))")
	n, err := g.NodeAt([]int{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.PositionAt(n)
	if err != nil {
		t.Fatal(err)
	}
	want := drawing(`
		X....
		.....
		..O..
		...X.
		.....`)
	if p.Board.String() != want || p.MoveNumber != 3 || p.Last != pt("dd") || p.Prev != pt("cc") || p.ToPlay != board.White {
		t.Errorf("position\n%s move %d last %v prev %v to play %v", p.Board.String(), p.MoveNumber, p.Last, p.Prev, p.ToPlay)
	}
	if wantMoves := []Move{{board.Black, pt("aa")}, {board.White, pt("cc")}, {board.Black, pt("dd")}}; !slices.Equal(p.Moves, wantMoves) {
		t.Errorf("moves %v, want the variation's %v", p.Moves, wantMoves)
	}
	if _, err := g.NodeAt([]int{0, 2}); err == nil {
		t.Error("NodeAt of a missing child succeeded")
	}
	other := parseOne(t, "(;SZ[5];B[aa])")
	if _, err := g.PositionAt(other.Root.Children[0]); err == nil {
		t.Error("PositionAt of another game's node succeeded")
	}
	if _, err := g.PositionAt(nil); err == nil {
		t.Error("PositionAt(nil) succeeded")
	}
}

func TestKoInPosition(t *testing.T) {
	g := parseOne(t, "(;SZ[9]AB[ba][ab][bc]AW[bb][ca][db][cc];B[cb])")
	p, err := g.PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	if ko, c := p.Board.Ko(); ko != pt("bb") || c != board.White {
		t.Errorf("ko %v for %v", ko, c)
	}
}

// TestWalkAllocations checks that walking allocates nothing per move: a game five times as long costs the
// same allocations.
func TestWalkAllocations(t *testing.T) {
	games, err := LoadFile("../../assets/games/Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	long := games[0]
	short := parseOne(t, "(;B[pd];W[dd];B[pq];W[dq];B[jj])")
	allocs := func(g *Game) float64 {
		return testing.AllocsPerRun(10, func() {
			if err := g.WalkMainLine(func(*Position, Move) error { return nil }); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := allocs(short), allocs(long); a != b {
		t.Errorf("walk of %d moves: %v allocations; of 5 moves: %v", len(long.MainLine())-1, b, a)
	}
}

func BenchmarkWalkMainLine(b *testing.B) {
	games, err := LoadFile("../../assets/games/Agon-01-8.sgf")
	if err != nil {
		b.Fatal(err)
	}
	moves := 0
	for b.Loop() {
		if err := games[0].WalkMainLine(func(*Position, Move) error { moves++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}
