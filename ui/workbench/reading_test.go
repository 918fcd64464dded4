package workbench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/reading"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// readingGame is a 9x9 position set up with AB/AW, then one move (J1):
//
//	  A B C D E F G H J
//	9 . . . . . . . . .
//	8 . . . X . O . X .
//	7 . . . X . O O X .
//	6 . . . . X X X . .
//	5 . . . . . . . . .
//	4 . . X X X . . . .
//	3 . X O O O X . O .
//	2 . X . . . X . . .
//	1 . . . . . . . . .
//
// The white chain at F8 lives or dies by who moves first (Black F9
// captures, White F9 saves it); the one at C3 is caught in a net (Black C2
// captures, nothing saves it); the stone at H3 cannot be captured. Every
// black chain has five liberties or more. GNU Go agrees on each (attack
// F8 → F9, defend F8 → F9, attack C3 → D2, defend C3 → 0, attack H3 → 0).
const readingGame = `(;SZ[9]KM[7]
AB[db][hb][dc][hc][ed][fd][gd][cf][df][ef][bg][fg][bh][fh]
AW[fb][fc][gc][cg][dg][eg][hg]
;B[ii])`

// readingOn opens readingGame at its setup position.
func readingOn(t *testing.T) (*harness, *readTab) {
	t.Helper()
	h := newHarness(t, readingGame)
	return h, tabOf[*readTab](h.wb)
}

// askRead reads the chain at s as R with the pointer on it does, and
// waits for both answers.
func (h *harness) askRead(rt *readTab, s string) {
	h.t.Helper()
	h.hoverAt(h.at(s))
	h.key(fyne.KeyR, 0)
	if rt.ask == nil || rt.ask.point.GTP(rt.ask.size) != s {
		h.t.Fatalf("R on %s asked nothing", s)
	}
	h.pump("both answers about "+s, func() bool { return rt.res[0] != nil && rt.res[1] != nil })
}

// spot captures the window and returns the colour of the main board at
// intersection p moved by (dx, dy) cells.
func (h *harness) spot() func(p goban.Point, dx, dy float64) color.RGBA {
	h.t.Helper()
	b := h.wb.views[0].board
	img := h.w.Canvas().Capture()
	scale := float64(h.w.Canvas().Scale())
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
	// The board maps pixels to points; a point's centre is the middle of
	// the pixels that map to it.
	type acc struct{ x, y, n float64 }
	sums := map[goban.Point]*acc{}
	for y := float32(0); y < b.Size().Height; y++ {
		for x := float32(0); x < b.Size().Width; x++ {
			if q, ok := b.PointAt(fyne.NewPos(x, y)); ok {
				a := sums[q]
				if a == nil {
					a = &acc{}
					sums[q] = a
				}
				a.x, a.y, a.n = a.x+float64(x), a.y+float64(y), a.n+1
			}
		}
	}
	centre := func(p goban.Point) (float64, float64) {
		a := sums[p]
		if a == nil {
			h.t.Fatalf("no pixel of the board shows %v", p)
		}
		return (float64(abs.X) + a.x/a.n) * scale, (float64(abs.Y) + a.y/a.n) * scale
	}
	return func(p goban.Point, dx, dy float64) color.RGBA {
		x, y := centre(p)
		q := goban.Point{X: p.X + 1, Y: p.Y}
		if p.X > 0 {
			q.X = p.X - 1
		}
		qx, _ := centre(q)
		cell := math.Abs(qx - x)
		return color.RGBAModel.Convert(img.At(int(math.Round(x+dx*cell)), int(math.Round(y+dy*cell)))).(color.RGBA)
	}
}

// hoverAt puts the pointer on intersection p of the main board, as the
// board reports it (h.pointer without its search for the pixels).
func (h *harness) hoverAt(p goban.Point) { h.wb.views[0].board.OnHover(p, true) }

func dark(c color.RGBA) bool  { return int(c.R)+int(c.G)+int(c.B) < 240 }
func light(c color.RGBA) bool { return c.R > 190 && c.G > 190 && c.B > 180 }

