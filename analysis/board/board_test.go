package board

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// play applies moves written as "B C3 W D4 B pass" to b, failing the test on a wrong format.
func play(t *testing.T, b *Board, moves string) error {
	t.Helper()
	f := strings.Fields(moves)
	for i := 0; i+1 < len(f); i += 2 {
		c := map[string]Color{"B": Black, "W": White}[f[i]]
		p, err := ParseGTP(f[i+1], b.Size())
		if err != nil || c == Empty {
			t.Fatalf("bad move %q %q", f[i], f[i+1])
		}
		if err := b.Play(p, c); err != nil {
			return err
		}
	}
	return nil
}

func mustParse(t *testing.T, s string) *Board {
	t.Helper()
	b, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		before string
		moves  string
		after  string // empty when an error is expected
		err    error
		capB   int // stones captured by black after the moves
		capW   int
	}{
		{
			name: "capture in the middle",
			before: `
				.....
				..X..
				.XO..
				..X..
				.....`,
			moves: "B D3",
			after: `
				.....
				..X..
				.X.X.
				..X..
				.....`,
			capB: 1,
		},
		{
			name: "corner capture",
			before: `
				O X . .
				. . . .
				. . . .
				. . . .`,
			moves: "B A3",
			after: `
				. X . .
				X . . .
				. . . .
				. . . .`,
			capB: 1,
		},
		{
			name: "edge chain of three captured",
			before: `
				. . . . .
				. . . . .
				. . . . .
				X X X X .
				O O O . .`,
			moves: "B D1",
			after: `
				. . . . .
				. . . . .
				. . . . .
				X X X X .
				. . . X .`,
			capB: 3,
		},
		{
			name: "multi-chain capture with one stone",
			before: `
				. X O X .
				X O . O X
				. X O X .
				. . X . .
				. . . . .`,
			moves: "B C4",
			after: `
				. X . X .
				X . X . X
				. X . X .
				. . X . .
				. . . . .`,
			capB: 4,
		},
		{
			name: "suicide of one stone is illegal",
			before: `
				. X .
				X . .
				. . .`,
			moves: "W A3",
			err:   ErrSuicide,
		},
		{
			name: "suicide of a chain is illegal",
			before: `
				O O X .
				. X . .
				X . . .
				. . . .`,
			moves: "W A3",
			err:   ErrSuicide,
		},
		{
			name: "filling its own last liberty is legal when it captures",
			before: `
				. O X .
				O X . .
				. . . .
				. . . .`,
			moves: "B A4",
			after: `
				X . X .
				O X . .
				. . . .
				. . . .`,
			capB: 1,
		},
		{
			name: "occupied",
			before: `
				X .
				. .`,
			moves: "W A2",
			err:   ErrOccupied,
		},
		{
			name: "ko cannot be retaken at once",
			before: `
				. X O .
				X O . O
				. X O .
				. . . .`,
			moves: "B C3 W B3",
			err:   ErrKo,
		},
		{
			name: "ko can be retaken after a move elsewhere",
			before: `
				. X O . .
				X O . O .
				. X O . .
				. . . . .
				. . . . .`,
			moves: "B C4 W E1 B E2 W B4",
			after: `
				. X O . .
				X O . O .
				. X O . .
				. . . . X
				. . . . O`,
			capB: 1,
			capW: 1,
		},
		{
			name: "snapback",
			before: `
				. . . . .
				. . . . .
				X X X X .
				O O O X .
				. . O X .`,
			moves: "B B1 W A1 B B1",
			after: `
				. . . . .
				. . . . .
				X X X X .
				. . . X .
				. X . X .`,
			capB: 5,
			capW: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.before)
			err := play(t, b, tc.moves)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := b.check(); err != nil {
				t.Fatal(err)
			}
			if want := mustParse(t, tc.after).String(); b.String() != want {
				t.Errorf("board:\n%s\nwant:\n%s", b, want)
			}
			if b.Captures(Black) != tc.capB || b.Captures(White) != tc.capW {
				t.Errorf("captures B=%d W=%d, want %d %d", b.Captures(Black), b.Captures(White), tc.capB, tc.capW)
			}
		})
	}
}

func TestKoState(t *testing.T) {
	b := mustParse(t, `
		. O X .
		O X . .
		. . . .
		. . . .`)
	if err := play(t, b, "B A4"); err != nil {
		t.Fatal(err)
	}
	b4, _ := ParseGTP("B4", 4)
	if p, c := b.Ko(); p != b4 || c != White {
		t.Fatalf("ko = %s %v, want B4 for white", p.GTP(4), c)
	}
	if b.Legal(b4, White) || !b.Legal(b4, Black) {
		t.Fatal("ko point legality wrong")
	}
	lifted := *b
	lifted.ClearKo()
	if p, _ := lifted.Ko(); p != NoPoint || !lifted.Legal(b4, White) || lifted.Hash() != b.Hash() {
		t.Fatal("ClearKo did not lift the ban alone")
	}
	// A pass clears the ko.
	if err := play(t, b, "W pass B pass"); err != nil {
		t.Fatal(err)
	}
	if p, _ := b.Ko(); p != NoPoint {
		t.Fatalf("ko %s survives passes", p.GTP(4))
	}
	if !b.Legal(b4, White) {
		t.Fatal("white cannot retake after the ko was cleared")
	}
}

