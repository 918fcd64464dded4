package game

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toikarin/sgf"

	"aji/analysis/board"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct{ name, input string }{
		{"moves and passes", "(;SZ[9]KM[7]RU[Chinese];B[ee];W[];B[tt];W[cc])"},
		{"escapes in comments", "(;C[a \\] b \\\\ c \\\\\\] d];B[pd]C[ends with a backslash\\\\])"},
		{"line breaks", "(;C[line 1\nline 2\r\n\nline 4\\\nstill 4])"},
		{"game information", "(;SZ[13]HA[3]KM[0.5]PB[Black \\] name]PW[W]BR[1d]WR[2d]RE[B+R]RU[AGA]DT[2020]EV[E]GN[g]PC[p])"},
		{"setup and markup", "(;SZ[9]AB[aa:cc]AW[dd][ee]AE[bb]PL[W]LB[ff:a\\]b:c][gg:]TR[hh]SQ[ii]CR[ah]MA[bh]SL[ch];W[ff])"},
		{"unknown properties", "(;XA[1][2]XB[]AP[Tool:1.0];B[aa]TB[bb][cc]BL[12.5]OB[3];XA[x]FF[4]SZ[5])"},
		{"variations", "(;SZ[9];B[ee](;W[cc](;B[gg])(;B[gc];W[cg]))(;W[gg]C[second])(;W[]))"},
		{"variations at the root", "(;SZ[9](;B[ee])(;B[cc]))"},
		{"non-ASCII text", "(;PB[趙治勲]C[Jōkyō 4 — ½ point])"},
		{"empty nodes", "(;;;B[aa];)"},
		{"FF[3] with lower-case identifiers", "(;FF[3]GaMe[1]SiZe[9]CoPyright[c];Black[ee];White[tt])"},
		{"a large board", "(;SZ[25];B[yy];W[tt];B[aa])"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parseOne(t, tc.input)
			if d := diffGames(g, roundTrip(t, g)); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestRoundTripFiles round-trips the sample games, whose bytes are those of the data archives.
func TestRoundTripFiles(t *testing.T) {
	files, err := filepath.Glob("../../assets/games/*.sgf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample games: %v", err)
	}
	for _, f := range files {
		games, err := LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if d := diffGames(g, roundTrip(t, g)); d != "" {
				t.Errorf("%s: %s", f, d)
			}
		}
	}
}

