package game

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toikarin/sgf"

	"aji/analysis/board"
)

// TestLibraryDefects shows, on the pinned version of github.com/toikarin/sgf, each defect that the pre-pass
// guards against, so that every guard has its reason next to it.
func TestLibraryDefects(t *testing.T) {
	fails := func(input string) bool {
		_, err := sgf.ParseSgf(input)
		return err != nil
	}
	for _, input := range []string{
		"(;CoPyright[x])",      // lower-case letters in an identifier
		"\uFEFF(;B[aa])",       // byte-order mark
		"header\n(;B[aa])",     // text before the first '('
		"(;B[aa])\x1a",         // trailing Ctrl-Z
		"(;SZ [19])",           // white space between identifier and value
		"(;C[\x94\\](;B[aa]))", // a Shift_JIS 0x5C trail byte escapes the ']'
	} {
		if !fails(input) {
			t.Errorf("library now accepts %q", input)
		}
	}
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		_, _ = sgf.ParseSgf("(;B[aa](;W[bb])C[x])")
		return false
	}()
	if !panicked {
		t.Error("library no longer panics on a property after a variation")
	}
	c, err := sgf.ParseSgf("(;B[aa](;W[bb]);W[cc])")
	if err != nil || len(c.GameTrees[0].Nodes) != 2 {
		t.Error("library no longer moves a node after a variation into the sequence before it")
	}
	if c, err := sgf.ParseSgf(""); err != nil || len(c.GameTrees) != 0 {
		t.Error("library no longer accepts empty input")
	}
}

// TestLibraryPanicRecovered checks that the library's panic on a property after a variation becomes an
// error, should the pre-pass ever let such a skeleton through.
func TestLibraryPanicRecovered(t *testing.T) {
	_, err := libraryParse("(;B[](;W[])C[])")
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "sgf library") {
		t.Fatalf("libraryParse = %v, want a recovered ErrSyntax", err)
	}
}

