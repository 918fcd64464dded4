package board

import (
	"errors"
	"fmt"
	"slices"
)

// Errors returned by Play and Set; they are wrapped with the move's details.
var (
	ErrSize     = errors.New("board size must be 2..25")
	ErrOffBoard = errors.New("point is off the board")
	ErrOccupied = errors.New("point is occupied")
	ErrSuicide  = errors.New("suicide")
	ErrKo       = errors.New("retakes a ko")
	ErrColor    = errors.New("colour must be black or white")
)

// noChain is the head of every empty point and every point off the board: a cell off the board whose
// chain is never used, so its liberty count stays 0 and an atari test needs no colour test first.
const noChain Point = 0

// chain is the bookkeeping of one chain, stored at its head (representative) point.
type chain struct {
	size int16
	// nlibs is the exact number of liberties, kept move by move: most moves change it by counting
	// around the stone played, and only a move joining two or more chains walks the result.
	nlibs int16
	// libs counts pseudo-liberties: pairs (stone, empty neighbour), and libSum sums their points; when
	// the chain has one liberty L every pair names it, so L = libSum/libs.
	libs   int16
	libSum int32
}

func (c *chain) addLib(p Point) {
	c.libs++
	c.libSum += int32(p)
}

func (c *chain) removeLib(p Point) {
	c.libs--
	c.libSum -= int32(p)
}

// Board is a Go position: stones, chains, ko and captures. It is a plain value: copying it (b2 := *b)
// gives an independent board. It knows nothing of whose turn it is; moves name their colour.
type Board struct {
	size     int
	color    [NumCells]Color
	head     [NumCells]Point // head of the chain of each stone
	next     [NumCells]Point // next stone of the chain, a circular list
	chains   [NumCells]chain // valid at head points only
	empty    [MaxPoints]Point
	emptyAt  [NumCells]int16 // index of each empty point in empty
	numEmpty int
	ko       Point // the point koColor may not play next, or NoPoint
	koColor  Color
	hash     uint64
	captures [3]int // stones captured by each colour
}

// pointsBySize lists the on-board points of each size, row-major from the top left.
var pointsBySize [MaxSize + 1][]Point

func init() {
	for n := 2; n <= MaxSize; n++ {
		pts := make([]Point, 0, n*n)
		for y := range n {
			for x := range n {
				pts = append(pts, At(x, y))
			}
		}
		pointsBySize[n] = pts
	}
}

// New returns an empty board of the given size.
func New(size int) (*Board, error) {
	b := &Board{}
	if err := b.Reset(size); err != nil {
		return nil, err
	}
	return b, nil
}

// Reset empties the board and sets its size.
func (b *Board) Reset(size int) error {
	if size < 2 || size > MaxSize {
		return fmt.Errorf("%w: %d", ErrSize, size)
	}
	*b = Board{size: size, ko: NoPoint}
	for i := range b.color {
		b.color[i] = Edge
	}
	for i, p := range pointsBySize[size] {
		b.color[p] = Empty
		b.empty[i] = p
		b.emptyAt[p] = int16(i)
	}
	b.numEmpty = size * size
	return nil
}

// Size returns the length of a side.
func (b *Board) Size() int { return b.size }

// Points returns the on-board points, row-major from the top left. The slice is shared: do not modify it.
func (b *Board) Points() []Point { return pointsBySize[b.size] }

// PointsOf returns the points of a board of the given size (nil for an unsupported size), as Points does.
func PointsOf(size int) []Point {
	if size < 2 || size > MaxSize {
		return nil
	}
	return pointsBySize[size]
}

// At returns the colour at p (Edge off the board).
func (b *Board) At(p Point) Color {
	if uint(p) >= NumCells {
		return Edge
	}
	return b.color[p]
}

// OnBoard reports whether p is an intersection of this board.
func (b *Board) OnBoard(p Point) bool { return uint(p) < NumCells && b.color[p] != Edge }

// Ko returns the point that colour forbidden may not play on the next move because it would retake a
// simple ko, or NoPoint.
func (b *Board) Ko() (p Point, forbidden Color) { return b.ko, b.koColor }

// ClearKo lifts the ko ban, as if the forbidden side had played a ko threat and it was answered
// elsewhere: tactical reading uses it for the side granted unlimited ko threats.
func (b *Board) ClearKo() { b.ko = NoPoint }

// Captures returns the number of stones captured by colour by.
func (b *Board) Captures(by Color) int { return b.captures[by&3] }

// Hash returns the Zobrist hash of the stones on the board.
func (b *Board) Hash() uint64 { return b.hash }

// EmptyPoints returns the empty points in no particular order. The slice aliases the board: it is valid
// until the next move.
func (b *Board) EmptyPoints() []Point { return b.empty[:b.numEmpty] }

