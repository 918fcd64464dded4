package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
)

// The test binary doubles as a fake GTP engine: run with the first argument
// "fake-gtp" it answers commands on stdin, so the client is tested without
// GNU Go.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "fake-gtp" {
		os.Exit(fakeEngine(slices.Contains(os.Args[2:], "stubborn")))
	}
	// The race detector makes a process sleep a second before exiting;
	// the fake engines this binary starts need not.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fakeEngine is a tiny GTP engine. A stubborn one ignores quit and the end
// of its input, to test that Close kills it.
func fakeEngine(stubborn bool) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	size := 19
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		id := ""
		if fields[0][0] >= '0' && fields[0][0] <= '9' {
			id, fields = fields[0], fields[1:]
		}
		ok := func(text string) { fmt.Fprintf(out, "=%s %s\n\n", id, text) }
		fail := func(text string) { fmt.Fprintf(out, "?%s %s\n\n", id, text) }
		arg := func(i int) string {
			if i < len(fields) {
				return fields[i]
			}
			return ""
		}
		switch fields[0] {
		case "protocol_version":
			ok("2")
		case "name":
			ok("Fake Engine")
		case "boardsize":
			fmt.Sscan(arg(1), &size)
			ok("")
		case "query_boardsize":
			ok(fmt.Sprint(size))
		case "clear_board", "komi":
			ok("")
		case "play":
			if arg(2) == "A1" {
				fail("illegal move")
			} else {
				ok("")
			}
		case "genmove":
			if arg(1) == "white" {
				ok("resign")
			} else {
				ok("G7")
			}
		case "loadsgf":
			size = 9
			ok("white")
		case "list_stones":
			ok("A1 B2\nC3")
		case "final_status_list":
			ok("A1 B2\r\nC3 J9")
		case "final_score":
			ok("B+3.5")
		case "showboard":
			ok("\n   A B\n 2 . . 2")
		case "noid":
			fmt.Fprint(out, "= plain\n\n")
		case "wrongid":
			fmt.Fprint(out, "=999 x\n\n")
		case "garbage":
			fmt.Fprint(out, "hello there\n\n")
		case "sleep":
			out.Flush()
			time.Sleep(time.Minute)
		case "crash":
			out.Flush()
			fmt.Fprintln(os.Stderr, "fake engine: boom")
			return 3
		case "quit":
			if stubborn {
				continue
			}
			ok("")
			out.Flush()
			return 0
		default:
			fail("unknown command")
		}
		out.Flush()
	}
	if stubborn {
		time.Sleep(time.Minute)
	}
	return 0
}

