package cfg

import (
	"slices"

	"aji/analysis/board"
)

// Vertex numbers a vertex of one Graph, from 0 to NumVertices()-1, in row-major order of each vertex's
// first point. NoVertex is the vertex of a point off the board.
type Vertex int32

// NoVertex is returned for points off the board.
const NoVertex Vertex = -1

// Path is a walk of length two from an empty vertex (§III-A.3): Path[0] is the start, Path[1] one of its
// neighbours and Path[2] one of that one's neighbours, which may be the start again ("we also allow
// cycles"), so walks of length one are included as (a, b, a).
type Path [3]Vertex

// Graph is the common fate graph of one position with its neighbourhood-hash labels, built from scratch
// (§III-A). Build reuses the Graph's memory: after the first position of a size, building allocates
// nothing. A Graph is not safe for concurrent use; accessors may be called concurrently once it is built.
type Graph struct {
	size   int
	toPlay board.Color
	iters  int

	vertexOf [board.NumCells]Vertex
	color    []board.Color // per vertex: board.Empty, Black or White
	libs     []int16       // per vertex: empty neighbours (exact liberties of a chain)
	// Compressed rows: members of v are members[memberAt[v]:memberAt[v+1]], neighbours likewise.
	memberAt []int32
	members  []board.Point
	adjAt    []int32
	adj      []Vertex
	labels   [][]uint32 // labels[k][v] after k iterations of Algorithm 1
	mark     []Vertex   // scratch for deduplicating neighbours
}

// Build returns the common fate graph of b seen by toPlay (Black or White; anything else counts as Black)
// with labels after 0 to iterations iterations of Algorithm 1.
func Build(b *board.Board, toPlay board.Color, iterations int) *Graph {
	g := new(Graph)
	g.Build(b, toPlay, iterations)
	return g
}

// Build makes g the common fate graph of b seen by toPlay, as the function Build does, reusing g's memory.
func (g *Graph) Build(b *board.Board, toPlay board.Color, iterations int) {
	if toPlay != board.White {
		toPlay = board.Black
	}
	iterations = max(iterations, 0)
	g.size, g.toPlay, g.iters = b.Size(), toPlay, iterations
	pts := b.Points()

	// Vertices: each empty point, and each chain at its first stone in row-major order. A chain's vertex
	// is recorded at its head too, which is one of its stones, so later stones find it there.
	for _, p := range pts {
		g.vertexOf[p] = NoVertex
	}
	g.color = g.color[:0]
	for _, p := range pts {
		c := b.At(p)
		if c == board.Empty {
			g.vertexOf[p] = Vertex(len(g.color))
			g.color = append(g.color, c)
			continue
		}
		h := b.ChainHead(p)
		if g.vertexOf[h] == NoVertex {
			g.vertexOf[h] = Vertex(len(g.color))
			g.color = append(g.color, c)
		}
		g.vertexOf[p] = g.vertexOf[h]
	}
	n := len(g.color)

	// Members, by counting sort on the vertex.
	g.memberAt = resize(g.memberAt, n+1)
	clear(g.memberAt)
	for _, p := range pts {
		g.memberAt[g.vertexOf[p]+1]++
	}
	for v := range n {
		g.memberAt[v+1] += g.memberAt[v]
	}
	g.members = resize(g.members, len(pts))
	for _, p := range pts {
		v := g.vertexOf[p]
		g.members[g.memberAt[v]] = p
		g.memberAt[v]++
	}
	for v := n; v > 0; v-- {
		g.memberAt[v] = g.memberAt[v-1]
	}
	g.memberAt[0] = 0

	// Neighbours: the vertices of the members' on-board neighbours, once each (no multi-edges).
	g.mark = resize(g.mark, n)
	for v := range g.mark {
		g.mark[v] = NoVertex
	}
	g.adjAt = resize(g.adjAt, n+1)
	g.adj = g.adj[:0]
	g.libs = resize(g.libs, n)
	for v := range Vertex(n) {
		g.adjAt[v] = int32(len(g.adj))
		libs := 0
		for _, m := range g.members[g.memberAt[v]:g.memberAt[v+1]] {
			for _, q := range m.Neighbours() {
				if !b.OnBoard(q) {
					continue
				}
				u := g.vertexOf[q]
				if u == v || g.mark[u] == v {
					continue
				}
				g.mark[u] = v
				g.adj = append(g.adj, u)
				if g.color[u] == board.Empty {
					libs++
				}
			}
		}
		g.libs[v] = int16(libs)
	}
	g.adjAt[n] = int32(len(g.adj))

	// Labels, Algorithm 1: iteration k reads only iteration k-1.
	if cap(g.labels) < iterations+1 {
		g.labels = append(g.labels[:cap(g.labels)], make([][]uint32, iterations+1-cap(g.labels))...)
	}
	g.labels = g.labels[:iterations+1]
	for k := range g.labels {
		g.labels[k] = resize(g.labels[k], n)
	}
	for v, c := range g.color {
		g.labels[0][v] = initialLabel(c, toPlay)
	}
	for k := 1; k <= iterations; k++ {
		prev, cur := g.labels[k-1], g.labels[k]
		for v := range Vertex(n) {
			var sum uint32
			for _, u := range g.Neighbours(v) {
				sum += prev[u]
			}
			cur[v] = nextLabel(prev[v], int(g.libs[v]), sum)
		}
	}
}

