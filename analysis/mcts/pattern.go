package mcts

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"

	"aji/analysis/board"
	"aji/analysis/pattern"
	"aji/models"
)

// The playout features beside the 3x3 shape, Coulom 2007 §4.1: "3x3 shapes, extension (without ladder
// knowledge), capture (without ladder knowledge), self-atari, and contiguity to the previous move". A
// capture or an extension with no tie to the last move is already in the shape, whose atari bits mark
// an orthogonal chain in atari (pattern.Code3), so only the levels that depend on the last move are
// features of their own.
const (
	// Capture levels, exclusive, in priority order as in Coulom's Table 1.
	featCaptureSave = iota // captures a chain touching a chain of the mover that the last move put in atari
	featCaptureLast        // captures the chain of the stone just played
	featExtension          // the liberty of a chain of the mover that the last move put in atari
	// Self-atari in three levels: a lone stone in atari is often a useful throw-in, all the more when it
	// puts a chain of the opponent in atari (a shortage of liberties in a capturing race); a chain rarely is.
	featSelfAtari1
	featSelfAtariAtari
	featSelfAtariN
	// Contiguity to the previous move: orthogonal (Coulom's distance 2) or diagonal (distance 3).
	featContig2
	featContig3
	numFeats
)

// NumPatternFeatures is the number of non-shape γ of a pattern model; they are its last γ.
const NumPatternFeatures = numFeats

var featNames = [numFeats]string{"capture: saves a chain put in atari", "capture: the stone just played",
	"extension of a chain put in atari", "self-atari: one stone", "self-atari: one stone, giving atari",
	"self-atari: a chain",
	"contiguous to the previous move (side)", "contiguous to the previous move (corner)"}

// noMove marks a Code3 whose centre the player to move may not play in a playout: suicide, filling an
// own eye (board.IsEye's definition), or a code that cannot occur.
const noMove = pattern.NoClass3

// codeClass maps every Code3, relative to the player to move, to its shape class (pattern.Class3), or to
// noMove. The 3x3 code with its atari bits decides both legality (apart from ko) and board.IsEye, so the
// playout policy never needs another test for them.
var codeClass = sync.OnceValue(func() []uint16 {
	t := make([]uint16, pattern.NumCodes3)
	for c := range pattern.Code3(pattern.NumCodes3) {
		cls := pattern.Class3(c)
		if cls == pattern.NoClass3 || eyeCode(c) || suicideCode(c) {
			cls = noMove
		}
		t[c] = cls
	}
	return t
})

// What a code says about self-atari (selfAtari): the code alone decides it unless an own chain with a
// liberty besides the centre joins the stone and at most one empty point touches it, or a lone stone
// in atari touches the opponent, whose chains' liberties decide whether it gives atari.
const (
	saNo      = iota // two empty neighbours, or a capture
	saLone           // a lone stone with one liberty, no opponent beside it
	saLoneOpp        // a lone stone with one liberty beside the opponent: count the opponent's liberties
	saChain          // joins only own chains in atari, one empty neighbour: the chain has one liberty
	saCheck          // count the joined chains' liberties
)

func selfAtariKind(c pattern.Code3) int {
	empty, own, ownFree, opp := 0, false, false, false
	for j, i := range orth3 {
		switch c.State(i) {
		case pattern.Empty:
			empty++
		case pattern.Opp:
			if c.Atari(j) {
				return saNo
			}
			opp = true
		case pattern.Own:
			own = true
			ownFree = ownFree || !c.Atari(j)
		}
	}
	switch {
	case empty >= 2:
		return saNo
	case ownFree:
		return saCheck
	case own:
		return saChain
	case opp:
		return saLoneOpp
	}
	return saLone
}

// orth3 and diag3 are the positions of the orthogonal and diagonal neighbours in a Code3 (row by row
// from the top left); orth3[j] carries atari bit j.
var (
	orth3 = [4]int{1, 3, 4, 6}
	diag3 = [4]int{0, 2, 5, 7}
)

// eyeCode is board.IsEye on a code: every orthogonal neighbour own or off the board, and at most one
// diagonal that is the opponent's, none on the edge.
func eyeCode(c pattern.Code3) bool {
	for _, i := range orth3 {
		if s := c.State(i); s != pattern.Own && s != pattern.Off {
			return false
		}
	}
	opp, edge := 0, 0
	for _, i := range diag3 {
		switch c.State(i) {
		case pattern.Opp:
			opp++
		case pattern.Off:
			edge = 1
		}
	}
	return opp+edge < 2
}

// suicideCode is the complement of board.Legal's liberty test on a code: no empty orthogonal neighbour,
// no own chain with a second liberty, no opponent chain in atari to capture. (A chain next to the empty
// centre and in atari has the centre as its only liberty.)
func suicideCode(c pattern.Code3) bool {
	for j, i := range orth3 {
		switch c.State(i) {
		case pattern.Empty:
			return false
		case pattern.Own:
			if !c.Atari(j) {
				return false
			}
		case pattern.Opp:
			if c.Atari(j) {
				return false
			}
		}
	}
	return true
}

