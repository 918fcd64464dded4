package cfg

import (
	"fmt"

	"aji/analysis/board"
)

// Update counts the walk updates of one move in one path table (each perspective keeps its own table, and
// both see the same walks): the quantities of the paper's Table II.
type Update struct {
	Removed, Added int
	// RemovedAtMove is the part of Removed that started at the point played: a point that is no longer
	// empty loses all its walks (about 16 in open space).
	RemovedAtMove int
}

// walkCount is the number of walks from one empty point with one pair of path labels, the label for
// Black to play in bits 24-47 of key and for White to play in bits 0-23: "we store the paths and their
// count in a hash table" (§III-B). Both perspectives share one entry, so a walk costs one search; a point
// has a few dozen entries, so a short list scanned linearly does.
type walkCount struct {
	key uint64
	n   int32
}

// label returns the entry's path label seen by perspective s (0: Black to play).
func (w walkCount) label(s int) uint32 {
	return uint32(w.key>>(3*labelBits*(1-s))) & (NumPathFeatures - 1)
}

// Tracker keeps the labels of every vertex and the walk counts of every empty point up to date as stones
// are played, by Algorithm 2: predict which vertices change (vanish, appear, or get a new label), remove
// the walks through them from the old graph, apply the move, and add the walks through them in the new
// graph. It keeps both perspectives (Black to play and White to play), so features are ready whoever
// moves. Vertices are named by points here: an empty point by itself, a chain by its head.
//
// After the first few moves Play allocates nothing (a point's walk list grows at most to the largest it
// has been). A Tracker is about 200 KB; it is not safe for concurrent use.
type Tracker struct {
	iters  int
	boards [2]board.Board
	cur    int
	// labels[s][k][v]: label of vertex v after k iterations, seen by perspective s (0: Black to play).
	labels [2][][board.NumCells]uint32
	walks  [board.NumCells][]walkCount
	last   Update
	last2  [2]*[board.NumCells]uint32 // labels[s][iters]: the ones paths use
	played board.Point

	// Scratch of one move.
	adj      [2]adjacency // [0] the board before the move, [1] after
	epoch    uint32
	fresh    [board.NumCells]uint32 // == epoch: a vertex of the new graph that did not exist before
	inSet    [board.NumCells]uint32 // == setMark: a member of the set updatePaths is working on
	setMark  uint32
	changedM [board.NumCells]uint32 // == epoch: a surviving vertex whose last-iteration label changed
	newLab   [2][][board.NumCells]uint32
	candM    [2][][board.NumCells]uint32 // candM[s][k][v] == epoch: newLab[s][k][v] is v's new label
	cand     [2][][]board.Point
	gone     []board.Point // vertices of the old graph that vanish
	born     []board.Point // vertices of the new graph that are new
	changed  []board.Point // surviving vertices whose last-iteration label changed
	frontier []board.Point
}

// NewTracker returns a tracker of labels after the given number of iterations of Algorithm 1, on an
// empty 19x19 board; call Reset to start from another position.
func NewTracker(iterations int) *Tracker {
	t := &Tracker{iters: max(iterations, 0)}
	for s := range 2 {
		t.labels[s] = make([][board.NumCells]uint32, t.iters+1)
		t.newLab[s] = make([][board.NumCells]uint32, t.iters+1)
		t.candM[s] = make([][board.NumCells]uint32, t.iters+1)
		t.cand[s] = make([][]board.Point, t.iters+1)
		for k := range t.cand[s] {
			t.cand[s][k] = make([]board.Point, 0, board.MaxPoints)
		}
	}
	t.last2 = [2]*[board.NumCells]uint32{&t.labels[0][t.iters], &t.labels[1][t.iters]}
	t.gone = make([]board.Point, 0, board.MaxPoints)
	t.born = make([]board.Point, 0, board.MaxPoints)
	t.changed = make([]board.Point, 0, board.MaxPoints)
	t.frontier = make([]board.Point, 0, board.MaxPoints)
	empty, _ := board.New(19)
	t.Reset(empty)
	return t
}

// Iterations returns the number of neighbourhood-hash iterations of the tracked labels.
func (t *Tracker) Iterations() int { return t.iters }

