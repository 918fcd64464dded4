package mcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	_ "aji/analysis/predict/all" // the predictors a predictor policy names
	"aji/models/modeltest"
)

// randomModel returns a pattern model with γ spread over two orders of magnitude, so that every feature
// changes the weights.
func randomModel(seed uint64) *PatternModel {
	m := NewPatternModel()
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range m.Gamma {
		m.Gamma[i] = math.Exp(rng.Float64()*4.6 - 2.3)
	}
	return m
}

func emptyPosition(t testing.TB, size int, komi float64) *game.Position {
	t.Helper()
	pos := &game.Position{ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint, Komi: komi}
	if err := pos.Board.Reset(size); err != nil {
		t.Fatal(err)
	}
	return pos
}

// parsePosition reads a board drawn with X (black), O (white) and . (empty), top row first.
func parsePosition(t testing.TB, rows []string, toPlay board.Color, komi float64) *game.Position {
	t.Helper()
	pos := emptyPosition(t, len(rows), komi)
	for y, r := range rows {
		if len(r) != len(rows) {
			t.Fatalf("row %d has %d points, want %d", y, len(r), len(rows))
		}
		for x, ch := range r {
			var c board.Color
			switch ch {
			case 'X':
				c = board.Black
			case 'O':
				c = board.White
			default:
				continue
			}
			if err := pos.Board.Set(board.At(x, y), c); err != nil {
				t.Fatal(err)
			}
		}
	}
	pos.ToPlay = toPlay
	return pos
}

// TestIncrementalWeights plays pattern playouts and checks after every move that the incrementally
// kept weights and row sums equal those computed from scratch on the same board.
func TestIncrementalWeights(t *testing.T) {
	m := randomModel(1)
	for _, size := range []int{5, 9, 13, 19} {
		pl := NewPatternPlayout(m)
		fresh := NewPatternPlayout(m)
		rng := rand.NewPCG(uint64(size), 3)
		for game := range 6 {
			pl.Reset(emptyPosition(t, size, 7))
			passes := 0
			for n := 0; n < 3*size*size && passes < 2; n++ {
				p := pl.Choose(rng)
				if p == board.Pass {
					passes++
				} else {
					passes = 0
					if !pl.Board().Legal(p, pl.pos.ToPlay) || pl.Board().IsEye(p, pl.pos.ToPlay) {
						t.Fatalf("%dx%d game %d move %d: policy chose %s, illegal or an own eye",
							size, size, game, n, p.GTP(size))
					}
				}
				pl.Play(p)
				fresh.Reset(pl.Position())
				for _, q := range pl.Board().Points() {
					for ci := range 2 {
						if pl.w[ci][q] != fresh.w[ci][q] {
							t.Fatalf("%dx%d game %d after move %d (%s): weight of %s for colour %d is %g, from scratch %g\n%s",
								size, size, game, n, p.GTP(size), q.GTP(size), ci, pl.w[ci][q], fresh.w[ci][q], pl.Board())
						}
					}
				}
				for ci := range 2 {
					for y := range size {
						if d := pl.row[ci][y] - fresh.row[ci][y]; math.Abs(d) > 1e-9*math.Max(1, fresh.row[ci][y]) {
							t.Fatalf("%dx%d: row %d sum %g, from scratch %g", size, size, y, pl.row[ci][y], fresh.row[ci][y])
						}
					}
				}
			}
		}
	}
}

// TestPatternWeightsAgreeWithRules checks the code tables against the rules engine: a point has a
// positive weight exactly when it is a legal move that fills no own eye (ko aside).
func TestPatternWeightsAgreeWithRules(t *testing.T) {
	pl := NewPatternPlayout(NewPatternModel())
	rng := rand.NewPCG(5, 5)
	for range 30 {
		pos := emptyPosition(t, 9, 7)
		pos.Board.Playout(rng, board.Black, int(rng.Uint64()%120))
		for _, c := range []board.Color{board.Black, board.White} {
			pos.ToPlay = c
			pl.Reset(pos)
			b := &pos.Board
			for _, p := range b.Points() {
				want := b.At(p) == board.Empty && b.Legal(p, c) && !b.IsEye(p, c)
				if k, f := b.Ko(); p == k && f == c {
					want = b.At(p) == board.Empty && !b.IsEye(p, c) // the table ignores ko; the draw does not
				}
				if got := pl.w[colorIndex(c)][p] > 0; got != want {
					t.Fatalf("%s for %v: weight %g, legal non-eye %v\n%s", p.GTP(9), c, pl.w[colorIndex(c)][p], want, b)
				}
			}
		}
	}
}