// code3Black is pattern.Code3At for Black to move: board colours Empty, Black, White, Edge are the states
// Empty, Own, Opp, Off, so the colours go in unchanged. Code3.Swap gives White's code.
func code3Black(b *board.Board, p board.Point) pattern.Code3 { return pattern.Code3(b.Around(p)) }

// ringContig is the contiguity feature of each point of ring3.
var ringContig = [8]int8{featContig3, featContig2, featContig3, featContig2, featContig2, featContig3, featContig2, featContig3}

// ring3 are the eight neighbours in Code3 order as point offsets.
var ring3 = [8]board.Point{-board.Stride - 1, -board.Stride, -board.Stride + 1, -1, 1,
	board.Stride - 1, board.Stride, board.Stride + 1}

// colorIndex is 0 for Black and 1 for White, the index of per-colour tables.
func colorIndex(c board.Color) int { return int(c-board.Black) & 1 }

// codeFor returns the code of p for c to move from Black's code.
func codeFor(black pattern.Code3, c board.Color) pattern.Code3 {
	if c == board.White {
		return black.Swap()
	}
	return black
}

// libertiesAfter returns the number of liberties, counted up to limit (at most 3), of c's chain after c
// plays the empty point p, and whether the move captures. It looks at p's neighbours and walks only own
// chains with fewer than limit liberties.
func libertiesAfter(b *board.Board, p board.Point, c board.Color, limit int) (libs int, captures bool) {
	var seen [4]board.Point
	n := 0
	add := func(q board.Point) {
		for _, s := range seen[:n] {
			if s == q {
				return
			}
		}
		if n < len(seen) {
			seen[n] = q
			n++
		}
	}
	opp := c.Opponent()
	var heads [4]board.Point
	nh := 0
	for _, q := range p.Neighbours() {
		switch b.At(q) {
		case board.Empty:
			add(q)
		case opp:
			if b.InAtari(q) {
				captures = true
			}
		case c:
			h := b.ChainHead(q)
			dup := false
			for _, o := range heads[:nh] {
				dup = dup || o == h
			}
			if !dup {
				heads[nh] = h
				nh++
			}
		}
	}
	if captures {
		// A capture frees at least one point next to p; callers only ask "one liberty or more?" of
		// captures, so count it as enough.
		return limit, true
	}
	for _, h := range heads[:nh] {
		if b.Liberties(h, limit+1) > limit {
			return limit, false // p takes one, at least limit are left
		}
		var buf [4]board.Point
		for _, l := range b.LibertyPoints(h, buf[:0]) {
			if l != p {
				add(l)
			}
		}
		if n >= limit {
			return limit, false
		}
	}
	return min(n, limit), false
}

// selfAtari returns the self-atari feature of c playing the empty point p (legal, not an own eye), or -1:
// the move leaves c's chain with one liberty and captures nothing.
func selfAtari(b *board.Board, p board.Point, c board.Color) int {
	empty, own := 0, false
	for _, q := range p.Neighbours() {
		switch b.At(q) {
		case board.Empty:
			if empty++; empty >= 2 {
				return -1
			}
		case c:
			own = true
		}
	}
	if libs, capt := libertiesAfter(b, p, c, 2); capt || libs >= 2 {
		return -1
	}
	if own {
		return featSelfAtariN
	}
	return loneSelfAtari(b, p, c)
}

// loneSelfAtari is the feature of c's lone stone at p with one liberty: featSelfAtariAtari when it
// takes the second-last liberty of a chain of the opponent, else featSelfAtari1.
func loneSelfAtari(b *board.Board, p board.Point, c board.Color) int {
	opp := c.Opponent()
	for _, q := range p.Neighbours() {
		if b.At(q) == opp && b.Liberties(q, 3) == 2 {
			return featSelfAtariAtari
		}
	}
	return featSelfAtari1
}

// selfAtariChain is selfAtari for a point whose code is of kind saCheck, where the code has settled
// the rest: no capture, at most one empty neighbour, and an own chain beside it that is not in atari.
// The move is a self-atari unless a joined chain has three liberties or more, or the empty neighbour
// and the joined chains' other liberties make two.
func selfAtariChain(b *board.Board, p board.Point, c board.Color) int {
	lib := board.NoPoint // the one liberty found so far
	for _, q := range p.Neighbours() {
		if b.At(q) == board.Empty {
			lib = q
		}
	}
	for _, q := range p.Neighbours() {
		if b.At(q) != c {
			continue
		}
		switch b.Liberties(q, 3) {
		case 3:
			return -1
		case 2: // p is one liberty of the chain
			if l := b.OtherLiberty(q, p); l != lib {
				if lib != board.NoPoint {
					return -1
				}
				lib = l
			}
		}
	}
	return featSelfAtariN
}

