package pattern

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"aji/analysis/board"
)

func TestSternTemplates(t *testing.T) {
	want := map[offset]bool{}
	for _, o := range []offset{{6, 1}, {5, 3}} {
		for sym := range numSyms {
			dx, dy := transform(sym, int(o.dx), int(o.dy))
			want[offset{int8(dx), int8(dy)}] = true
		}
	}
	if len(want) != numExtra {
		t.Fatalf("%d images of (6,1) and (5,3)", len(want))
	}
	for _, e := range extra {
		if !want[e] || Distance(int(e.dx), int(e.dy)) != 13 {
			t.Errorf("T13 extra offset %v", e)
		}
	}
	// T2 is the first four offsets: the orthogonal neighbours.
	for _, o := range offsets[:4] {
		if abs(int(o.dx))+abs(int(o.dy)) != 1 {
			t.Errorf("T2 holds %v", o)
		}
	}
	seen := map[uint64]bool{}
	for _, x := range append(append(append([]uint64{}, sternConst[:]...), featBit[:]...), zsize[:]...) {
		if seen[x] || x == 0 {
			t.Fatal("Stern random numbers repeat")
		}
		seen[x] = true
	}
}

// sternPositions returns random positions of each size (no ko: drawn through Parse) for the tests.
func sternPositions(t *testing.T, seed uint64, sizes []int, perSize int) []*board.Board {
	t.Helper()
	rng := rand.NewPCG(seed, seed+1)
	var out []*board.Board
	for _, n := range sizes {
		for i := range perSize {
			b := mustBoard(t, n)
			randomPlay(b, rng, board.Black, (i+1)*n*n/(perSize+1), nil)
			out = append(out, transformBoard(t, b, 0, false))
		}
	}
	return out
}

// TestSternKeysInvariant: the keys at p for toPlay equal those at the image of p on each of the 8
// transformed boards, and on the colour-swapped boards for the other player.
func TestSternKeysInvariant(t *testing.T) {
	perSize := 2
	if testing.Short() || raceEnabled {
		perSize = 1
	}
	for _, b := range sternPositions(t, 41, []int{9, 13, 19}, perSize) {
		n := b.Size()
		var images [numSyms][2]*board.Board
		for sym := range numSyms {
			images[sym][0] = transformBoard(t, b, sym, false)
			images[sym][1] = transformBoard(t, b, sym, true)
		}
		for i, p := range b.EmptyPoints() {
			if n == 19 && i%3 != 0 {
				continue // the slow part; a third of the points is plenty
			}
			x, y := p.XY()
			for _, c := range []board.Color{board.Black, board.White} {
				want := SternKeysAt(b, p, c)
				f := SternFeatures(b, p, c)
				for sym := range numSyms {
					tx, ty := symPoint(sym, n, x, y)
					q := board.At(tx, ty)
					for swap, ib := range images[sym] {
						tc := c
						if swap == 1 {
							tc = c.Opponent()
						}
						if got := SternKeysAt(ib, q, tc); got != want {
							t.Fatalf("%dx%d %s %v, symmetry %d swap %d: keys %x, want %x\n%s", n, n, p.GTP(n), c, sym, swap, got, want, b)
						}
						if got := SternFeatures(ib, q, tc); got != f {
							t.Fatalf("%dx%d %s %v, symmetry %d swap %d: features %08b, want %08b", n, n, p.GTP(n), c, sym, swap, got, f)
						}
					}
				}
			}
		}
	}
}