// TestPatternDrawIsProportional draws many moves from one position and compares the frequencies with the
// policy's weights (context features and ko included).
func TestPatternDrawIsProportional(t *testing.T) {
	m := randomModel(2)
	pos := parsePosition(t, []string{
		".....",
		".XO..",
		"XO.O.",
		".XO..",
		".....",
	}, board.Black, 0)
	// White's last stone at C3's neighbour: make it the last move so the context features apply.
	pos.Last = board.At(2, 3)
	pl := NewPatternPlayout(m)
	pl.Reset(pos)
	var want [board.NumCells]float64
	sum := pl.moveWeights(&want)
	rng := rand.NewPCG(9, 9)
	var got [board.NumCells]float64
	const n = 200000
	for range n {
		got[pl.Choose(rng)]++
	}
	for _, p := range pos.Board.Points() {
		exp := want[p] / sum * n
		if d := math.Abs(got[p] - exp); d > 5*math.Sqrt(exp+1) {
			t.Errorf("%s drawn %v times, expected %.0f", p.GTP(5), got[p], exp)
		}
	}
	if got[board.Pass] != 0 {
		t.Errorf("passed %v times with legal moves left", got[board.Pass])
	}
}

// TestLightHeuristics: the light policy captures the chain in atari next to the last move, and saves
// its own chain put in atari when it can.
func TestLightHeuristics(t *testing.T) {
	pl, _ := NewPlayout(PolicyLight)
	rng := rand.NewPCG(1, 1)
	// White just played B3 (x=1,y=2) into atari: Black captures at A3 (its only liberty).
	capture := parsePosition(t, []string{
		".....",
		".X...",
		".OX..",
		".X...",
		".....",
	}, board.Black, 0)
	capture.Last = board.At(1, 2)
	pl.Reset(capture)
	for range 50 {
		if p := pl.Choose(rng); p != board.At(0, 2) {
			t.Fatalf("light policy played %s, want the capture A3", p.GTP(5))
		}
	}
	// White's last move C4 put Black's B4 stone in atari; extending at B5 gives it two liberties.
	save := parsePosition(t, []string{
		".....",
		"OXO..",
		".O...",
		".....",
		".....",
	}, board.Black, 0)
	save.Last = board.At(2, 1)
	pl.Reset(save)
	for range 50 {
		if p := pl.Choose(rng); p != board.At(1, 0) {
			t.Fatalf("light policy played %s, want the escape B5", p.GTP(5))
		}
	}
}

// TestPlayoutScore plays playouts to the end and checks the score against a count of the final board:
// no empty point is left that is not an eye, and the area score plus komi is the board's.
func TestPlayoutScore(t *testing.T) {
	for _, policy := range []*Playout{{}, NewPatternPlayout(randomModel(3))} {
		rng := rand.NewPCG(11, 4)
		for range 20 {
			policy.Reset(emptyPosition(t, 9, 7))
			policy.Run(rng, 0)
			b := policy.Board()
			black, white := 0, 0
			for _, p := range b.Points() {
				switch b.At(p) {
				case board.Black:
					black++
				case board.White:
					white++
				default:
					// Every empty point is an eye of one side (a playout ends when both pass).
					be, we := b.IsEye(p, board.Black) || !b.Legal(p, board.Black), b.IsEye(p, board.White) || !b.Legal(p, board.White)
					if !be || !we {
						t.Fatalf("playout ended with a playable point %s\n%s", p.GTP(9), b)
					}
					owner := board.Empty
					for _, q := range p.Neighbours() {
						if c := b.At(q); c == board.Black || c == board.White {
							if owner != board.Empty && owner != c {
								owner = board.Edge // seki-like: both
							} else if owner != board.Edge {
								owner = c
							}
						}
					}
					switch owner {
					case board.Black:
						black++
					case board.White:
						white++
					}
				}
			}
			if got, want := policy.Score(), float64(black-white)-7; got != want {
				t.Fatalf("score %v, counted %v\n%s", got, want, b)
			}
		}
	}
}

func BenchmarkPlayoutLight9(b *testing.B)    { benchPlayout(b, PolicyLight, 9) }
func BenchmarkPlayoutLight19(b *testing.B)   { benchPlayout(b, PolicyLight, 19) }
func BenchmarkPlayoutPattern9(b *testing.B)  { benchPlayout(b, PolicyPattern, 9) }
func BenchmarkPlayoutPattern19(b *testing.B) { benchPlayout(b, PolicyPattern, 19) }

