package gtp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/gtp"
)

// firstLegal is a test player: the first legal move in board order (top left first), or a pass.
type firstLegal struct {
	mu      sync.Mutex
	played  []string
	resets  int
	lastReq *gtp.Request
}

func (f *firstLegal) GenMove(_ context.Context, req *gtp.Request) (board.Point, bool, error) {
	f.mu.Lock()
	f.lastReq = req
	f.mu.Unlock()
	for _, p := range req.Position.Board.Points() {
		if req.Legal(p) {
			return p, false, nil
		}
	}
	return board.Pass, false, nil
}

func (f *firstLegal) Played(c board.Color, p board.Point) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.played = append(f.played, fmt.Sprintf("%v %d", c, p))
}

func (f *firstLegal) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resets++
}

func newTestServer(p gtp.Player) *gtp.Server {
	if p == nil {
		p = &firstLegal{}
	}
	return gtp.NewServer(p, gtp.ServerOptions{Name: "Aji test", Version: "test", Size: 9, Komi: 7, Seed: 1})
}

// serve runs a server over the whole input and returns its output.
func serve(t *testing.T, srv *gtp.Server, input string) string {
	t.Helper()
	var out strings.Builder
	if err := srv.Serve(t.Context(), strings.NewReader(input), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return out.String()
}

// scriptCommand is one command of a test script with what its response must be.
type scriptCommand struct {
	line    int
	text    string
	id      string
	exact   []string // "#>" lines: the whole response, line by line (trailing blanks ignored)
	pattern string   // "#?" GNU Go regression style: [alt1|alt2] against the result, [!...] negates
	fail    bool     // "#!": must fail, with any message
}

// parseScript reads a test script in the style of GNU Go's regression/*.tst: commands, with the
// expected response after them as "#? [regexp]" (GNU Go's form, matched against the result) or as
// "#> " lines holding the whole response (for failures and multi-line results), or "#!" for a failure
// with any message. All are comments to the server. A command with none must simply succeed.
func parseScript(t *testing.T, script string) []scriptCommand {
	var cmds []scriptCommand
	for i, line := range strings.Split(script, "\n") {
		switch {
		case strings.HasPrefix(line, "#>"):
			if len(cmds) == 0 {
				t.Fatalf("line %d: expectation before any command", i+1)
			}
			c := &cmds[len(cmds)-1]
			c.exact = append(c.exact, strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(line, "#>"), " "), " "))
		case strings.HasPrefix(line, "#!"):
			if len(cmds) == 0 {
				t.Fatalf("line %d: expectation before any command", i+1)
			}
			cmds[len(cmds)-1].fail = true
		case strings.HasPrefix(line, "#?"):
			if len(cmds) == 0 {
				t.Fatalf("line %d: expectation before any command", i+1)
			}
			cmds[len(cmds)-1].pattern = strings.TrimSpace(strings.TrimPrefix(line, "#?"))
		default:
			text := line
			if j := strings.IndexByte(text, '#'); j >= 0 {
				text = text[:j]
			}
			words := strings.Fields(text)
			if len(words) == 0 {
				continue
			}
			c := scriptCommand{line: i + 1, text: strings.Join(words, " ")}
			if strings.Trim(words[0], "0123456789") == "" {
				c.id = words[0]
			}
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// splitResponses cuts server output into responses (each without its final empty line), checking that
// every one is framed as the specification says.
func splitResponses(t *testing.T, out string) []string {
	t.Helper()
	if out == "" {
		return nil
	}
	if !strings.HasSuffix(out, "\n\n") {
		t.Fatalf("output does not end with an empty line: %q", out)
	}
	resps := strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n")
	for _, r := range resps {
		if r == "" || (r[0] != '=' && r[0] != '?') || strings.Contains(r, "\r") {
			t.Errorf("badly framed response %q", r)
		}
	}
	return resps
}

var header = regexp.MustCompile(`^([=?])(\d*) `)

func runScript(t *testing.T, srv *gtp.Server, name string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	cmds := parseScript(t, string(data))
	resps := splitResponses(t, serve(t, srv, string(data)))
	if len(resps) != len(cmds) {
		t.Fatalf("%s: %d responses to %d commands:\n%s", name, len(resps), len(cmds), strings.Join(resps, "\n\n"))
	}
	for i, c := range cmds {
		r := resps[i]
		m := header.FindStringSubmatch(r)
		if m == nil {
			t.Errorf("%s:%d %s: response %q has no header", name, c.line, c.text, r)
			continue
		}
		if m[2] != c.id {
			t.Errorf("%s:%d %s: response id %q, want %q", name, c.line, c.text, m[2], c.id)
		}
		result := strings.TrimPrefix(r, m[0])
		switch {
		case c.fail:
			if m[1] != "?" {
				t.Errorf("%s:%d %s: succeeded: %q", name, c.line, c.text, r)
			}
		case c.exact != nil:
			got := strings.Split(r, "\n")
			for j := range got {
				got[j] = strings.TrimRight(got[j], " ")
			}
			if strings.Join(got, "\n") != strings.Join(c.exact, "\n") {
				t.Errorf("%s:%d %s:\n got:\n%s\nwant:\n%s", name, c.line, c.text, r, strings.Join(c.exact, "\n"))
			}
		case c.pattern != "":
			pat := c.pattern
			if !strings.HasPrefix(pat, "[") || !strings.HasSuffix(pat, "]") {
				t.Fatalf("%s:%d: pattern %q is not [regexp]", name, c.line, c.pattern)
			}
			pat = pat[1 : len(pat)-1]
			negate := strings.HasPrefix(pat, "!")
			pat = strings.TrimPrefix(pat, "!")
			re := regexp.MustCompile("^(" + pat + ")$")
			if m[1] != "=" || re.MatchString(result) == negate {
				t.Errorf("%s:%d %s: got %q, want %s", name, c.line, c.text, r, c.pattern)
			}
		case m[1] != "=":
			t.Errorf("%s:%d %s: failed: %q", name, c.line, c.text, r)
		}
	}
}

func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.tst"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			runScript(t, newTestServer(nil), filepath.Base(f))
		})
	}
}

