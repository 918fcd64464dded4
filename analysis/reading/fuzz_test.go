package reading

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"aji/analysis/board"
)

// FuzzReadProblems checks that ReadProblems never panics on any input (errors are fine), and that
// every problem it accepts asks about a stone and answers Passes.
func FuzzReadProblems(f *testing.F) {
	for _, s := range []string{
		problemLines,
		`{"id": "x", "sgf": "(;SZ[9]AB[cd]AW[dd])", "command": "attack", "target": "D6", "expected": "0"}`,
		`{"id": "x", "sgf": "(;SZ[9]AB[cd]AW[dd];B[ee];W[tt])", "move": 2, "command": "defend", "target": "D6", "expected": "1 E6|(C7"}`,
		`{"id": "x", "sgf": "(;SZ[19];B[aa];W[ab];B[ba])", "move": 99, "command": "defend", "target": "A19", "expected": "(1|2) A1"}`,
		`{"id": "x", "sgf": "(;SZ[2];B[aa])", "command": "attack", "target": "A2", "expected": "0"}`,
		`{"sgf": "(;SZ[9])", "command": "attack", "target": "T19", "expected": "0", "move": -1}`,
		"{}\n\n[]\n",
		"",
	} {
		f.Add([]byte(s))
	}
	// The first lines of the suite, where it is present.
	if fh, err := os.Open(problemFile); err == nil {
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, maxProblemLine)
		for i := 0; i < 3 && sc.Scan(); i++ {
			f.Add(bytes.Clone(sc.Bytes()))
		}
		fh.Close()
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ReadProblems(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i := range ps {
			p := &ps[i]
			if c := p.Board.At(p.Target); c != board.Black && c != board.White {
				t.Fatalf("%s: accepted with no stone at the target", p.ID)
			}
			p.Passes("1 A1")
		}
	})
}
