package goban

import (
	"image"
	"math"
)

// TerritoryStyle is how a Territory layer draws expected owners.
type TerritoryStyle uint8

// The styles of a Territory layer.
const (
	// TerritorySquares draws a black or white square on each empty point,
	// its area proportional to |E[s]| as in Stern's Figures 5.7 and 5.13 —
	// the ownership squares of Sabaki and KaTrain. Undecided points stay
	// bare, so the board reads at a glance.
	TerritorySquares TerritoryStyle = iota
	// TerritoryShading tints the board towards black or white, its strength
	// |E[s]|, interpolated between intersections so that regions blend into
	// each other like an influence map.
	TerritoryShading
)

// Colours of the territory overlays: the owners as soft black and white,
// and the bonds of a sample in the blue of Stern's Figure 5.6.
var (
	ownerBlack = [3]uint8{18, 18, 20}
	ownerWhite = [3]uint8{248, 247, 242}
	// BondColor draws the Swendsen-Wang bonds of a TerritorySample.
	BondColor = [3]uint8{24, 96, 230}
)

// Sizes, in cells. A full square is a little over half a cell: neighbours
// stay apart, and one still fits well inside a stone.
const (
	squareSide = 0.56 // side of a square for |E[s]| = 1
	deadFade   = 0.55 // how far a dead-looking stone fades into the wood at |E[s]| = 1
	// Opacity of the shading at |E[s]| = 1: black is the stronger tint on
	// the wood, so it gets less, and stones stay distinct on either.
	shadeBlack    = 0.46
	shadeWhite    = 0.62
	bondWidth     = 0.085
	squareOutline = 0.35 // opacity of the thin outline that keeps white squares visible on pale wood
)

// Territory is a Layer that shows the expected final owner of every point:
// E[s] in [−1, +1], +1 Black, as territory.Marginals gives it. Stones
// whose expected owner is the other colour are marked as dead: faded into
// the wood, with the owner's square on them.
type Territory struct {
	Size int
	// Owner holds Size*Size values E[s] in [−1, +1], index Y*Size+X; NaN
	// is an unknown point, not drawn.
	Owner []float64
	// Stones are the stones on the board shown (Size*Size, index
	// Y*Size+X). Squares and shading go around live stones, never over
	// them. Nil: every point is treated as empty.
	Stones []Stone
	Style  TerritoryStyle
	// MarkDead marks stones whose expected owner is the other colour. The
	// app turns it off while the estimate shown is still the previous
	// position's, whose owners may not fit the stones now on the board.
	MarkDead bool

	cols []shadeCol // scratch of paintShading, reused between repaints
}

// valid reports whether t can be drawn on grid g.
func (t *Territory) valid(g Grid) bool {
	n := t.Size
	return n == g.Size && n >= MinSize && len(t.Owner) == n*n && (t.Stones == nil || len(t.Stones) == n*n) && g.Cell >= 2
}

// stone is the stone on point i, Empty when t has no stones.
func (t *Territory) stone(i int) Stone {
	if t.Stones == nil {
		return Empty
	}
	return t.Stones[i]
}

// dead returns how dead the stone on point i looks, 0 (alive, or no
// stone) to 1 (surely the opponent's point).
func (t *Territory) dead(i int) float64 {
	if !t.MarkDead {
		return 0
	}
	return deadness(t.stone(i), t.Owner[i])
}

// deadness is −E[s] seen from the stone's colour, when that is positive.
func deadness(s Stone, owner float64) float64 {
	switch {
	case s == Black && owner < 0:
		return math.Min(1, -owner)
	case s == White && owner > 0:
		return math.Min(1, owner)
	}
	return 0
}