func TestParseGuards(t *testing.T) {
	tests := []struct {
		name  string
		input string
		moves string // main-line moves as mainMoves writes them
		check func(t *testing.T, g *Game)
	}{
		{
			name:  "FF[1] identifiers with lower-case letters",
			input: "(;GaMe[1]FileFormat[1]SiZe[9]CoPyright[me]PlayerBlack[Alice];Black[ee];White[cc])",
			moves: "B ee W cc",
			check: func(t *testing.T, g *Game) {
				if g.Size() != 9 || g.Info.Black != "Alice" {
					t.Errorf("info %+v", g.Info)
				}
				if v := g.Root.Property("CP"); len(v) != 1 || v[0] != "me" {
					t.Errorf("CP = %q", v)
				}
			},
		},
		{name: "byte-order mark", input: "\xEF\xBB\xBF(;SZ[9];B[ee])", moves: "B ee"},
		{name: "text before the first (", input: "From the archive (2024):\r\n(;SZ[9];B[ee])", moves: "B ee"},
		{name: "trailing Ctrl-Z", input: "(;SZ[9];B[ee])\r\n\x1a", moves: "B ee"},
		{name: "junk after the last )", input: "(;SZ[9];B[ee])\n-- end of game --)\n", moves: "B ee"},
		{name: "white space around values", input: "(;SZ [9]\nAB [aa]\n [bb] ;B\t[ee])", moves: "B ee"},
		{name: "control characters between nodes", input: "(;SZ[9]\x00;B[ee]\f)", moves: "B ee"},
		{name: "passes as empty value and tt", input: "(;SZ[19];B[];W[tt];B[pd])", moves: "B tt W tt B pd"},
		{
			name:  "tt is a point above 19x19",
			input: "(;SZ[21];B[tt])",
			moves: "B tt",
			check: func(t *testing.T, g *Game) {
				if m := g.Root.Children[0].Move; m.Point != board.At(19, 19) {
					t.Errorf("B[tt] on 21x21 = %v", m.Point)
				}
			},
		},
		{
			name:  "FF[3] file",
			input: "(;FF[3]GM[1]SZ[19]GN[Old]PB[Black]PW[White]RE[B+R]\n;B[pd];W[tt];B[tt])",
			moves: "B pd W tt B tt",
			check: func(t *testing.T, g *Game) {
				if g.Info.Result != "B+R" || g.Root.Property("GN")[0] != "Old" || g.Root.Property("FF") != nil {
					t.Errorf("info %+v, props %q", g.Info, g.Root.Props)
				}
			},
		},
		{
			name:  "no GM and no SZ mean Go on 19x19",
			input: "(;KM[6.5];B[pd])",
			moves: "B pd",
			check: func(t *testing.T, g *Game) {
				if g.Size() != 19 || g.Info.Komi != 6.5 {
					t.Errorf("info %+v", g.Info)
				}
			},
		},
		{
			name:  "game information",
			input: "(;GM[1]SZ[ 13:13 ]KM[-5.5]HA[0]PB[B p]PW[W p]BR[9p]WR[8d]RE[W+0.5]RU[Japanese]DT[2001-02-03]EV[Cup])",
			check: func(t *testing.T, g *Game) {
				want := Info{Size: 13, Komi: -5.5, Black: "B p", White: "W p", BlackRank: "9p", WhiteRank: "8d",
					Result: "W+0.5", Rules: "Japanese", Date: "2001-02-03", Event: "Cup"}
				if g.Info != want {
					t.Errorf("info %+v, want %+v", g.Info, want)
				}
				if len(g.Root.Props) != 0 {
					t.Errorf("props %q", g.Root.Props)
				}
			},
		},
		{
			name:  "escapes and soft line breaks",
			input: "(;C[a\\]b\\\\c\\:d\\\ne\\\r\nf])",
			check: func(t *testing.T, g *Game) {
				if want := "a]b\\c:def"; g.Root.Comment != want {
					t.Errorf("comment %q, want %q", g.Root.Comment, want)
				}
			},
		},
		{
			name:  "line breaks become \\n",
			input: "(;C[a\r\nb\rc\n\rd\ne])",
			check: func(t *testing.T, g *Game) {
				if want := "a\nb\nc\nd\ne"; g.Root.Comment != want {
					t.Errorf("comment %q, want %q", g.Root.Comment, want)
				}
			},
		},
		{
			name:  "setup and markup in a fixed order",
			input: "(;SZ[9]AE[dd]AW[cc]AB[aa:bb][ee]SQ[ee]LB[ff:x:y]TR[gg]SL[hh]MA[ii]CR[ab])",
			check: func(t *testing.T, g *Game) {
				setup := []Stone{{pt("aa"), board.Black}, {pt("ba"), board.Black}, {pt("ab"), board.Black},
					{pt("bb"), board.Black}, {pt("ee"), board.Black}, {pt("cc"), board.White}, {pt("dd"), board.Empty}}
				if !reflect.DeepEqual(g.Root.Setup, setup) {
					t.Errorf("setup %v, want %v", g.Root.Setup, setup)
				}
				marks := []Mark{{Label, pt("ff"), "x:y"}, {Triangle, pt("gg"), ""}, {Square, pt("ee"), ""},
					{Circle, pt("ab"), ""}, {Cross, pt("ii"), ""}, {Selected, pt("hh"), ""}}
				if !reflect.DeepEqual(g.Root.Markup, marks) {
					t.Errorf("markup %v, want %v", g.Root.Markup, marks)
				}
			},
		},
		{
			name:  "other properties kept verbatim and in order",
			input: "(;GN[g]XX[1][2]AP[a:b]KM[0.5];B[aa]ZZ[]TB[bb];GM[3]SZ[5])",
			moves: "B aa",
			check: func(t *testing.T, g *Game) {
				root := []Property{{"GN", []string{"g"}}, {"XX", []string{"1", "2"}}, {"AP", []string{"a:b"}}}
				node := []Property{{"ZZ", []string{""}}, {"TB", []string{"bb"}}}
				last := []Property{{"GM", []string{"3"}}, {"SZ", []string{"5"}}} // meaningful only at the root
				if ml := g.MainLine(); !reflect.DeepEqual(ml[0].Props, root) || !reflect.DeepEqual(ml[1].Props, node) ||
					!reflect.DeepEqual(ml[2].Props, last) {
					t.Errorf("props %q %q %q", ml[0].Props, ml[1].Props, ml[2].Props)
				}
			},
		},
		{
			name:  "PL",
			input: "(;PL[w];W[aa]PL[1])",
			moves: "W aa",
			check: func(t *testing.T, g *Game) {
				if g.Root.ToPlay != board.White || g.Root.Children[0].ToPlay != board.Black {
					t.Errorf("PL %v %v", g.Root.ToPlay, g.Root.Children[0].ToPlay)
				}
			},
		},
		{
			name:  "repeated comments are joined",
			input: "(;C[one]C[two][three])",
			check: func(t *testing.T, g *Game) {
				if g.Root.Comment != "one\ntwo\nthree" {
					t.Errorf("comment %q", g.Root.Comment)
				}
			},
		},
		{
			name:  "variations",
			input: "(;SZ[9];B[ee](;W[cc];B[gg])(;W[gg](;B[cc])(;B[cg])))",
			moves: "B ee W cc B gg",
			check: func(t *testing.T, g *Game) {
				n, err := g.NodeAt([]int{0, 1, 1})
				if err != nil || n.Move.Point != pt("cg") || n.Parent.Move.Point != pt("gg") {
					t.Errorf("NodeAt(0,1,1) = %v, %v", n, err)
				}
			},
		},
		{name: "a node without properties", input: "(;;B[aa];)", moves: "B aa"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parseOne(t, tc.input)
			if got := mainMoves(g); got != tc.moves {
				t.Errorf("moves %q, want %q", got, tc.moves)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  error
		msg   string // part of the message
	}{
		{"empty input", "", ErrSyntax, "no game tree"},
		{"white space only", " \r\n\t", ErrSyntax, "no game tree"},
		{"text without a game", "a (remark) only", ErrSyntax, "no game tree"},
		{"property after a variation (the library panics)", "(;B[aa](;W[bb])C[x])", ErrSyntax, "property outside a node"},
		{"node after a variation (the library misplaces it)", "(;B[aa](;W[bb]);W[cc])", ErrSyntax, "node after a variation"},
		{"tree not closed", "(;B[aa](;W[bb])", ErrSyntax, "1 game tree(s) not closed"},
		{"value not closed", "(;SZ[9]\n;C[abc)", ErrSyntax, "line 2, column 3: value not closed"},
		{"backslash at the end", "(;C[abc\\", ErrSyntax, "value not closed"},
		{"empty game tree", "(;B[aa]())", ErrSyntax, "empty game tree"},
		{"'(' after '('", "(;B[aa]((;W[bb])))", ErrSyntax, "'(' where a node"},
		{"value without identifier", "(;[aa])", ErrSyntax, "without a property identifier"},
		{"identifier without value", "(;B;W[aa])", ErrSyntax, "property B has no value"},
		{"identifier without upper case", "(;b[aa])", ErrSyntax, "no upper-case letter"},
		{"identifier too long", "(;" + strings.Repeat("A", maxIdentLen+1) + "[x])", ErrSyntax, "identifier of 65 letters"},
		{"unexpected character", "(;B[aa]\n ;W[bb]é)", ErrSyntax, "line 2, column 8: unexpected character 'é'"},
		{"not Go", "(;GM[2])", ErrUnsupported, "GM[2]"},
		{"rectangular board", "(;SZ[9:13])", ErrUnsupported, "rectangular"},
		{"board too large", "(;SZ[26])", ErrUnsupported, "board size 26"},
		{"board too small", "(;SZ[1])", ErrUnsupported, "board size 1"},
		{"size not a number", "(;SZ[big])", ErrInvalid, "SZ[big]"},
		{"komi not a number", "(;KM[six])", ErrInvalid, "komi"},
		{"komi NaN", "(;KM[NaN])", ErrInvalid, "komi"},
		{"negative handicap", "(;HA[-2])", ErrInvalid, "handicap"},
		{"move off the board", "(;SZ[9]\n;B[aa]\n;W[jj])", ErrInvalid, "line 3: W: invalid sgf property: point \"jj\" is outside the 9x9 board"},
		{"move of one letter", "(;B[a])", ErrInvalid, "not two letters"},
		{"two moves in a node", "(;B[aa]W[bb])", ErrInvalid, "second move"},
		{"move with two values", "(;B[aa][bb])", ErrInvalid, "one value"},
		{"pass in a point list", "(;AB[tt])", ErrInvalid, "not a point"},
		{"corner of a rectangle off the board", "(;SZ[9]AB[aa:zz])", ErrInvalid, "outside"},
		{"bad PL", "(;PL[X])", ErrInvalid, "not a colour"},
		{"label without text", "(;LB[aa])", ErrInvalid, "point:text"},
		{"label without point", "(;LB[:x])", ErrInvalid, "no point"},
		{"unknown character set", "(;CA[Klingon]C[\xff])", ErrUnsupported, "CA[Klingon]"},
		{"second game broken", "(;B[aa])\n(;B[zz])", ErrInvalid, "game 2: line 2"},
		{"too many nodes", "(" + strings.Repeat(";", maxNodes+1) + ")", ErrTooLarge, "nodes"},
		{"point lists too long", "(;" + strings.Repeat("AB[aa:yy]", maxPoints/625+1) + "SZ[25])", ErrTooLarge, "points"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games, err := Parse([]byte(tc.input))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Parse(%.40q) = %v, want %v containing %q", tc.input, err, tc.want, tc.msg)
			}
			if games != nil {
				t.Errorf("games returned with the error")
			}
		})
	}
}