func benchPlayout(b *testing.B, policy string, size int) {
	var pl *Playout
	if policy == PolicyPattern {
		m, err := DefaultPatternModel()
		if err != nil {
			m = randomModel(1)
		}
		pl = NewPatternPlayout(m)
	} else {
		pl = &Playout{}
	}
	root := &Playout{m: pl.m}
	root.Reset(emptyPosition(b, size, 7))
	rng := rand.NewPCG(1, 2)
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		pl.CopyFrom(root)
		moves += pl.Run(rng, 0)
		pl.Score()
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/s, "playouts/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
}

// FuzzDecodePatternModel fuzzes DecodePatternModel behind a valid checksum (see modeltest), from the
// embedded playout model.
func FuzzDecodePatternModel(f *testing.F) {
	m, err := DefaultPatternModel()
	if err != nil {
		f.Fatal(err)
	}
	modeltest.FuzzDecode(f, patternHeader, [][]byte{m.payload()}, func(file []byte) error {
		_, err := DecodePatternModel(file, "fuzz")
		return err
	})
}

// TestPredictorPolicy: Graf's CFG playouts (the cfg-small predictor as the policy) play legal moves that
// fill no own eye until both pass, and find the tactics' winning moves inside the search; an
// unknown policy is refused.
func TestPredictorPolicy(t *testing.T) {
	pl, err := NewPlayout("cfg-small")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.NewPCG(3, 3)
	for game := range 3 {
		pl.Reset(emptyPosition(t, 9, 7))
		passes, n := 0, 0
		for ; n < 3*81 && passes < 2; n++ {
			p := pl.Choose(rng)
			if p == board.Pass {
				passes++
			} else {
				passes = 0
				if b := pl.Board(); !b.Legal(p, pl.pos.ToPlay) || b.IsEye(p, pl.pos.ToPlay) {
					t.Fatalf("game %d move %d: %s is illegal or an own eye\n%s", game, n, p.GTP(9), b)
				}
			}
			pl.Play(p)
		}
		if passes < 2 || n < 40 {
			t.Errorf("game %d ended after %d moves with %d passes", game, n, passes)
		}
	}
	tc := tactics[0]
	r := runTactic(t, tc, Options{Playouts: 600, Seed: 1, Selection: RAVE, Policy: "cfg-small", ExpandAt: 1})
	if got := r.Best.GTP(len(tc.rows)); got != tc.want {
		t.Errorf("%s with CFG playouts: best %s, want %s; %v", tc.name, got, tc.want, top(r, len(tc.rows)))
	}
	if _, err := New(Options{Policy: "no-such-policy"}); err == nil {
		t.Error("an unknown policy was accepted")
	}
}

// TestSelfAtariLevels: the self-atari features of a few hand-made moves.
func TestSelfAtariLevels(t *testing.T) {
	pos := parsePosition(t, []string{
		"...X.",
		".....",
		"OOO..",
		".XO..",
		".XO..",
	}, board.Black, 0)
	for _, tc := range []struct {
		move string
		c    board.Color
		want int
	}{
		{"A1", board.White, featSelfAtariAtari}, // a throw-in: Black's B1-B2 is left with A2 alone
		{"E5", board.White, featSelfAtari1},     // a lone stone in atari; D5 keeps two liberties
		{"A1", board.Black, featSelfAtariN},     // Black's chain filling its own second-last liberty
		{"D4", board.White, -1},
	} {
		p, err := board.ParseGTP(tc.move, 5)
		if err != nil {
			t.Fatal(err)
		}
		if got := selfAtari(&pos.Board, p, tc.c); got != tc.want {
			t.Errorf("%v at %s: self-atari feature %d, want %d", tc.c, tc.move, got, tc.want)
		}
	}
}

// TestCodeSelfAtari checks the playout's shortcut against the full self-atari test wherever a code
// leaves the question to counting liberties.
func TestCodeSelfAtari(t *testing.T) {
	rng := rand.NewPCG(7, 7)
	var checked [saCheck + 1]int // by kind
	atari := 0                   // the self-ataris that give atari among them
	for range 200 {
		pos := emptyPosition(t, 9, 7)
		pos.Board.Playout(rng, board.Black, int(rng.Uint64()%150))
		b := &pos.Board
		for _, c := range []board.Color{board.Black, board.White} {
			for _, p := range b.Points() {
				if b.At(p) != board.Empty {
					continue
				}
				code := codeFor(code3Black(b, p), c)
				k := selfAtariKind(code)
				if codeClass()[code] == noMove || k != saCheck && k != saLoneOpp {
					continue
				}
				got, want := codeSelfAtari(b, p, c), selfAtari(b, p, c)
				if got != want {
					t.Fatalf("%v at %s: codeSelfAtari %d, selfAtari %d\n%s", c, p.GTP(9), got, want, b)
				}
				checked[k]++
				if want == featSelfAtariAtari {
					atari++
				}
			}
		}
	}
	if checked[saCheck] < 1000 || checked[saLoneOpp] < 200 || atari < 50 {
		t.Fatalf("met %d points of kind saCheck, %d of kind saLoneOpp, %d self-ataris giving atari",
			checked[saCheck], checked[saLoneOpp], atari)
	}
}