// Board returns the tracked position. It is valid until the next Play or Reset; do not modify it.
func (t *Tracker) Board() *board.Board { return &t.boards[t.cur] }

// LastUpdate returns the walk removals and additions of the last Play in one path table.
func (t *Tracker) LastUpdate() Update { return t.last }

func persp(toPlay board.Color) int {
	if toPlay == board.White {
		return 1
	}
	return 0
}

var perspColor = [2]board.Color{board.Black, board.White}

// Reset sets the tracked position to a copy of b and computes every label and walk from scratch.
func (t *Tracker) Reset(b *board.Board) {
	t.cur = 0
	t.played = board.NoPoint
	t.boards[0].CopyFrom(b)
	b = &t.boards[0]
	a := &t.adj[0]
	a.reset(b)
	for _, p := range b.Points() {
		t.walks[p] = t.walks[p][:0]
	}
	for s := range 2 {
		lab := t.labels[s]
		for _, p := range b.Points() {
			if v := vertex(b, p); v == p {
				lab[0][v] = initialLabel(b.At(v), perspColor[s])
			}
		}
		for k := 1; k <= t.iters; k++ {
			for _, p := range b.Points() {
				if v := vertex(b, p); v == p {
					lab[k][v] = label(v, a, &lab[k-1])
				}
			}
		}
	}
	for _, x := range b.Points() {
		if b.At(x) != board.Empty {
			continue
		}
		for _, y := range a.of(x) {
			for _, z := range a.of(y) {
				t.update(x, y, z, 1)
			}
		}
	}
	t.last = Update{} // the walks of a fresh start are not a move's updates
}

// CopyFrom makes t a copy of src (a playout or a search branch starts from a copy), reusing t's memory:
// once t has held positions like src's, copying allocates nothing.
func (t *Tracker) CopyFrom(src *Tracker) {
	if t.iters != src.iters || t.labels[0] == nil {
		*t = *NewTracker(src.iters)
	}
	t.cur = 0
	t.boards[0].CopyFrom(src.Board())
	t.last = src.last
	for s := range 2 {
		copy(t.labels[s], src.labels[s])
	}
	for _, p := range t.boards[0].Points() {
		t.walks[p] = append(t.walks[p][:0], src.walks[p]...)
	}
}

// label is one iteration of Algorithm 1 for vertex v of the graph a describes, given the labels of the
// iteration before.
func label(v board.Point, a *adjacency, prev *[board.NumCells]uint32) uint32 {
	libs := a.liberties(v)
	var sum uint32
	if libs < manyLibs {
		for _, u := range a.of(v) {
			sum += prev[u]
		}
	}
	return nextLabel(prev[v], libs, sum)
}

// Play plays c at p (or a pass) on the tracked position and updates labels and walks (Algorithm 2,
// PLACESTONE). An illegal move returns the board's error and changes nothing.
func (t *Tracker) Play(p board.Point, c board.Color) error {
	old, nb := &t.boards[t.cur], &t.boards[1-t.cur]
	nb.CopyFrom(old)
	if err := nb.Play(p, c); err != nil {
		return fmt.Errorf("cfg tracker: %w", err)
	}
	t.last = Update{}
	if p == board.Pass {
		t.cur = 1 - t.cur // the board's ko is cleared; the graph is unchanged
		return nil
	}
	if t.epoch++; t.epoch == 0 {
		t.clearStamps()
	}
	t.played = p
	t.adj[0].reset(old)
	t.adj[1].reset(nb)
	t.predictLabelChanges(p, c, old, nb)

	// R = vanished ∪ changed, with the old graph and labels.
	t.beginSet()
	for _, v := range t.gone {
		t.inSet[v] = t.setMark
	}
	for _, v := range t.changed {
		t.inSet[v] = t.setMark
	}
	t.updatePaths(t.gone, &t.adj[0], -1)
	t.updatePaths(t.changed, &t.adj[0], -1)

	// Apply: the new labels, then the new board.
	for s := range 2 {
		for k := range t.cand[s] {
			lab, nl := &t.labels[s][k], &t.newLab[s][k]
			for _, v := range t.cand[s][k] {
				lab[v] = nl[v]
			}
		}
	}
	t.cur = 1 - t.cur

	// A = new ∪ changed, with the new graph and labels.
	t.beginSet()
	for _, v := range t.born {
		t.inSet[v] = t.setMark
	}
	for _, v := range t.changed {
		t.inSet[v] = t.setMark
	}
	t.updatePaths(t.born, &t.adj[1], 1)
	t.updatePaths(t.changed, &t.adj[1], 1)
	return nil
}