func TestCaptureOfTwoStonesIsNotKo(t *testing.T) {
	b := mustParse(t, `
		. X O O X .
		X O . . O X
		. X O O X .
		. . . . . .
		. . . . . .
		. . . . . .`)
	// Black C5 then D5 captures nothing yet; a single-stone capture that takes two stones is not ko.
	if err := play(t, b, "B C5"); err != nil {
		t.Fatal(err)
	}
	if err := play(t, b, "W pass B D5"); err != nil {
		t.Fatal(err)
	}
	if b.Captures(Black) != 4 {
		t.Fatalf("captured %d, want 4\n%s", b.Captures(Black), b)
	}
	if p, _ := b.Ko(); p != NoPoint {
		t.Fatalf("ko at %s after a multi-stone capture", p.GTP(6))
	}
}

func TestGTPCoordinates(t *testing.T) {
	for _, tc := range []struct {
		s    string
		size int
		x, y int
	}{{"A1", 19, 0, 18}, {"T19", 19, 18, 0}, {"J10", 19, 8, 9}, {"h8", 9, 7, 1}, {"Z25", 25, 24, 0}} {
		p, err := ParseGTP(tc.s, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		if x, y := p.XY(); x != tc.x || y != tc.y {
			t.Errorf("%s: %d,%d want %d,%d", tc.s, x, y, tc.x, tc.y)
		}
		if got := p.GTP(tc.size); !strings.EqualFold(got, tc.s) {
			t.Errorf("round trip %s -> %s", tc.s, got)
		}
	}
	for _, bad := range []string{"", "I5", "A0", "A20", "U1", "A", "5A", "A1x", "A99999999999"} {
		if _, err := ParseGTP(bad, 19); !errors.Is(err, ErrCoordinate) {
			t.Errorf("ParseGTP(%q) = %v, want ErrCoordinate", bad, err)
		}
	}
	if p, err := ParseGTP("PASS", 19); err != nil || p != Pass {
		t.Errorf("pass: %v %v", p, err)
	}
}

func TestSizes(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 26, 100} {
		if _, err := New(n); !errors.Is(err, ErrSize) {
			t.Errorf("New(%d) = %v", n, err)
		}
	}
	for n := 2; n <= MaxSize; n++ {
		b, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Points()) != n*n || len(b.EmptyPoints()) != n*n {
			t.Fatalf("size %d: %d points", n, len(b.Points()))
		}
		if err := b.Play(At(n, 0), Black); !errors.Is(err, ErrOffBoard) {
			t.Errorf("size %d: play off the board: %v", n, err)
		}
	}
}

func TestAreaScore(t *testing.T) {
	b := mustParse(t, `
		. X O . .
		X X O . .
		. X O O O
		X X O . O
		. X O O .`)
	black, white := b.AreaScore(nil)
	if black != 10 || white != 15 {
		t.Errorf("area %d-%d, want 10-15", black, white)
	}
	// With every white stone dead, their points and the empty points they bordered become black's.
	var dead PointSet
	for _, p := range b.Points() {
		if b.At(p) == White {
			dead.Add(p)
		}
	}
	black, white = b.AreaScore(&dead)
	if black != 25 || white != 0 {
		t.Errorf("area with white dead %d-%d, want 25-0", black, white)
	}
	// A point touching both colours is dame.
	b = mustParse(t, `
		X . O
		X . O
		X . O`)
	if black, white := b.AreaScore(nil); black != 3 || white != 3 {
		t.Errorf("dame: %d-%d, want 3-3", black, white)
	}
}