// TestSternKeysParts: T3..T12 are the Coulom keys with the template constant and the features' key,
// T1 is the features alone, and the keys of one point never coincide across templates.
func TestSternKeysParts(t *testing.T) {
	for _, b := range sternPositions(t, 43, []int{9, 19}, 1) {
		for _, p := range b.EmptyPoints() {
			for _, c := range []board.Color{board.Black, board.White} {
				k := SternKeysAt(b, p, c)
				kf := featKey[SternFeatures(b, p, c)]
				if k[0] != sternConst[0]^kf {
					t.Fatalf("T1 %x, want %x", k[0], sternConst[0]^kf)
				}
				coulom := KeysAt(b, p, c)
				for s := range NumSizes {
					if k[2+s]^sternConst[2+s]^kf != coulom[s] {
						t.Fatalf("T%d is not the Coulom key of size %d", 3+s, MinSize+s)
					}
				}
				for i := range k {
					for j := range i {
						if k[i] == k[j] {
							t.Fatalf("T%d and T%d share a key", j+1, i+1)
						}
					}
				}
			}
		}
	}
}

// canonicalStern is an explicit canonical form of T13 (template = "13") or T14 ("14") at p for toPlay:
// the least over the 8 symmetries of the states read along the template, the board size for T14.
func canonicalStern(b *board.Board, p board.Point, toPlay board.Color, template int) string {
	rel := &relative[perspective(toPlay)]
	n := b.Size()
	state := func(x, y int) byte {
		if x < 0 || y < 0 || x >= n || y >= n {
			return 'z'
		}
		return "eoxz"[rel[b.At(board.At(x, y))&3]]
	}
	px, py := p.XY()
	best := ""
	for sym := range numSyms {
		var sb strings.Builder
		if template == 13 {
			for _, o := range append(append([]offset{}, offsets...), extra[:]...) {
				dx, dy := transform(sym, int(o.dx), int(o.dy))
				sb.WriteByte(state(px+dx, py+dy))
			}
		} else {
			// The board read in the order of its image under sym, and where the move's image is.
			var img [board.MaxSize][board.MaxSize]byte
			for _, q := range b.Points() {
				x, y := q.XY()
				ix, iy := imageXY(sym, n, x, y)
				img[iy][ix] = state(x, y)
			}
			for y := range n {
				sb.Write(img[y][:n])
			}
			ix, iy := imageXY(sym, n, px, py)
			fmt.Fprintf(&sb, "/%d/%d,%d", n, ix, iy)
		}
		if s := sb.String(); sym == 0 || s < best {
			best = s
		}
	}
	return best
}

// TestSternKeysCanonical: two (point, player) pairs share the T13 or T14 key (without features) exactly
// when their explicit canonical forms are equal.
func TestSternKeysCanonical(t *testing.T) {
	rng := rand.NewPCG(45, 46)
	for _, template := range []int{13, 14} {
		byKey := map[uint64]string{}
		byForm := map[string]uint64{}
		pairs := 0
		for g := range 6 {
			n := []int{7, 9, 19, 7, 9, 13}[g]
			b := mustBoard(t, n)
			check := func(board.Point, board.Color) {
				for _, p := range b.Points() {
					for _, c := range []board.Color{board.Black, board.White} {
						k := SternKeysAt(b, p, c)
						key := k[template-1] ^ featKey[SternFeatures(b, p, c)]
						form := canonicalStern(b, p, c, template)
						if old, ok := byKey[key]; ok && old != form {
							t.Fatalf("T%d: one key for %q and %q", template, old, form)
						}
						if old, ok := byForm[form]; ok && old != key {
							t.Fatalf("T%d: keys %x and %x for one pattern %q", template, old, key, form)
						}
						byKey[key], byForm[form] = form, key
						pairs++
					}
				}
			}
			check(board.Pass, board.Empty) // the empty board: its symmetric points share their keys
			// Keep the positions sparse so that symmetric and repeated shapes occur.
			randomPlay(b, rng, board.Black, 1+g%3, check)
		}
		if len(byKey) >= pairs {
			t.Errorf("T%d: %d patterns in %d points: no repeat was tested", template, len(byKey), pairs)
		}
	}
}

