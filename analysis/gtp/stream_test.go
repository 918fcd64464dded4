package gtp_test

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// growingSearch is an Analyzer whose search deepens from call to call, as a tree kept between calls
// does: every call adds visits to the same candidates.
type growingSearch struct {
	firstLegal
	mu    sync.Mutex
	calls int
}

func (g *growingSearch) Analyze(ctx context.Context, req *gtp.Request) (*gtp.Analysis, error) {
	g.mu.Lock()
	g.calls++
	n := g.calls
	g.mu.Unlock()
	<-ctx.Done() // a search runs until its round is over
	d4, c3 := board.At(3, 5), board.At(2, 6)
	return &gtp.Analysis{Playouts: 10 * n, Candidates: []gtp.Candidate{
		{Move: d4, Visits: 7 * n, WinRate: 0.6, Prior: 0.3, PV: []board.Point{d4, c3}},
		{Move: c3, Visits: 3 * n, WinRate: 0.4, Prior: 0.2, PV: []board.Point{c3}},
		{Move: board.At(4, 4), Visits: 0},
	}}, nil
}

// session runs a server on pipes, for tests that must see a stream's lines before sending more.
type session struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startSession(t *testing.T, srv *gtp.Server) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not end")
		}
	})
	return s
}

func (s *session) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *session) line(t *testing.T) string {
	t.Helper()
	l, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's output: %v (after %q)", err, l)
	}
	return strings.TrimSuffix(l, "\n")
}

// infoFields parses a stream line into its records, each a map of keys to values (pv and ownership
// keep all their words).
func infoFields(t *testing.T, line string) (records []map[string]string, ownership []string) {
	t.Helper()
	words := strings.Fields(line)
	for i := 0; i < len(words); i++ {
		switch words[i] {
		case "info":
			records = append(records, map[string]string{})
		case "ownership":
			ownership = words[i+1:]
			return records, ownership
		case "pv":
			j := i + 1
			for j < len(words) && words[j] != "info" && words[j] != "ownership" {
				j++
			}
			records[len(records)-1]["pv"] = strings.Join(words[i+1:j], " ")
			i = j - 1
		default:
			if len(records) == 0 || i+1 >= len(words) {
				t.Fatalf("stream line %q: %q out of place", line, words[i])
			}
			records[len(records)-1][words[i]] = words[i+1]
			i++
		}
	}
	return records, nil
}

func TestLZAnalyze(t *testing.T) {
	srv := gtp.NewServer(&growingSearch{}, gtp.ServerOptions{Size: 9})
	s := startSession(t, srv)
	s.send(t, "7 lz-analyze B 10")
	if h := s.line(t); h != "=7" {
		t.Fatalf("first line %q, want =7", h)
	}
	prev := 0
	for range 3 {
		recs, own := infoFields(t, s.line(t))
		if len(recs) != 2 || own != nil {
			t.Fatalf("records %v ownership %v: want the 2 candidates with visits", recs, own)
		}
		r := recs[0]
		if r["move"] != "D4" || r["winrate"] != "6000" || r["prior"] != "3000" || r["order"] != "0" || r["pv"] != "D4 C3" {
			t.Errorf("best %v", r)
		}
		v, err := strconv.Atoi(r["visits"])
		if err != nil || v <= prev {
			t.Errorf("visits %q after %d: want more", r["visits"], prev)
		}
		prev = v
		if lcb, err := strconv.Atoi(r["lcb"]); err != nil || lcb >= 6000 || lcb < 0 {
			t.Errorf("lcb %q", r["lcb"])
		}
		if recs[1]["move"] != "C3" || recs[1]["order"] != "1" {
			t.Errorf("second %v", recs[1])
		}
	}
	s.send(t, "8 name")
	// Lines already on their way may come before the stream's end.
	for {
		l := s.line(t)
		if l == "" {
			break
		}
		if !strings.HasPrefix(l, "info ") {
			t.Fatalf("stream line %q", l)
		}
	}
	if l := s.line(t); l != "=8 Aji" {
		t.Errorf("after the stream %q, want =8 Aji", l)
	}
	if l := s.line(t); l != "" {
		t.Errorf("%q, want the end of name's response", l)
	}
}