func TestInputSizeLimit(t *testing.T) {
	if _, err := Parse(make([]byte, MaxInputSize+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Parse of %d bytes = %v, want ErrTooLarge", MaxInputSize+1, err)
	}
	// Load stops reading at the limit, even from an endless reader.
	if _, err := Load(endless{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Load(endless) = %v, want ErrTooLarge", err)
	}
}

// endless reads white space forever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func TestLoadFile(t *testing.T) {
	games, err := LoadFile("../../assets/games/pro-Minigo-020303.sgf")
	if err != nil || len(games) != 1 || games[0].Size() != 9 {
		t.Fatalf("LoadFile = %v, %v", games, err)
	}
	if _, err := LoadFile("testdata/missing.sgf"); err == nil || !strings.Contains(err.Error(), "missing.sgf") {
		t.Errorf("LoadFile(missing) = %v", err)
	}
	if _, err := Load(io.MultiReader(strings.NewReader("(;B[aa]"), failing{})); err == nil {
		t.Error("Load of a failing reader succeeded")
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestSeveralGames(t *testing.T) {
	games, err := Parse([]byte("(;SZ[9]PB[one];B[ee])\n(;SZ[13]PB[two];W[gg])(;PB[three])"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, g.Info.Black+":"+mainMoves(g))
	}
	if want := []string{"one:B ee", "two:W gg", "three:"}; !reflect.DeepEqual(got, want) {
		t.Errorf("games %q, want %q", got, want)
	}
}

// TestLongValueLinear checks that long values never reach the library's lexer, whose time is quadratic in
// a value's length (a 1 MB comment took minutes): the library sees every value empty.
func TestLongValueLinear(t *testing.T) {
	text := strings.Repeat("Lorem ipsum [dolor\\] sit\\\\ amet. ", 1<<20/32)
	input := "(;SZ[19]C[" + text + "];B[pd]C[" + text + "])"
	s := newScanner(input)
	if !s.nextTree() {
		t.Fatal("no tree")
	}
	raw, err := s.tree()
	if err != nil {
		t.Fatal(err)
	}
	if raw.skeleton != "(;SZ[]C[];B[]C[])" {
		t.Errorf("skeleton %.80q", raw.skeleton)
	}
	start := time.Now()
	g := parseOne(t, input)
	t.Logf("two %d-byte comments parsed in %v", len(text), time.Since(start))
	want := strings.NewReplacer("\\]", "]", "\\\\", "\\").Replace(text)
	if g.Root.Comment != want || g.Root.Children[0].Comment != want {
		t.Error("long comment changed")
	}
}

func BenchmarkParseLongComment(b *testing.B) {
	input := []byte("(;C[" + strings.Repeat("x", 1<<20) + "])")
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		if _, err := Parse(input); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseGame(b *testing.B) {
	games, err := LoadFile("../../assets/games/Agon-01-8.sgf")
	if err != nil {
		b.Fatal(err)
	}
	var buf strings.Builder
	if err := games[0].Save(&buf); err != nil {
		b.Fatal(err)
	}
	input := []byte(buf.String())
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		if _, err := Parse(input); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDeepTrees checks that long main lines and deep nesting neither overflow the stack nor take
// quadratic time, in loading, replaying and saving.
func TestDeepTrees(t *testing.T) {
	const long, deep = 100_000, 10_000
	var sb strings.Builder
	sb.WriteString("(;SZ[9]")
	for range long / 2 {
		sb.WriteString(";B[];W[]")
	}
	sb.WriteString(")")
	g := parseOne(t, sb.String())
	if n := len(g.MainLine()); n != long+1 {
		t.Errorf("main line of %d nodes, want %d", n, long+1)
	}
	if p, err := g.PositionAfter(-1); err != nil || p.MoveNumber != long {
		t.Errorf("PositionAfter(-1) = move %d, %v", p.MoveNumber, err)
	}
	if d := diffGames(g, roundTrip(t, g)); d != "" {
		t.Errorf("long main line round trip: %s", d)
	}

	// Each variation nested in the previous one, with one child: a main line of deep+1 nodes.
	nested := strings.Repeat("(;B[]", deep+1) + strings.Repeat(")", deep+1)
	g = parseOne(t, nested)
	if n := len(g.MainLine()); n != deep+1 {
		t.Errorf("nested: main line of %d nodes, want %d", n, deep+1)
	}
	if d := diffGames(g, roundTrip(t, g)); d != "" {
		t.Errorf("nested round trip: %s", d)
	}

	// Each level branching in two: variations really nested deep levels deep.
	branching := strings.Repeat("(;B[]", deep) + "(;B[])" + strings.Repeat("(;W[]))", deep)
	g = parseOne(t, branching)
	ml := g.MainLine()
	if len(ml) != deep+1 || len(ml[deep-1].Children) != 2 || ml[deep-1].Children[1].Move.Color != board.White {
		t.Errorf("branching: main line of %d nodes", len(ml))
	}
	if d := diffGames(g, roundTrip(t, g)); d != "" {
		t.Errorf("branching round trip: %s", d)
	}
}