// checkMatcher compares the matcher's keys at every point for both players with keys from scratch.
func checkMatcher(t *testing.T, m *SternMatcher, b *board.Board, what string) {
	t.Helper()
	for _, p := range b.Points() {
		for _, c := range []board.Color{board.Black, board.White} {
			got, want := m.Keys(b, p, c), SternKeysAt(b, p, c)
			if got != want {
				t.Fatalf("%s: %dx%d %s %v to play: matcher %x, from scratch %x\n%s", what, b.Size(), b.Size(),
					p.GTP(b.Size()), c, got, want, b)
			}
			for tmpl := 1; tmpl <= NumStern; tmpl++ {
				if k := m.Key(b, p, c, tmpl); k != want.Of(tmpl) {
					t.Fatalf("%s: %s %v to play: Key of T%d %x, Keys %x", what, p.GTP(b.Size()), c, tmpl, k, want.Of(tmpl))
				}
			}
		}
	}
}

// TestSternMatcherMatchesScratch is the property test of the incremental Stern keys: random games with
// captures and kos, after every move (every few on large boards), and jumps (rebuilds, setup changes,
// size changes).
func TestSternMatcherMatchesScratch(t *testing.T) {
	rng := rand.NewPCG(47, 48)
	m := new(SternMatcher)
	games, every := 4, 10
	if testing.Short() || raceEnabled {
		games, every = 2, 60
	}
	kos := 0
	for g := range games {
		size := []int{9, 19, 5, 13}[g]
		b := mustBoard(t, size)
		m.Sync(b)
		checkMatcher(t, m, b, "empty board")
		captures := 0
		c := board.Black
		for move := range 3 * size * size {
			before := b.Captures(board.Black) + b.Captures(board.White)
			c = randomPlay(b, rng, c, 1, nil)
			captures += b.Captures(board.Black) + b.Captures(board.White) - before
			m.Sync(b)
			if k, _ := b.Ko(); k != board.NoPoint {
				kos++
				checkMatcher(t, m, b, "ko")
			} else if size < 13 || move%every == 0 {
				checkMatcher(t, m, b, "random game")
			}
		}
		if captures == 0 {
			t.Errorf("%dx%d: no capture", size, size)
		}
	}
	if kos == 0 {
		t.Error("no ko in the random games; the test should cover the ko bit")
	}

	// Jumps: a rebuild, setup changes, a colour change, size changes.
	b := mustBoard(t, 19)
	randomPlay(b, rng, board.Black, 150, nil)
	m.Sync(b)
	checkMatcher(t, m, b, "jump to a middle-game position")
	for i, p := range b.Points()[:40] {
		if i%9 == 0 {
			if err := b.Set(p, []board.Color{board.Empty, board.Black, board.White}[i%3]); err != nil {
				t.Fatal(err)
			}
			m.Sync(b)
			checkMatcher(t, m, b, "setup change")
		}
	}
	for _, p := range b.Points() {
		if c := b.At(p); c != board.Empty {
			if err := b.Set(p, c.Opponent()); err != nil {
				t.Fatal(err)
			}
			m.Sync(b)
			checkMatcher(t, m, b, "colour change")
			break
		}
	}
	b9 := mustBoard(t, 9)
	randomPlay(b9, rng, board.White, 30, nil)
	m.Sync(b9)
	checkMatcher(t, m, b9, "size change")
	m.Sync(b)
	checkMatcher(t, m, b, "size change back")
	if m.Size() != 19 {
		t.Errorf("Size %d", m.Size())
	}
}