func (t *Tracker) clearStamps() {
	clear(t.fresh[:])
	clear(t.changedM[:])
	for s := range 2 {
		for k := range t.candM[s] {
			clear(t.candM[s][k][:])
		}
	}
	t.epoch = 1
}

func (t *Tracker) beginSet() {
	if t.setMark++; t.setMark == 0 {
		clear(t.inSet[:])
		t.setMark = 1
	}
}

// predictLabelChanges fills gone (vertices of the old graph that vanish: the empty point p, the chains
// p joins, the chains it captures), born (vertices of the new graph that did not exist: p's chain and the
// captured stones' points) and changed (vertices in both graphs whose last-iteration label differs in
// either perspective), and computes the new labels (PREDICTLABELCHANGES of Algorithm 2).
//
// A surviving vertex keeps its points, so edges between survivors never change and every added or
// removed edge touches a born or gone vertex; a walk through survivors only changes when a label does.
// Labels spread one edge per iteration: at iteration k only the vertices changed at k-1 and their
// neighbours can change, so each iteration recomputes that frontier alone.
func (t *Tracker) predictLabelChanges(p board.Point, c board.Color, old, nb *board.Board) {
	t.gone = append(t.gone[:0], p)
	t.born = t.born[:0]
	for _, q := range p.Neighbours() {
		switch old.At(q) {
		case c:
			t.addOnce(&t.gone, old.ChainHead(q))
		case c.Opponent():
			if nb.At(q) == board.Empty { // captured
				h := old.ChainHead(q)
				if t.addOnce(&t.gone, h) {
					for s := h; ; {
						t.born = append(t.born, s)
						if s = old.NextStone(s); s == h {
							break
						}
					}
				}
			}
		}
	}
	t.born = append(t.born, nb.ChainHead(p))
	for _, v := range t.born {
		t.fresh[v] = t.epoch
	}

	t.changed = t.changed[:0]
	a := &t.adj[1]
	for s := range 2 {
		lab, nl, cm := t.labels[s], t.newLab[s], t.candM[s]
		// Iteration 0: only born vertices have (new) labels.
		t.cand[s][0] = append(t.cand[s][0][:0], t.born...)
		for _, v := range t.born {
			nl[0][v] = initialLabel(nb.At(v), perspColor[s])
			cm[0][v] = t.epoch
		}
		t.frontier = append(t.frontier[:0], t.born...) // X: changed at the previous iteration
		for k := 1; k <= t.iters; k++ {
			cand := t.cand[s][k][:0]
			for _, x := range t.frontier {
				if cm[k][x] != t.epoch {
					cm[k][x] = t.epoch
					cand = append(cand, x)
				}
				for _, u := range a.of(x) {
					if cm[k][u] != t.epoch {
						cm[k][u] = t.epoch
						cand = append(cand, u)
					}
				}
			}
			t.cand[s][k] = cand
			// New labels of iteration k-1: newLab where computed this move, the old ones elsewhere.
			prev := func(u board.Point) uint32 {
				if cm[k-1][u] == t.epoch {
					return nl[k-1][u]
				}
				return lab[k-1][u]
			}
			t.frontier = append(t.frontier[:0], t.born...)
			for _, v := range cand {
				libs := a.liberties(v)
				var sum uint32
				if libs < manyLibs {
					for _, u := range a.of(v) {
						sum += prev(u)
					}
				}
				l := nextLabel(prev(v), libs, sum)
				nl[k][v] = l
				if t.fresh[v] != t.epoch && l != lab[k][v] {
					t.frontier = append(t.frontier, v)
				}
			}
		}
		// Survivors changed at the last iteration (the frontier past the born vertices).
		for _, v := range t.frontier[len(t.born):] {
			if t.changedM[v] != t.epoch {
				t.changedM[v] = t.epoch
				t.changed = append(t.changed, v)
			}
		}
	}
}

