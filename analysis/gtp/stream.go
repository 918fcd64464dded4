package gtp

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"

	"aji/analysis/board"
)

// Analysis streams: lz-analyze and kata-analyze as Leela Zero and KataGo answer them (KataGo's
// docs/GTP_Extensions.md), so that Lizzie, Sabaki or KaTrain can use `aji gtp`. The response's first
// line is "=id"; then one line of "info move ..." candidates comes every interval until the next input
// line — a command or a bare newline — arrives: that ends the search and the response (the usual empty
// line), and the command then runs as usual.
//
// Every value is for the colour the stream analyses (the side to move unless the command names one),
// as KataGo does by default: win rates and priors in [0, 1] (×10000 as integers for lz-analyze), and
// kata-analyze's ownership, Size*Size values in [−1, 1] where +1 is that colour's, in row-major order
// from the top-left point (A19 on 19x19) to the bottom-right.

// streamKind is the output format of a stream command.
type streamKind uint8

const (
	streamLZ   streamKind = iota // lz-analyze: integers ×10000
	streamKata                   // kata-analyze: floats, utility, optional ownership
)

// Bounds of a stream's interval: each interval is a round of the player's analysis, so a very short
// one would spend more in starting rounds than in searching.
const (
	minStreamInterval     = 50 * time.Millisecond
	defaultStreamInterval = time.Second
)

// streamArgs are the arguments of a stream command: [COLOR] [INTERVAL] KEY VALUE ...
type streamArgs struct {
	color     board.Color
	interval  time.Duration
	maxMoves  int // 0: every candidate with visits
	ownership bool
}

// parseStreamArgs reads the arguments KataGo documents: an optional colour, an optional interval in
// centiseconds, then the pairs interval N, maxmoves N, minmoves N (accepted; candidates without
// visits are never listed) and, for kata-analyze, ownership true|false. Anything else is a syntax
// error rather than silently ignored.
func parseStreamArgs(args []string, kind streamKind, toPlay board.Color) (streamArgs, error) {
	a := streamArgs{color: toPlay, interval: defaultStreamInterval}
	if len(args) > 0 {
		if c, err := parseColor(args[0]); err == nil {
			a.color, args = c, args[1:]
		}
	}
	centis := func(w string) (time.Duration, error) {
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 {
			return 0, errSyntax
		}
		if n == 0 {
			return defaultStreamInterval, nil
		}
		return max(minStreamInterval, time.Duration(n)*10*time.Millisecond), nil
	}
	if len(args) > 0 {
		if d, err := centis(args[0]); err == nil {
			a.interval, args = d, args[1:]
		}
	}
	for ; len(args) > 0; args = args[2:] {
		if len(args) < 2 {
			return a, errSyntax
		}
		var err error
		switch key, v := args[0], args[1]; {
		case key == "interval":
			a.interval, err = centis(v)
		case key == "maxmoves" || key == "minmoves":
			n, aerr := strconv.Atoi(v)
			if aerr != nil || n < 0 {
				err = errSyntax
			} else if key == "maxmoves" {
				a.maxMoves = n
			}
		case key == "ownership" && kind == streamKata:
			a.ownership, err = strconv.ParseBool(v)
		default:
			err = errSyntax
		}
		if err != nil {
			return a, errSyntax
		}
	}
	return a, nil
}

// streamState is the server's side of a stream. on, queued and ended are guarded by Server.mu (the
// reader goroutine ends a stream); the rest belongs to Serve's goroutine.
type streamState struct {
	on     bool // a stream runs: the next input line ends it
	queued int  // commands read and not yet taken by Serve
	ended  bool // the input has ended

	out     *bufio.Writer // Serve's writer
	id      string        // the id of the command running
	started bool          // the stream's first line is written: its response is open
	err     error         // a write of the stream failed
}

// inputLine follows every line the reader takes, before its command (queued: it holds one) is
// queued: a stream in progress ends. ended says the input has ended, which ends a stream too. Counting
// the commands queued here, and not after, keeps a stream command's own line from ending it.
func (s *Server) inputLine(queued, ended bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if queued {
		s.stream.queued++
	}
	s.stream.ended = s.stream.ended || ended
	if s.stream.on && s.cancel != nil {
		s.cancel()
	}
}

// dequeued follows Serve's taking of a command.
func (s *Server) dequeued() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stream.queued--
}

// respond writes the response to the command that ran: the end of its stream if it streamed, else
// the usual response.
func (s *Server) respond(id, text string, err error) error {
	st := &s.stream
	if !st.started {
		return writeResponse(st.out, id, text, err)
	}
	st.started = false
	if err != nil {
		slog.Warn("gtp: analysis stream ended with an error", "err", err)
	}
	if st.err != nil {
		return st.err
	}
	st.out.WriteByte('\n')
	return st.out.Flush()
}

// startStream opens the stream's response and makes the next input line end the stream, at once when
// one is already queued.
func (s *Server) startStream() error {
	s.mu.Lock()
	s.stream.on = true
	if (s.stream.queued > 0 || s.stream.ended) && s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	st := &s.stream
	st.started = true
	st.out.WriteByte('=')
	st.out.WriteString(st.id)
	st.out.WriteByte('\n')
	st.err = st.out.Flush()
	return st.err
}

func (s *Server) endStream() {
	s.mu.Lock()
	s.stream.on = false
	s.mu.Unlock()
}

// emit writes one line of the stream.
func (s *Server) emit(line []byte) error {
	st := &s.stream
	st.out.Write(line)
	st.out.WriteByte('\n')
	st.err = st.out.Flush()
	return st.err
}

