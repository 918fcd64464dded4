package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned by commands sent after Close, or interrupted by it.
var ErrClosed = errors.New("gtp: engine closed")

// Error is a failure response ("? message") to a command.
type Error struct {
	Command string // the command as sent, without its id
	Message string // the engine's message, e.g. "illegal move"
}

func (e *Error) Error() string { return fmt.Sprintf("gtp %s: %s", e.Command, e.Message) }

// closeTimeout is how long Close waits for the engine to quit on its own
// before killing it (a variable so tests can shorten it).
var closeTimeout = 3 * time.Second

// Engine is a GTP engine running as a child process. Its methods may be
// called from several goroutines; commands are sent one at a time.
type Engine struct {
	name   string // argv[0] as given, for messages
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	resps  chan readResult // responses, in order, from the reader goroutine
	exited chan struct{}   // closed once the process has been waited for
	stderr *tailWriter

	waitErr error // the process's exit; read only after exited is closed

	closing   chan struct{} // closed by Close to interrupt a command in flight
	released  chan struct{} // closed when Close is done: the reader may stop
	closeOnce sync.Once
	closeErr  error

	mu     sync.Mutex // held for a whole command exchange
	nextID int
	broken error // set once the conversation cannot go on

	// size is the board size, for writing and parsing vertices; atomic so
	// that reading it need not wait for a command in flight.
	size atomic.Int32

	// sink takes the lines of the next response, when it is a stream's
	// (Stream); the reader takes it at that response's first line.
	sink atomic.Pointer[streamSink]
}

type readResult struct {
	resp Response
	err  error
}

// Start runs command (a program and its arguments, split on blanks; single
// or double quotes group words, as in "gnugo --mode gtp --level 10") and
// checks that it speaks GTP by asking its protocol version. ctx bounds only
// that start; cancelling it later does not stop the engine (Close does).
// A program not found on PATH is also looked for in /usr/games, where
// Debian installs gnugo.
func Start(ctx context.Context, command string) (*Engine, error) {
	args, err := SplitCommand(command)
	if err != nil {
		return nil, fmt.Errorf("start engine %q: %w", command, err)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("start engine: empty command")
	}
	prog, err := LookPath(args[0])
	if err != nil {
		return nil, fmt.Errorf("start engine %q: %w", command, err)
	}

	// Our own pipe for stdout, rather than cmd.StdoutPipe, lets Wait run as
	// soon as the process exits without racing the reader goroutine.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start engine %q: %w", command, err)
	}
	cmd := exec.Command(prog, args[1:]...)
	cmd.Stdout = outW
	e := &Engine{
		name:     args[0],
		cmd:      cmd,
		resps:    make(chan readResult, 1),
		exited:   make(chan struct{}),
		stderr:   &tailWriter{max: 4096},
		closing:  make(chan struct{}),
		released: make(chan struct{}),
	}
	e.size.Store(19)
	cmd.Stderr = e.stderr
	// A grandchild holding stderr open must not keep Wait (and Close)
	// waiting once the engine itself has exited.
	cmd.WaitDelay = time.Second
	e.stdin, err = cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	outW.Close()
	if err != nil {
		outR.Close()
		return nil, fmt.Errorf("start engine %q: %w", command, err)
	}
	go func() {
		e.waitErr = cmd.Wait()
		close(e.exited)
	}()
	go e.read(outR)

	if _, err := e.Send(ctx, "protocol_version"); err != nil {
		e.Close()
		return nil, fmt.Errorf("start engine %q: %w", command, err)
	}
	return e, nil
}

// read hands every response to resps until the output ends or breaks.
func (e *Engine) read(out *os.File) {
	defer out.Close()
	r := bufio.NewReader(out)
	for {
		// A response begins with output after its command was sent, so a
		// stream's sink, set before, is there when its first byte is.
		var sink *streamSink
		if _, perr := r.Peek(1); perr == nil {
			sink = e.sink.Swap(nil)
		}
		var resp Response
		var err error
		if sink != nil {
			resp, err = readStream(r, sink)
		} else {
			resp, err = ReadResponse(r)
		}
		select {
		case e.resps <- readResult{resp, err}:
		case <-e.released:
			// Closed with output nobody asked for still coming.
			return
		}
		if err != nil {
			// The stream is lost; nothing more can be matched to commands.
			close(e.resps)
			return
		}
	}
}

// Send sends one command (with its arguments, space separated) and returns
// the result text. A failure response is an *Error. When ctx ends first the
// engine is killed, since its late answer would desynchronize every later
// command; the error then wraps ctx.Err() and the Engine is unusable.
func (e *Engine) Send(ctx context.Context, command string) (string, error) {
	return e.exchange(ctx, command, e.closing)
}

// exchange sends command and waits for its response, for ctx, for the
// process to end, or for interrupt to close (nil: never).
func (e *Engine) exchange(ctx context.Context, command string, interrupt chan struct{}) (string, error) {
	command, err := checkCommand(command)
	if err != nil {
		return "", err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return "", fmt.Errorf("gtp %s: %w", command, e.broken)
	}
	id, err := e.write(command)
	if err != nil {
		return "", err
	}
	select {
	case rr, ok := <-e.resps:
		return e.answer(command, id, rr, ok)
	case <-ctx.Done():
		e.broken = fmt.Errorf("engine %s killed after %s timed out: %w", e.name, command, ctx.Err())
		e.kill()
		return "", fmt.Errorf("gtp %s: %w", command, ctx.Err())
	case <-interrupt:
		return "", e.closed(command)
	}
}

