package cfg

import (
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/assets"
)

// edgeSet returns the edges of g as sorted pairs of the points named in GTP, each edge once.
func edgeSet(g *Graph) []string {
	name := func(v Vertex) string {
		var parts []string
		for _, p := range g.Points(v) {
			parts = append(parts, p.GTP(g.Size()))
		}
		return strings.Join(parts, "+")
	}
	var out []string
	for _, e := range g.Edges(nil) {
		a, b := name(e[0]), name(e[1])
		if b < a {
			a, b = b, a
		}
		out = append(out, a+"-"+b)
	}
	slices.Sort(out)
	return out
}

// TestGraphSmall: the common fate graph of a hand-drawn 3x3 position, vertex by vertex and edge by edge.
func TestGraphSmall(t *testing.T) {
	b := mustParse(t, `
		XX.
		O.X
		.O.`)
	g := Build(b, board.Black, 1)
	if g.NumVertices() != 8 || g.NumEdges() != 11 {
		t.Fatalf("%d vertices and %d edges, want 8 and 11", g.NumVertices(), g.NumEdges())
	}
	// Vertices: XX at A3 B3, X at C2, O at A2, O at B1, empties C3 B2 A1 C1.
	want := []string{
		"A1-A2", "A1-B1", "A2-A3+B3", "A2-B2", "A3+B3-B2", "A3+B3-C3", "B1-B2", "B1-C1", "B2-C2", "C1-C2",
		"C2-C3",
	}
	if got := edgeSet(g); !slices.Equal(got, want) {
		t.Errorf("edges\n got %v\nwant %v", got, want)
	}
	// Degrees and liberties.
	for _, c := range []struct {
		p         string
		deg, libs int
	}{
		{"A3", 3, 2}, {"B3", 3, 2}, {"C2", 3, 3}, {"A2", 3, 2}, {"B1", 3, 3},
		{"B2", 4, 0}, {"C3", 2, 0}, {"A1", 2, 0}, {"C1", 2, 0},
	} {
		p, _ := board.ParseGTP(c.p, 3)
		v := g.VertexOf(p)
		if len(g.Neighbours(v)) != c.deg || g.Liberties(v) != c.libs {
			t.Errorf("%s: degree %d, liberties %d; want %d, %d", c.p, len(g.Neighbours(v)), g.Liberties(v), c.deg, c.libs)
		}
	}
	if g.VertexOf(board.Pass) != NoVertex || g.VertexOf(board.At(3, 0)) != NoVertex {
		t.Error("VertexOf off the board is not NoVertex")
	}
}

// TestGraphNoMultiEdges: a chain touching one empty point with two stones has one edge to it, and the
// labels of iteration 1 are Algorithm 1 by hand: the chain (one liberty) adds the empty point's label,
// the empty point (no empty neighbour) adds the chain's.
func TestGraphNoMultiEdges(t *testing.T) {
	b := mustParse(t, `
		.X
		XX`)
	for _, toPlay := range []board.Color{board.Black, board.White} {
		g := Build(b, toPlay, 2)
		if g.NumVertices() != 2 || g.NumEdges() != 1 {
			t.Fatalf("%d vertices, %d edges; want 2, 1", g.NumVertices(), g.NumEdges())
		}
		e, ch := g.VertexOf(board.At(0, 0)), g.VertexOf(board.At(1, 1))
		stone := LabelOwn
		if toPlay == board.White {
			stone = LabelOpp
		}
		rot := func(x uint32) uint32 { return x<<1 | x>>31 }
		want := [3][2]uint32{{LabelEmpty, stone}}
		for k := 1; k <= 2; k++ {
			want[k][0] = Mix32(rot(want[k-1][0]) + want[k-1][1])
			want[k][1] = Mix32(rot(want[k-1][1]) + want[k-1][0])
		}
		for k := range 3 {
			if g.Label(e, k) != want[k][0] || g.Label(ch, k) != want[k][1] {
				t.Errorf("%v to play, iteration %d: labels %08x %08x, want %08x %08x", toPlay, k,
					g.Label(e, k), g.Label(ch, k), want[k][0], want[k][1])
			}
		}
		feats := g.PathFeatures(board.At(0, 0), nil)
		if len(feats) != 1 || feats[0] != PathLabel(want[2][0], want[2][1], want[2][0]) {
			t.Errorf("features %06x, want the one walk empty-chain-empty", feats)
		}
	}
}