// TestMercyRule: with the mercy rule a playout makes the same moves as without it, up to the first
// move after which one side has captured the threshold's number of stones more than the other since
// Reset, komi not outweighing it; then both pass, and the score is that lead minus komi. A lead from
// before Reset does not count: the second start has White one capture ahead, with a threshold of one
// stone. With a komi of 30, Black's leads of 20 decide nothing.
func TestMercyRule(t *testing.T) {
	m, err := DefaultPatternModel()
	if err != nil {
		t.Fatal(err)
	}
	captured := emptyPosition(t, 9, 7)
	for _, mv := range []string{"B E5", "W E4", "B A1", "W D5", "B A2", "W F5", "B A3", "W E6"} {
		var c board.Color = board.Black
		if mv[0] == 'W' {
			c = board.White
		}
		p, err := board.ParseGTP(mv[2:], 9)
		if err != nil {
			t.Fatal(err)
		}
		captured.Board.PlayLegal(p, c)
	}
	captured.ToPlay = board.Black
	captured.Komi = 0.5
	if captured.Board.Captures(board.White) != 1 {
		t.Fatalf("the set-up captures %d stones, want 1", captured.Board.Captures(board.White))
	}
	for _, tc := range []struct {
		start *game.Position
		mercy float64
		lead  int
	}{{emptyPosition(t, 9, 7), 0.25, 20}, {captured, 1.0 / 81, 1}, {emptyPosition(t, 9, 30), 0.25, 20}} {
		komi := tc.start.Komi
		base := tc.start.Board.Captures(board.Black) - tc.start.Board.Captures(board.White)
		whole, cut := NewPatternPlayout(m), NewPatternPlayout(m)
		cut.Mercy = tc.mercy
		ended, outweighed := 0, 0 // playouts ended; and those that passed a lead komi outweighs
		for seed := range uint64(200) {
			whole.Reset(tc.start)
			cut.Reset(tc.start)
			whole.Run(rand.NewPCG(seed, 1), 0)
			cut.Run(rand.NewPCG(seed, 1), 0)
			wm, _ := whole.Moves()
			cm, _ := cut.Moves()
			// Replay the whole playout to find where the lead first reaches the threshold.
			replay := NewPatternPlayout(m)
			replay.Reset(tc.start)
			at, lead, passed := -1, 0, false
			for i, p := range wm {
				replay.Play(p)
				b := replay.Board()
				d := b.Captures(board.Black) - b.Captures(board.White) - base
				if d >= tc.lead || d <= -tc.lead {
					if net := float64(d) - komi; net != 0 && (net > 0) == (d > 0) {
						at, lead = i+1, d
						break
					}
					passed = true
				}
			}
			if passed {
				outweighed++
			}
			if at < 0 {
				if !slices.Equal(cm, wm) || cut.Score() != whole.Score() {
					t.Fatalf("seed %d: no lead of %d, yet the mercy playout differs (%d moves against %d)", seed, tc.lead, len(cm), len(wm))
				}
				continue
			}
			ended++
			want := append(slices.Clone(wm[:at]), board.Pass, board.Pass)
			if !slices.Equal(cm, want) {
				t.Fatalf("seed %d: the mercy playout has %d moves, want the whole one's first %d and two passes", seed, len(cm), at)
			}
			if got := cut.Score(); got != float64(lead)-komi {
				t.Fatalf("seed %d: score %v, want the lead %d minus komi %v", seed, got, lead, komi)
			}
		}
		if ended < 20 {
			t.Fatalf("the mercy rule of %d stones ended only %d of 200 playouts; the test needs more", tc.lead, ended)
		}
		if komi > float64(tc.lead) && outweighed == 0 {
			t.Fatalf("komi %v: no playout had a lead of %d that komi outweighs; the test needs some", komi, tc.lead)
		}
		t.Logf("the mercy rule of %d stones, komi %v: ended %d of 200 playouts, %d went on past a lead komi outweighs", tc.lead, komi, ended, outweighed)
	}
}