// TestReadingAChain: R on a chain caught in a net says who captures it and
// that nothing saves it, with the status bar, and draws the capture as
// numbered stones, Black's first; on a chain that lives or dies by who
// moves first both answers are moves and the tab switches to the saving
// line, White's first. Esc clears it. The moves asserted are GNU Go's
// answers (C2 or D2 nets C3; F9 both captures and saves F8).
func TestReadingAChain(t *testing.T) {
	h, rt := readingOn(t)
	h.askRead(rt, "C3")
	at, df := rt.res[reading.Attack], rt.res[reading.Defend]
	if m := at.Move.GTP(9); m != "C2" && m != "D2" || !at.Proved || df.Code != reading.Fail || !df.Proved {
		t.Fatalf("C3: attack %s, defend %s", at.Describe(9), df.Describe(9))
	}
	key := at.Move.GTP(9)
	for l, want := range map[string]string{
		rt.chainL.Text:   "White chain at C3: 3 stones, 3 liberties",
		rt.attackL.Text:  "Black to play captures C3 with " + key + " (proved, ",
		rt.defendL.Text:  "White to play: it cannot be saved (proved, ",
		rt.verdictL.Text: "Dead: it cannot be saved even if White moves first.",
		rt.lineL.Text:    "Capture line, Black first: 1 " + key,
	} {
		if !strings.HasPrefix(l, want) {
			t.Errorf("the tab says %q, want %q…", l, want)
		}
	}
	if msg := h.wb.status.msg.Text; !strings.HasPrefix(msg, "Dead — Black to play captures C3 with "+key+"; White to play: it cannot be saved") {
		t.Errorf("status %q", msg)
	}
	l := rt.line
	if l == nil || l.ToPlay != goban.Black || len(l.PV) != drawnMoves(&h.wb.doc.cursor.Position().Board, at.Line) || len(l.PV) < 2 {
		t.Fatalf("the line %v drawn as %+v", at.Line, l)
	}
	for i, p := range l.PV {
		if p != goPoint(at.Line[i]) {
			t.Fatalf("the line %v drawn as %+v", at.Line, l.PV)
		}
	}
	if l, _ := rt.layer(); l == nil {
		t.Fatal("the tab puts no layer on the boards")
	}
	if n := len(rt.marks.Labels); n != 3 || rt.marks.Labels[0].Mark != goban.MarkSquare {
		t.Errorf("the chain read is marked %+v", rt.marks.Labels)
	}
	// On the board: 1 a black stone, 2 a white one (sampled below the
	// number), and a point off the line neither.
	spot := h.spot()
	if c := spot(l.PV[0], 0, 0.3); !dark(c) {
		t.Errorf("move 1 at %v drawn %v, not a black stone", l.PV[0], c)
	}
	if c := spot(l.PV[1], 0, 0.3); !light(c) {
		t.Errorf("move 2 at %v drawn %v, not a white stone", l.PV[1], c)
	}
	if c := spot(h.at("A1"), 0, 0.3); dark(c) || light(c) {
		t.Errorf("A1, not in the line, drawn %v", c)
	}

	// F8: unsettled; the saving line starts with White's F9.
	h.askRead(rt, "F8")
	if !strings.HasPrefix(rt.attackL.Text, "Black to play captures F8 with F9 (proved") ||
		!strings.HasPrefix(rt.defendL.Text, "White to play saves it with F9 (proved") ||
		rt.verdictL.Text != "Unsettled: whoever moves first decides." {
		t.Errorf("F8: %q / %q / %q", rt.attackL.Text, rt.defendL.Text, rt.verdictL.Text)
	}
	line := rt.res[reading.Attack].Line
	if n := drawnMoves(&h.wb.doc.cursor.Position().Board, line); n < len(line) != strings.HasSuffix(rt.lineL.Text, fmt.Sprintf("(the board shows 1–%d)", n)) {
		t.Errorf("line %v described %q", line, rt.lineL.Text)
	}
	rt.lineR.SetSelected(lineSave)
	if l := rt.line; l == nil || l.ToPlay != goban.White || len(l.PV) == 0 || l.PV[0] != h.at("F9") || !strings.HasPrefix(rt.lineL.Text, "Save line, White first: 1 F9") {
		t.Errorf("the saving line: %+v, %q", l, rt.lineL.Text)
	}

	h.key(fyne.KeyEscape, 0)
	if rt.ask != nil || rt.drawn != nil || rt.attackL.Text != "" {
		t.Errorf("Esc left the read: ask %v, layer %v, text %q", rt.ask, rt.drawn, rt.attackL.Text)
	}
	// R off the stones says what to do; a click on a stone with the tab
	// shown reads it, a click on an empty point still plays.
	h.hoverAt(h.at("E5"))
	h.key(fyne.KeyR, 0)
	if rt.ask != nil || !strings.Contains(h.wb.status.msg.Text, "no stone") {
		t.Errorf("R on an empty point: ask %v, status %q", rt.ask, h.wb.status.msg.Text)
	}
	h.selectTab(tabReading)
	h.wb.tapped(h.at("H3"))
	h.pump("the read of H3", func() bool { return rt.res[0] != nil && rt.res[1] != nil })
	if !strings.HasPrefix(rt.attackL.Text, "Black to play: H3 cannot be captured (proved") || rt.line != nil || h.move() != 0 {
		t.Errorf("a click on H3: %q, line %v, move %d", rt.attackL.Text, rt.line, h.move())
	}
	h.wb.tapped(h.at("E5"))
	if h.move() != 1 || rt.ask != nil {
		t.Errorf("a click on E5 with the tab shown: move %d, read %v", h.move(), rt.ask)
	}
}