// checkCommand trims a command and refuses one that would not be one line.
func checkCommand(command string) (string, error) {
	command = strings.TrimSpace(command)
	if command == "" || strings.ContainsAny(command, "\n\r\x00") {
		return "", fmt.Errorf("gtp: bad command %q", command)
	}
	return command, nil
}

// write sends command with the next id. A failure breaks the
// conversation. Call it with mu held.
func (e *Engine) write(command string) (id int, err error) {
	id = e.nextID
	e.nextID++
	if _, err := fmt.Fprintf(e.stdin, "%d %s\n", id, command); err != nil {
		e.broken = fmt.Errorf("engine %s is gone: %w", e.name, err)
		return id, fmt.Errorf("gtp %s: %w", command, e.exitReport(err))
	}
	return id, nil
}

// answer reads the response rr (ok: resps was open) to command number id:
// its text, an *Error, or a broken conversation when the output ended or
// broke or the id is not id's. Call it with mu held.
func (e *Engine) answer(command string, id int, rr readResult, ok bool) (string, error) {
	if !ok || rr.err != nil {
		err := io.ErrUnexpectedEOF
		if ok && !errors.Is(rr.err, io.EOF) {
			err = rr.err
		}
		e.broken = fmt.Errorf("engine %s stopped answering: %w", e.name, err)
		e.kill()
		return "", fmt.Errorf("gtp %s: %w", command, e.exitReport(err))
	}
	if rr.resp.HasID && rr.resp.ID != id {
		e.broken = fmt.Errorf("engine %s answered id %d to command %d", e.name, rr.resp.ID, id)
		e.kill()
		return "", fmt.Errorf("gtp %s: %w", command, e.broken)
	}
	if !rr.resp.OK {
		return "", &Error{Command: command, Message: rr.resp.Text}
	}
	return rr.resp.Text, nil
}

// kill ends the process; the waiting goroutine then closes exited.
func (e *Engine) kill() {
	_ = e.cmd.Process.Kill()
}

// exitReport adds what is known of the engine's end — exit status and the
// tail of its stderr — to err.
func (e *Engine) exitReport(err error) error {
	var parts []string
	select {
	case <-e.exited:
		if e.waitErr != nil {
			parts = append(parts, e.waitErr.Error())
		}
	case <-time.After(time.Second):
	}
	if tail := strings.TrimSpace(e.stderr.String()); tail != "" {
		parts = append(parts, "stderr: "+tail)
	}
	if len(parts) == 0 {
		return err
	}
	return fmt.Errorf("%w (%s)", err, strings.Join(parts, "; "))
}

// Close asks the engine to quit, kills it if it has not exited within a few
// seconds, and releases its resources. A command in flight is interrupted
// and returns ErrClosed. Close returns an error only when the engine ended
// abnormally on its own; calling it again returns the same result.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		close(e.closing)
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		_, quitErr := e.exchange(ctx, "quit", nil)
		e.stdin.Close()
		killed := false
		select {
		case <-e.exited:
		case <-ctx.Done():
			e.kill()
			killed = true
			<-e.exited
		}
		close(e.released)
		e.mu.Lock()
		defer e.mu.Unlock()
		if quitErr == nil && e.waitErr != nil && !killed {
			e.closeErr = fmt.Errorf("engine %s: %w", e.name, e.waitErr)
		}
		e.broken = ErrClosed
	})
	return e.closeErr
}

// Size is the board size the engine is believed to use: 19 until BoardSize
// or LoadSGF changes it.
func (e *Engine) Size() int { return int(e.size.Load()) }

func (e *Engine) setSize(n int) { e.size.Store(int32(n)) }

// LookPath finds an engine program: on PATH, or else in /usr/games, which
// Debian keeps off the PATH of non-login shells and where gnugo lives.
func LookPath(prog string) (string, error) {
	p, err := exec.LookPath(prog)
	if err == nil || strings.ContainsRune(prog, filepath.Separator) {
		return p, err
	}
	if p, gerr := exec.LookPath(filepath.Join("/usr/games", prog)); gerr == nil {
		return p, nil
	}
	return "", err
}

// SplitCommand splits a command line into words on blanks. Single quotes
// keep everything up to the next single quote; double quotes keep
// everything up to the next unescaped double quote, with \" and \\ escapes;
// outside quotes a backslash escapes the next character.
func SplitCommand(s string) ([]string, error) {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		quote   byte
		escaped bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			cur.WriteByte(c)
			escaped = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch c {
			case '"':
				quote = 0
			case '\\':
				if i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
					cur.WriteByte(s[i])
				} else {
					cur.WriteByte(c)
				}
			default:
				cur.WriteByte(c)
			}
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			switch c {
			case '\\':
				escaped = true
			case '\'', '"':
				quote = c
			default:
				cur.WriteByte(c)
			}
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote in %q", quote, s)
	}
	if escaped {
		return nil, fmt.Errorf("trailing backslash in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// tailWriter keeps the last max bytes written to it (the engine's stderr,
// for error messages).
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