func TestSaveFormat(t *testing.T) {
	g := parseOne(t, "(;GM[1]FF[3]CA[latin1]SZ[9]PB[A]C[c\\]];B[ee](;W[cc])(;W[gg]))")
	var buf bytes.Buffer
	if err := g.Save(&buf); err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[0]PB[A]C[c\\]]\n ;B[ee]\n(;W[cc])\n(;W[gg]))\n"
	if buf.String() != want {
		t.Errorf("saved\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestSaveDeepTreeOnOneLine(t *testing.T) {
	g, _ := New(9)
	n := g.Root
	for range lineDepth + 1 {
		n.AddChild(&Node{Comment: "side"})
		n = n.AddChild(&Node{})
	}
	var buf bytes.Buffer
	if err := g.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(buf.String(), "\n"); lines != 1 {
		t.Errorf("%d lines, want 1", lines)
	}
	if d := diffGames(g, roundTrip(t, g)); d != "" {
		t.Error(d)
	}
}

// TestLibraryEscapes checks the library's writer, which Save relies on: "]" and "\" escaped, nothing else.
func TestLibraryEscapes(t *testing.T) {
	c, _, n := sgf.NewCollection()
	n.NewProperty("C", `a]b\c:d`+"\n", `\`)
	if got, want := c.Sgf(sgf.NoNewLinesSgfFormat), "(;C[a\\]b\\\\c:d\n][\\\\])"; got != want {
		t.Errorf("library wrote %q, want %q", got, want)
	}
}

// TestNoLibraryRemove keeps this package off the library's Remove*At methods, which corrupt the tree
// (RemoveNodeAt and RemoveGameTreeAt keep the wrong elements).
var libraryRemove = regexp.MustCompile(`\.Remove(GameTree|Node|Property)(At)?\(`)

func TestNoLibraryRemove(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The library's tree-editing methods: RemoveGameTree(At), RemoveNode(At), RemoveProperty(At).
		if m := libraryRemove.Find(src); m != nil {
			t.Errorf("%s calls %s of the sgf library", f, m)
		}
	}
}

func TestBuildAndSave(t *testing.T) {
	g, err := New(9)
	if err != nil {
		t.Fatal(err)
	}
	g.Info.Komi = 7
	g.Info.Black = "Aji"
	n := g.Root
	for i, p := range []board.Point{pt("ee"), pt("cc"), board.Pass} {
		c := board.Black
		if i%2 == 1 {
			c = board.White
		}
		n = n.AddChild(&Node{Move: &Move{Color: c, Point: p}})
	}
	n.Comment = "end"
	again := roundTrip(t, g)
	if d := diffGames(g, again); d != "" {
		t.Error(d)
	}
	if mainMoves(again) != "B ee W cc B tt" {
		t.Errorf("moves %q", mainMoves(again))
	}
	if _, err := New(26); !errors.Is(err, ErrUnsupported) {
		t.Errorf("New(26) = %v", err)
	}
}

func TestSaveErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(g *Game)
		msg  string
	}{
		{"no root", func(g *Game) { g.Root = nil }, "no root"},
		{"bad size", func(g *Game) { g.Info.Size = 30 }, "board size 30"},
		{"move colour", func(g *Game) { g.Root.Move = &Move{Color: board.Empty, Point: pt("aa")} }, "move of colour"},
		{"move off the board", func(g *Game) { g.Root.Move = &Move{Color: board.Black, Point: pt("kk")} }, "off the board"},
		{"setup off the board", func(g *Game) { g.Root.Setup = []Stone{{board.NoPoint, board.Black}} }, "setup stone"},
		{"setup colour", func(g *Game) { g.Root.Setup = []Stone{{pt("aa"), board.Edge}} }, "setup stone edge"},
		{"mark off the board", func(g *Game) { g.Root.Markup = []Mark{{Circle, board.Pass, ""}} }, "off the board"},
		{"PL colour", func(g *Game) { g.Root.ToPlay = board.Edge }, "PL"},
		{"lower-case identifier", func(g *Game) { g.Root.Props = []Property{{"Xy", []string{"1"}}} }, "upper-case"},
		{"empty identifier", func(g *Game) { g.Root.Props = []Property{{"", []string{"1"}}} }, "identifier"},
		{"managed property", func(g *Game) { g.Root.Props = []Property{{"B", []string{"aa"}}} }, "belongs in its field"},
		{"game information", func(g *Game) { g.Root.Props = []Property{{"KM", []string{"6.5"}}} }, "belongs in its field"},
		{"no value", func(g *Game) { g.Root.Props = []Property{{"XX", nil}} }, "no value"},
		{"cycle", func(g *Game) { g.Root.Children[0].Children = []*Node{g.Root.Children[0]} }, "another parent"},
		{"child without parent", func(g *Game) { g.Root.Children[0].Parent = nil }, "another parent"},
		{"root with a parent", func(g *Game) { g.Root.Parent = g.Root.Children[0] }, "no root"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parseOne(t, "(;SZ[9];B[aa])")
			tc.edit(g)
			err := g.Save(&bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Save = %v, want an error with %q", err, tc.msg)
			}
		})
	}
}

func TestSaveDepthLimit(t *testing.T) {
	g, _ := New(9)
	n := g.Root
	for range maxSaveDepth + 1 {
		n.AddChild(&Node{})
		n = n.AddChild(&Node{})
	}
	if err := g.Save(&bytes.Buffer{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Save of %d nested variations = %v, want ErrTooLarge", maxSaveDepth+1, err)
	}
}

func TestSaveWriteError(t *testing.T) {
	g, _ := New(9)
	if err := g.Save(failingWriter{}); err == nil {
		t.Error("Save to a failing writer succeeded")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
