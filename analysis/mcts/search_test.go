package mcts

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
)

// tactic is a hand-made position with one winning move: komi is set so that Black wins exactly when the
// group at stake lives (the rest of the board is settled, every White group with several eyes).
type tactic struct {
	name string
	rows []string
	komi float64
	want string // the winning move, GTP
}

var tactics = []tactic{
	{
		// Black's corner stones are in atari; capturing the two White stones at B4 saves them and leaves
		// Black 39 points to White's 10. Anything else lets White take the corner at A7.
		name: "7x7 capture to save", komi: 23, want: "B4",
		rows: []string{
			".XO.O.O",
			"XXOOOOO",
			"OOXXXXX",
			"X.X.X.X",
			"XXXXXXX",
			".X.X.X.",
			"XXXXXXX",
		},
	},
	{
		// A capture race: White's corner (B7, A6, B6) has two liberties, A7 and C7;
		// Black's two stones below have two, A4 and B4. Black to move wins it at C7 (A7 is suicide);
		// any other move lets White atari first and win by one liberty.
		name: "7x7 capture race", komi: -22, want: "C7",
		rows: []string{
			".O.X.X.",
			"OOXXXXX",
			"XXOOOOO",
			"..O.O.O",
			"OOOOOOO",
			"O.O.O.O",
			"OOOOOOO",
		},
	},
	{
		// A straight three on the edge: B7, its middle, makes two eyes; A7 or C7 lets White kill.
		name: "7x7 vital point", komi: -40, want: "B7",
		rows: []string{
			"...XO.O",
			"XXXXOOO",
			"OOOOOOO",
			"O.O.O.O",
			"OOOOOOO",
			".O.O.O.",
			"OOOOOOO",
		},
	},
	{
		// A 24-stone group whose only eye space is a straight three: C8 lives, anything else dies.
		name: "9x9 big group", komi: -30, want: "C8",
		rows: []string{
			"XXXXXXXXX",
			"X...XXXXX",
			"XXXXXXXXX",
			"OOOOOOOOO",
			"O.O.O.O.O",
			"OOOOOOOOO",
			"O.O.O.O.O",
			"OOOOOOOOO",
			".O.O.O.O.",
		},
	},
}

func runTactic(t *testing.T, tc tactic, o Options) Result {
	t.Helper()
	pos := parsePosition(t, tc.rows, board.Black, tc.komi)
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s.Run(context.Background(), pos)
}

// TestTactics: every selection rule, with each playout policy, finds the winning move.
func TestTactics(t *testing.T) {
	rules := Selections()
	for _, tc := range tactics {
		for _, sel := range rules {
			for _, policy := range []string{PolicyLight, PolicyPattern} {
				o := Options{Playouts: 1500, Seed: 1, Selection: sel, Policy: policy, ExpandAt: 1}
				if policy == PolicyPattern {
					o.Model = testModel(t)
				}
				r := runTactic(t, tc, o)
				got := r.Best.GTP(len(tc.rows))
				if got != tc.want {
					t.Errorf("%s, %v, %s playouts: best %s, want %s; candidates %v", tc.name, sel, policy, got, tc.want, top(r, len(tc.rows)))
				}
			}
		}
	}
}

// testModel is the embedded playout model, or an untrained one when none is embedded yet.
func testModel(t testing.TB) *PatternModel {
	if m, err := DefaultPatternModel(); err == nil {
		return m
	}
	return NewPatternModel()
}

func top(r Result, size int) []string {
	var out []string
	for i, c := range r.Candidates {
		if i == 5 {
			break
		}
		out = append(out, fmt.Sprintf("%s:%d/%.2f", c.Move.GTP(size), c.Visits, c.WinRate))
	}
	return out
}

// TestDeterministic: one thread and a fixed seed give the same search twice.
func TestDeterministic(t *testing.T) {
	for _, sel := range []Selection{UCT, PUCT, RAVE} {
		o := Options{Playouts: 400, Seed: 7, Selection: sel, Policy: PolicyPattern, Model: testModel(t)}
		empty := tactic{rows: []string{".........", ".........", ".........", ".........", ".........",
			".........", ".........", ".........", "........."}, komi: 7}
		a := runTactic(t, empty, o)
		b := runTactic(t, empty, o)
		if !sameCandidates(a, b) {
			t.Errorf("%v: two runs differ:\n%v\n%v", sel, a.Candidates, b.Candidates)
		}
	}
}

