package peer

import (
	"errors"
	"testing"

	"aji/analysis/board"
)

func TestParseGfx(t *testing.T) {
	text := "INFLUENCE a9 0.5 b9 -2\nLABEL c3 12 d4 x\nMARK e5\nSQUARE f6 pass\nTRIANGLE g7\nCIRCLE h8\n" +
		"COLOR #ff0000 a1 b1\nBLACK c1\nWHITE d1\nVAR b e1 w pass\nTEXT win rate 55%\n"
	g, err := ParseGfx(text, 9)
	if err != nil {
		t.Fatal(err)
	}
	pt := func(s string) board.Point { return mustPoint(t, s) }
	if g.Influence[pt("A9")] != 0.5 || g.Influence[pt("B9")] != -1 || len(g.Influence) != 2 {
		t.Errorf("influence %v", g.Influence)
	}
	if len(g.Labels) != 2 || g.Labels[0] != (Label{pt("C3"), "12"}) || g.Labels[1] != (Label{pt("D4"), "x"}) {
		t.Errorf("labels %v", g.Labels)
	}
	if len(g.Marks) != 1 || len(g.Squares) != 1 || len(g.Triangles) != 1 || len(g.Circles) != 1 || g.Squares[0] != pt("F6") {
		t.Errorf("marks %v %v %v %v", g.Marks, g.Squares, g.Triangles, g.Circles)
	}
	if len(g.Colors) != 1 || g.Colors[0].Color != "#ff0000" || len(g.Colors[0].Points) != 2 {
		t.Errorf("colors %v", g.Colors)
	}
	if len(g.Stones) != 2 || g.Stones[1] != (Move{board.White, pt("D1")}) {
		t.Errorf("stones %v", g.Stones)
	}
	if len(g.Var) != 2 || g.Var[0] != (Move{board.Black, pt("E1")}) || g.Var[1] != (Move{board.White, board.Pass}) {
		t.Errorf("var %v", g.Var)
	}
	if g.Text != "win rate 55%" {
		t.Errorf("text %q", g.Text)
	}
	if c, _ := ParseGfx("LABEL a1 x\nCLEAR\nMARK b2", 9); len(c.Labels) != 0 || len(c.Marks) != 1 {
		t.Errorf("CLEAR kept %+v", c)
	}
	for _, bad := range []string{"BOGUS a1", "INFLUENCE a1", "INFLUENCE a1 x", "LABEL z99 1", "VAR q a1", "MARK a10", "COLOR"} {
		if _, err := ParseGfx(bad, 9); !errors.Is(err, ErrGarbage) {
			t.Errorf("ParseGfx(%q) = %v, want ErrGarbage", bad, err)
		}
	}
}

func TestParseAnalyzeCommands(t *testing.T) {
	cmds, err := ParseAnalyzeCommands("gfx/Heat/aji-heatmap cnn\n\nparam/Settings/aji-param\nplist/Dead/final_status_list dead\ngfx/Ask/eval %p\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []AnalyzeCommand{{Type: "gfx", Label: "Heat", Command: "aji-heatmap cnn"}, {Type: "plist", Label: "Dead", Command: "final_status_list dead"}}
	if len(cmds) != len(want) || cmds[0] != want[0] || cmds[1] != want[1] {
		t.Errorf("got %+v, want %+v", cmds, want)
	}
	if _, err := ParseAnalyzeCommands("just words"); !errors.Is(err, ErrGarbage) {
		t.Errorf("garbage: %v", err)
	}
}

func TestParseAnswers(t *testing.T) {
	g, err := parseAnswer("dboard", "1 -2\n0 0.5\n", 2)
	if err != nil {
		t.Fatal(err)
	}
	if g.Influence[board.At(0, 0)] != 0.5 || g.Influence[board.At(1, 0)] != -1 || g.Influence[board.At(1, 1)] != 0.25 {
		t.Errorf("dboard %v", g.Influence)
	}
	for _, c := range []struct{ typ, text string }{{"dboard", "1 2\n3\n"}, {"dboard", "1 x\n1 2"}, {"plist", "A1 zz"}, {"pspairs", "A1"}} {
		if _, err := parseAnswer(c.typ, c.text, 2); !errors.Is(err, ErrGarbage) {
			t.Errorf("%s %q: %v, want ErrGarbage", c.typ, c.text, err)
		}
	}
}