// TestReadingHiddenWhileGuessing: the Guess tab hides the read's line and
// marks, which would hint at the hidden move, refuses new reads, and gives
// Esc to the guess; they come back when the guess ends.
func TestReadingHiddenWhileGuessing(t *testing.T) {
	old := guessHistoryPath
	guessHistoryPath = func() (string, error) { return filepath.Join(t.TempDir(), "guess.json"), nil }
	t.Cleanup(func() { guessHistoryPath = old })
	h, rt := readingOn(t)
	h.askRead(rt, "C3")
	h.selectTab(tabGuess)
	gt := tabOf[*guessTab](h.wb)
	test.Tap(gt.startB)
	if gt.run == nil || rt.drawn != nil {
		t.Fatalf("guessing %v with the read drawn: %v", gt.run != nil, rt.drawn)
	}
	h.hoverAt(h.at("F8"))
	h.key(fyne.KeyR, 0)
	if rt.ask == nil || rt.ask.point.GTP(9) != "C3" || !strings.Contains(h.wb.status.msg.Text, "guess") {
		t.Errorf("R while guessing: ask %v, status %q", rt.ask, h.wb.status.msg.Text)
	}
	h.key(fyne.KeyEscape, 0)
	if gt.run != nil || rt.ask == nil || rt.drawn == nil {
		t.Errorf("Esc: guessing %v, read %v, layer %v", gt.run != nil, rt.ask, rt.drawn)
	}
}

// blockingSolve is a solve that waits until released or cancelled, then
// answers anyway, as a careless solver might: the engine and the tab must
// drop an answer for a position left.
type blockingSolve struct {
	started, cancelled chan board.Point
	release            chan struct{}
	returned           atomic.Int32
}

func newBlockingSolve() *blockingSolve {
	return &blockingSolve{started: make(chan board.Point, 16), cancelled: make(chan board.Point, 16), release: make(chan struct{})}
}

func (s *blockingSolve) solve(ctx context.Context, b *board.Board, target board.Point, goal reading.Goal, nodes int) (reading.Result, error) {
	defer s.returned.Add(1)
	s.started <- target
	select {
	case <-ctx.Done():
		s.cancelled <- target
	case <-s.release:
	case <-time.After(20 * time.Second): // run on the caller's goroutine, it would hold the UI this long
	}
	p := b.EmptyPoints()[0]
	return reading.Result{Goal: goal, Code: reading.Win, Move: p, Line: []board.Point{p}, Proved: true, Nodes: 1}, nil
}

// await receives n points from ch, failing after 10 s.
func await(t *testing.T, what string, ch chan board.Point, n int) []board.Point {
	t.Helper()
	var got []board.Point
	for range n {
		select {
		case p := <-ch:
			got = append(got, p)
		case <-time.After(10 * time.Second):
			t.Fatalf("timed out waiting for %s (%d of %d)", what, len(got), n)
		}
	}
	return got
}

