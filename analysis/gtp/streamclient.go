package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// streamBuffer is how many lines of a stream may wait for the caller's callback before the oldest
// are dropped: an analysis line is a whole snapshot, so only the newest matters, and the reader must
// never wait on a slow consumer.
const streamBuffer = 64

// streamStopCommand ends a stream: any command does, and this one changes nothing.
const streamStopCommand = "protocol_version"

// streamStopTimeout is how long an engine may take to end a stream once told to, before it is taken to
// hang (a variable so tests can shorten it).
var streamStopTimeout = 10 * time.Second

// streamSink carries a stream's lines from the reader goroutine to Stream.
type streamSink struct {
	lines chan string
}

// put queues a line without waiting, dropping the oldest waiting line when the queue is full. The
// reader is the only sender, so room made is room kept.
func (s *streamSink) put(line string) {
	for {
		select {
		case s.lines <- line:
			return
		default:
		}
		select {
		case <-s.lines:
		default:
		}
	}
}

// readStream reads the response to a stream command: its first line as ReadResponse does, then each
// further line to sink as it arrives, until the empty line that ends it; a failure response's lines
// go to its Text. Each line, rather than the whole response, is bounded by MaxResponseSize.
func readStream(r *bufio.Reader, sink *streamSink) (Response, error) {
	var resp Response
	started := false
	for {
		line, err := readLine(r, MaxResponseSize)
		if errors.Is(err, errTooLong) {
			return Response{}, fmt.Errorf("%w: a stream line longer than %d bytes", ErrMalformed, MaxResponseSize)
		}
		text := strings.ReplaceAll(strings.TrimRight(line, "\n"), "\r", "")
		switch {
		case !started && isBlank(line):
		case !started:
			first, herr := parseHeader(strings.TrimRight(line, "\r\n"), &resp)
			if herr != nil {
				return Response{}, herr
			}
			started, resp.Text = true, first
			if resp.OK && first != "" {
				sink.put(first)
			}
		case isBlank(line):
			if strings.HasSuffix(line, "\n") {
				return resp, nil
			}
		case resp.OK:
			sink.put(text)
		default:
			resp.Text += "\n" + text
		}
		if err == io.EOF {
			if !started {
				return Response{}, io.EOF
			}
			return Response{}, fmt.Errorf("gtp stream: %w", io.ErrUnexpectedEOF)
		}
		if err != nil {
			return Response{}, err
		}
	}
}

// Stream sends a command whose response goes on until the next command — lz-analyze, kata-analyze —
// and calls line, on the caller's goroutine, with each line of the response after its first as it
// arrives; when line is slower than the engine, older lines waiting are dropped. When ctx ends, Stream
// stops the stream with a harmless command (protocol_version) and reads its answer, so that the
// engine stays in step and can be used again; it then returns nil, and line is not called any more.
// It also returns nil when the engine ends the stream by itself. A failure response is an *Error (an
// engine without the command answers one). An engine that exits mid-stream, or does not end the
// stream within a while of being told to, breaks the Engine as Send's failures do, with its exit
// status and the tail of its stderr in the error.
func (e *Engine) Stream(ctx context.Context, command string, line func(string)) error {
	command, err := checkCommand(command)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("gtp %s: %w", command, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return fmt.Errorf("gtp %s: %w", command, e.broken)
	}
	sink := &streamSink{lines: make(chan string, streamBuffer)}
	e.sink.Store(sink)
	defer e.sink.Store(nil) // when no response ever came
	id, err := e.write(command)
	if err != nil {
		return err
	}
	deliver := func(l string) {
		if ctx.Err() == nil {
			line(l)
		}
	}
	done := ctx.Done()
	stopID := -1
	var stopTimer *time.Timer
	var stopped <-chan time.Time
	defer func() {
		if stopTimer != nil {
			stopTimer.Stop()
		}
	}()
	for {
		select {
		case l := <-sink.lines:
			deliver(l)
		case rr, ok := <-e.resps:
			// The stream's response is over. The reader queued its lines before it.
			for n := len(sink.lines); n > 0; n-- {
				deliver(<-sink.lines)
			}
			if _, err := e.answer(command, id, rr, ok); err != nil || stopID < 0 {
				return err
			}
			select {
			case rr, ok := <-e.resps:
				if _, err := e.answer(streamStopCommand, stopID, rr, ok); err != nil {
					if _, ok := errors.AsType[*Error](err); !ok {
						return err
					}
				}
				return nil
			case <-stopped:
				return e.hung(command)
			case <-e.closing:
				return e.closed(command)
			}
		case <-done:
			done = nil // a closed channel would fire again
			if stopID, err = e.write(streamStopCommand); err != nil {
				return err
			}
			stopTimer = time.NewTimer(streamStopTimeout)
			stopped = stopTimer.C
		case <-stopped:
			return e.hung(command)
		case <-e.closing:
			return e.closed(command)
		}
	}
}

// hung breaks the conversation with an engine that did not end a stream when told to.
func (e *Engine) hung(command string) error {
	e.broken = fmt.Errorf("engine %s killed: it did not end %s within %v of being told to", e.name, command, streamStopTimeout)
	e.kill()
	return fmt.Errorf("gtp %s: %w", command, e.broken)
}

// closed ends a stream interrupted by Close.
func (e *Engine) closed(command string) error {
	e.broken = ErrClosed
	e.kill()
	return fmt.Errorf("gtp %s: %w", command, ErrClosed)
}
