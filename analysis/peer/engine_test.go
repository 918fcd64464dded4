package peer

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/peer/peertest"
)

func TestMain(m *testing.M) {
	peertest.ServeIfChild()
	os.Exit(m.Run())
}

func ajiCommand(t *testing.T) string { return peertest.Command(t) }

func gnugo(t *testing.T) string {
	if _, err := os.Stat("/usr/games/gnugo"); err != nil {
		t.Skip("GNU Go is not installed at /usr/games/gnugo (apt install gnugo); skipping")
	}
	return "/usr/games/gnugo --mode gtp --level 1"
}

func guard(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// position9 is a 9x9 game of a few moves.
func position9(t *testing.T) *game.Position {
	t.Helper()
	return parsePosition(t, "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[gc])")
}

func parsePosition(t *testing.T, sgf string) *game.Position {
	t.Helper()
	gs, err := game.Parse([]byte(sgf))
	if err != nil || len(gs) != 1 {
		t.Fatal(err)
	}
	pos, err := gs[0].PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func newEngine(t *testing.T, cmd string) *Engine {
	e := New(cmd)
	t.Cleanup(e.Close)
	return e
}

func checkGenmove(t *testing.T, e *Engine, pos *game.Position) {
	t.Helper()
	ctx := guard(t)
	p, err := e.Genmove(ctx, pos, pos.ToPlay)
	if err != nil {
		t.Fatalf("genmove: %v", err)
	}
	if p != board.Pass && !pos.Board.Legal(p, pos.ToPlay) {
		t.Fatalf("genmove gave %s, not legal in\n%v", p.GTP(9), &pos.Board)
	}
	// The engine's game is still pos: the same stones, and it can be asked again.
	for _, c := range []board.Color{board.Black, board.White} {
		eng, _ := e.running(ctx)
		text, err := eng.Send(ctx, "list_stones "+colorName(c))
		if err != nil {
			t.Fatalf("list_stones: %v", err)
		}
		if len(strings.Fields(text)) != count(pos, c) {
			t.Errorf("after genmove the engine holds %q for %v, want %d stones", text, c, count(pos, c))
		}
	}
	if _, err := e.Genmove(ctx, pos, pos.ToPlay); err != nil {
		t.Fatalf("second genmove: %v", err)
	}
}

func count(pos *game.Position, c board.Color) int {
	n := 0
	for y := range pos.Board.Size() {
		for x := range pos.Board.Size() {
			if pos.Board.At(board.At(x, y)) == c {
				n++
			}
		}
	}
	return n
}

func TestGenmoveGNUGo(t *testing.T) {
	e := newEngine(t, gnugo(t))
	checkGenmove(t, e, position9(t))
	if st := e.State(); !st.Running || !strings.Contains(st.Name, "GNU Go") || st.Err != nil {
		t.Errorf("state %+v, want running GNU Go", st)
	}
}

func TestGenmoveAji(t *testing.T) {
	e := newEngine(t, ajiCommand(t))
	checkGenmove(t, e, position9(t))
	if st := e.State(); !st.Running || !strings.Contains(st.Name, "Aji") {
		t.Errorf("state %+v, want running Aji", st)
	}
}

// A board that its moves do not give (setup stones) is placed stone by stone.
func TestSetupStones(t *testing.T) {
	pos := parsePosition(t, "(;GM[1]FF[4]SZ[9]AB[cc][dd]AW[ee];B[gg])")
	cmds := setup(pos)
	want := []string{"boardsize 9", "clear_board", "komi 0", "play black C7", "play black D6", "play white E5", "play black G3"}
	if strings.Join(cmds, ";") != strings.Join(want, ";") {
		t.Errorf("setup = %q, want %q", cmds, want)
	}
	e := newEngine(t, gnugo(t))
	checkGenmove(t, e, pos)
}

func TestAnalyzeGNUGo(t *testing.T) {
	e := newEngine(t, gnugo(t))
	ctx := guard(t)
	cmds, err := e.AnalyzeCommands(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byCmd := map[string]AnalyzeCommand{}
	for _, c := range cmds {
		byCmd[c.Command] = c
	}
	pos := position9(t)
	infl, ok := byCmd["initial_influence white territory_value"]
	if !ok {
		t.Fatalf("no influence among %v", cmds)
	}
	g, err := e.Run(ctx, pos, infl)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Influence) != 81 {
		t.Fatalf("influence of %d points, want 81", len(g.Influence))
	}
	// White's territory around its stone at C7 is negative (White's) on the scaled map.
	if v := g.Influence[mustPoint(t, "B8")]; v >= 0 {
		t.Errorf("influence at B8 (near White's C7) = %v, want < 0", v)
	}
	top, err := e.Run(ctx, pos, byCmd["top_moves_black"])
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Labels) == 0 || !pos.Board.Legal(top.Labels[0].Point, board.Black) {
		t.Errorf("top moves %+v, want labels on legal points", top.Labels)
	}
}

func TestAnalyzeAji(t *testing.T) {
	e := newEngine(t, ajiCommand(t))
	ctx := guard(t)
	cmds, err := e.AnalyzeCommands(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var heat, terr AnalyzeCommand
	for _, c := range cmds {
		switch c.Command {
		case "aji-heatmap uniform":
			heat = c
		case "aji-territory":
			terr = c
		}
	}
	if heat.Type != "gfx" || terr.Type != "gfx" {
		t.Fatalf("analyze commands %+v lack aji-heatmap uniform and aji-territory as gfx", cmds)
	}
	pos := position9(t)
	g, err := e.Run(ctx, pos, terr)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Influence) != 81 || !strings.Contains(g.Text, "territory") {
		t.Errorf("territory: %d influence points, text %q", len(g.Influence), g.Text)
	}
	h, err := e.Run(ctx, pos, heat)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Colors) == 0 || h.Text == "" {
		t.Errorf("heat map %+v: want colours and a status line", h)
	}
}