// addOnce appends v to *list unless it is there already, and reports whether it appended.
func (t *Tracker) addOnce(list *[]board.Point, v board.Point) bool {
	for _, u := range *list {
		if u == v {
			return false
		}
	}
	*list = append(*list, v)
	return true
}

// updatePaths adds (op = 1) or removes (op = -1) every walk with a vertex in the set marked in inSet that
// starts at an empty point, once each, for the members g listed (UPDATEPATHS of Algorithm 2): walks with
// g in the middle and both ends outside the set, walks that start at g, and walks that end at g and start
// outside the set. Called for each part of the set in turn, with the whole set marked.
func (t *Tracker) updatePaths(set []board.Point, a *adjacency, op int) {
	b := a.b
	for _, g := range set {
		ng := a.of(g)
		for _, x := range ng {
			if t.inSet[x] == t.setMark || b.At(x) != board.Empty {
				continue
			}
			for _, z := range ng {
				if t.inSet[z] != t.setMark {
					t.update(x, g, z, op)
				}
			}
		}
		if b.At(g) == board.Empty {
			if op < 0 {
				t.clearWalks(g) // every walk from g has g in the set
			} else {
				for _, y := range ng {
					for _, z := range a.of(y) {
						t.update(g, y, z, op)
					}
				}
			}
		}
		for _, y := range ng {
			for _, x := range a.of(y) {
				if t.inSet[x] != t.setMark && b.At(x) == board.Empty {
					t.update(x, y, g, op)
				}
			}
		}
	}
}

// clearWalks removes every walk from x, in both tables, counting them.
func (t *Tracker) clearWalks(x board.Point) {
	n := 0
	for _, w := range t.walks[x] {
		n += int(w.n)
	}
	t.walks[x] = t.walks[x][:0]
	t.last.Removed += n
	if x == t.played {
		t.last.RemovedAtMove += n
	}
}

// update adds or removes the walk (x, y, z) from x's counts in both perspectives' tables, with the
// current labels of the last iteration.
func (t *Tracker) update(x, y, z board.Point, op int) {
	l0, l1 := t.last2[0], t.last2[1]
	key := uint64(PathLabel(l0[x], l0[y], l0[z]))<<(3*labelBits) | uint64(PathLabel(l1[x], l1[y], l1[z]))
	w := t.walks[x]
	i := 0
	for i < len(w) && w[i].key != key {
		i++
	}
	switch {
	case op > 0 && i == len(w):
		t.walks[x] = append(w, walkCount{key, 1})
	case op > 0:
		w[i].n++
	case i == len(w):
		panic(fmt.Sprintf("cfg tracker: removing walk %d-%d-%d (labels %012x) that is not in the table", x, y, z, key))
	case w[i].n > 1:
		w[i].n--
	default:
		w[i] = w[len(w)-1]
		t.walks[x] = w[:len(w)-1]
	}
	if op > 0 {
		t.last.Added++
	} else {
		t.last.Removed++
	}
}

// PathFeatures appends to dst the path features of a move at p for toPlay, sorted and each once, as
// Graph.PathFeatures gives them for the tracked position, and returns it. It appends nothing when p is not
// an empty point.
func (t *Tracker) PathFeatures(p board.Point, toPlay board.Color, dst []uint32) []uint32 {
	b := t.Board()
	if !b.OnBoard(p) || b.At(p) != board.Empty {
		return dst
	}
	start := len(dst)
	s := persp(toPlay)
	for _, w := range t.walks[p] {
		dst = append(dst, w.label(s))
	}
	return sortUnique(dst, start)
}

// Label returns the label after k iterations (0 ≤ k ≤ Iterations()) of the vertex holding the on-board
// point p, seen by toPlay.
func (t *Tracker) Label(p board.Point, toPlay board.Color, k int) uint32 {
	return t.labels[persp(toPlay)][k][vertex(t.Board(), p)]
}
