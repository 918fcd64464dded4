package feature

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
)

// plGame parses SGF text holding one game.
func plGame(t testing.TB, sgf string) *game.Game {
	t.Helper()
	games, err := game.Parse([]byte(sgf))
	if err != nil || len(games) != 1 {
		t.Fatalf("Parse(%.60q): %d games, %v", sgf, len(games), err)
	}
	return games[0]
}

// plPos returns the position after n main-line moves of the game in sgf (the final one when n < 0).
func plPos(t testing.TB, sgf string, n int) *game.Position {
	t.Helper()
	pos, err := plGame(t, sgf).PositionAfter(n)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// plEncode encodes pos with a fresh encoder.
func plEncode(pos *game.Position, sym Symmetry, opt PlaneOptions) []float32 {
	n := pos.Board.Size()
	dst := make([]float32, NumPlanes*n*n)
	var e Planes
	e.Encode(dst, pos, sym, opt)
	return dst
}

// plCheck compares plane of the identity encoding enc of an n×n board with want (SGF point → value;
// every other point must be 0).
func plCheck(t *testing.T, enc []float32, n, plane int, want map[string]float64) {
	t.Helper()
	for y := range n {
		for x := range n {
			w := want[string([]byte{byte('a' + x), byte('a' + y)})]
			if got := enc[plane*n*n+y*n+x]; math.Abs(float64(got)-w) > 1e-6 {
				t.Errorf("plane %q at %c%c: %v, want %v", PlaneNames[plane], 'a'+x, 'a'+y, got, w)
			}
		}
	}
}

// plFilled reports whether plane of enc holds v at every point.
func plFilled(enc []float32, nn, plane int, v float32) bool {
	for _, got := range enc[plane*nn : (plane+1)*nn] {
		if got != v {
			return false
		}
	}
	return true
}

func TestPlaneNames(t *testing.T) {
	if PlaneLadder != NumPlanes-1 || PlaneRank9 != PlaneRank1+8 || PlaneOppLibs1 != PlaneOwnLibs1+4 {
		t.Fatalf("plane layout: ladder %d, rank9 %d, opp libs %d", PlaneLadder, PlaneRank9, PlaneOppLibs1)
	}
	seen := map[string]bool{}
	for i, name := range PlaneNames {
		if name == "" || seen[name] {
			t.Errorf("PlaneNames[%d] = %q: empty or duplicate", i, name)
		}
		seen[name] = true
	}
	if PlaneNames[PlaneRank9] != "rank 9d" || PlaneNames[PlaneLegal] != "legal" {
		t.Errorf("names %q %q", PlaneNames[PlaneRank9], PlaneNames[PlaneLegal])
	}
}

func TestSymmetry(t *testing.T) {
	if x, y := Symmetry(1).Apply(0, 0, 9); x != 8 || y != 0 {
		t.Errorf("quarter turn sends the top left corner to (%d, %d), want the top right (8, 0)", x, y)
	}
	if x, y := Symmetry(4).Apply(1, 2, 9); x != 7 || y != 2 {
		t.Errorf("mirror sends (1, 2) to (%d, %d), want (7, 2)", x, y)
	}
	for _, n := range []int{2, 5, 8, 19, 25} {
		maps := map[string]Symmetry{}
		for s := range Symmetry(NumSymmetries) {
			hit := make([]bool, n*n)
			var key strings.Builder
			for y := range n {
				for x := range n {
					tx, ty := s.Apply(x, y, n)
					if tx < 0 || ty < 0 || tx >= n || ty >= n || hit[ty*n+tx] {
						t.Fatalf("n %d sym %d: (%d, %d) goes to (%d, %d): off the board or taken", n, s, x, y, tx, ty)
					}
					hit[ty*n+tx] = true
					if s == 0 && (tx != x || ty != y) {
						t.Fatalf("identity moves (%d, %d)", x, y)
					}
					if ix, iy := s.Inverse().Apply(tx, ty, n); ix != x || iy != y {
						t.Fatalf("n %d sym %d: inverse %d sends (%d, %d) back to (%d, %d), want (%d, %d)",
							n, s, s.Inverse(), tx, ty, ix, iy, x, y)
					}
					fmt.Fprintf(&key, "%d,%d ", tx, ty)
				}
			}
			if prev, dup := maps[key.String()]; dup && n > 1 {
				t.Errorf("n %d: symmetries %d and %d are the same map", n, prev, s)
			}
			maps[key.String()] = s
		}
	}
}

// libertiesSGF leaves White to move with chains of every liberty bin for both colours: White
// ai in atari, ba with 2, ei with 3, gg and cc with 4; Black aa with 1, bi with 2, ha-ia
// with 3, ee-ef with 6.
const libertiesSGF = "(;SZ[9];B[aa];W[ba];B[ee];W[ei];B[ia];W[gg];B[ha];W[ai];B[bi];W[cc];B[ef])"

func TestPlanesLiberties(t *testing.T) {
	enc := plEncode(plPos(t, libertiesSGF, -1), 0, PlaneOptions{})
	want := map[int]map[string]float64{
		PlaneOwnLibs1: {"ai": 1},
		PlaneOwnLibs2: {"ba": 1},
		PlaneOwnLibs3: {"ei": 1},
		PlaneOwnLibs4: {"gg": 1, "cc": 1},
		PlaneOppLibs1: {"aa": 1},
		PlaneOppLibs2: {"bi": 1},
		PlaneOppLibs3: {"ha": 1, "ia": 1},
		PlaneOppLibs4: {"ee": 1, "ef": 1},
	}
	for plane, w := range want {
		plCheck(t, enc, 9, plane, w)
	}
}

func TestPlanesStones(t *testing.T) {
	pos := plPos(t, libertiesSGF, -1)
	own := map[string]float64{"ai": 1, "ba": 1, "ei": 1, "gg": 1, "cc": 1}
	oppMinus, oppPlus := map[string]float64{}, map[string]float64{}
	for _, p := range []string{"aa", "bi", "ha", "ia", "ee", "ef"} {
		oppMinus[p], oppPlus[p] = -1, 1
	}
	empty := map[string]float64{}
	for y := range 9 {
		for x := range 9 {
			p := string([]byte{byte('a' + x), byte('a' + y)})
			if own[p] == 0 && oppPlus[p] == 0 {
				empty[p] = 1
			}
		}
	}
	enc := plEncode(pos, 0, PlaneOptions{})
	plCheck(t, enc, 9, PlaneOwnStones, own)
	plCheck(t, enc, 9, PlaneOppStones, oppMinus)
	plCheck(t, enc, 9, PlaneEmpty, empty)
	plus := plEncode(pos, 0, PlaneOptions{OpponentPlus: true})
	plCheck(t, plus, 9, PlaneOwnStones, own)
	plCheck(t, plus, 9, PlaneOppStones, oppPlus)
}

func TestRankOf(t *testing.T) {
	tests := map[string]int{
		"9p": 9, "9P": 9, "9d": 9, "3d": 3, "1d": 1, "5 dan": 5, " 7d ": 7, "3d*": 3, "9 dan pro": 9,
		"7段": 7, "": 0, "15k": 0, "1k": 0, "2 kyu": 0, "10d": 0, "0d": 0, "d": 0, "pro": 0, "9": 0,
		"Meijin": 0,
	}
	for s, want := range tests {
		if got := rankOf(s); got != want {
			t.Errorf("rankOf(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestPlanesRank(t *testing.T) {
	const nn = 81
	// onlyRank checks that the rank planes are all 0 but for plane (none when plane < 0), all 1.
	onlyRank := func(name string, enc []float32, plane int) {
		t.Helper()
		for p := PlaneRank1; p <= PlaneRank9; p++ {
			want := float32(0)
			if p == plane {
				want = 1
			}
			if !plFilled(enc, nn, p, want) {
				t.Errorf("%s: plane %q is not all %v", name, PlaneNames[p], want)
			}
		}
	}
	const sgf = "(;SZ[9]BR[9p]WR[3d];B[cc];W[dd])"
	onlyRank("black 9p to move", plEncode(plPos(t, sgf, 0), 0, PlaneOptions{}), PlaneRank9)
	onlyRank("white 3d to move", plEncode(plPos(t, sgf, 1), 0, PlaneOptions{}), PlaneRank3)
	onlyRank("5 dan", plEncode(plPos(t, "(;SZ[9]BR[5 dan])", 0), 0, PlaneOptions{}), PlaneRank5)
	onlyRank("9P", plEncode(plPos(t, "(;SZ[9]BR[9P])", 0), 0, PlaneOptions{}), PlaneRank9)
	onlyRank("empty rank", plEncode(plPos(t, "(;SZ[9]BR[9p];B[cc])", 1), 0, PlaneOptions{}), -1)
	onlyRank("kyu", plEncode(plPos(t, "(;SZ[9]BR[15k])", 0), 0, PlaneOptions{}), -1)
	pos := plPos(t, sgf, 0)
	pos.Info = nil
	onlyRank("no info", plEncode(pos, 0, PlaneOptions{}), -1)
}

// koSGF: White takes a ko at dc capturing cc (move 8), both play elsewhere, and Black retakes at cc
// (move 11), capturing dc. White to move at the end.
const koSGF = "(;SZ[9];B[cc];W[bc];B[ec];W[cb];B[db];W[cd];B[dd];W[dc];B[ee];W[aa];B[cc])"

func TestPlanesHistory(t *testing.T) {
	pos := plPos(t, koSGF, -1)
	w := func(t int) float64 { return math.Exp(-0.1 * float64(t)) }
	enc := plEncode(pos, 0, PlaneOptions{})
	// cc was played at move 1, captured, and played again by the last move: the latest move counts.
	plCheck(t, enc, 9, PlaneHistoryOwn, map[string]float64{"aa": w(1), "cd": w(5), "cb": w(7), "bc": w(9)})
	plCheck(t, enc, 9, PlaneHistoryOpp, map[string]float64{"cc": 1, "ee": w(2), "dd": w(4), "db": w(6), "ec": w(8)})

	five := plEncode(pos, 0, PlaneOptions{HistoryLastFive: true})
	plCheck(t, five, 9, PlaneHistoryOwn, map[string]float64{"aa": 1})
	plCheck(t, five, 9, PlaneHistoryOpp, map[string]float64{"cc": 1, "ee": 1, "dd": 1})

	// Setup stones have no age, even on a point where a move was played before.
	setup := plEncode(plPos(t, "(;SZ[9]AB[aa];B[cc];W[dd];AW[cc]B[ee])", -1), 0, PlaneOptions{})
	plCheck(t, setup, 9, PlaneHistoryOwn, map[string]float64{"dd": w(1)})
	plCheck(t, setup, 9, PlaneHistoryOpp, map[string]float64{"ee": 1})

	// Without the full list of moves only Last (t = 0) and Prev (t = 1) are known.
	for _, moves := range [][]game.Move{nil, pos.Moves[:5]} {
		short := *pos
		short.Moves = moves
		enc := plEncode(&short, 0, PlaneOptions{})
		plCheck(t, enc, 9, PlaneHistoryOwn, map[string]float64{"aa": w(1)})
		plCheck(t, enc, 9, PlaneHistoryOpp, map[string]float64{"cc": 1})
		five := plEncode(&short, 0, PlaneOptions{HistoryLastFive: true})
		plCheck(t, five, 9, PlaneHistoryOwn, map[string]float64{"aa": 1})
		plCheck(t, five, 9, PlaneHistoryOpp, map[string]float64{"cc": 1})
	}
}

func TestPlanesPositionMask(t *testing.T) {
	enc := plEncode(plPos(t, "(;SZ[9])", 0), 0, PlaneOptions{})
	plCheck(t, enc, 9, PlanePositionMask, func() map[string]float64 {
		m := map[string]float64{}
		for y := range 9 {
			for x := range 9 {
				m[string([]byte{byte('a' + x), byte('a' + y)})] = math.Exp(-0.5 * math.Hypot(float64(x-4), float64(y-4)))
			}
		}
		return m
	}())
	const mask = PlanePositionMask * 81
	if c, corner, edge := enc[mask+4*9+4], enc[mask], enc[mask+4]; c != 1 ||
		math.Abs(float64(corner)-math.Exp(-0.5*math.Sqrt(32))) > 1e-7 || math.Abs(float64(edge)-math.Exp(-2)) > 1e-7 {
		t.Errorf("centre %v, corner %v, edge %v", c, corner, edge)
	}
	// On an even board the centre falls between points.
	even := plEncode(plPos(t, "(;SZ[4])", 0), 0, PlaneOptions{})
	if got, want := even[PlanePositionMask*16+1*4+1], math.Exp(-0.5*math.Sqrt(0.5)); math.Abs(float64(got)-want) > 1e-7 {
		t.Errorf("4x4 mask at (1, 1) = %v, want %v", got, want)
	}
}

func TestPlanesLegal(t *testing.T) {
	// After White's ko capture at dc, Black may not retake at cc at once.
	ko := plPos(t, koSGF, 8)
	enc := plEncode(ko, 0, PlaneOptions{})
	if enc[PlaneLegal*81+2*9+2] != 0 {
		t.Error("ko point cc is legal")
	}
	if enc[PlaneLegal*81+4*9+4] != 1 || enc[PlaneLegal*81+2*9+3] != 0 {
		t.Error("empty point ee should be legal, the stone at dc not")
	}
	// Black at aa would be suicide; White may play there.
	suicide := plPos(t, "(;SZ[5];B[cc];W[ba];B[dd];W[ab])", -1)
	if enc := plEncode(suicide, 0, PlaneOptions{}); enc[PlaneLegal*25] != 0 || enc[PlaneLegal*25+4*5+4] != 1 {
		t.Errorf("suicide point aa: legal %v, ee %v", enc[PlaneLegal*25], enc[PlaneLegal*25+4*5+4])
	}
	suicide.ToPlay = board.White
	if enc := plEncode(suicide, 0, PlaneOptions{}); enc[PlaneLegal*25] != 1 {
		t.Error("aa is not legal for White")
	}
}

func TestPlanesCaptured(t *testing.T) {
	// Right after the ko capture, Black (to move) has lost cc.
	enc := plEncode(plPos(t, koSGF, 8), 0, PlaneOptions{})
	plCheck(t, enc, 9, PlaneCapturedOwn, map[string]float64{"cc": 1})
	plCheck(t, enc, 9, PlaneCapturedOpp, nil)
	// After the retake, White (to move) has lost dc, and Black's cc, played again, stays marked.
	pos := plPos(t, koSGF, -1)
	enc = plEncode(pos, 0, PlaneOptions{})
	plCheck(t, enc, 9, PlaneCapturedOwn, map[string]float64{"dc": 1})
	plCheck(t, enc, 9, PlaneCapturedOpp, map[string]float64{"cc": 1})
	// Without the full list of moves the planes stay empty.
	short := *pos
	short.Moves = nil
	enc = plEncode(&short, 0, PlaneOptions{})
	plCheck(t, enc, 9, PlaneCapturedOwn, nil)
	plCheck(t, enc, 9, PlaneCapturedOpp, nil)
}

// Ladder positions, after the tactics package's: Black's last move ed puts White ee in atari, and the
// extension at fe is caught in a ladder running to the bottom right, unless White gh breaks it.
const (
	ladderSGF        = "(;SZ[9];B[fd];W[ee];B[de];W[aa];B[ef];W[ba];B[ed])"
	ladderBrokenSGF  = "(;SZ[9];B[fd];W[ee];B[de];W[aa];B[ef];W[gh];B[ed])"
	ladderTwoSGF     = "(;SZ[9];B[fd];W[ee];B[de];W[ed];B[ec];W[aa];B[dd];W[ba];B[ef])"
	ladderTenukiSGF  = "(;SZ[9];B[fd];W[ee];B[de];W[aa];B[ef];W[ba];B[ed];W[ca];B[ii])"
	ladderNoLastSGF  = "(;SZ[9];B[fd];W[ee];B[de];W[aa];B[ef];W[ba];B[ed];W[ca];B[])"
	ladderTwoLibsSGF = "(;SZ[9];B[fd];W[ee];B[de];W[aa];B[ef])"
)

func TestPlanesLadder(t *testing.T) {
	tests := []struct {
		name, sgf string
		want      map[string]float64
	}{
		{"working ladder", ladderSGF, map[string]float64{"ee": 1}},
		{"two-stone chain", ladderTwoSGF, map[string]float64{"ee": 1, "ed": 1}},
		{"ladder breaker", ladderBrokenSGF, nil},
		{"last move elsewhere", ladderTenukiSGF, nil},
		{"last move a pass", ladderNoLastSGF, nil},
		{"chain not in atari", ladderTwoLibsSGF, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := plEncode(plPos(t, tt.sgf, -1), 0, PlaneOptions{})
			plCheck(t, enc, 9, PlaneLadder, tt.want)
		})
	}
}

// plTransform moves every point of g (moves and setup stones, whole tree) where s sends it.
func plTransform(g *game.Game, s Symmetry) {
	n := g.Info.Size
	var walk func(nd *game.Node)
	walk = func(nd *game.Node) {
		move := func(p board.Point) board.Point {
			if p == board.Pass || p == board.NoPoint {
				return p
			}
			x, y := p.XY()
			return board.At(s.Apply(x, y, n))
		}
		if nd.Move != nil {
			nd.Move.Point = move(nd.Move.Point)
		}
		for i := range nd.Setup {
			nd.Setup[i].Point = move(nd.Setup[i].Point)
		}
		for _, c := range nd.Children {
			walk(c)
		}
	}
	walk(g.Root)
}

// plGames are the recorded games of the repository's assets folder.
func plGames(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "assets", "games", "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no games under assets/games: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if games, err := game.LoadFile(f); err != nil || len(games) != 1 {
			t.Fatalf("%s: %d games, %v", f, len(games), err)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

func TestPlanesSymmetry(t *testing.T) {
	type source struct {
		name string
		sgf  string
		at   []int
	}
	sources := []source{
		{"ko", koSGF, []int{8, -1}},
		{"ladder", ladderSGF, []int{-1}},
		{"ladder two", ladderTwoSGF, []int{-1}},
		{"ladder broken", ladderBrokenSGF, []int{-1}},
		{"liberties", libertiesSGF, []int{-1}},
	}
	for name, data := range plGames(t) {
		sources = append(sources, source{name, string(data), []int{20, 60, 120, -1}})
	}
	opts := []PlaneOptions{{}, {OpponentPlus: true, HistoryLastFive: true}}
	for _, src := range sources {
		for _, at := range src.at {
			pos := plPos(t, src.sgf, at)
			n := pos.Board.Size()
			nn := n * n
			for s := range Symmetry(NumSymmetries) {
				g := plGame(t, src.sgf)
				plTransform(g, s)
				moved, err := g.PositionAfter(at)
				if err != nil {
					t.Fatal(err)
				}
				for _, opt := range opts {
					want := plEncode(pos, s, opt)             // the position's encoding, points moved by s
					got := plEncode(moved, 0, opt)            // the encoding of the moved position
					back := plEncode(moved, s.Inverse(), opt) // moved back: the original's identity encoding
					orig := plEncode(pos, 0, opt)
					bad := 0
					for i := range want {
						if got[i] != want[i] || back[i] != orig[i] {
							if bad++; bad <= 5 {
								t.Errorf("%s after %d, sym %d, %+v: plane %q at (%d, %d): moved %v, want %v; back %v, want %v",
									src.name, at, s, opt, PlaneNames[i/nn], i%nn%n, i%nn/n, got[i], want[i], back[i], orig[i])
							}
						}
					}
				}
			}
		}
	}
}

func TestPlanesBoardSizes(t *testing.T) {
	for n := 2; n <= board.MaxSize; n++ {
		pos := plPos(t, fmt.Sprintf("(;SZ[%d];B[aa])", n), -1)
		nn := n * n
		dst := make([]float32, NumPlanes*nn+3)
		for i := range dst {
			dst[i] = 7 // stale values: Encode must overwrite its part and leave the rest
		}
		var e Planes
		e.Encode(dst, pos, 1, PlaneOptions{})
		if dst[NumPlanes*nn] != 7 {
			t.Errorf("size %d: Encode wrote past NumPlanes·n·n", n)
		}
		// The stone at (0, 0) goes to the top right corner under a quarter turn.
		at := n - 1
		if dst[PlaneOppStones*nn+at] != -1 || dst[PlaneOppLibs2*nn+at] != 1 || dst[PlaneHistoryOpp*nn+at] != 1 {
			t.Errorf("size %d: stone not at the top right: stones %v libs2 %v history %v",
				n, dst[PlaneOppStones*nn+at], dst[PlaneOppLibs2*nn+at], dst[PlaneHistoryOpp*nn+at])
		}
		sum := func(plane int) (s float64) {
			for _, v := range dst[plane*nn : (plane+1)*nn] {
				s += float64(v)
			}
			return s
		}
		if sum(PlaneEmpty) != float64(nn-1) || sum(PlaneLegal) != float64(nn-1) || sum(PlaneOwnStones) != 0 {
			t.Errorf("size %d: empty %v legal %v own %v", n, sum(PlaneEmpty), sum(PlaneLegal), sum(PlaneOwnStones))
		}
		for i, v := range dst[PlanePositionMask*nn : (PlanePositionMask+1)*nn] {
			if v <= 0 || v > 1 {
				t.Errorf("size %d: mask %v at %d", n, v, i)
			}
		}
	}
}

func TestPlanesShortDstPanics(t *testing.T) {
	pos := plPos(t, "(;SZ[9];B[cc])", -1)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "needs 2187") {
			t.Errorf("recovered %v, want a panic saying the board needs 2187 values", r)
		}
	}()
	var e Planes
	e.Encode(make([]float32, NumPlanes*81-1), pos, 0, PlaneOptions{})
}

func TestPlanesDoesNotAllocate(t *testing.T) {
	pos := plPos(t, string(plGames(t)["Agon-01-8.sgf"]), 90)
	var e Planes
	dst := make([]float32, NumPlanes*19*19)
	e.Encode(dst, pos, 0, PlaneOptions{})
	allocs := testing.AllocsPerRun(20, func() {
		for s := range Symmetry(NumSymmetries) {
			e.Encode(dst, pos, s, PlaneOptions{HistoryLastFive: s&1 == 1})
		}
	})
	if allocs != 0 {
		t.Errorf("Encode allocates %v times per 8 calls", allocs)
	}
}

// BenchmarkPlanes encodes every tenth position of the 19×19 games under assets/games, cycling through
// the symmetries as training augmentation does.
func BenchmarkPlanes(b *testing.B) {
	var positions []*game.Position
	for _, data := range plGames(b) {
		g := plGame(b, string(data))
		if g.Info.Size != 19 {
			continue
		}
		err := g.WalkMainLine(func(pos *game.Position, _ game.Move) error {
			if pos.MoveNumber%10 == 0 {
				c := *pos
				positions = append(positions, &c)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	var e Planes
	dst := make([]float32, NumPlanes*19*19)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Encode(dst, positions[i%len(positions)], Symmetry(i%NumSymmetries), PlaneOptions{})
	}
}