// TestReadingRunsOnThePoolAndIsCancelled: R returns at once while the
// reads run on the engine's workers; asking again cancels them, and so
// does navigation, and nothing of a cancelled read reaches the new
// position, not even an answer the solver gave after the cancellation.
func TestReadingRunsOnThePoolAndIsCancelled(t *testing.T) {
	h, rt := readingOn(t)
	bs := newBlockingSolve()
	rt.solve = bs.solve
	defer close(bs.release)

	h.hoverAt(h.at("C3"))
	h.key(fyne.KeyR, 0)
	c3 := board.At(2, 6)
	if got := await(t, "the reads of C3 to start", bs.started, 2); got[0] != c3 || got[1] != c3 {
		t.Fatalf("started reads of %v", got)
	}
	if bs.returned.Load() != 0 || rt.res[0] != nil || rt.res[1] != nil || !strings.HasSuffix(rt.attackL.Text, "reading…") {
		t.Fatalf("R waited for the reads: %d returned, text %q", bs.returned.Load(), rt.attackL.Text)
	}
	// Asking about another chain cancels both.
	h.hoverAt(h.at("F8"))
	h.key(fyne.KeyR, 0)
	await(t, "the reads of C3 to be cancelled", bs.cancelled, 2)
	await(t, "the reads of F8 to start", bs.started, 2)
	// Moving on cancels those.
	h.key(fyne.KeyRight, 0)
	await(t, "the reads of F8 to be cancelled", bs.cancelled, 2)
	if rt.ask != nil || rt.drawn != nil {
		t.Errorf("after navigating: ask %v, layer %v", rt.ask, rt.drawn)
	}
	// Let every worker return and deliver, then run what they queued.
	h.wb.engine.Stop()
	h.drain()
	if bs.returned.Load() != 4 || rt.res[0] != nil || rt.res[1] != nil || rt.drawn != nil || rt.attackL.Text != "" || h.move() != 1 {
		t.Errorf("a cancelled read reached move %d: %d returned, results %v %v, layer %v, text %q",
			h.move(), bs.returned.Load(), rt.res[0], rt.res[1], rt.drawn, rt.attackL.Text)
	}
}

// TestWeakStones: the overlay reads the three chains with at most four
// liberties, marks F8's chain unsettled and C3's dead and H3 not at all,
// says so, and is remembered; a position read before is not read again.
func TestWeakStones(t *testing.T) {
	h, rt := readingOn(t)
	var calls atomic.Int32
	rt.solve = func(ctx context.Context, b *board.Board, target board.Point, goal reading.Goal, nodes int) (reading.Result, error) {
		calls.Add(1)
		if nodes != weakNodes {
			t.Errorf("a weak-stones read with %d nodes", nodes)
		}
		return poolSolve(ctx, b, target, goal, nodes)
	}
	test.Tap(rt.weakC)
	allRead := func() bool {
		w := rt.weak
		return w != nil && len(w.done) == len(w.chains) && rt.showing(w.node, w.key)
	}
	h.pump("the weak chains read", allRead)
	if n := len(rt.weak.chains); n != 3 {
		t.Fatalf("%d weak chains, want 3", n)
	}
	marks := map[string]goban.MarkKind{}
	for _, l := range rt.marks.Labels {
		x, y := l.Point.X, l.Point.Y
		marks[board.At(x, y).GTP(9)] = l.Mark
		want := unsettledColor
		if l.Mark == goban.MarkCross {
			want = deadColor
		}
		if l.Color != want {
			t.Errorf("%v marked %v in %v", l.Point, l.Mark, l.Color)
		}
	}
	want := map[string]goban.MarkKind{"F8": goban.MarkTriangle, "F7": goban.MarkTriangle, "G7": goban.MarkTriangle,
		"C3": goban.MarkCross, "D3": goban.MarkCross, "E3": goban.MarkCross}
	if len(marks) != len(want) {
		t.Errorf("marks %v, want %v", marks, want)
	}
	for p, m := range want {
		if marks[p] != m {
			t.Errorf("%s marked %v, want %v", p, marks[p], m)
		}
	}
	if got := rt.weakL.Text; !strings.HasPrefix(got, "3 chains with ≤ 4 liberties read (5,000 nodes each): 1 unsettled (orange triangle), 1 dead (red cross), 1 safe") {
		t.Errorf("the tab says %q", got)
	}
	at := h.spot()
	if c := at(h.at("D3"), 0, 0); !(c.R > 150 && c.G < 130 && c.B < 100) {
		t.Errorf("the cross on D3 drawn %v", c)
	}
	if c := at(h.at("H3"), 0, 0); !light(c) {
		t.Errorf("H3, safe, drawn %v", c)
	}
	if !h.wb.opts.Preferences.Bool(prefWeakStones) {
		t.Error("the overlay is not remembered")
	}

	// Move 1 (J1) adds a chain of two liberties; back at the setup
	// position nothing is read again.
	h.key(fyne.KeyRight, 0)
	h.pump("the weak chains of move 1", allRead)
	if n := len(rt.weak.chains); n != 4 {
		t.Errorf("%d weak chains after J1, want 4", n)
	}
	before := calls.Load()
	h.key(fyne.KeyLeft, 0)
	h.pump("the weak chains of the setup", allRead)
	if calls.Load() != before || len(rt.marks.Labels) != 6 {
		t.Errorf("returning read %d chains again, %d marks", calls.Load()-before, len(rt.marks.Labels))
	}

	// The next run starts with the overlay on.
	w := test.NewWindow(nil)
	defer w.Close()
	wb := New(w, Options{OnUI: func(func()) {}, Preferences: h.wb.opts.Preferences})
	defer wb.Stop()
	if rt2 := tabOf[*readTab](wb); !rt2.weakOn || !rt2.weakC.Checked {
		t.Error("the next run does not show weak stones")
	}
}

