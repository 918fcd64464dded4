package peer

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
)

// StreamKind is an analysis stream command: the engine searches the position and prints its
// candidates every interval until told to stop (Leela Zero's and KataGo's GTP extensions).
type StreamKind uint8

// The stream commands, in the order of preference: kata-analyze also gives the ownership.
const (
	StreamLZ   StreamKind = iota + 1 // lz-analyze: Leela Zero, KataGo, Aji
	StreamKata                       // kata-analyze: KataGo, Aji
)

// String is the command's name.
func (k StreamKind) String() string {
	switch k {
	case StreamLZ:
		return "lz-analyze"
	case StreamKata:
		return "kata-analyze"
	}
	return "StreamKind(" + strconv.Itoa(int(k)) + ")"
}

// Stream is one line of an analysis stream: the engine's view of the position at that moment.
type Stream struct {
	ToPlay     board.Color       // the side the values are for
	Candidates []StreamCandidate // as the engine orders them, best first
	// Ownership holds, for kata-analyze, the expected final owner of every point, Size*Size values in
	// [−1, 1], index y*Size+x from the top-left, +1 Black's (converted from the protocol's side to
	// move); nil when the engine gave none.
	Ownership []float64
}

// StreamCandidate is a move the engine considers.
type StreamCandidate struct {
	Move    board.Point // board.Pass for a pass
	Visits  int
	WinRate float64 // for Stream.ToPlay, in [0, 1]
	Prior   float64 // in [0, 1]
	Order   int     // the engine's rank, 0 best
	PV      []board.Point
}

// Streams returns the analysis streams the engine supports, from its list_commands (kata-analyze
// first); none for GNU Go. It starts the engine.
func (e *Engine) Streams(ctx context.Context) ([]StreamKind, error) {
	if err := e.list(ctx); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.streams, nil
}

// Analyze streams the engine's analysis of pos for the side to move: it loads pos, starts kind's
// command with a line every interval (kata-analyze with ownership), and calls update, on its own
// goroutine, with every line read. The engine is busy meanwhile: other calls wait for their turn. When
// ctx ends the stream is stopped and Analyze returns nil, the engine still up. A line that does not
// read as the protocol's is an error wrapping ErrGarbage and leaves the engine down, as does an engine
// that exits or hangs (ErrDown); an engine without the command answers a *gtp.Error and stays up.
func (e *Engine) Analyze(ctx context.Context, pos *game.Position, kind StreamKind, interval time.Duration, update func(*Stream)) error {
	if kind != StreamLZ && kind != StreamKata {
		return fmt.Errorf("peer: no stream command %v", kind)
	}
	if err := e.acquire(ctx); err != nil {
		return err
	}
	defer e.release()
	eng, err := e.running(ctx)
	if err != nil {
		return err
	}
	if err := e.load(ctx, eng, pos); err != nil {
		return err
	}
	cmd := fmt.Sprintf("%v %s %d", kind, colorName(pos.ToPlay), max(1, interval/(10*time.Millisecond)))
	if kind == StreamKata {
		cmd += " ownership true"
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	var garbage error
	size := pos.Board.Size()
	err = eng.Stream(sctx, cmd, func(line string) {
		s, err := parseStream(line, kind, size, pos.ToPlay)
		if err != nil {
			garbage = err
			stop()
			return
		}
		update(s)
	})
	if err != nil {
		return e.fail(ctx, eng, cmd, err)
	}
	if garbage != nil {
		e.setDown(fmt.Errorf("%s: %w", kind, garbage))
		return fmt.Errorf("%w: %w", ErrDown, e.State().Err)
	}
	return nil
}

// parseStream reads one line of lz-analyze or kata-analyze, whose formats differ only in their
// numbers: lz-analyze's winrate, prior and lcb are integers ×10000, kata-analyze's floats in [0, 1].
// Keys it does not know take one value and are skipped, as KataGo asks of its consumers; pv runs to
// the next record.
func parseStream(line string, kind StreamKind, size int, toPlay board.Color) (*Stream, error) {
	words := strings.Fields(line)
	s := &Stream{ToPlay: toPlay}
	bad := func(what string) error { return fmt.Errorf("%w: analysis line %.60q: %s", ErrGarbage, line, what) }
	for i := 0; i < len(words); {
		switch words[i] {
		case "info":
			c, n, err := parseCandidate(words[i+1:], kind, size)
			if err != nil {
				return nil, bad(err.Error())
			}
			s.Candidates = append(s.Candidates, c)
			i += 1 + n
		case "ownership":
			vals := words[i+1:]
			if len(vals) != size*size {
				return nil, bad(fmt.Sprintf("%d ownership values on a %dx%d board", len(vals), size, size))
			}
			sign := 1.0
			if toPlay == board.White {
				sign = -1 // the protocol's values are the side to move's
			}
			s.Ownership = make([]float64, len(vals))
			for k, v := range vals {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || math.IsNaN(f) || f < -1.001 || f > 1.001 {
					return nil, bad("ownership value " + v)
				}
				s.Ownership[k] = sign * math.Max(-1, math.Min(1, f))
			}
			i = len(words)
		default:
			return nil, bad("no info record at " + words[i])
		}
	}
	return s, nil
}

// parseCandidate reads the key-value pairs of one info record up to the next record, and returns how
// many words it took.
func parseCandidate(words []string, kind StreamKind, size int) (StreamCandidate, int, error) {
	var c StreamCandidate
	haveMove, haveVisits := false, false
	i := 0
	for i < len(words) && words[i] != "info" && words[i] != "ownership" {
		key := words[i]
		if key == "pv" {
			j := i + 1
			for j < len(words) && words[j] != "info" && words[j] != "ownership" {
				p, err := board.ParseGTP(words[j], size)
				if err != nil {
					return c, 0, fmt.Errorf("pv move %s", words[j])
				}
				c.PV = append(c.PV, p)
				j++
			}
			i = j
			continue
		}
		if i+1 >= len(words) {
			return c, 0, fmt.Errorf("%s without a value", key)
		}
		v := words[i+1]
		var err error
		switch key {
		case "move":
			c.Move, err = board.ParseGTP(v, size)
			haveMove = true
		case "visits":
			c.Visits, err = strconv.Atoi(v)
			haveVisits = err == nil && c.Visits >= 0
		case "order":
			c.Order, err = strconv.Atoi(v)
		case "winrate":
			c.WinRate, err = fraction(v, kind)
		case "prior":
			c.Prior, err = fraction(v, kind)
		}
		if err != nil {
			return c, 0, fmt.Errorf("%s %s", key, v)
		}
		i += 2
	}
	if !haveMove || !haveVisits {
		return c, 0, fmt.Errorf("a record without move and visits")
	}
	return c, i, nil
}

// fraction reads a win rate or prior: kata-analyze's float in [0, 1], lz-analyze's integer ×10000.
func fraction(v string, kind StreamKind) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if kind == StreamLZ {
		f /= 10000
	}
	if err != nil || !(f >= 0 && f <= 1) {
		return 0, fmt.Errorf("not a fraction: %s", v)
	}
	return f, nil
}