func TestHashAfterAndSuperko(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	b, _ := New(9)
	var history []uint64
	err := randomGame(b, rng, 300, func(p Point, c Color) error {
		history = append(history, b.Hash())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// HashAfter agrees with the hash after playing, for every legal move.
	for _, c := range []Color{Black, White} {
		for _, p := range b.Points() {
			if !b.Legal(p, c) {
				continue
			}
			t2 := *b
			t2.PlayLegal(p, c)
			if got := b.HashAfter(p, c); got != t2.Hash() {
				t.Fatalf("HashAfter(%s) = %x, want %x", p.GTP(9), got, t2.Hash())
			}
		}
	}
	// Retaking a ko after ko threats recreates an earlier position.
	k := mustParse(t, `
		. X O . .
		X O . O .
		. X O . .
		. . . . .
		. . . . .`)
	seen := []uint64{k.Hash()}
	c4, _ := ParseGTP("C4", 5)
	b4, _ := ParseGTP("B4", 5)
	if err := k.Play(c4, Black); err != nil {
		t.Fatal(err)
	}
	seen = append(seen, k.Hash())
	if err := play(t, k, "W pass B pass"); err != nil {
		t.Fatal(err)
	}
	if !k.RepeatsPosition(b4, White, seen) {
		t.Error("retaking the ko should repeat the starting position")
	}
	if k.RepeatsPosition(At(4, 4), White, seen) {
		t.Error("a fresh move does not repeat a position")
	}
}

// TestRandomGamesKeepInvariants plays long random games on several sizes and after every move compares
// the incremental chains and liberties with a naive recomputation, and Legal with a naive legality test.
func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 40
	if testing.Short() || raceEnabled {
		games = 8
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for g := range games {
		size := []int{2, 3, 5, 7, 9, 13, 19, 25}[g%8]
		b, _ := New(size)
		moves := 3 * size * size
		err := randomGame(b, rng, moves, func(p Point, c Color) error {
			if err := b.check(); err != nil {
				return err
			}
			for _, q := range b.Points() {
				for _, c := range []Color{Black, White} {
					if b.Legal(q, c) != b.legalNaive(q, c) {
						t.Fatalf("Legal(%s, %v) = %v disagrees with naive\n%s", q.GTP(size), c, b.Legal(q, c), b)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("game %d size %d: %v", g, size, err)
		}
	}
}

func TestPlayoutEndsWithOnlyEyes(t *testing.T) {
	rng := rand.NewPCG(3, 4)
	for _, size := range []int{5, 9, 19, MaxSize} {
		for range 20 {
			b, _ := New(size)
			n := b.Playout(rng, Black, 3*size*size)
			if err := b.check(); err != nil {
				t.Fatal(err)
			}
			if n >= 3*size*size {
				continue // cut by the move limit (a long ko fight); nothing to check about the end
			}
			for _, p := range b.EmptyPoints() {
				for _, c := range []Color{Black, White} {
					if b.Legal(p, c) && !b.IsEye(p, c) {
						t.Fatalf("playout ended with a playable point %s for %v\n%s", p.GTP(size), c, b)
					}
				}
			}
			black, white := b.AreaScore(nil)
			if black+white > size*size {
				t.Fatalf("area %d+%d exceeds the board", black, white)
			}
		}
	}
}

func TestRandomMoveIsUniform(t *testing.T) {
	b := mustParse(t, `
		. X . .
		X X . .
		. . . .
		. . . O`)
	rng := rand.NewPCG(5, 6)
	counts := map[Point]int{}
	const draws = 130000
	for range draws {
		counts[b.RandomMove(rng, Black)]++
	}
	// A4 is black's eye; the other 11 empty points are all legal for black.
	if len(counts) != 11 {
		t.Fatalf("drew %d distinct points, want 11: %v", len(counts), counts)
	}
	for p, n := range counts {
		if n < draws/11*95/100 || n > draws/11*105/100 {
			t.Errorf("%s drawn %d times of %d, want about %d", p.GTP(4), n, draws, draws/11)
		}
	}
	if err := b.check(); err != nil {
		t.Fatal(err)
	}
}

func TestNoAllocation(t *testing.T) {
	rng := rand.NewPCG(1, 1)
	var b Board
	empty, _ := New(19)
	allocs := testing.AllocsPerRun(20, func() {
		b = *empty
		b.Playout(rng, Black, 1000)
		b.AreaScore(nil)
		b.Liberties(b.Points()[0], 10)
	})
	if allocs != 0 {
		t.Errorf("playout allocates %v times", allocs)
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "X", "X.\n..\n..", "XO\nOX", "Q.\n.."} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}

func FuzzPlay(f *testing.F) {
	f.Add(uint8(9), []byte{1, 2, 3, 40, 41, 42})
	f.Add(uint8(2), []byte{0, 1, 2, 3, 0, 1, 2, 3})
	f.Add(uint8(19), []byte("the quick brown fox jumps over the lazy dog"))
	f.Fuzz(func(t *testing.T, size uint8, moves []byte) {
		n := 2 + int(size)%(MaxSize-1)
		b, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		c := Black
		for i, m := range moves {
			// Bytes pick points among all cells (off-board ones too) so errors are exercised.
			p := Point(int(m) * NumCells / 256)
			if i%7 == 6 {
				p = Pass
			}
			legal := b.Legal(p, c)
			err := b.Play(p, c)
			if legal != (err == nil) {
				t.Fatalf("Legal(%d)=%v but Play: %v", p, legal, err)
			}
			if err == nil {
				c = c.Opponent()
			}
		}
		if err := b.check(); err != nil {
			t.Fatal(err)
		}
	})
}