func sameCandidates(a, b Result) bool {
	if len(a.Candidates) != len(b.Candidates) || a.Best != b.Best {
		return false
	}
	for i := range a.Candidates {
		x, y := a.Candidates[i], b.Candidates[i]
		if x.Move != y.Move || x.Visits != y.Visits || x.WinRate != y.WinRate || !slices.Equal(x.PV, y.PV) {
			return false
		}
	}
	return true
}

// TestLimits: the playout count is exact, the node cap holds, and the visits add up.
func TestLimits(t *testing.T) {
	pos := emptyPosition(t, 9, 7)
	s, err := New(Options{Playouts: 777, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Run(context.Background(), pos)
	if r.Playouts != 777 {
		t.Errorf("%d playouts, want 777", r.Playouts)
	}
	sum := 0
	for _, c := range r.Candidates {
		sum += c.Visits
	}
	if root := s.tree.node(s.root).visits.Load(); sum != 777 || root != 777 {
		t.Errorf("root visits %d, children's sum %d, want 777", root, sum)
	}

	capped, _ := New(Options{Playouts: 1500, Seed: 1, MaxNodes: 1000})
	r = capped.Run(context.Background(), pos)
	if r.Nodes > 1000 || r.Nodes < 900 {
		t.Errorf("%d nodes with a cap of 1000 (and 82 children a node)", r.Nodes)
	}
	if r.Playouts != 1500 {
		t.Errorf("a full tree stopped the search: %d playouts", r.Playouts)
	}

	// A cancelled context stops at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	forever, _ := New(Options{Playouts: -1, Seed: 1})
	if r := forever.Run(ctx, pos); r.Playouts != 0 {
		t.Errorf("%d playouts after cancellation", r.Playouts)
	}
}

// TestParallel runs four goroutines on one tree (run with -race): the visits add up exactly, and the
// search still finds the tactic.
func TestParallel(t *testing.T) {
	for _, sel := range []Selection{UCT, PUCT, RAVE} {
		pos := parsePosition(t, tactics[1].rows, board.Black, tactics[1].komi)
		s, err := New(Options{Playouts: 4000, Seed: 1, Threads: 4, Selection: sel, ExpandAt: 1})
		if err != nil {
			t.Fatal(err)
		}
		r := s.Run(context.Background(), pos)
		_ = s.Snapshot() // concurrent-safe by design; here after the run
		sum := 0
		for _, c := range r.Candidates {
			sum += c.Visits
		}
		if r.Playouts != 4000 || sum != 4000 {
			t.Errorf("%v: %d playouts, %d child visits, want 4000", sel, r.Playouts, sum)
		}
		if got := r.Best.GTP(7); got != tactics[1].want {
			t.Errorf("%v with 4 threads: best %s, want %s", sel, got, tactics[1].want)
		}
	}
}

// TestSnapshotDuringRun reads snapshots from another goroutine while four threads search (for -race).
func TestSnapshotDuringRun(t *testing.T) {
	pos := emptyPosition(t, 9, 7)
	s, _ := New(Options{Playouts: 3000, Seed: 1, Threads: 4, Selection: RAVE})
	done := make(chan Result)
	go func() { done <- s.Run(context.Background(), pos) }()
	var last Result
	for {
		select {
		case r := <-done:
			if r.Playouts != 3000 || last.Playouts > 3000 {
				t.Errorf("final %d playouts, a snapshot saw %d", r.Playouts, last.Playouts)
			}
			return
		default:
			last = s.Snapshot()
		}
	}
}

// TestVirtualLoss: a descent in flight makes the next selection choose another child.
func TestVirtualLoss(t *testing.T) {
	for _, sel := range []Selection{UCT, PUCT, RAVE} {
		pos := emptyPosition(t, 5, 0)
		s, _ := New(Options{Playouts: 1, Seed: 1, Selection: sel})
		s.Run(context.Background(), pos)
		root := s.tree.node(s.root)
		first, k := s.tree.children(root)
		// Give every child the same record: 10 visits, 5 wins.
		for i := range uint32(k) {
			c := s.tree.node(first + i)
			c.visits.Store(10)
			c.wins.Store(10)
			c.rave.Store(10<<32 | 10)
		}
		root.visits.Store(int32(10 * k))
		w := s.workers[0]
		a := w.choose(root, first, k)
		s.tree.node(a).visits.Add(1) // in flight: a visit without its result
		root.visits.Add(1)
		if b := w.choose(root, first, k); b == a {
			t.Errorf("%v: the child in flight was chosen again", sel)
		}
	}
}

// fixedPrior is a predictor whose probabilities fall with the point's index in order.
type fixedPrior struct{ order []board.Point }

func (fixedPrior) Name() string { return "fixed" }

func (f fixedPrior) Predict(pos *game.Position, out *predict.Distribution) {
	out.Reset(pos.Board.Size())
	for i, p := range f.order {
		out.P[p] = 1 / float64(i+2)
	}
	out.P[board.Pass] = 1e-6
	out.Normalize(pos)
}

// TestWideningOrder: with widening, the n-th move by prior gets its first visit right after
// 40·1.4^(n−2) simulations (Coulom §4.2), and no move outside the widened set is visited.
func TestWideningOrder(t *testing.T) {
	pos := emptyPosition(t, 9, 7)
	// The points in an order unrelated to the board's: by a fixed shuffle.
	order := slices.Clone(pos.Board.Points())
	for i := range order {
		j := (i*37 + 11) % len(order)
		order[i], order[j] = order[j], order[i]
	}
	for _, sel := range []Selection{UCT, PUCT, RAVE} {
		for n := 2; n <= 6; n++ {
			// The n-th move enters once ceil(40·1.4^(n−2)) simulations are done.
			th := int(math.Ceil(40 * math.Pow(1.4, float64(n-2))))
			for _, playouts := range []int{th, th + 1} {
				s, _ := New(Options{Playouts: playouts, Seed: 1, Selection: sel, Widening: true, ExpandAt: 1000,
					Prior: fixedPrior{order}})
				s.Run(context.Background(), pos)
				first, k := s.tree.children(s.tree.node(s.root))
				visited := map[board.Point]int32{}
				for i := range uint32(k) {
					if c := s.tree.node(first + i); c.visits.Load() > 0 && c.move != board.Pass {
						visited[c.move] = c.visits.Load()
					}
				}
				open := n - 1 // moves open after th simulations
				if playouts > th {
					open = n
				}
				for i, p := range order[:open+3] {
					v := visited[p]
					if i >= open && v > 0 {
						t.Errorf("%v, %d playouts: move %d by prior (%s) visited %d times; only %d open",
							sel, playouts, i+1, p.GTP(9), v, open)
					}
					// UCT tries every open move at once (an unvisited move's bound is infinite).
					if i < open && v == 0 && sel == UCT {
						t.Errorf("%v, %d playouts: open move %d (%s) never visited", sel, playouts, i+1, p.GTP(9))
					}
				}
				if len(visited) > open {
					t.Errorf("%v, %d playouts: %d board moves visited, only %d open", sel, playouts, len(visited), open)
				}
			}
		}
	}
}

// TestSubtreeReuse: after Play, the new root's children are the old child's, with their statistics, and
// the next Run adds to them.
func TestSubtreeReuse(t *testing.T) {
	pos := emptyPosition(t, 9, 7)
	s, _ := New(Options{Playouts: 1500, Seed: 3, ExpandAt: 4})
	r := s.Run(context.Background(), pos)
	best := r.Candidates[0]
	t0 := s.tree
	var child *node
	first, k := t0.children(t0.node(s.root))
	for i := range uint32(k) {
		if n := t0.node(first + i); n.move == best.Move {
			child = n
		}
	}
	type stat struct {
		move         board.Point
		visits, wins int32
	}
	var want []stat
	cf, ck := t0.children(child)
	for i := range uint32(ck) {
		n := t0.node(cf + i)
		want = append(want, stat{n.move, n.visits.Load(), n.wins.Load()})
	}
	childVisits := child.visits.Load()
	s.Play(best.Move)
	root := s.tree.node(s.root)
	if root.visits.Load() != childVisits {
		t.Fatalf("new root has %d visits, the child had %d", root.visits.Load(), childVisits)
	}
	nf, nk := s.tree.children(root)
	if nk != len(want) {
		t.Fatalf("new root has %d children, the child had %d", nk, len(want))
	}
	for i := range uint32(nk) {
		n := s.tree.node(nf + i)
		if got := (stat{n.move, n.visits.Load(), n.wins.Load()}); got != want[i] {
			t.Errorf("child %d: %+v, want %+v", i, got, want[i])
		}
	}
	next := *pos
	next.Board.PlayLegal(best.Move, board.Black)
	next.ToPlay, next.Prev, next.Last, next.MoveNumber = board.White, pos.Last, best.Move, 1
	r2 := s.Run(context.Background(), &next)
	if got := s.tree.node(s.root).visits.Load(); got != childVisits+1500 {
		t.Errorf("after the second run the root has %d visits, want %d + 1500", got, childVisits)
	}
	if r2.Playouts != 1500 {
		t.Errorf("second run: %d playouts", r2.Playouts)
	}
	// A different position starts afresh.
	r3 := s.Run(context.Background(), pos)
	if got := s.tree.node(s.root).visits.Load(); got != 1500 || r3.Playouts != 1500 {
		t.Errorf("a new position kept %d root visits", got)
	}
}

// TestPassEndsGames: with nothing left to gain and the opponent having passed, the search passes; and
// a lost position resigns.
func TestPassEndsGames(t *testing.T) {
	// Both sides alive, no neutral point left: Black's moves only fill its own six-point eye space.
	rows := []string{
		".X.XO.O",
		"XXXXOOO",
		".X.XO.O",
		"XXXXOOO",
		"XXXXO.O",
		"...XOOO",
		"...XO.O",
	}
	pos := parsePosition(t, rows, board.Black, 0.5)
	pos.Last = board.Pass
	s, _ := New(Options{Playouts: 2000, Seed: 1, ExpandAt: 1})
	r := s.Run(context.Background(), pos)
	if r.Best != board.Pass {
		t.Errorf("after White's pass in a won, settled position, Black plays %s; candidates %v", r.Best.GTP(7), top(r, 7))
	}
	// The 9x9 big group, but with a komi that nothing wins.
	lost := parsePosition(t, tactics[3].rows, board.Black, 60)
	s2, _ := New(Options{Playouts: 1000, Seed: 1, ExpandAt: 1})
	if r := s2.Run(context.Background(), lost); !r.Resign {
		t.Errorf("hopeless position not resigned: %v", top(r, 9))
	}
}

func BenchmarkSearch9(b *testing.B)  { benchSearch(b, 9, PolicyLight, UCT) }
func BenchmarkSearch19(b *testing.B) { benchSearch(b, 19, PolicyLight, UCT) }
func BenchmarkSearchRAVE9(b *testing.B) {
	benchSearch(b, 9, PolicyPattern, RAVE)
}

// benchSearch times simulations (descent, expansion, playout, backup) from the empty board; b.N
// simulations make one Run, so allocations per op are per simulation.
func benchSearch(b *testing.B, size int, policy string, sel Selection) {
	pos := emptyPosition(b, size, 7)
	o := Options{Playouts: b.N, Seed: 1, Policy: policy, Selection: sel}
	if policy == PolicyPattern {
		o.Model = testModel(b)
	}
	s, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	s.Run(context.Background(), pos)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// TestPUCTFollowsPrior: where the values are alike (the empty board), PUCT spends its visits in the
// order of the prior (Xiao eq. 3.15's exploration term is proportional to it), and the candidates carry
// the prior.
func TestPUCTFollowsPrior(t *testing.T) {
	pos := emptyPosition(t, 9, 7)
	order := slices.Clone(pos.Board.Points())
	slices.Reverse(order)
	s, _ := New(Options{Playouts: 600, Seed: 1, Selection: PUCT, Prior: fixedPrior{order}, ExpandAt: 1000})
	r := s.Run(context.Background(), pos)
	visits := map[board.Point]int{}
	for _, c := range r.Candidates {
		visits[c.Move] = c.Visits
		if c.Move == order[0] && math.Abs(c.Prior-0.5/sumPrior(len(order))) > 1e-6 {
			t.Errorf("candidate prior %g, want %g", c.Prior, 0.5/sumPrior(len(order)))
		}
	}
	if visits[order[0]] <= visits[order[3]] || visits[order[3]] <= visits[order[40]] {
		t.Errorf("visits do not follow the prior: 1st %d, 4th %d, 41st %d", visits[order[0]], visits[order[3]], visits[order[40]])
	}
}

// sumPrior is the normaliser of fixedPrior over n points (pass excluded; its 1e-6 is negligible here).
func sumPrior(n int) float64 {
	s := 0.0
	for i := range n {
		s += 1 / float64(i+2)
	}
	return s
}

// TestOwnership: on the big-group position, where Black lives by C8 and the search finds it, the playouts
// give White its settled half and Black its living group; a Snapshot taken during the Run stays in
// [−1, 1]; without the option there is no estimate.
func TestOwnership(t *testing.T) {
	tc := tactics[3]
	pos := parsePosition(t, tc.rows, board.Black, tc.komi)
	if r := runTactic(t, tc, Options{Playouts: 200, Seed: 1}); r.Ownership != nil {
		t.Fatalf("ownership %v without Options.Ownership", r.Ownership)
	}
	s, err := New(Options{Playouts: 4000, Seed: 1, Threads: 2, Selection: RAVE, Ownership: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Result)
	go func() { done <- s.Run(context.Background(), pos) }()
	var r Result
	for r.Playouts == 0 {
		select {
		case r = <-done:
		default:
			for _, o := range s.Snapshot().Ownership {
				if o < -1 || o > 1 {
					t.Fatalf("a snapshot's ownership %v is out of [-1, 1]", o)
				}
			}
		}
	}
	if len(r.Ownership) != 81 {
		t.Fatalf("%d owners on 9x9", len(r.Ownership))
	}
	at := func(v string) float64 {
		p, err := board.ParseGTP(v, 9)
		if err != nil {
			t.Fatal(err)
		}
		x, y := p.XY()
		return r.Ownership[y*9+x]
	}
	t.Logf("best %s; A9 %.2f, E8 %.2f, A1 %.2f, J5 %.2f", r.Best.GTP(9), at("A9"), at("E8"), at("A1"), at("J5"))
	for _, v := range []string{"A1", "E1", "J5", "B2"} {
		if o := at(v); o > -0.95 {
			t.Errorf("White's settled %s: ownership %.2f, want below -0.95", v, o)
		}
	}
	for _, v := range []string{"A9", "E8", "J9"} {
		if o := at(v); o < 0.5 {
			t.Errorf("Black's living group at %s: ownership %.2f, want above 0.5", v, o)
		}
	}
}

// TestPassCompetesOnAMAF: pass gets AMAF statistics from the playouts' final passes, so a small search
// on an open board does not spend most of its visits on it (with the default prior, which gives pass
// 2.5% in this set-up position, pass was the most visited move at 300 playouts when it had no AMAF
// value and competed on UCT's exploration term alone).
func TestPassCompetesOnAMAF(t *testing.T) {
	games, err := game.Parse([]byte("(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg][cg]AW[gc][ee][ec])"))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := games[0].PositionAfter(0)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		prior, err := NewPrior(DefaultPriorName)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Options{Playouts: 300, Seed: seed, Selection: RAVE, Policy: PolicyPattern, Prior: prior})
		if err != nil {
			t.Fatal(err)
		}
		r := s.Run(context.Background(), pos)
		if r.Best == board.Pass {
			t.Errorf("seed %d: the search passes on an open board: %v", seed, top(r, 9))
		}
		first, k := s.tree.children(s.tree.node(s.root))
		for i := range uint32(k) {
			if c := s.tree.node(first + i); c.move == board.Pass {
				if _, n := c.raveStats(); n < 100 {
					t.Errorf("seed %d: pass has %d AMAF visits of 300 playouts", seed, n)
				}
			}
		}
	}
}

// TestMercyOption: the search's playouts use the mercy rule by default, not when it is turned off, and
// not when the search estimates ownership, which needs every playout's final board.
func TestMercyOption(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want float64
	}{
		{Options{Policy: PolicyPattern}, 0.25},
		{Options{Policy: PolicyLight, Mercy: 0.3}, 0.3},
		{Options{Policy: PolicyPattern, Mercy: -1}, 0},
		{Options{Policy: PolicyPattern, Ownership: true}, 0},
	} {
		s, err := New(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		for _, pl := range append([]*Playout{s.rootPl}, s.workers[0].pl) {
			if pl.Mercy != tc.want {
				t.Errorf("Mercy %v, Ownership %v: a playout's Mercy is %v, want %v", tc.o.Mercy, tc.o.Ownership, pl.Mercy, tc.want)
			}
		}
	}
}
