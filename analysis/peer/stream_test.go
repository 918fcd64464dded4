package peer

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/gtp"
	"aji/analysis/peer/peertest"
)

// collect runs a stream until it has given n updates, then cancels it; it returns the updates and
// Analyze's result.
func collect(t *testing.T, e *Engine, kind StreamKind, n int) ([]*Stream, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(guard(t))
	defer cancel()
	var got []*Stream
	err := e.Analyze(ctx, position9(t), kind, 100*time.Millisecond, func(s *Stream) {
		got = append(got, s)
		if len(got) == n {
			cancel()
		}
	})
	return got, err
}

func totalVisits(s *Stream) int {
	n := 0
	for _, c := range s.Candidates {
		n += c.Visits
	}
	return n
}

// Aji's own server streams candidates that deepen from line to line; a cancelled stream leaves the
// engine in step for the next command.
func TestStreamAji(t *testing.T) {
	e := newEngine(t, peertest.SearchCommand(t, 200, 0))
	ctx := guard(t)
	kinds, err := e.Streams(ctx)
	if err != nil || !slices.Equal(kinds, []StreamKind{StreamKata, StreamLZ}) {
		t.Fatalf("streams %v, %v: want kata-analyze and lz-analyze", kinds, err)
	}
	pos := position9(t)
	for _, kind := range kinds {
		got, err := collect(t, e, kind, 3)
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if len(got) < 3 {
			t.Fatalf("%v: %d updates, want 3", kind, len(got))
		}
		for i, s := range got {
			if len(s.Candidates) == 0 || s.ToPlay != board.Black {
				t.Fatalf("%v update %d: %+v", kind, i, s)
			}
			for _, c := range s.Candidates {
				if c.Move != board.Pass && !pos.Board.Legal(c.Move, board.Black) {
					t.Errorf("%v: candidate %s is not legal", kind, c.Move.GTP(9))
				}
				if c.WinRate < 0 || c.WinRate > 1 || c.Visits <= 0 {
					t.Errorf("%v: candidate %+v", kind, c)
				}
			}
			if c := s.Candidates[0]; c.Order != 0 || len(c.PV) == 0 || c.PV[0] != c.Move {
				t.Errorf("%v: best %+v, want order 0 and a pv from its move", kind, c)
			}
			if i > 0 && totalVisits(s) <= totalVisits(got[i-1]) {
				t.Errorf("%v: visits %d after %d, want more", kind, totalVisits(s), totalVisits(got[i-1]))
			}
			if kind == StreamKata && len(s.Ownership) != 81 || kind == StreamLZ && s.Ownership != nil {
				t.Errorf("%v: %d ownership values", kind, len(s.Ownership))
			}
		}
		if st := e.State(); !st.Running || st.Err != nil {
			t.Fatalf("after the stream: %+v", st)
		}
		checkGenmove(t, e, pos)
	}
}

func TestStreamGNUGo(t *testing.T) {
	e := newEngine(t, gnugo(t))
	ctx := guard(t)
	kinds, err := e.Streams(ctx)
	if err != nil || len(kinds) != 0 {
		t.Fatalf("streams %v, %v: want none", kinds, err)
	}
	err = e.Analyze(ctx, position9(t), StreamLZ, 100*time.Millisecond, func(*Stream) { t.Error("an update") })
	if _, ok := errors.AsType[*gtp.Error](err); !ok {
		t.Fatalf("lz-analyze on GNU Go: %v, want its failure answer", err)
	}
	checkGenmove(t, e, position9(t))
}

// An engine that dies mid-stream is down with its exit status and stderr; Restart brings it back.
func TestStreamEngineDies(t *testing.T) {
	e := newEngine(t, peertest.SearchCommand(t, 200, 2))
	got, err := collect(t, e, StreamLZ, 10)
	if !errors.Is(err, ErrDown) || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "dying mid-stream") {
		t.Fatalf("after %d updates: %v, want down with exit status and stderr", len(got), err)
	}
	if st := e.State(); st.Running || st.Err == nil {
		t.Fatalf("state %+v, want down", st)
	}
	ctx := guard(t)
	if err := e.Restart(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	checkGenmove(t, e, position9(t))
}

// A stream line that is not the protocol's leaves the engine down, with ErrGarbage.
func TestStreamGarbage(t *testing.T) {
	// Answers everything with "= 2", and lz-analyze with a stream of one bad line, ended by the next
	// command as the protocol says.
	script := `s=0; while read id cmd rest; do if [ $s = 1 ]; then echo; s=0; fi; case $cmd in lz-analyze) printf "=$id\nnonsense here\n"; s=1;; *) printf "=$id 2\n\n";; esac; done`
	e := newEngine(t, "sh -c '"+script+"'")
	_, err := collect(t, e, StreamLZ, 3)
	if !errors.Is(err, ErrDown) || !errors.Is(err, ErrGarbage) {
		t.Fatalf("garbage stream: %v, want ErrDown and ErrGarbage", err)
	}
	if st := e.State(); st.Err == nil {
		t.Errorf("state %+v, want down", st)
	}
}

func TestParseStream(t *testing.T) {
	lz := "info move D5 visits 12 winrate 5432 prior 1234 lcb 5000 order 0 pv D5 E4 info move pass visits 3 winrate 100 prior 10 order 1 pv pass"
	s, err := parseStream(lz, StreamLZ, 9, board.White)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Candidates) != 2 || s.Candidates[0].WinRate != 0.5432 || s.Candidates[0].Prior != 0.1234 ||
		len(s.Candidates[0].PV) != 2 || s.Candidates[1].Move != board.Pass || s.Candidates[1].Order != 1 {
		t.Errorf("lz: %+v", s.Candidates)
	}
	own := strings.Repeat(" 0.5", 80)
	kata := "info move D5 visits 12 utility 0.1 winrate 0.55 scoreLead 1.5 prior 0.25 lcb 0.5 order 0 pv D5 ownership -1" + own
	s, err = parseStream(kata, StreamKata, 9, board.White)
	if err != nil {
		t.Fatal(err)
	}
	// White to move: its -1 at A9 is Black's point.
	if c := s.Candidates[0]; c.WinRate != 0.55 || c.Prior != 0.25 || len(s.Ownership) != 81 || s.Ownership[0] != 1 || s.Ownership[80] != -0.5 {
		t.Errorf("kata: %+v, ownership %v", c, s.Ownership[:2])
	}
	for _, bad := range []string{
		"nonsense",
		"info move Z99 visits 1",
		"info visits 3",
		"info move D5 visits x",
		"info move D5 visits 3 winrate 1.5",
		"info move D5 visits 3 pv D5 Q99",
		"info move D5 visits 3 ownership 0.1 0.2",
	} {
		if _, err := parseStream(bad, StreamKata, 9, board.Black); !errors.Is(err, ErrGarbage) {
			t.Errorf("%q: %v, want ErrGarbage", bad, err)
		}
	}
}
