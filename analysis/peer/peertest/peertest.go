// Package peertest lets a test binary double as Aji's own GTP server, so that tests of code that drives
// external engines (analysis/peer, the app's Engines tab) need no other program.
package peertest

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"aji/analysis/gtp"
	"aji/analysis/mcts"
	"aji/analysis/predict"
)

// serverArg, as the last argument, makes the test binary serve GTP on its standard input and output.
const serverArg = "aji-peertest-gtp-server"

// Options before serverArg, as "name=value".
const (
	playoutsOpt = "aji-peertest-playouts"  // the tree search with this many playouts per move
	dieOpt      = "aji-peertest-die-after" // exit with status 3 after this many stream lines
)

// ServeIfChild serves GTP and exits when the test binary was started by Command or SearchCommand;
// call it first in TestMain. The server is analysis/gtp.Server with `aji gtp --predictor uniform`'s
// player, or with SearchCommand that of `aji gtp --predictor uniform --playouts N`: the tree search,
// which answers lz-analyze and kata-analyze.
func ServeIfChild() {
	if len(os.Args) < 2 || os.Args[len(os.Args)-1] != serverArg {
		return
	}
	opts := map[string]int{}
	for _, a := range os.Args[1 : len(os.Args)-1] {
		if k, v, ok := strings.Cut(a, "="); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				os.Exit(2)
			}
			opts[k] = n
		}
	}
	var player gtp.Player
	if n := opts[playoutsOpt]; n > 0 {
		sp, err := gtp.NewSearchPlayer(mcts.Options{Playouts: n, Seed: 1})
		if err != nil {
			os.Exit(2)
		}
		player = sp
	} else {
		pr, err := predict.New("uniform", predict.Options{})
		if err != nil {
			os.Exit(2)
		}
		player = &gtp.PredictorPlayer{Predictor: pr, Seed: 1}
	}
	var out io.Writer = os.Stdout
	if n := opts[dieOpt]; n > 0 {
		out = &dyingWriter{w: os.Stdout, left: n}
	}
	srv := gtp.NewServer(player, gtp.ServerOptions{
		Name: "Aji", Komi: 7.5, Predictors: []string{"uniform"}, ScorePlayouts: 20,
	})
	if err := srv.Serve(context.Background(), os.Stdin, out); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// Command is the command line that starts the test binary as the server.
func Command(t testing.TB) string { return command(t) }

// SearchCommand starts the test binary as the server whose player is the tree search with the given
// playouts per move. With dieAfter > 0 it crashes (exit status 3, a line on stderr) once it has written
// that many lines of an analysis stream.
func SearchCommand(t testing.TB, playouts, dieAfter int) string {
	extra := []string{fmt.Sprintf("%s=%d", playoutsOpt, playouts)}
	if dieAfter > 0 {
		extra = append(extra, fmt.Sprintf("%s=%d", dieOpt, dieAfter))
	}
	return command(t, extra...)
}

func command(t testing.TB, extra ...string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "'" + exe + "' " + strings.Join(append(extra, serverArg), " ")
}

// dyingWriter passes output on until it has passed left lines of an analysis stream, then exits.
type dyingWriter struct {
	mu   sync.Mutex
	w    io.Writer
	left int
	line []byte // the start of the line being written
}

func (d *dyingWriter) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, err := d.w.Write(p)
	for _, c := range p {
		if c != '\n' {
			if len(d.line) < 5 {
				d.line = append(d.line, c)
			}
			continue
		}
		if string(d.line) == "info " {
			if d.left--; d.left == 0 {
				fmt.Fprintln(os.Stderr, "peertest: dying mid-stream as asked")
				os.Exit(3)
			}
		}
		d.line = d.line[:0]
	}
	return n, err
}