// TestManyLibertiesIgnoreNeighbourhood: a vertex with 4 or more liberties takes CONST_4_LIBERTIES instead
// of its neighbours' labels (Algorithm 1), whatever its neighbours are; with 3 it takes them.
func TestManyLibertiesIgnoreNeighbourhood(t *testing.T) {
	rot := func(x uint32) uint32 { return x<<1 | x>>31 }
	// The black pair at C3 D3 has 6 liberties in both positions; only its other neighbours differ.
	lone := mustParse(t, `
		.....
		.....
		..XX.
		.....
		.....`)
	touched := mustParse(t, `
		.....
		..O..
		..XX.
		.....
		.....`)
	c3 := board.At(2, 2)
	var labels [2][3]uint32
	for i, b := range []*board.Board{lone, touched} {
		g := Build(b, board.Black, 2)
		v := g.VertexOf(c3)
		if g.Liberties(v) < 4 {
			t.Fatalf("the pair has %d liberties", g.Liberties(v))
		}
		for k := range 3 {
			labels[i][k] = g.Label(v, k)
		}
		if want := Mix32(rot(LabelOwn) + Const4Libs); labels[i][1] != want {
			t.Errorf("position %d: pair's label %08x, want Mix32(rot(OWN)+C4) = %08x", i, labels[i][1], want)
		}
		// An empty point with 4 empty neighbours is a vertex with 4 liberties too.
		if want, got := Mix32(rot(LabelEmpty)+Const4Libs), g.Label(g.VertexOf(board.At(1, 3)), 1); got != want {
			t.Errorf("position %d: open empty point's label %08x, want %08x", i, got, want)
		}
	}
	if labels[0] != labels[1] {
		t.Errorf("the pair's labels depend on its neighbourhood: %08x vs %08x", labels[0], labels[1])
	}
	// With 3 liberties the neighbourhood counts: the white stone at C4 (4 liberties before, 3 after the
	// black pair is beside it) gets a label that sums its neighbours.
	g := Build(touched, board.Black, 1)
	w := g.VertexOf(board.At(2, 1))
	if g.Liberties(w) != 3 {
		t.Fatalf("white stone has %d liberties, want 3", g.Liberties(w))
	}
	var sum uint32
	for _, u := range g.Neighbours(w) {
		sum += g.Label(u, 0)
	}
	if got, want := g.Label(w, 1), Mix32(rot(LabelOpp)+sum); got != want {
		t.Errorf("white stone's label %08x, want %08x", got, want)
	}
}

// midGame returns the position after move 150 of the first embedded sample game.
func midGame(tb testing.TB) *game.Position {
	tb.Helper()
	_, data, err := assets.Sample()
	if err != nil {
		tb.Fatal(err)
	}
	games, err := game.Parse(data)
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := games[0].PositionAfter(150)
	if err != nil {
		tb.Fatal(err)
	}
	if pos.Board.Size() != 19 || pos.MoveNumber != 150 {
		tb.Fatalf("sample game: %dx%d, move %d", pos.Board.Size(), pos.Board.Size(), pos.MoveNumber)
	}
	return pos
}

// TestChainMembersAgree: every stone of a chain names the same vertex and label, in the Graph and in the
// Tracker, and the vertices partition the board.
func TestChainMembersAgree(t *testing.T) {
	pos := midGame(t)
	b := &pos.Board
	g := Build(b, pos.ToPlay, 2)
	tr := NewTracker(2)
	tr.Reset(b)
	seen := 0
	for v := range Vertex(g.NumVertices()) {
		pts := g.Points(v)
		seen += len(pts)
		for _, p := range pts {
			if g.VertexOf(p) != v {
				t.Fatalf("%s is listed in vertex %d but VertexOf says %d", p.GTP(19), v, g.VertexOf(p))
			}
			if c := b.At(p); c != g.Color(v) || c == board.Empty && len(pts) != 1 {
				t.Fatalf("%s: colour %v in vertex of colour %v", p.GTP(19), c, g.Color(v))
			}
			for k := range 3 {
				if tr.Label(p, pos.ToPlay, k) != g.Label(v, k) || tr.Label(p, pos.ToPlay, k) != tr.Label(pts[0], pos.ToPlay, k) {
					t.Fatalf("%s: labels differ within its chain", p.GTP(19))
				}
			}
		}
		if g.Color(v) != board.Empty && len(pts) != b.ChainSize(pts[0]) {
			t.Errorf("vertex at %s has %d stones, the chain %d", pts[0].GTP(19), len(pts), b.ChainSize(pts[0]))
		}
	}
	if seen != 361 {
		t.Errorf("vertices hold %d points, want 361", seen)
	}
}

// transform is one of the 8 symmetries of the square board of size n.
func transform(s, n, x, y int) (int, int) {
	if s&4 != 0 {
		x, y = y, x
	}
	if s&1 != 0 {
		x = n - 1 - x
	}
	if s&2 != 0 {
		y = n - 1 - y
	}
	return x, y
}

// transformed returns b under symmetry s, with colours swapped when swap is set.
func transformed(t *testing.T, b *board.Board, s int, swap bool) *board.Board {
	t.Helper()
	n := b.Size()
	rows := make([][]byte, n)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(".", n))
	}
	for _, p := range b.Points() {
		x, y := p.XY()
		tx, ty := transform(s, n, x, y)
		c := b.At(p)
		if swap {
			c = c.Opponent()
		}
		rows[ty][tx] = ".XO"[c]
	}
	var sb strings.Builder
	for _, r := range rows {
		sb.Write(r)
		sb.WriteByte('\n')
	}
	return mustParse(t, sb.String())
}

