package cfg

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// TestTableII measures walk updates per move by game stage, as the paper's Table II does, in random
// playouts from the empty 19x19 board (the paper's setting, with uniformly random moves instead of its
// CFG policy) and along validation games, and prints them beside the paper's figures (go test -v).
// AJI_FULL=1 runs the paper's 1000 playouts and every validation game; CI runs a few.
func TestTableII(t *testing.T) {
	playouts, maxGames, netRuns := 10, 5, 1
	if raceEnabled {
		playouts, maxGames, netRuns = 2, 1, 0
	}
	if fullRun() {
		playouts, maxGames, netRuns = 1000, 0, 100
	}
	iterations := []int{DefaultIterations}
	if fullRun() {
		iterations = []int{0, 1, 2}
	}
	for _, iters := range iterations {
		st, err := TableII(playouts, iters, 1)
		if err != nil {
			t.Fatal(err)
		}
		checkStats(t, st)
		var sb strings.Builder
		if err := st.Write(&sb, sprintf("%d random playouts, 19x19, %d iteration(s), walk updates per move in one path table", playouts, iters)); err != nil {
			t.Fatal(err)
		}
		t.Log("\n" + sb.String())

		// The least any update could do: the change of each point's multiset of path labels.
		if netRuns > 0 {
			net := netPlayouts(t, netRuns, iters)
			sb.Reset()
			if err := net.Write(&sb, sprintf("%d random playouts, %d iteration(s), net change of the path-label counts per move (a lower bound for any update scheme)", netRuns, iters)); err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + sb.String())
		}

		if _, err := osStat(validationPath); err != nil {
			t.Logf("validation archive not available (%v): the games part is skipped", err)
			continue
		}
		tr := NewTracker(iters)
		st = new(UpdateStats)
		games := 0
		errEnough := errors.New("enough")
		_, err = dataset.Walk(context.Background(), validationPath, dataset.Filter{Size: 19}, func(rec dataset.Record) error {
			for _, g := range rec.Games {
				if maxGames > 0 && games >= maxGames {
					return errEnough
				}
				games++
				if err := MeasureGame(tr, g, st); err != nil && !errors.Is(err, game.ErrIllegalMove) {
					return err
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, errEnough) {
			t.Fatal(err)
		}
		checkStats(t, st)
		sb.Reset()
		if err := st.Write(&sb, sprintf("%d validation games, %d iteration(s), walk updates per move in one path table", games, iters)); err != nil {
			t.Fatal(err)
		}
		t.Log("\n" + sb.String())
	}
}

func checkStats(t *testing.T, st *UpdateStats) {
	t.Helper()
	tot := st.Total()
	if tot.Moves == 0 || tot.Removals == 0 || tot.Additions == 0 {
		t.Fatalf("no updates counted: %+v", tot)
	}
	for _, s := range st.Stages {
		if s.Moves > 0 && (s.RemovalsPerMove() < 1 || s.AdditionsPerMove() < 1) {
			t.Errorf("stage %d-%d: %.1f removals, %.1f additions per move", s.From, s.To, s.RemovalsPerMove(), s.AdditionsPerMove())
		}
	}
}

// netPlayouts plays random playouts on the empty 19x19 board and counts, per move, the path labels
// (Black's perspective, with multiplicity) that each point loses and gains, from graphs built from
// scratch before and after the move.
func netPlayouts(t *testing.T, n, iters int) *UpdateStats {
	rng := rand.NewPCG(71, 72)
	var st UpdateStats
	tr := NewTracker(0)
	empty, _ := board.New(19)
	var before, after Graph
	for range n {
		tr.Reset(empty)
		before.Build(tr.Board(), board.Black, iters)
		c, passes := board.Black, 0
		for move := 0; passes < 2 && move < 3*361; move++ {
			p := randomMove(t, tr, rng, c)
			c = c.Opponent()
			if p == board.Pass {
				passes++
				continue
			}
			passes = 0
			after.Build(tr.Board(), board.Black, iters)
			var u Update
			for _, q := range tr.Board().Points() {
				old, cur := labelCounts(&before, q), labelCounts(&after, q)
				for l, k := range old {
					u.Removed += max(k-cur[l], 0)
					if q == p {
						u.RemovedAtMove += k
					}
				}
				for l, k := range cur {
					u.Added += max(k-old[l], 0)
				}
			}
			st.Add(move, u)
			before, after = after, before
		}
	}
	return &st
}

// labelCounts returns the number of walks by path label from q (none when q is not empty).
func labelCounts(g *Graph, q board.Point) map[uint32]int {
	m := map[uint32]int{}
	for _, w := range g.Paths(q, nil) {
		m[g.PathLabel(w, g.Iterations())]++
	}
	return m
}