// TestReadSentences: every code in words, with the colours from the
// chain's owner, and what two reads mean together.
func TestReadSentences(t *testing.T) {
	g1, h5 := board.At(6, 8), board.At(7, 4)
	res := func(goal reading.Goal, code reading.Code, move board.Point, proved bool) reading.Result {
		return reading.Result{Goal: goal, Code: code, Move: move, Proved: proved, Nodes: 1234, Time: 12 * time.Millisecond}
	}
	for _, c := range []struct {
		r     reading.Result
		owner board.Color
		want  string
	}{
		{res(reading.Attack, reading.Win, g1, true), board.Black, "White to play captures B4 with G1 (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Attack, reading.KoFirst, g1, true), board.Black, "White to play captures B4 with G1 in a ko White takes first (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Attack, reading.KoLater, g1, true), board.Black, "White to play captures B4 with G1 only if White wins a ko Black takes first (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Attack, reading.Fail, board.NoPoint, true), board.Black, "White to play: B4 cannot be captured (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Defend, reading.Win, h5, true), board.Black, "Black to play saves it with H5 (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Defend, reading.KoLater, h5, true), board.White, "White to play saves it with H5 only if White wins a ko Black takes first (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Defend, reading.Fail, board.NoPoint, true), board.White, "White to play: it cannot be saved (proved, 1,234 nodes, 12 ms)"},
		{res(reading.Attack, reading.Fail, board.NoPoint, false), board.White, "Black to play: no answer — the budget of 80,000 nodes ran out (12 ms)"},
	} {
		if got := readSentence(c.r, c.owner, "B4", reading.DefaultMaxNodes, 9); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	win, fail, unknown := res(0, reading.Win, g1, true), res(0, reading.Fail, board.NoPoint, true), res(0, reading.Fail, board.NoPoint, false)
	ko := res(0, reading.KoFirst, g1, true)
	for _, c := range []struct {
		attack, defend reading.Result
		want           fate
		verdict        string
	}{
		{fail, win, fateSafe, "Safe: it cannot be captured even if White moves first."},
		{fail, fail, fateSafe, "Safe"}, // seki: neither side gains by moving first
		{win, fail, fateDead, "Dead: it cannot be saved even if Black moves first."},
		{unknown, fail, fateDead, "Dead"},
		{win, win, fateUnsettled, "Unsettled: whoever moves first decides."},
		{ko, win, fateUnsettled, "Unsettled: whoever moves first decides, through a ko."},
		{win, unknown, fateCapturable, "Capturable: White moving first"},
		{unknown, win, fateUnknown, "Undecided"},
		{unknown, unknown, fateUnknown, "Undecided"},
	} {
		if got := fateOf(c.attack, c.defend); got != c.want {
			t.Errorf("fateOf(%d %v, %d %v) = %d, want %d", c.attack.Code, c.attack.Proved, c.defend.Code, c.defend.Proved, got, c.want)
		}
		if v := verdictText(c.attack, c.defend, board.Black); !strings.HasPrefix(v, c.verdict) {
			t.Errorf("verdict %q, want %q…", v, c.verdict)
		}
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{84 * time.Microsecond, "84 µs"}, {3250 * time.Microsecond, "3.2 ms"}, {12 * time.Millisecond, "12 ms"}, {1234 * time.Millisecond, "1.2 s"}} {
		if got := readTime(c.d); got != c.want {
			t.Errorf("readTime(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	// A line is drawn up to a point played twice or holding a stone.
	b, _ := board.New(9)
	a, c, stone, p := board.At(0, 0), board.At(1, 0), board.At(4, 4), board.Pass
	b.PlayLegal(stone, board.Black)
	for _, tc := range []struct {
		line []board.Point
		want int
	}{{nil, 0}, {[]board.Point{a, c}, 2}, {[]board.Point{a, c, a, c}, 2}, {[]board.Point{a, p, c, p}, 4},
		{[]board.Point{a, c, stone, p}, 2}, {slices.Repeat([]board.Point{p}, 12), goban.MaxPV}} {
		if got := drawnMoves(b, tc.line); got != tc.want {
			t.Errorf("drawnMoves(%v) = %d, want %d", tc.line, got, tc.want)
		}
	}
}

// TestReadingScreenshot saves the workbench on a position of GNU Go's
// reading tests, with the weak stones marked and a chain read, to the PNG
// named by AJI_SHOT_READING (an absolute path). The position is the
// problem AJI_SHOT_PROBLEM (default reading.tst:18, a 9-stone handicap
// game before move 141, where the white stone S9 lives or dies by who
// moves first, as GNU Go agrees), the chain the one at AJI_SHOT_POINT or
// the problem's, the line drawn AJI_SHOT_LINE (Capture or Save; default:
// the tab's choice):
// AJI_SHOT_READING=$PWD/docs/reading.png go test -run ReadingScreenshot ./ui/workbench.
func TestReadingScreenshot(t *testing.T) {
	out := os.Getenv("AJI_SHOT_READING")
	if out == "" {
		t.Skip("set AJI_SHOT_READING=file.png to save a screenshot of the Reading tab")
	}
	const problems = "../../../shared/data/reading-problems.jsonl"
	data, err := os.ReadFile(problems)
	if err != nil {
		t.Skip("no reading problems at", problems)
	}
	id := cmp.Or(os.Getenv("AJI_SHOT_PROBLEM"), "reading.tst:18")
	var p struct {
		ID     string `json:"id"`
		SGF    string `json:"sgf"`
		Move   int    `json:"move"`
		Target string `json:"target"`
	}
	for line := range strings.Lines(string(data)) {
		if err := json.Unmarshal([]byte(line), &p); err == nil && p.ID == id {
			break
		}
	}
	if p.ID != id || p.Move < 1 {
		t.Fatalf("no problem %s with a move in %s", id, problems)
	}
	h := newHarness(t, p.SGF)
	h.wb.move(h.wb.doc.cursor.Forward(p.Move - 1))
	fyne.CurrentApp().Settings().SetTheme(Theme())
	h.wb.settings.heat, h.wb.settings.topK = false, 0
	h.wb.render()
	h.selectTab(tabReading)
	rt := tabOf[*readTab](h.wb)
	test.Tap(rt.weakC)
	h.pump("the weak chains read", func() bool { w := rt.weak; return w != nil && len(w.done) == len(w.chains) })
	point := os.Getenv("AJI_SHOT_POINT")
	if point == "" && id == "reading.tst:18" {
		point = "S9" // the test's T10 cannot be captured: no line
	}
	h.askRead(rt, cmp.Or(point, p.Target))
	if line := os.Getenv("AJI_SHOT_LINE"); line != "" {
		rt.lineR.SetSelected(line)
	}
	h.pump("the analyses", func() bool { return len(h.ui) == 0 })
	// Sized last, so that the layout follows the texts as the app's does.
	h.w.Resize(fyne.NewSize(1300, 900))
	t.Logf("%s\n%s\n%s\n%s\n%s\n%s", rt.weakL.Text, rt.chainL.Text, rt.attackL.Text, rt.defendL.Text, rt.verdictL.Text, rt.lineL.Text)
	h.saveWindow(out)
}