// resize returns s with length n, reusing its array when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Size returns the board size of the position.
func (g *Graph) Size() int { return g.size }

// ToPlay returns the player whose stones are labelled LabelOwn.
func (g *Graph) ToPlay() board.Color { return g.toPlay }

// Iterations returns the number of neighbourhood-hash iterations computed; labels exist for 0 to it.
func (g *Graph) Iterations() int { return g.iters }

// NumVertices returns the number of vertices.
func (g *Graph) NumVertices() int { return len(g.color) }

// VertexOf returns the vertex holding the point p, or NoVertex off the board. All stones of a chain give
// the same vertex.
func (g *Graph) VertexOf(p board.Point) Vertex {
	x, y := p.XY()
	if uint(p) >= board.NumCells || uint(x) >= uint(g.size) || uint(y) >= uint(g.size) {
		return NoVertex
	}
	return g.vertexOf[p]
}

// Color returns the colour of v on the board: board.Empty, Black or White.
func (g *Graph) Color(v Vertex) board.Color { return g.color[v] }

// Points returns the points of v: one for an empty vertex, the stones of a chain in row-major order. The
// slice is shared: do not modify it.
func (g *Graph) Points(v Vertex) []board.Point { return g.members[g.memberAt[v]:g.memberAt[v+1]] }

// Neighbours returns the vertices adjacent to v, each once. The slice is shared: do not modify it.
func (g *Graph) Neighbours(v Vertex) []Vertex { return g.adj[g.adjAt[v]:g.adjAt[v+1]] }

// Liberties returns the number of empty vertices adjacent to v: a chain's liberties, or an empty point's
// empty neighbours. Algorithm 1 ignores the neighbourhood of a vertex with 4 or more.
func (g *Graph) Liberties(v Vertex) int { return int(g.libs[v]) }

// Label returns the label of v after k iterations of Algorithm 1 (0 ≤ k ≤ Iterations()).
func (g *Graph) Label(v Vertex, k int) uint32 { return g.labels[k][v] }

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int { return len(g.adj) / 2 }

// Edges appends every edge to dst once, as a pair (u, v) with u < v, in order of u, and returns it.
func (g *Graph) Edges(dst [][2]Vertex) [][2]Vertex {
	for u := range Vertex(len(g.color)) {
		for _, v := range g.Neighbours(u) {
			if u < v {
				dst = append(dst, [2]Vertex{u, v})
			}
		}
	}
	return dst
}

// Paths appends to dst every walk of length two from the empty point p (§III-A.3) and returns it; it
// appends nothing when p is not an empty point. The same vertex sequence never appears twice, but
// different walks may share a label.
func (g *Graph) Paths(p board.Point, dst []Path) []Path {
	v := g.VertexOf(p)
	if v < 0 || g.color[v] != board.Empty {
		return dst
	}
	for _, a := range g.Neighbours(v) {
		for _, c := range g.Neighbours(a) {
			dst = append(dst, Path{v, a, c})
		}
	}
	return dst
}

// PathLabel returns the feature of walk w with labels after k iterations.
func (g *Graph) PathLabel(w Path, k int) uint32 {
	l := g.labels[k]
	return PathLabel(l[w[0]], l[w[1]], l[w[2]])
}

// PathFeatures appends to dst the path features of a move at p with the labels of the last iteration —
// the labels of the walks from p, sorted and each once — and returns it. It appends nothing when p is not
// an empty point. With a dst of enough capacity (a few dozen) nothing is allocated.
func (g *Graph) PathFeatures(p board.Point, dst []uint32) []uint32 {
	return g.PathFeaturesAt(p, g.iters, dst)
}

// PathFeaturesAt is PathFeatures with the labels after k iterations.
func (g *Graph) PathFeaturesAt(p board.Point, k int, dst []uint32) []uint32 {
	v := g.VertexOf(p)
	if v < 0 || g.color[v] != board.Empty {
		return dst
	}
	l := g.labels[k]
	start := len(dst)
	for _, a := range g.Neighbours(v) {
		for _, c := range g.Neighbours(a) {
			dst = append(dst, PathLabel(l[v], l[a], l[c]))
		}
	}
	return sortUnique(dst, start)
}

// sortUnique sorts dst[start:] and removes its repeats.
func sortUnique(dst []uint32, start int) []uint32 {
	tail := dst[start:]
	slices.Sort(tail)
	return dst[:start+len(slices.Compact(tail))]
}
