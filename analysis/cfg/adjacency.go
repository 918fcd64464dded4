package cfg

import "aji/analysis/board"

// adjacency gives the common-fate-graph neighbours of vertices of one board, computed on demand and kept
// until reset. Vertices are named by points: an empty point by itself, a chain by its head
// (board.ChainHead). The Tracker keeps one for the board before a move and one for the board after it, so
// that it never stores the whole graph.
type adjacency struct {
	b     *board.Board
	epoch uint32
	stamp [board.NumCells]uint32 // == epoch: at/n hold v's neighbours
	mark  [board.NumCells]uint32 // scratch for deduplicating, compared with markEpoch
	markE uint32
	at    [board.NumCells]int32
	n     [board.NumCells]int16
	libs  [board.NumCells]int16
	// buf holds the lists. Every point adds at most 4 entries to its vertex's list, so 4*MaxPoints is
	// enough for the whole graph and buf never reallocates, which keeps earlier slices of it valid.
	buf []board.Point
}

func (a *adjacency) reset(b *board.Board) {
	a.b = b
	if a.buf == nil {
		a.buf = make([]board.Point, 0, 4*board.MaxPoints)
	}
	a.buf = a.buf[:0]
	if a.epoch++; a.epoch == 0 {
		clear(a.stamp[:])
		a.epoch = 1
	}
}

// vertex returns the vertex of the on-board point q.
func vertex(b *board.Board, q board.Point) board.Point {
	if b.At(q) == board.Empty {
		return q
	}
	return b.ChainHead(q)
}

// of returns the neighbours of vertex v, each once. The slice stays valid until reset.
func (a *adjacency) of(v board.Point) []board.Point {
	if a.stamp[v] != a.epoch {
		a.fill(v)
	}
	return a.buf[a.at[v] : a.at[v]+int32(a.n[v])]
}

// liberties returns the number of empty neighbours of vertex v.
func (a *adjacency) liberties(v board.Point) int {
	if a.stamp[v] != a.epoch {
		a.fill(v)
	}
	return int(a.libs[v])
}

func (a *adjacency) fill(v board.Point) {
	if a.markE++; a.markE == 0 {
		clear(a.mark[:])
		a.markE = 1
	}
	b := a.b
	start := len(a.buf)
	libs := 0
	s := v
	for {
		for _, q := range s.Neighbours() {
			c := b.At(q)
			if c == board.Edge {
				continue
			}
			u := vertex(b, q)
			if u == v || a.mark[u] == a.markE {
				continue
			}
			a.mark[u] = a.markE
			a.buf = append(a.buf, u)
			if c == board.Empty {
				libs++
			}
		}
		if b.At(v) == board.Empty {
			break
		}
		if s = b.NextStone(s); s == v {
			break
		}
	}
	a.stamp[v] = a.epoch
	a.at[v] = int32(start)
	a.n[v] = int16(len(a.buf) - start)
	a.libs[v] = int16(libs)
}