// CopyFrom makes b a copy of src.
func (b *Board) CopyFrom(src *Board) { *b = *src }

// Legal reports whether c may play at p: on an empty point, not retaking a ko, not suicide. Pass is legal.
func (b *Board) Legal(p Point, c Color) bool {
	if p == Pass {
		return true
	}
	if uint(p) >= NumCells || b.color[p] != Empty || (p == b.ko && c == b.koColor) {
		return false
	}
	return b.hasLiberty(p, c)
}

// hasLiberty reports whether a stone of colour c placed on the empty point p would have a liberty after
// captures: an empty neighbour, a friendly chain with another liberty, or an enemy chain it captures.
func (b *Board) hasLiberty(p Point, c Color) bool {
	for _, d := range neighbours {
		n := p + d
		switch b.color[n] {
		case Empty:
			return true
		case Edge:
		case c:
			if b.chains[b.head[n]].nlibs > 1 {
				return true
			}
		default:
			if b.chains[b.head[n]].nlibs == 1 {
				return true
			}
		}
	}
	return false
}

// Play plays a move of colour c at p (or Pass), or returns an error saying why the move is illegal.
func (b *Board) Play(p Point, c Color) error {
	if c != Black && c != White {
		return fmt.Errorf("%w: %v", ErrColor, c)
	}
	if p != Pass {
		switch {
		case !b.OnBoard(p):
			return fmt.Errorf("%s %s: %w", c, p.GTP(b.size), ErrOffBoard)
		case b.color[p] != Empty:
			return fmt.Errorf("%s %s: %w", c, p.GTP(b.size), ErrOccupied)
		case p == b.ko && c == b.koColor:
			return fmt.Errorf("%s %s: %w", c, p.GTP(b.size), ErrKo)
		case !b.hasLiberty(p, c):
			return fmt.Errorf("%s %s: %w", c, p.GTP(b.size), ErrSuicide)
		}
	}
	b.PlayLegal(p, c)
	return nil
}

// PlayLegal plays a move already known to be legal (see Legal); it skips the checks Play makes.
func (b *Board) PlayLegal(p Point, c Color) {
	b.ko = NoPoint
	if p == Pass {
		return
	}
	opp := c.Opponent()
	b.removeEmpty(p)
	b.color[p] = c
	b.hash ^= zobrist[c][p]
	b.head[p] = p
	b.next[p] = p
	b.chains[p] = chain{size: 1}
	// The chains around p lose it as a liberty, once each.
	var around [4]Point
	na, joined := 0, 0
	for _, d := range neighbours {
		n := p + d
		switch b.color[n] {
		case Empty:
			b.chains[p].addLib(n)
			b.chains[p].nlibs++
		case Black, White:
			h := b.head[n]
			b.chains[h].removeLib(p)
			if !slices.Contains(around[:na], h) {
				around[na] = h
				na++
				b.chains[h].nlibs--
				if b.color[n] == c {
					joined++
				}
			}
		}
	}
	if joined == 1 {
		// One chain joined: p's empty neighbours that it does not already touch are new liberties.
		var h Point
		for _, a := range around[:na] {
			if b.color[a] == c {
				h = a
			}
		}
		gained := int16(0)
		for _, d := range neighbours {
			if n := p + d; b.color[n] == Empty && !b.touches(n, h) {
				gained++
			}
		}
		libs := b.chains[h].nlibs + gained
		b.merge(p, h)
		b.chains[b.head[p]].nlibs = libs
	} else if joined > 1 {
		// The largest chain keeps its liberties; the others' and p's count where the largest has none.
		large := NoPoint
		for _, a := range around[:na] {
			if b.color[a] == c && (large == NoPoint || b.chains[a].size > b.chains[large].size) {
				large = a
			}
		}
		libs := b.chains[large].nlibs
		var seen PointSet
		count := func(e Point) {
			if !seen.Has(e) {
				seen.Add(e)
				if !b.touches(e, large) {
					libs++
				}
			}
		}
		for _, d := range neighbours {
			if n := p + d; b.color[n] == Empty {
				count(n)
			}
		}
		for _, h := range around[:na] {
			if b.color[h] != c || h == large {
				continue
			}
			for s := h; ; {
				for _, d := range neighbours {
					if e := s + d; b.color[e] == Empty {
						count(e)
					}
				}
				if s = b.next[s]; s == h {
					break
				}
			}
		}
		for _, d := range neighbours {
			n := p + d
			if b.color[n] == c && b.head[n] != b.head[p] {
				b.merge(b.head[p], b.head[n])
			}
		}
		b.chains[b.head[p]].nlibs = libs
	}
	captured, lastCaptured := 0, NoPoint
	for _, d := range neighbours {
		n := p + d
		if b.color[n] == opp && b.chains[b.head[n]].nlibs == 0 {
			captured += b.capture(b.head[n], c)
			lastCaptured = n
		}
	}
	// A lone stone that captured one stone and has only that point as liberty makes a ko.
	if captured == 1 {
		if h := b.head[p]; b.chains[h].size == 1 && b.chains[h].nlibs == 1 {
			b.ko, b.koColor = lastCaptured, opp
		}
	}
}

