package territory

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
)

func mustPosition(t testing.TB, drawing string, toPlay board.Color) *game.Position {
	t.Helper()
	return &game.Position{Board: *mustParse(t, drawing), ToPlay: toPlay, Last: board.NoPoint, Prev: board.NoPoint}
}

// A living black group fills the board: its three one-point eyes are suicide for White and Black does not
// fill them, so every playout ends at once with every point Black's.
const allBlack5 = `
	.X.X.
	XXXXX
	XXXXX
	XXXXX
	XXXXX`

func TestMCCertainTerritory(t *testing.T) {
	for _, policy := range Policies {
		for _, c := range []board.Color{board.Black, board.White} {
			pos := mustPosition(t, allBlack5, c)
			mc := MC{Playouts: 40, Seed: 7, Policy: policy}
			var m Marginals
			if err := mc.Run(context.Background(), pos, &m); err != nil {
				t.Fatal(err)
			}
			// Laplace's rule: 40 Black outcomes of 40 give E[s] = 40/42.
			for _, p := range pos.Board.Points() {
				if m.Mean[p] != 40.0/42 {
					t.Fatalf("%s, %v to play: E[s] at %v = %v, want 40/42", policy, c, p, m.Mean[p])
				}
			}
			for k, s := range mc.Scores() {
				if s != 25 {
					t.Fatalf("%s, %v to play: playout %d scores %d, want 25", policy, c, k, s)
				}
			}
		}
	}
}

// The policies play differently: White's last stone, in atari, is captured at once far more often by the
// pattern policy (Coulom's capture of the stone just played) than by uniform random moves.
func TestMCPolicies(t *testing.T) {
	pos := mustPosition(t, `
		.......
		.......
		..XO...
		.XOX...
		.......
		.......
		.......`, board.Black)
	pos.Last = board.At(2, 3) // White played C4 into atari
	run := func(policy string) Marginals {
		mc := MC{Playouts: 400, Seed: 5, Policy: policy}
		var m Marginals
		if err := mc.Run(context.Background(), pos, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	random, pattern := run(PolicyRandom), run(mcts.PolicyPattern)
	if def := run(""); def != random {
		t.Error("no policy is not the random policy")
	}
	white := board.At(2, 3)
	t.Logf("E[s] of the white stone in atari: random %.3f, light %.3f, pattern %.3f", random.Mean[white],
		run(mcts.PolicyLight).Mean[white], pattern.Mean[white])
	if pattern.Mean[white] <= random.Mean[white]+0.2 {
		t.Errorf("the white stone in atari is Black's with E[s] %.3f under the pattern policy, %.3f under random playouts",
			pattern.Mean[white], random.Mean[white])
	}
	var mc MC
	mc.Policy = "heavy"
	if err := mc.Run(context.Background(), pos, &Marginals{}); err == nil || !strings.Contains(err.Error(), "heavy") {
		t.Errorf("unknown policy: %v", err)
	}
}

// A contested 7x7: the result must not depend on the number of workers, and the owner sums must add up to
// the playouts' scores.
const contested7 = `
	.......
	..X.O..
	.XX.OO.
	...X...
	.OO.XX.
	..O.X..
	.......`

func TestMCWorkersAndScores(t *testing.T) {
	for _, policy := range Policies {
		t.Run(policy, func(t *testing.T) { testMCWorkersAndScores(t, policy) })
	}
}

func testMCWorkersAndScores(t *testing.T, policy string) {
	pos := mustPosition(t, contested7, board.White)
	run := func(workers int, seed uint64) (Marginals, []int32) {
		mc := MC{Playouts: 101, Seed: seed, Workers: workers, Policy: policy}
		var m Marginals
		if err := mc.Run(context.Background(), pos, &m); err != nil {
			t.Fatal(err)
		}
		return m, append([]int32(nil), mc.Scores()...)
	}
	m1, s1 := run(1, 3)
	m3, s3 := run(3, 3)
	if m1 != m3 {
		t.Error("1 and 3 workers give different ownership")
	}
	var total int32
	for k := range s1 {
		if s1[k] != s3[k] {
			t.Fatalf("playout %d scores %d with 1 worker, %d with 3", k, s1[k], s3[k])
		}
		total += s1[k]
	}
	var sum float64
	for _, p := range pos.Board.Points() {
		sum += m1.Mean[p] * (101 + 2)
		if m1.Mean[p] <= -1 || m1.Mean[p] >= 1 {
			t.Fatalf("E[s] at %v = %v outside (−1, 1)", p, m1.Mean[p])
		}
	}
	if d := sum - float64(total); d > 1e-9 || d < -1e-9 {
		t.Errorf("Σ owners %v, Σ scores %d", sum, total)
	}
	if m2, _ := run(1, 4); m2 == m1 {
		t.Error("another seed gives the same ownership")
	}
	// The stones in the middle have support; the position is close, so no point is certain.
	if m1.Mean[board.At(2, 2)] <= 0 || m1.Mean[board.At(2, 4)] >= 0 {
		t.Errorf("the black and white walls own their own points less than half the time: %v %v",
			m1.Mean[board.At(2, 2)], m1.Mean[board.At(2, 4)])
	}
}

func TestMCCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	mc := MC{Playouts: 1000, Workers: 2}
	var m Marginals
	if err := mc.Run(ctx, mustPosition(t, contested7, board.Black), &m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}

func TestMCNoAllocPerRun(t *testing.T) {
	pos := mustPosition(t, contested7, board.Black)
	for _, policy := range Policies {
		mc := MC{Playouts: 20, Policy: policy}
		var m Marginals
		mc.Run(context.Background(), pos, &m)
		if a := testing.AllocsPerRun(5, func() { mc.Run(context.Background(), pos, &m) }); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", policy, a)
		}
	}
}

// BenchmarkMC19 reports the CPU time of a playout (and its final count) on one thread, per policy.
func BenchmarkMC19(b *testing.B) {
	pos := &game.Position{Board: *mustParse(b, pos19), ToPlay: board.Black}
	for _, policy := range Policies {
		b.Run(policy, func(b *testing.B) {
			mc := MC{Playouts: 64, Policy: policy}
			var m Marginals
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0 := threadCPU()
			for b.Loop() {
				mc.Run(context.Background(), pos, &m)
			}
			b.ReportMetric(float64((threadCPU()-c0).Microseconds())/float64(b.N*64), "cpu-µs/playout")
		})
	}
}