func startFake(t *testing.T, extra ...string) *Engine {
	t.Helper()
	cmd := fmt.Sprintf("'%s' fake-gtp %s", os.Args[0], strings.Join(extra, " "))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := Start(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestEngineCommands(t *testing.T) {
	e := startFake(t)
	c := ctx(t)

	if name, err := e.Name(c); err != nil || name != "Fake Engine" {
		t.Errorf("Name = %q, %v", name, err)
	}
	if err := e.BoardSize(c, 9); err != nil || e.Size() != 9 {
		t.Fatalf("BoardSize: %v, size %d", err, e.Size())
	}
	if err := e.Komi(c, 6.5); err != nil {
		t.Error(err)
	}
	if err := e.ClearBoard(c); err != nil {
		t.Error(err)
	}
	if err := e.Play(c, board.Black, board.At(2, 6)); err != nil {
		t.Error(err)
	}
	err := e.Play(c, board.White, board.At(0, 8)) // A1 on 9x9: the fake's illegal move
	var gerr *Error
	if !errors.As(err, &gerr) || gerr.Message != "illegal move" || gerr.Command != "play white A1" {
		t.Errorf("Play A1: %v, want *Error illegal move", err)
	}
	if p, err := e.GenMove(c, board.Black); err != nil || p != board.At(6, 2) {
		t.Errorf("GenMove black = %v, %v; want G7", p, err)
	}
	if _, err := e.GenMove(c, board.White); !errors.Is(err, ErrResigned) {
		t.Errorf("GenMove white: %v, want ErrResigned", err)
	}
	want := []board.Point{board.At(0, 8), board.At(1, 7), board.At(2, 6)}
	if pts, err := e.ListStones(c, board.Black); err != nil || !slices.Equal(pts, want) {
		t.Errorf("ListStones = %v, %v; want %v", pts, err, want)
	}
	want = append(want, board.At(8, 0))
	if pts, err := e.FinalStatusList(c, "dead"); err != nil || !slices.Equal(pts, want) {
		t.Errorf("FinalStatusList = %v, %v; want %v", pts, err, want)
	}
	if s, err := e.FinalScore(c); err != nil || s != "B+3.5" {
		t.Errorf("FinalScore = %q, %v", s, err)
	}
	if s, err := e.Send(c, "showboard"); err != nil || s != "\n   A B\n 2 . . 2" {
		t.Errorf("showboard = %q, %v", s, err)
	}
	if s, err := e.Send(c, "noid"); err != nil || s != "plain" {
		t.Errorf("response without id = %q, %v", s, err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := e.Send(c, "name"); !errors.Is(err, ErrClosed) {
		t.Errorf("Send after Close: %v, want ErrClosed", err)
	}
}

func TestEngineLoadSGF(t *testing.T) {
	e := startFake(t)
	c := ctx(t)
	col, err := e.LoadSGF(c, "/tmp/x.sgf", 0)
	if err != nil || col != board.White || e.Size() != 9 {
		t.Fatalf("LoadSGF = %v, %v, size %d; want white, size 9", col, err, e.Size())
	}
	if _, err := e.LoadSGF(c, "/tmp/a b.sgf", 0); err == nil {
		t.Error("LoadSGF accepted a path with a blank")
	}
}

func TestEngineBadColor(t *testing.T) {
	e := startFake(t)
	if err := e.Play(ctx(t), board.Empty, board.Pass); err == nil {
		t.Error("Play with colour Empty succeeded")
	}
}

func TestEngineTimeoutKills(t *testing.T) {
	e := startFake(t)
	c, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := e.Send(c, "sleep")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("sleep: %v, want DeadlineExceeded", err)
	}
	// The late answer would be mistaken for the next one's: the engine is
	// gone and says why.
	if _, err := e.Send(ctx(t), "name"); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("Send after timeout: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close after kill: %v", err)
	}
}

func TestEngineCrashReportsStderr(t *testing.T) {
	e := startFake(t)
	_, err := e.Send(ctx(t), "crash")
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("crash: %v, want exit status and stderr tail", err)
	}
}

func TestEngineProtocolErrors(t *testing.T) {
	for _, cmd := range []string{"wrongid", "garbage"} {
		e := startFake(t)
		if _, err := e.Send(ctx(t), cmd); err == nil {
			t.Errorf("%s: no error", cmd)
		}
		if _, err := e.Send(ctx(t), "name"); err == nil {
			t.Errorf("%s: engine still used after a broken exchange", cmd)
		}
	}
}

func TestEngineBadCommand(t *testing.T) {
	e := startFake(t)
	if _, err := e.Send(ctx(t), "name\nquit"); err == nil {
		t.Error("command with a newline accepted")
	}
	if _, err := e.Send(ctx(t), "nonesuch"); err == nil {
		t.Error("unknown command succeeded")
	}
	if _, err := e.Send(ctx(t), "name"); err != nil {
		t.Errorf("engine unusable after a failure response: %v", err)
	}
}

func TestEngineCloseKillsStubborn(t *testing.T) {
	old := closeTimeout
	closeTimeout = 300 * time.Millisecond
	defer func() { closeTimeout = old }()
	e := startFake(t, "stubborn")
	done := make(chan error, 1)
	go func() { done <- e.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not kill an engine that ignores quit")
	}
}

func TestEngineCloseInterruptsCommand(t *testing.T) {
	e := startFake(t)
	errc := make(chan error, 1)
	go func() {
		_, err := e.Send(t.Context(), "sleep")
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the command get under way
	e.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("interrupted command: %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not interrupt a command in flight")
	}
}

func TestStartErrors(t *testing.T) {
	for _, cmd := range []string{"", "   ", "'unterminated", "/nonexistent/engine --gtp"} {
		if e, err := Start(ctx(t), cmd); err == nil {
			e.Close()
			t.Errorf("Start(%q) succeeded", cmd)
		}
	}
	// A program that does not speak GTP fails the protocol_version check.
	c, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if e, err := Start(c, "echo hello"); err == nil {
		e.Close()
		t.Error("Start(echo) succeeded")
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"gnugo --mode gtp --level 10", []string{"gnugo", "--mode", "gtp", "--level", "10"}},
		{"  a\tb  ", []string{"a", "b"}},
		{`'/my dir/engine' -x`, []string{"/my dir/engine", "-x"}},
		{`a "b c\" \\d" e`, []string{"a", `b c" \d`, "e"}},
		{`a\ b ''`, []string{"a b", ""}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`'a`, `"a`, `a\`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q): no error", bad)
		}
	}
}