func TestSternNoAllocation(t *testing.T) {
	rng := rand.NewPCG(49, 50)
	b := mustBoard(t, 19)
	randomPlay(b, rng, board.Black, 100, nil)
	m := new(SternMatcher)
	m.Sync(b)
	c := board.White
	var sink uint64
	allocs := testing.AllocsPerRun(50, func() {
		c = randomPlay(b, rng, c, 1, nil)
		m.Sync(b)
		for _, p := range b.EmptyPoints() {
			k := m.Keys(b, p, c)
			sink ^= k[13]
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per move", allocs)
	}
	_ = sink
}

// sternFeat is a decoded feature byte.
type sternFeat struct {
	libs, oppLibs int // 1..4, 4 meaning more than 3
	ko, escapes   bool
	edge          int // 0..3: distance ≤2, 3, 4, ≥5
}

func decodeFeat(f uint8) sternFeat {
	return sternFeat{int(f&SternNewLibs) + 1, int(f&SternOppLibs>>2) + 1, f&SternKo != 0, f&SternEscapes != 0, int(f >> 6)}
}

// refFeatures computes the features by playing the move on a copy of the board.
func refFeatures(b *board.Board, p board.Point, c board.Color) uint8 {
	n := b.Size()
	x, y := p.XY()
	var f uint8
	if d := min(x, y, n-1-x, n-1-y); d >= 3 {
		f = uint8(min(d, 5)-2) << 6
	}
	if k, _ := b.Ko(); k != board.NoPoint {
		f |= SternKo
	}
	after := *b
	after.PlayLegal(p, c)
	f |= uint8(after.Liberties(p, 4) - 1)
	opp := 4
	for _, q := range p.Neighbours() {
		if after.At(q) == c.Opponent() {
			opp = min(opp, after.Liberties(q, 4))
		}
	}
	f |= uint8(opp-1) << 2
	for _, q := range b.Points() {
		if b.At(q) == c && b.InAtari(q) && after.Liberties(q, 2) >= 2 {
			f |= SternEscapes
			break
		}
	}
	return f
}

// TestSternFeaturesReference: the features without a copy of the board equal those found by playing
// the move, at every legal point of random positions with ataris, captures and kos.
func TestSternFeaturesReference(t *testing.T) {
	rng := rand.NewPCG(51, 52)
	var counts [8]int
	for g := range 8 {
		size := []int{9, 13, 19, 7}[g%4]
		b := mustBoard(t, size)
		c := board.Black
		for move := range 2 * size * size {
			c = randomPlay(b, rng, c, 1, nil)
			if move%3 != 0 {
				continue
			}
			for _, p := range b.EmptyPoints() {
				for _, col := range []board.Color{board.Black, board.White} {
					if !b.Legal(p, col) {
						continue
					}
					got, want := SternFeatures(b, p, col), refFeatures(b, p, col)
					if got != want {
						t.Fatalf("%v at %s: features %+v, want %+v\n%s", col, p.GTP(size), decodeFeat(got), decodeFeat(want), b)
					}
					for i := range counts {
						if got>>i&1 != 0 {
							counts[i]++
						}
					}
				}
			}
		}
	}
	for i, n := range counts {
		if n == 0 {
			t.Errorf("feature bit %d never set", i)
		}
	}
	t.Logf("feature bits set: %v", counts)
}

func parseBoard(t *testing.T, drawing string) *board.Board {
	t.Helper()
	b, err := board.Parse(drawing)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSternFeatures(t *testing.T) {
	// Black at e5 inside three white stones: a self-atari, each white stone keeps 3 liberties.
	selfAtari := `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . O . . . .
		. . . O . O . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// (x, y) coordinates, y downwards. White (3,4)-(4,4) has 2 liberties, (2,4) and (4,3): Black at
	// (2,4) leaves it 1. White (1,5) is in atari: Black at (0,5) captures it.
	atari := `
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . X . . . . .
		. X . O O X . . .
		. O X X X X . . .
		. X . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// Black (4,2) is in atari at (5,2): extending there escapes with 3 liberties. Black (2,0) is in
	// atari at (3,0): extending there leaves 1 liberty, (3,1).
	extend := `
		. O X . O . . . .
		. . O . O . . . .
		. . . O X . . . .
		. . . . O . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	// Black (4,2) is in atari at (4,3); White (4,1) is in atari at (4,0): Black at (4,0) captures it and
	// (4,2) gets a second liberty; Black at (4,3) extends with 3 liberties.
	capture := `
		. . . . . . . . .
		. . . X O X . . .
		. . . O X O . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`
	at := func(x, y int) board.Point { return board.At(x, y) }
	for _, tc := range []struct {
		name    string
		drawing string
		p       board.Point
		c       board.Color
		want    sternFeat
	}{
		{"self-atari", selfAtari, at(4, 4), board.Black, sternFeat{1, 3, false, false, 2}},
		{"self-atari, white", selfAtari, at(4, 4), board.White, sternFeat{4, 4, false, false, 2}},
		{"atari", atari, at(2, 4), board.Black, sternFeat{4, 1, false, false, 0}},
		{"white extends to two liberties", atari, at(2, 4), board.White, sternFeat{2, 2, false, false, 0}},
		{"capture", atari, at(0, 5), board.Black, sternFeat{3, 4, false, false, 0}},
		{"extension escapes", extend, at(5, 2), board.Black, sternFeat{3, 4, false, true, 0}},
		{"extension stays in atari", extend, at(3, 0), board.Black, sternFeat{1, 3, false, false, 0}},
		{"capture escapes", capture, at(4, 0), board.Black, sternFeat{3, 4, false, true, 0}},
		{"extension escapes, line 4", capture, at(4, 3), board.Black, sternFeat{3, 4, false, true, 1}},
	} {
		b := parseBoard(t, tc.drawing)
		if !b.Legal(tc.p, tc.c) {
			t.Fatalf("%s: %v at %s is illegal", tc.name, tc.c, tc.p.GTP(9))
		}
		got := SternFeatures(b, tc.p, tc.c)
		if d := decodeFeat(got); d != tc.want {
			t.Errorf("%s: %v at %s: %+v, want %+v", tc.name, tc.c, tc.p.GTP(9), d, tc.want)
		}
		if ref := refFeatures(b, tc.p, tc.c); ref != got {
			t.Errorf("%s: %+v, reference %+v", tc.name, decodeFeat(got), decodeFeat(ref))
		}
	}

	// Ko: Black c8 captures the white stone at b8; White may not retake at once.
	b := mustBoard(t, 9)
	for _, s := range []struct {
		x, y int
		c    board.Color
	}{{1, 0, board.Black}, {0, 1, board.Black}, {1, 2, board.Black}, {2, 0, board.White}, {3, 1, board.White}, {2, 2, board.White}, {1, 1, board.White}} {
		if err := b.Set(board.At(s.x, s.y), s.c); err != nil {
			t.Fatal(err)
		}
	}
	if f := SternFeatures(b, at(5, 5), board.White); f&SternKo != 0 {
		t.Error("ko bit before the ko")
	}
	if err := b.Play(at(2, 1), board.Black); err != nil {
		t.Fatal(err)
	}
	if k, _ := b.Ko(); k == board.NoPoint {
		t.Fatal("no ko")
	}
	for _, c := range []board.Color{board.Black, board.White} {
		if f := SternFeatures(b, at(5, 5), c); f&SternKo == 0 {
			t.Errorf("%v: no ko bit during a ko", c)
		}
	}
	// The ko changes every key.
	k1 := SternKeysAt(b, at(5, 5), board.White)
	k2 := SternKeysAt(transformBoard(t, b, 0, false), at(5, 5), board.White)
	for i := range k1 {
		if k1[i] == k2[i] {
			t.Errorf("T%d: the ko does not change the key", i+1)
		}
	}

	// Distance to the edge, 0..6 on 19x19: lines 1-3, 4, 5, 6 and beyond.
	e := mustBoard(t, 19)
	for d, want := range []int{0, 0, 0, 1, 2, 3, 3} {
		for _, p := range []board.Point{at(d, 9), at(9, d), at(18-d, 9), at(9, 18-d)} {
			if got := decodeFeat(SternFeatures(e, p, board.Black)); got.edge != want {
				t.Errorf("distance %d: edge %d, want %d", d, got.edge, want)
			}
		}
	}
	// On the empty board the new stone has 2, 3 or 4 liberties and no opponent is near.
	for _, tc := range []struct {
		p    board.Point
		want sternFeat
	}{{at(0, 0), sternFeat{2, 4, false, false, 0}}, {at(0, 5), sternFeat{3, 4, false, false, 0}}, {at(9, 9), sternFeat{4, 4, false, false, 3}}} {
		if got := decodeFeat(SternFeatures(e, tc.p, board.White)); got != tc.want {
			t.Errorf("empty board %s: %+v, want %+v", tc.p.GTP(19), got, tc.want)
		}
	}
	// An occupied point: the ko and edge bits only.
	if f := SternFeatures(b, at(1, 0), board.White); f != SternKo {
		t.Errorf("occupied point: %08b", f)
	}
}

func TestSternDictionary(t *testing.T) {
	b := mustBoard(t, 19)
	randomPlay(b, rand.NewPCG(53, 54), board.Black, 40, nil)
	var entries []Entry
	seen := map[uint64]bool{}
	largest := map[board.Point]int{}
	for i, p := range b.EmptyPoints()[:40] {
		top := i % (NumStern + 1) // 0 (nothing) .. 14
		k := SternKeysAt(b, p, board.Black)
		for tpl := 1; tpl <= top; tpl++ {
			if !seen[k.Of(tpl)] {
				seen[k.Of(tpl)] = true
				entries = append(entries, Entry{Key: k.Of(tpl), Size: tpl, Count: 100 - tpl})
			}
		}
		largest[p] = top
	}
	d, err := NewSternDictionary(entries)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Stern() {
		t.Fatal("not a Stern dictionary")
	}
	for p, top := range largest {
		k := SternKeysAt(b, p, board.Black)
		id, tpl, ok := d.LargestStern(k)
		if top == 0 {
			continue // T1 is shared by every point with the same features
		}
		if !ok || tpl < top || d.Entry(id).Key != k.Of(tpl) || d.Entry(id).Size != tpl {
			t.Errorf("%s: LargestStern = id %d T%d %v, want at least T%d", p.GTP(19), id, tpl, ok, top)
		}
	}
	if _, _, ok := d.LargestStern(SternKeys{}); ok {
		t.Error("LargestStern of no keys")
	}
	if n := d.CountBySternTemplate(); n[0] == 0 || n[13] == 0 {
		t.Errorf("counts by template %v", n)
	}
	if _, err := NewSternDictionary([]Entry{{Key: 1, Size: 15}}); err == nil {
		t.Error("template 15 accepted")
	}
	if _, err := NewDictionary([]Entry{{Key: 1, Size: 14}}); err == nil {
		t.Error("a Coulom dictionary accepted size 14")
	}
	if p := d.Prune(90); !p.Stern() || p.Len() == 0 || p.Len() >= d.Len() {
		t.Errorf("pruned: Stern %v, %d of %d", p.Stern(), p.Len(), d.Len())
	}

	// Files: a Stern dictionary reads back as one and is refused as a Coulom one, and the other way.
	d.Threshold, d.Games = 3, 9
	path := t.TempDir() + "/stern.pat"
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadSternDictionary(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Stern() || !equalEntries(back.Entries(), d.Entries()) || back.Threshold != 3 || back.Games != 9 {
		t.Errorf("read back: Stern %v, %d entries", back.Stern(), back.Len())
	}
	if _, err := LoadDictionary(path); err == nil || !strings.Contains(err.Error(), SternKind) {
		t.Errorf("a Stern file read as a Coulom dictionary: %v", err)
	}
	coulom, _, _ := nestedDictionary(t)
	cpath := t.TempDir() + "/coulom.pat"
	if err := coulom.Save(cpath); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSternDictionary(cpath); err == nil {
		t.Error("a Coulom file read as a Stern dictionary")
	}
	if c, err := LoadDictionary(cpath); err != nil || c.Stern() || !equalEntries(c.Entries(), coulom.Entries()) {
		t.Errorf("Coulom file: %v", err)
	}
}