// codeSelfAtari is selfAtari for a point whose code is of kind saCheck or saLoneOpp, where the code
// has settled the rest.
func codeSelfAtari(b *board.Board, p board.Point, c board.Color) int {
	for _, q := range p.Neighbours() {
		if b.At(q) == c {
			return selfAtariChain(b, p, c)
		}
	}
	return loneSelfAtari(b, p, c)
}

// ctxMoves holds the moves whose features depend on the last move (Coulom §4.1's capture, extension and
// contiguity): at most the 8 points around the last stone plus a few liberties. For each, the feature
// indices that apply.
type ctxMoves struct {
	n     int
	point [contextMax]board.Point
	feats [contextMax][3]int8 // capture level, extension, contiguity; -1 when absent
}

const contextMax = 32

func (x *ctxMoves) reset() { x.n = 0 }

// slot returns the entry of p, adding it if it is new (nil when full, which legal positions never reach).
func (x *ctxMoves) slot(p board.Point) *[3]int8 {
	for i := range x.n {
		if x.point[i] == p {
			return &x.feats[i]
		}
	}
	if x.n == contextMax {
		return nil
	}
	x.point[x.n] = p
	x.feats[x.n] = [3]int8{-1, -1, -1}
	x.n++
	return &x.feats[x.n-1]
}

func (x *ctxMoves) set(p board.Point, k int, f int) {
	if s := x.slot(p); s != nil && (s[k] < 0 || f < int(s[k])) { // capture levels: the first that applies
		s[k] = int8(f)
	}
}

// findContext fills x with the context features of c's moves after the opponent's stone at last (on the
// board; anything else gives no context): contiguity for the empty points around it, capture of its
// chain if in atari, and for each chain of c next to it that it put in atari, the extension and the
// captures of opponent chains in atari that touch it.
func findContext(b *board.Board, last board.Point, c board.Color, x *ctxMoves) {
	x.reset()
	opp := c.Opponent()
	if last == board.Pass || !b.OnBoard(last) || b.At(last) != opp {
		return
	}
	for i, d := range ring3 { // the first entries: no slot to look up
		q := last + d
		x.point[x.n] = q
		x.feats[x.n] = [3]int8{-1, -1, ringContig[i]}
		if b.At(q) == board.Empty {
			x.n++
		}
	}
	if l := b.AtariLiberty(last); l != board.NoPoint {
		x.set(l, 0, featCaptureLast)
	}
	var done [4]board.Point
	nd := 0
	for _, q := range last.Neighbours() {
		if b.At(q) != c || !b.InAtari(q) {
			continue
		}
		h := b.ChainHead(q)
		dup := false
		for _, o := range done[:nd] {
			dup = dup || o == h
		}
		if dup {
			continue
		}
		done[nd] = h
		nd++
		x.set(b.AtariLiberty(q), 1, featExtension)
		// Opponent chains in atari touching the threatened chain: capturing one saves it.
		s := h
		for {
			for _, n := range s.Neighbours() {
				if b.At(n) == opp {
					if l := b.AtariLiberty(n); l != board.NoPoint {
						x.set(l, 0, featCaptureSave)
					}
				}
			}
			if s = b.NextStone(s); s == h {
				break
			}
		}
	}
}

// PatternKind is the models container kind of a playout pattern model.
const PatternKind = "playout"

const (
	patternFormat = 1
	// patternFeatures versions the feature set: the shape classes of pattern.Class3 and the features above.
	patternFeatures = 1
)

var patternHeader = models.Header{Kind: PatternKind, FormatVersion: patternFormat, FeatureVersion: patternFeatures}

// PatternModel is the playout policy's generalized Bradley-Terry model: one γ per 3x3 shape class
// (pattern.Class3, relative to the player to move, atari bits included) followed by one γ per feature
// above. A move's strength is the product of the γ of its shape and of the features it has (Coulom §2).
type PatternModel struct {
	Gamma []float64
	// Training metadata, for models/README.md.
	Games, Positions int

	prep sync.Once
	// code is each Code3's weight: γ of its shape, times the self-atari γ when the code decides it; 0
	// where the move is not allowed, and negated where the liberties of joined chains must be counted.
	code []float32
	feat [numFeats]float32 // γ of each feature
	// ctxGamma is 1, then γ of each feature: ctxGamma[f+1] is f's factor, and 1 for an absent f (−1).
	ctxGamma [numFeats + 1]float64
}

// contextGamma is the product of the γ of a point's context features (ctxMoves.feats).
func (m *PatternModel) contextGamma(f *[3]int8) float64 {
	return m.ctxGamma[f[0]+1] * m.ctxGamma[f[1]+1] * m.ctxGamma[f[2]+1]
}