func TestKataAnalyzeOwnership(t *testing.T) {
	// Black's territory on the left half, White's on the right, as the estimate.
	terr := func(_ context.Context, pos *game.Position, out *[board.NumCells]float64) (string, error) {
		n := pos.Board.Size()
		for y := range n {
			for x := range n {
				out[board.At(x, y)] = map[bool]float64{true: 1, false: -0.5}[x < n/2]
			}
		}
		return "test", nil
	}
	srv := gtp.NewServer(&growingSearch{}, gtp.ServerOptions{Size: 9, Territory: terr})
	s := startSession(t, srv)
	s.send(t, "play b E5")
	if l := s.line(t) + s.line(t); l != "= " {
		t.Fatalf("play: %q", l)
	}
	// White to move: values are White's.
	s.send(t, "kata-analyze interval 5 ownership true")
	if h := s.line(t); h != "=" {
		t.Fatalf("first line %q", h)
	}
	recs, own := infoFields(t, s.line(t))
	if len(recs) != 2 || recs[0]["winrate"] != "0.600000" || recs[0]["prior"] != "0.300000" || recs[0]["utility"] != "0.200000" {
		t.Errorf("records %v", recs)
	}
	if len(own) != 81 {
		t.Fatalf("%d ownership values, want 81", len(own))
	}
	if own[0] != "-1.0000" || own[80] != "0.5000" {
		t.Errorf("ownership A9 %s J1 %s, want -1 and 0.5 from White's side", own[0], own[80])
	}
	s.send(t, "") // a bare newline ends a stream too
	for l := s.line(t); l != ""; l = s.line(t) {
	}
	s.send(t, "known_command kata-analyze")
	if l := s.line(t); l != "= true" {
		t.Errorf("known_command: %q", l)
	}
}

// A stream command queued behind another command ends at once; bad arguments fail as usual.
func TestStreamQueuedAndErrors(t *testing.T) {
	srv := gtp.NewServer(&growingSearch{}, gtp.ServerOptions{Size: 9})
	out := serve(t, srv, "1 lz-analyze 1000\n2 lz-analyze W interval x\n3 kata-analyze 10 ownership maybe\n4 lz-analyze 10 ownership true\n5 name\n")
	resps := splitResponses(t, out)
	want := []string{"=1", "?2 syntax error", "?3 syntax error", "?4 syntax error", "=5 Aji"}
	if len(resps) != len(want) {
		t.Fatalf("responses %q", resps)
	}
	for i, w := range want {
		if resps[i] != w {
			t.Errorf("response %d %q, want %q", i, resps[i], w)
		}
	}
}

// A player that cannot analyse neither lists nor answers the stream commands.
func TestStreamNeedsAnalyzer(t *testing.T) {
	srv := gtp.NewServer(&firstLegal{}, gtp.ServerOptions{Size: 9})
	resps := splitResponses(t, serve(t, srv, "list_commands\nlz-analyze 10\nkata-analyze 10\n"))
	if strings.Contains(resps[0], "analyze\n") || strings.Contains(resps[0], "lz-analyze") {
		t.Errorf("list_commands lists a stream: %q", resps[0])
	}
	for _, r := range resps[1:] {
		if r != "? unknown command" {
			t.Errorf("%q, want unknown command", r)
		}
	}
	srv = gtp.NewServer(&growingSearch{}, gtp.ServerOptions{Size: 9})
	list := splitResponses(t, serve(t, srv, "list_commands\n"))[0]
	for _, c := range []string{"lz-analyze", "kata-analyze"} {
		if !strings.Contains(list, "\n"+c+"\n") && !strings.HasSuffix(list, "\n"+c) {
			t.Errorf("list_commands lacks %s", c)
		}
	}
}