// Paint implements Layer.
func (t *Territory) Paint(img *image.RGBA, g Grid) {
	if !t.valid(g) {
		return
	}
	n := t.Size
	cell := float64(g.Cell)
	if t.Style == TerritoryShading {
		t.paintShading(img, g)
	}
	for i, v := range t.Owner {
		if math.IsNaN(v) {
			continue
		}
		cx, cy := g.Center(Point{X: i % n, Y: i / n})
		v = math.Max(-1, math.Min(1, v))
		d := t.dead(i)
		switch {
		case d > 0:
			// A dead-looking stone fades into the wood and carries its
			// owner's square, as large as the owner is certain.
			blendDisc(img, cx, cy, g.Radius+0.5, woodBase, deadFade*d)
			ownerSquare(img, cx, cy, cell*squareSide*math.Sqrt(math.Abs(v))/2, v)
		case t.Style == TerritorySquares && t.stone(i) == Empty:
			// Area ∝ |E[s]| (Stern Fig. 5.13), so the side grows as its root.
			ownerSquare(img, cx, cy, cell*squareSide*math.Sqrt(math.Abs(v))/2, v)
		}
	}
}

// ownerSquare draws the square of owner sign v with half-side h centred on
// (cx, cy); a white square gets a faint dark outline so that a small one
// still shows on the pale wood.
func ownerSquare(img *image.RGBA, cx, cy, h, v float64) {
	if h < 0.35 {
		return
	}
	if v > 0 {
		fillSquare(img, cx, cy, h, ownerBlack, 0.92)
		return
	}
	fillSquare(img, cx, cy, h+1, [3]uint8{60, 50, 40}, squareOutline)
	fillSquare(img, cx, cy, h, ownerWhite, 1)
}

// fillSquare blends an axis-aligned square of half-side h centred on
// (cx, cy), anti-aliased by each pixel's exact coverage: the coverage of a
// pixel is that of its column times that of its row.
func fillSquare(img *image.RGBA, cx, cy, h float64, c [3]uint8, alpha float64) {
	x0, x1 := cx-h, cx+h
	y0, y1 := cy-h, cy+h
	b := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1))).Intersect(img.Rect)
	var colBuf [256]float64
	cols := colBuf[:0]
	for px := b.Min.X; px < b.Max.X; px++ {
		cols = append(cols, alpha*(math.Min(x1, float64(px+1))-math.Max(x0, float64(px))))
	}
	for py := b.Min.Y; py < b.Max.Y; py++ {
		cov := math.Min(y1, float64(py+1)) - math.Max(y0, float64(py))
		if cov <= 0 {
			continue
		}
		o := img.PixOffset(b.Min.X, py)
		for _, cx := range cols {
			if a := uint32(cov*cx*255 + 0.5); a > 0 {
				blend8(img.Pix[o:o+3:o+3], c, a)
			}
			o += 4
		}
	}
}

// paintShading tints every pixel of the board around the grid by the
// owner interpolated bilinearly between the four nearest points, leaving
// the live stones untouched. The tint stops half a cell outside the edge
// lines, where the points' cells end. Interpolation runs row by row: the
// owners are first blended down to the pixel row, then along it.
func (t *Territory) paintShading(img *image.RGBA, g Grid) {
	n := t.Size
	cell := float64(g.Cell)
	x0, y0 := g.Center(Point{X: 0, Y: 0})
	b := image.Rect(int(math.Floor(x0-cell/2)), int(math.Floor(y0-cell/2)),
		int(math.Ceil(x0+(float64(n)-0.5)*cell)), int(math.Ceil(y0+(float64(n)-0.5)*cell))).Intersect(img.Rect)
	if b.Empty() {
		return
	}
	var owner [MaxSize * MaxSize]float64
	var live [MaxSize * MaxSize]bool
	for i, v := range t.Owner {
		if !math.IsNaN(v) {
			owner[i] = math.Max(-1, math.Min(1, v))
		}
		live[i] = t.stone(i) != Empty && t.dead(i) == 0
	}
	// Per pixel column: the cell to interpolate in, the weight of its
	// right end, and the nearest line with the offset from it.
	cols := t.cols[:0]
	for px := b.Min.X; px < b.Max.X; px++ {
		fx := (float64(px) + 0.5 - x0) / cell
		ix := min(max(int(math.Floor(fx)), 0), n-2)
		nx := int(math.Floor(fx + 0.5))
		cols = append(cols, shadeCol{ix: int32(ix), nx: int32(nx), tx: clamp01(fx - float64(ix)), dx: (fx - float64(nx)) * cell})
	}
	t.cols = cols
	r2 := (g.Radius + 0.5) * (g.Radius + 0.5)
	var row [MaxSize]float64
	for py := b.Min.Y; py < b.Max.Y; py++ {
		fy := (float64(py) + 0.5 - y0) / cell
		iy := min(max(int(math.Floor(fy)), 0), n-2)
		ty := clamp01(fy - float64(iy))
		for k := range n {
			row[k] = owner[iy*n+k]*(1-ty) + owner[(iy+1)*n+k]*ty
		}
		ny := int(math.Floor(fy + 0.5))
		dy := (fy - float64(ny)) * cell
		stoneRow := ny >= 0 && ny < n
		o := img.PixOffset(b.Min.X, py)
		for k := range cols {
			c := &cols[k]
			if stoneRow && c.nx >= 0 && int(c.nx) < n && live[ny*n+int(c.nx)] && c.dx*c.dx+dy*dy <= r2 {
				continue
			}
			v := row[c.ix]*(1-c.tx) + row[c.ix+1]*c.tx
			ink, a := ownerBlack, shadeBlack*v
			if v < 0 {
				ink, a = ownerWhite, -shadeWhite*v
			}
			if a > 0.004 {
				q := o + 4*k
				blend8(img.Pix[q:q+3:q+3], ink, uint32(a*255+0.5))
			}
		}
	}
}