// numPatternGamma is the number of γ of a pattern model.
func numPatternGamma() int { return pattern.NumClasses3() + numFeats }

// NewPatternModel returns an untrained model: every γ is 1, which makes the policy uniform over the
// moves it allows.
func NewPatternModel() *PatternModel {
	g := make([]float64, numPatternGamma())
	for i := range g {
		g[i] = 1
	}
	return &PatternModel{Gamma: g}
}

// featIndex returns the γ index of feature f.
func featIndex(f int) int { return pattern.NumClasses3() + f }

// tables builds, once, the per-code weight table the playouts use.
func (m *PatternModel) tables() *PatternModel {
	m.prep.Do(func() {
		m.ctxGamma[0] = 1
		for f := range numFeats {
			m.feat[f] = float32(m.Gamma[featIndex(f)])
			m.ctxGamma[f+1] = float64(m.feat[f])
		}
		cls := codeClass()
		m.code = make([]float32, len(cls))
		for c, k := range cls {
			if k == noMove {
				continue
			}
			g := float32(m.Gamma[k])
			switch selfAtariKind(pattern.Code3(c)) {
			case saLone:
				g *= m.feat[featSelfAtari1]
			case saChain:
				g *= m.feat[featSelfAtariN]
			case saCheck, saLoneOpp:
				g = -g
			}
			m.code[c] = g
		}
	})
	return m
}

// payload layout (little-endian): u32 games, u32 positions, u32 n, n × f64 γ.
func (m *PatternModel) payload() []byte {
	var buf bytes.Buffer
	le := binary.LittleEndian
	binary.Write(&buf, le, uint32(m.Games))
	binary.Write(&buf, le, uint32(m.Positions))
	binary.Write(&buf, le, uint32(len(m.Gamma)))
	binary.Write(&buf, le, m.Gamma)
	return buf.Bytes()
}

// Save writes the model file atomically.
func (m *PatternModel) Save(path string) error {
	if err := models.WriteFile(path, patternHeader, m.payload()); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// LoadPatternModel reads a model file written by Save.
func LoadPatternModel(path string) (*PatternModel, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load playout model: %w", err)
	}
	return DecodePatternModel(data, path)
}

// DecodePatternModel reads a model from the bytes of a model file; name is used in error messages. A
// truncated, corrupted or mismatched file gives an error wrapping models.ErrFormat.
func DecodePatternModel(data []byte, name string) (*PatternModel, error) {
	payload, err := models.Read(bytes.NewReader(data), name, patternHeader)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*PatternModel, error) {
		return nil, fmt.Errorf("%s: %w: %s", name, models.ErrFormat, fmt.Sprintf(format, args...))
	}
	le := binary.LittleEndian
	if len(payload) < 12 {
		return fail("playout header truncated")
	}
	m := &PatternModel{Games: int(le.Uint32(payload)), Positions: int(le.Uint32(payload[4:]))}
	n := int(le.Uint32(payload[8:]))
	if n != numPatternGamma() {
		return fail("%d γ, this program's playout features need %d", n, numPatternGamma())
	}
	rest := payload[12:]
	if len(rest) != 8*n {
		return fail("%d γ need %d bytes, found %d", n, 8*n, len(rest))
	}
	m.Gamma = make([]float64, n)
	for i := range m.Gamma {
		g := math.Float64frombits(le.Uint64(rest[8*i:]))
		if !(g > 0) || math.IsInf(g, 0) || float32(g) == 0 || math.IsInf(float64(float32(g)), 0) {
			return fail("γ %d is %v, not a positive number", i, g)
		}
		m.Gamma[i] = g
	}
	return m, nil
}

var (
	sharedPatterns   = models.NewLoader(LoadPatternModel, DecodePatternModel)
	patternModelFile atomic.Pointer[string]
)

// SetPatternModelFile makes the model file at path the pattern policy's default ("": the embedded
// model), as the programs do from $AJI_PLAYOUT_MODEL before they start playing.
func SetPatternModelFile(path string) { patternModelFile.Store(&path) }

// DefaultPatternModel returns the model the pattern policy uses when given none: the file set with
// SetPatternModelFile, else the one embedded in models/. It is decoded once and shared, read-only, by
// every playout.
func DefaultPatternModel() (*PatternModel, error) {
	path := ""
	if p := patternModelFile.Load(); p != nil {
		path = *p
	}
	return sharedPatterns.Load(PatternKind, path)
}

// FeatureName describes γ index i of a pattern model.
func FeatureName(i int) string {
	nc := pattern.NumClasses3()
	if i < nc {
		return fmt.Sprintf("3x3 shape %d", i)
	}
	if f := i - nc; f < numFeats {
		return featNames[f]
	}
	return fmt.Sprintf("γ %d", i)
}