func TestFraming(t *testing.T) {
	long := strings.Repeat("x", 70_000)
	for _, tc := range []struct{ in, want string }{
		{"protocol_version\n", "= 2\n\n"},
		{"\x01proto\x02col_version\r\n", "= 2\n\n"},                // control characters go (§2.3 step 1)
		{"7\tname # a comment\n", "=7 Aji test\n\n"},               // tab, comment, id
		{"# only a comment\n\n   \t \n0 version\n", "=0 test\n\n"}, // empty lines skipped; id 0
		{"12\n", "?12 unknown command\n\n"},                        // an id alone
		{"-1 name\n", "? unknown command\n\n"},                     // not an id: a command "-1"
		{"PROTOCOL_VERSION\n", "? unknown command\n\n"},            // names are case sensitive
		{"known_command\x7f name\n", "= true\n\n"},
		{"name", "= Aji test\n\n"}, // the last line may lack its newline
		{"quit\nname\n", "= \n\n"}, // nothing after quit
		{"5 quit\n", "=5 \n\n"},
		{long + "\nname\n", "? command too long\n\n= Aji test\n\n"},
		{"boardsize 9\nplay b e5\n\n3 play w E5\n", "= \n\n= \n\n?3 illegal move\n\n"},
	} {
		if got := serve(t, newTestServer(nil), tc.in); got != tc.want {
			t.Errorf("input %.40q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// No multi-line response holds an empty line, which would end it early.
func TestMultiLineResponses(t *testing.T) {
	out := serve(t, newTestServer(nil), "list_commands\nshowboard\ngogui-analyze_commands\naji-territory\naji-heatmap uniform\n")
	resps := splitResponses(t, out)
	if len(resps) != 5 {
		t.Fatalf("%d responses: %q", len(resps), out)
	}
	for _, r := range resps {
		if !strings.HasPrefix(r, "= ") || !strings.Contains(r, "\n") {
			t.Errorf("response %.60q", r)
		}
	}
}

// The player follows the game through the Observer hooks and is asked with the history it needs.
func TestObserverAndRequest(t *testing.T) {
	p := &firstLegal{}
	srv := newTestServer(p)
	out := serve(t, srv, "boardsize 9\nplay b E5\ngenmove w\nundo\nkomi 6.5\nclear_board\n")
	if strings.Count(out, "?") != 0 {
		t.Fatalf("output %q", out)
	}
	if len(p.played) != 2 || p.played[0] != fmt.Sprintf("B %d", board.At(4, 4)) || p.played[1] != fmt.Sprintf("W %d", board.At(0, 0)) {
		t.Errorf("played %v", p.played)
	}
	// boardsize (also at NewServer), undo, komi, clear_board.
	if p.resets != 5 {
		t.Errorf("%d resets, want 5", p.resets)
	}
	req := p.lastReq
	if req.Position.ToPlay != board.White || len(req.History) != 2 || req.Position.Last != board.At(4, 4) || req.Budget != 0 {
		t.Errorf("request %+v", req)
	}
}

// blocker is a player that thinks until its context ends, then plays a pass.
type blocker struct{ started chan struct{} }

func (b *blocker) GenMove(ctx context.Context, _ *gtp.Request) (board.Point, bool, error) {
	close(b.started)
	<-ctx.Done()
	return board.Pass, false, nil
}

// GoGui's "# interrupt" line ends a genmove in progress, which still answers.
func TestInterrupt(t *testing.T) {
	b := &blocker{started: make(chan struct{})}
	srv := newTestServer(b)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(t.Context(), inR, outW); outW.Close() }()
	fmt.Fprint(inW, "1 genmove b\n")
	<-b.started
	fmt.Fprint(inW, "# interrupt\n")
	br := bufio.NewReader(outR)
	resp, err := gtp.ReadResponse(br)
	if err != nil || !resp.OK || resp.ID != 1 || resp.Text != "pass" {
		t.Fatalf("response %+v, %v", resp, err)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// The clock gives genmove a budget: the player's context ends when it is spent.
func TestClockEndsGenmove(t *testing.T) {
	b := &blocker{started: make(chan struct{})}
	srv := newTestServer(b)
	start := time.Now()
	out := serve(t, srv, "boardsize 9\ntime_settings 0 1 25\ntime_left black 1 25\ngenmove b\n")
	if !strings.HasSuffix(out, "= pass\n\n") {
		t.Fatalf("output %q", out)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("genmove under a 40 ms budget took %v", d) // a bound, not a timing: the budget must end it
	}
}

// panicker is a player with a bug.
type panicker struct{}

func (panicker) GenMove(context.Context, *gtp.Request) (board.Point, bool, error) { panic("bug") }

// A panic in a command fails that command; the engine goes on.
func TestPanicFailsCommand(t *testing.T) {
	out := serve(t, newTestServer(panicker{}), "1 genmove b\n2 name\n")
	if out != "?1 internal error: bug\n\n=2 Aji test\n\n" {
		t.Errorf("output %q", out)
	}
}

func TestCancelServe(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- newTestServer(nil).Serve(ctx, inR, io.Discard) }()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Serve after cancel: %v", err)
	}
}
