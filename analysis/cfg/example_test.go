package cfg_test

import (
	"fmt"

	"aji/analysis/board"
	"aji/analysis/cfg"
)

// The common fate graph of a small position: the two black stones at A3 and B3 are one vertex.
func ExampleBuild() {
	b, _ := board.Parse(`
		XX.
		O.X
		.O.`)
	g := cfg.Build(b, board.White, cfg.DefaultIterations)
	fmt.Println(g.NumVertices(), "vertices,", g.NumEdges(), "edges")
	b2, _ := board.ParseGTP("B2", 3)
	v := g.VertexOf(b2)
	fmt.Println("B2 has", len(g.Neighbours(v)), "neighbours and", len(g.Paths(b2, nil)), "walks of length two")
	fmt.Println(len(g.PathFeatures(b2, nil)), "distinct path features for White at B2")
	// Output:
	// 8 vertices, 11 edges
	// B2 has 4 neighbours and 12 walks of length two
	// 12 distinct path features for White at B2
}

// A tracker follows moves; White's capture at B1 removes the black stone, whose point becomes an empty
// vertex again, and the walks through everything that changed are updated.
func ExampleTracker() {
	b, _ := board.Parse(`
		.....
		.....
		.O...
		OXO..
		.....`)
	tr := cfg.NewTracker(cfg.DefaultIterations)
	tr.Reset(b)
	b1, _ := board.ParseGTP("B1", 5)
	if err := tr.Play(b1, board.White); err != nil {
		fmt.Println(err)
		return
	}
	u := tr.LastUpdate()
	fmt.Println("captured:", tr.Board().Captures(board.White))
	fmt.Println("walks removed:", u.Removed, "added:", u.Added)
	b2, _ := board.ParseGTP("B2", 5)
	fmt.Println("features for Black at B2:", len(tr.PathFeatures(b2, board.Black, nil)))
	// Output:
	// captured: 1
	// walks removed: 65 added: 70
	// features for Black at B2: 7
}