// analyzeStream is the handler of lz-analyze or kata-analyze. The player's Analyze runs in rounds of
// one interval each, and each round's candidates make a line: a player that keeps its search tree
// between calls on the same position (Aji's tree search does) thus shows a search that deepens from
// line to line. The ownership is estimated once, when the stream starts. ServerOptions.AnalyzeTime
// does not apply: a stream runs until the next input line.
func (s *Server) analyzeStream(kind streamKind) Handler {
	return func(ctx context.Context, args []string) (string, error) {
		an, ok := s.player.(Analyzer)
		if !ok {
			return "", errUnknown
		}
		a, err := parseStreamArgs(args, kind, s.pos.ToPlay)
		if err != nil {
			return "", err
		}
		req := s.request(a.color)
		req.Budget = 0
		defer s.endStream()
		if err := s.startStream(); err != nil {
			return "", err
		}
		var own []float64
		if a.ownership {
			if own, err = s.streamOwnership(ctx, a.color); err != nil {
				return "", err
			}
		}
		size := s.pos.Board.Size()
		var line []byte
		for ctx.Err() == nil {
			start := time.Now()
			rctx, cancel := context.WithTimeout(ctx, a.interval)
			res, err := an.Analyze(rctx, req)
			cancel()
			if ctx.Err() != nil {
				break
			}
			if err != nil {
				return "", fmt.Errorf("analysis: %w", err)
			}
			line = appendInfo(line[:0], kind, res, a.maxMoves, size)
			if own != nil {
				line = appendOwnership(line, own)
			}
			if len(line) > 0 {
				if err := s.emit(line); err != nil {
					return "", err
				}
			}
			// A player that stops at its own limit before the interval is up waits for it: lines
			// come once per interval, as the controller asked.
			if rest := a.interval - time.Since(start); rest > 0 {
				t := time.NewTimer(rest)
				select {
				case <-ctx.Done():
				case <-t.C:
				}
				t.Stop()
			}
		}
		return "", nil
	}
}

// streamOwnership is the expected final owner of every point in the stream's order (row-major from
// the top-left) and perspective (+1: c's), from ServerOptions.Territory or else the Scorer.
func (s *Server) streamOwnership(ctx context.Context, c board.Color) ([]float64, error) {
	var own [board.NumCells]float64
	if _, err := s.ownership(ctx, &own); err != nil {
		return nil, err
	}
	sign := 1.0
	if c == board.White {
		sign = -1
	}
	size := s.pos.Board.Size()
	out := make([]float64, 0, size*size)
	for y := range size {
		for x := range size {
			out = append(out, sign*math.Max(-1, math.Min(1, own[board.At(x, y)])))
		}
	}
	return out, nil
}

// lcbZ is the normal quantile of the lower confidence bound written as lcb: Aji's search keeps no
// variance, so the bound is the binomial one, w − z·√(w(1−w)/n), at 95%.
const lcbZ = 1.96

// appendInfo appends the candidates of res with visits, most visited first, as "info move ..."
// records in kind's format.
func appendInfo(b []byte, kind streamKind, res *Analysis, maxMoves, size int) []byte {
	order := 0
	for _, c := range res.Candidates {
		if c.Visits <= 0 || maxMoves > 0 && order >= maxMoves {
			continue
		}
		w := math.Max(0, math.Min(1, c.WinRate))
		lcb := math.Max(0, w-lcbZ*math.Sqrt(w*(1-w)/float64(c.Visits)))
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, "info move "...)
		b = append(b, c.Move.GTP(size)...)
		b = append(b, " visits "...)
		b = strconv.AppendInt(b, int64(c.Visits), 10)
		if kind == streamKata {
			// KataGo's utility without a score term is its win-loss utility, 2w − 1.
			b = append(b, " utility "...)
			b = strconv.AppendFloat(b, 2*w-1, 'f', 6, 64)
			b = append(b, " winrate "...)
			b = strconv.AppendFloat(b, w, 'f', 6, 64)
			b = append(b, " prior "...)
			b = strconv.AppendFloat(b, math.Max(0, math.Min(1, c.Prior)), 'f', 6, 64)
			b = append(b, " lcb "...)
			b = strconv.AppendFloat(b, lcb, 'f', 6, 64)
		} else {
			b = append(b, " winrate "...)
			b = strconv.AppendInt(b, int64(math.Round(1e4*w)), 10)
			b = append(b, " prior "...)
			b = strconv.AppendInt(b, int64(math.Round(1e4*math.Max(0, math.Min(1, c.Prior)))), 10)
			b = append(b, " lcb "...)
			b = strconv.AppendInt(b, int64(math.Round(1e4*lcb)), 10)
		}
		b = append(b, " order "...)
		b = strconv.AppendInt(b, int64(order), 10)
		b = append(b, " pv"...)
		pv := c.PV
		if len(pv) == 0 || pv[0] != c.Move {
			b = append(b, ' ')
			b = append(b, c.Move.GTP(size)...)
		}
		for _, p := range pv[:min(len(pv), maxPV)] {
			b = append(b, ' ')
			b = append(b, p.GTP(size)...)
		}
		order++
	}
	return b
}

// appendOwnership appends kata-analyze's "ownership v1 ... vN".
func appendOwnership(b []byte, own []float64) []byte {
	if len(b) > 0 {
		b = append(b, ' ')
	}
	b = append(b, "ownership"...)
	for _, v := range own {
		b = append(b, ' ')
		b = strconv.AppendFloat(b, v, 'f', 4, 64)
	}
	return b
}
