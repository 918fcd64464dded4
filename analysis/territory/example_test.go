package territory_test

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/territory"
)

func Example() {
	b, _ := board.Parse(`
		.....
		.X...
		..X.O
		...O.
		.....`)
	q, _ := territory.Boltzmann5Table51(80)
	var f territory.Field
	q.Field(b, &f)
	var e territory.Exact
	var m territory.Marginals
	logZ := e.Run(&f, &m)
	fmt.Printf("log Z %.3f\n", logZ)
	for _, p := range []board.Point{board.At(1, 1), board.At(3, 3), board.At(0, 4)} {
		fmt.Printf("E[s] at %s: %+.3f\n", p.GTP(5), m.Mean[p])
	}
	// Output:
	// log Z 23.041
	// E[s] at B4: +0.825
	// E[s] at D2: -0.683
	// E[s] at A1: +0.107
}