func mustPoint(t *testing.T, s string) board.Point {
	p, err := board.ParseGTP(s, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Engines that die at once, or print what is not GTP, give errors, leave the engine down until
// Restart, and never hang.
func TestBrokenEngines(t *testing.T) {
	pos := position9(t)
	for _, cmd := range []string{
		`sh -c 'exit 3'`,
		`sh -c 'while read l; do echo garbage; echo; done'`,
		`/nonexistent/engine --gtp`,
	} {
		t.Run(cmd, func(t *testing.T) {
			e := newEngine(t, cmd)
			ctx := guard(t)
			if _, err := e.Genmove(ctx, pos, board.Black); err == nil {
				t.Fatal("genmove succeeded")
			}
			st := e.State()
			if st.Running || st.Err == nil {
				t.Fatalf("state %+v, want down with a reason", st)
			}
			if _, err := e.AnalyzeCommands(ctx); !errors.Is(err, ErrDown) {
				t.Errorf("while down: %v, want ErrDown", err)
			}
			if err := e.Restart(ctx); err == nil {
				t.Error("restart succeeded")
			}
		})
	}
}

// An engine that starts well, then answers garbage, is down; Restart brings it back.
func TestGarbageThenRestart(t *testing.T) {
	// Answers the start (protocol_version, name, version) and then garbage.
	script := `n=0; while read id cmd rest; do n=$((n+1)); if [ $n -le 3 ]; then printf "=$id 2\n\n"; else echo 'gobbledygook'; echo; fi; done`
	e := newEngine(t, "sh -c '"+strings.ReplaceAll(script, "'", `'\''`)+"'")
	ctx := guard(t)
	if _, err := e.Genmove(ctx, position9(t), board.Black); !errors.Is(err, ErrDown) {
		t.Fatalf("genmove: %v, want ErrDown", err)
	}
	if err := e.Restart(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	if st := e.State(); !st.Running || st.Err != nil {
		t.Errorf("after restart: %+v", st)
	}
}

// A hanging engine is killed at the deadline and reported down; a cancelled request only stops it.
func TestHangAndCancel(t *testing.T) {
	// Answers the start, then never again.
	script := `n=0; while read id cmd rest; do n=$((n+1)); if [ $n -le 3 ]; then printf "=$id 2\n\n"; fi; done`
	e := newEngine(t, "sh -c '"+script+"'")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := e.Genmove(ctx, position9(t), board.Black); !errors.Is(err, ErrDown) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("genmove: %v, want ErrDown after the deadline", err)
	}
	if st := e.State(); st.Err == nil {
		t.Fatal("not down after hanging")
	}

	c := New("sh -c '" + script + "'")
	t.Cleanup(c.Close)
	cctx, ccancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); ccancel() }()
	if _, err := c.Genmove(cctx, position9(t), board.Black); !errors.Is(err, context.Canceled) {
		t.Fatalf("genmove: %v, want cancelled", err)
	}
	if st := c.State(); st.Err != nil || st.Running {
		t.Errorf("after cancel: %+v, want stopped, not down", st)
	}
}