// TestFeatureSymmetry: path features are functions of the graph alone, so they are the same at a point
// and its image under each of the 8 symmetries of the board; and since labels are relative to the player
// to move, swapping every stone's colour and the player to move changes nothing either. Swapping the
// colours alone does change them (the features know whose move it is).
func TestFeatureSymmetry(t *testing.T) {
	pos := midGame(t)
	b := &pos.Board
	n := b.Size()
	g := Build(b, pos.ToPlay, 2)
	var want, got []uint32
	for s := range 8 {
		for _, swap := range []bool{false, true} {
			toPlay := pos.ToPlay
			if swap {
				toPlay = toPlay.Opponent()
			}
			tg := Build(transformed(t, b, s, swap), toPlay, 2)
			for _, p := range b.Points() {
				x, y := p.XY()
				tx, ty := transform(s, n, x, y)
				for k := range 3 {
					want = g.PathFeaturesAt(p, k, want[:0])
					got = tg.PathFeaturesAt(board.At(tx, ty), k, got[:0])
					if !slices.Equal(got, want) {
						t.Fatalf("symmetry %d, colours swapped %v, iteration %d, %s: features %06x, want %06x", s, swap, k,
							p.GTP(n), got, want)
					}
				}
			}
		}
	}
	differ := 0
	other := Build(transformed(t, b, 0, true), pos.ToPlay, 1)
	for _, p := range b.EmptyPoints() {
		if !slices.Equal(g.PathFeaturesAt(p, 1, nil), other.PathFeatures(p, nil)) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("swapping colours without swapping the player to move changed no feature")
	}
}

// TestPathFeaturesSortedUnique: features are sorted, unique, 24-bit, and exactly the labels of Paths;
// stones have none; and the typical count is the paper's "usually only 10-20 features are active".
func TestPathFeaturesSortedUnique(t *testing.T) {
	pos := midGame(t)
	g := Build(&pos.Board, pos.ToPlay, DefaultIterations)
	total, points := 0, 0
	buf := []uint32{7} // features are appended after what dst holds
	for _, p := range pos.Board.Points() {
		f := g.PathFeatures(p, buf[:1])
		if f[0] != 7 {
			t.Fatal("PathFeatures overwrote dst")
		}
		f = f[1:]
		if pos.Board.At(p) != board.Empty {
			if len(f) != 0 || len(g.Paths(p, nil)) != 0 {
				t.Fatalf("stone at %s has features or paths", p.GTP(19))
			}
			continue
		}
		var labels []uint32
		for _, w := range g.Paths(p, nil) {
			if g.Color(w[0]) != board.Empty || !slices.Contains(g.Neighbours(w[0]), w[1]) ||
				!slices.Contains(g.Neighbours(w[1]), w[2]) {
				t.Fatalf("%s: %v is not a walk from an empty point", p.GTP(19), w)
			}
			labels = append(labels, g.PathLabel(w, DefaultIterations))
		}
		slices.Sort(labels)
		labels = slices.Compact(labels)
		if !slices.Equal(f, labels) {
			t.Fatalf("%s: features %06x, path labels %06x", p.GTP(19), f, labels)
		}
		for _, x := range f {
			if x >= NumPathFeatures {
				t.Fatalf("feature %x has more than 24 bits", x)
			}
		}
		total += len(f)
		points++
	}
	mean := float64(total) / float64(points)
	t.Logf("mean %.1f features per empty point at move 150", mean)
	if mean < 4 || mean > 30 {
		t.Errorf("mean %.1f features per empty point; the paper says usually 10-20", mean)
	}
}

// TestBuildReuse: building a smaller board after a larger one into the same Graph, and the same one
// twice, gives what a fresh Graph gives, and rebuilding allocates nothing.
func TestBuildReuse(t *testing.T) {
	pos := midGame(t)
	small := mustParse(t, `
		.X.
		XO.
		.O.`)
	var g Graph
	g.Build(&pos.Board, board.Black, 1)
	g.Build(small, board.White, 1)
	fresh := Build(small, board.White, 1)
	if !slices.Equal(edgeSet(&g), edgeSet(fresh)) || g.VertexOf(board.At(5, 5)) != NoVertex {
		t.Error("reused graph differs from a fresh one")
	}
	for _, p := range small.Points() {
		if !slices.Equal(g.PathFeatures(p, nil), fresh.PathFeatures(p, nil)) {
			t.Errorf("%s: features differ", p.GTP(3))
		}
	}
	g.Build(&pos.Board, pos.ToPlay, 1)
	if a := testing.AllocsPerRun(20, func() { g.Build(&pos.Board, pos.ToPlay, 1) }); a != 0 {
		t.Errorf("rebuilding allocates %.0f times", a)
	}
}