// merge joins chain b2 into chain b1 (or the other way round, keeping the larger as head).
func (b *Board) merge(h1, h2 Point) {
	if b.chains[h1].size < b.chains[h2].size {
		h1, h2 = h2, h1
	}
	s := h2
	for {
		b.head[s] = h1
		s = b.next[s]
		if s == h2 {
			break
		}
	}
	b.next[h1], b.next[h2] = b.next[h2], b.next[h1]
	c1, c2 := &b.chains[h1], &b.chains[h2]
	c1.size += c2.size
	c1.libs += c2.libs
	c1.libSum += c2.libSum
	c1.nlibs += c2.nlibs // shared liberties counted twice: the caller corrects it
}

// touches reports whether the empty point e is next to a stone of the chain headed at h.
func (b *Board) touches(e, h Point) bool {
	for _, d := range neighbours {
		if n := e + d; b.color[n] != Empty && b.color[n] != Edge && b.head[n] == h {
			return true
		}
	}
	return false
}

// countLiberties counts the liberties of the chain at p by walking it.
func (b *Board) countLiberties(p Point) int {
	var seen PointSet
	n := 0
	s := p
	for {
		for _, d := range neighbours {
			if l := s + d; b.color[l] == Empty && !seen.Has(l) {
				seen.Add(l)
				n++
			}
		}
		if s = b.next[s]; s == p {
			return n
		}
	}
}

// capture removes the chain headed at h, giving liberties to the capturer's adjacent chains, and returns
// the number of stones removed.
func (b *Board) capture(h Point, capturer Color) int {
	victim := capturer.Opponent()
	n := 0
	s := h
	for {
		b.color[s] = Empty
		b.head[s] = noChain
		b.hash ^= zobrist[victim][s]
		b.addEmpty(s)
		n++
		// s becomes a liberty of each capturing chain around it, counted once per chain.
		var around [4]Point
		na := 0
		for _, d := range neighbours {
			if m := s + d; b.color[m] == capturer {
				h := b.head[m]
				b.chains[h].addLib(s)
				if !slices.Contains(around[:na], h) {
					around[na] = h
					na++
					b.chains[h].nlibs++
				}
			}
		}
		s = b.next[s]
		if s == h {
			break
		}
	}
	b.captures[capturer] += n
	return n
}

func (b *Board) removeEmpty(p Point) {
	i := b.emptyAt[p]
	b.numEmpty--
	last := b.empty[b.numEmpty]
	b.empty[i] = last
	b.emptyAt[last] = i
}

func (b *Board) addEmpty(p Point) {
	b.empty[b.numEmpty] = p
	b.emptyAt[p] = int16(b.numEmpty)
	b.numEmpty++
}

// Set puts colour c (Black, White or Empty) at p without captures, as SGF setup properties (AB, AW, AE)
// do, and clears the ko. Chains are rebuilt from scratch, so Set is for setting up, not for play.
func (b *Board) Set(p Point, c Color) error {
	if !b.OnBoard(p) {
		return fmt.Errorf("set %d: %w", int(p), ErrOffBoard)
	}
	if c != Black && c != White && c != Empty {
		return fmt.Errorf("set %s: %w", p.GTP(b.size), ErrColor)
	}
	b.color[p] = c
	b.rebuild()
	return nil
}

// rebuild recomputes chains, liberties, empty points and the hash from the colours alone.
func (b *Board) rebuild() {
	b.numEmpty = 0
	b.hash = 0
	b.ko = NoPoint
	for _, p := range b.Points() {
		switch c := b.color[p]; c {
		case Empty:
			b.addEmpty(p)
			b.head[p] = noChain
		default:
			b.hash ^= zobrist[c][p]
			b.head[p] = p
			b.next[p] = p
			b.chains[p] = chain{size: 1}
		}
	}
	for _, p := range b.Points() {
		c := b.color[p]
		if c == Empty {
			continue
		}
		for _, d := range neighbours {
			n := p + d
			switch b.color[n] {
			case Empty:
				b.chains[b.head[p]].addLib(n)
			case c:
				if b.head[n] != b.head[p] {
					b.merge(b.head[p], b.head[n])
				}
			}
		}
	}
	for _, p := range b.Points() {
		if b.color[p] != Empty && b.head[p] == p {
			b.chains[p].nlibs = int16(b.countLiberties(p))
		}
	}
}