// shadeCol is what paintShading needs to know about one pixel column.
type shadeCol struct {
	ix, nx int32
	tx, dx float64
}

// TerritorySample is a Layer that shows one sample of final owners with its
// Swendsen-Wang bonds, as in Stern's Figure 5.6: a full black or white
// square on each point, and a blue line joining each bonded pair of
// neighbours. Bonded points shared one cluster, whose owner was drawn as
// one; stones the sample captures are faded and carry their owner's square.
type TerritorySample struct {
	Size  int
	Owner []int8 // ±1 per point, +1 Black, index Y*Size+X; 0 is not drawn
	// Right[i] bonds point i = Y*Size+X with its right neighbour, Down[i]
	// with the one below. Either may be nil: no bonds.
	Right, Down []bool
	Stones      []Stone // the stones shown; nil: none
}

// Paint implements Layer.
func (s *TerritorySample) Paint(img *image.RGBA, g Grid) {
	n := s.Size
	if n != g.Size || n < MinSize || len(s.Owner) != n*n || g.Cell < 2 ||
		(s.Stones != nil && len(s.Stones) != n*n) ||
		(s.Right != nil && len(s.Right) != n*n) || (s.Down != nil && len(s.Down) != n*n) {
		return
	}
	cell := float64(g.Cell)
	for i, o := range s.Owner {
		if o == 0 {
			continue
		}
		cx, cy := g.Center(Point{X: i % n, Y: i / n})
		st := Empty
		if s.Stones != nil {
			st = s.Stones[i]
		}
		if st != Empty {
			if deadness(st, float64(o)) == 0 {
				continue
			}
			blendDisc(img, cx, cy, g.Radius+0.5, woodBase, deadFade)
		}
		ownerSquare(img, cx, cy, cell*squareSide/2, float64(o))
	}
	w := math.Max(1.5, cell*bondWidth)
	var seg [2][2]float64
	for i := range s.Owner {
		p := Point{X: i % n, Y: i / n}
		ax, ay := g.Center(p)
		seg[0] = [2]float64{ax, ay}
		if s.Right != nil && s.Right[i] && p.X < n-1 {
			bx, by := g.Center(Point{X: p.X + 1, Y: p.Y})
			seg[1] = [2]float64{bx, by}
			strokePath(img, seg[:], false, w, BondColor, 1)
		}
		if s.Down != nil && s.Down[i] && p.Y < n-1 {
			bx, by := g.Center(Point{X: p.X, Y: p.Y + 1})
			seg[1] = [2]float64{bx, by}
			strokePath(img, seg[:], false, w, BondColor, 1)
		}
	}
}
