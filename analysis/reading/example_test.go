package reading_test

import (
	"context"
	"fmt"
	"strings"

	"aji/analysis/board"
	"aji/analysis/reading"
)

// A ladder: black captures the white stone at D4 by E4, driving it down to the edge, whichever
// method reads it.
func ExampleSolver_Solve() {
	b, _ := board.Parse(`
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . O . . .
		. . . X . . . . .
		. . X O . . . . .
		. . . . X . . . .
		. . . . . . . . .
		. . . . . . . . .`)
	d4, _ := board.ParseGTP("D4", b.Size())
	for _, m := range []reading.Method{reading.PNS, reading.PP} {
		s := reading.NewSolver(reading.Options{Method: m})
		res, err := s.Solve(context.Background(), b, d4, reading.Attack)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: attack D4 = %s (proved %v)\n", m, res.Answer(b.Size()), res.Proved)
	}
	// Output:
	// pns: attack D4 = 1 E4 (proved true)
	// pp: attack D4 = 1 E4 (proved true)
}

// Expected answers are GNU Go's regular expressions, matched against the whole answer.
func ExampleProblem_Passes() {
	ps, err := reading.ReadProblems(strings.NewReader(`{"id": "x:1", "sgf": "(;SZ[9]AB[cd][dc]AW[dd])", "command": "attack", "target": "D6", "expected": "1 (D5|E6)"}`))
	if err != nil {
		panic(err)
	}
	for _, answer := range []string{"1 D5", "1 E6", "2 D5", "0"} {
		fmt.Println(answer, ps[0].Passes(answer))
	}
	// Output:
	// 1 D5 true
	// 1 E6 true
	// 2 D5 false
	// 0 false
}
