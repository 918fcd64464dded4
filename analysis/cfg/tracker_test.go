package cfg

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

// TestTrackerRandomGames: random games to the end (many captures and merges) on several sizes, with 0 to
// 3 iterations, checking the tracker against a from-scratch graph after every move (AJI_FULL=1 adds
// 13x13 and 24x24).
func TestTrackerRandomGames(t *testing.T) {
	rng := rand.NewPCG(11, 12)
	var ck checker
	sizes := []int{5, 9, 19}
	switch {
	case fullRun():
		sizes = append(sizes, 13, 24) // not 25: board.IsEye reads past the array at the 25x25 corner
	case testing.Short() || raceEnabled:
		sizes = []int{5, 9}
	}
	for _, iters := range []int{0, 1, 2, 3} {
		for _, size := range sizes {
			tr := NewTracker(iters)
			empty, _ := board.New(size)
			tr.Reset(empty)
			ck.check(t, tr, "empty board")
			c := board.Black
			passes, captures := 0, 0
			net := totalWalks(tr)
			for move := 0; passes < 2 && move < 3*size*size; move++ {
				before := tr.Board().Captures(board.Black) + tr.Board().Captures(board.White)
				p := randomMove(t, tr, rng, c)
				net += tr.LastUpdate().Added - tr.LastUpdate().Removed
				captures += tr.Board().Captures(board.Black) + tr.Board().Captures(board.White) - before
				if p == board.Pass {
					passes++
				} else {
					passes = 0
				}
				ck.check(t, tr, sprintf("%dx%d, %d iterations, move %d %v %s", size, size, iters, move, c, p.GTP(size)))
				c = c.Opponent()
			}
			if captures == 0 {
				t.Errorf("%dx%d: no captures; the test should cover them", size, size)
			}
			// The counts of Table II add up: what was added less what was removed is what is there.
			if total := totalWalks(tr); net != total {
				t.Errorf("%dx%d, %d iterations: start + additions - removals = %d walks, table holds %d", size, size, iters, net, total)
			}
		}
	}
}

// TestTrackerRealGames is the property test of Algorithm 2 on real positions: the main lines of
// validation games played on a tracker (1 and 2 iterations), compared with a from-scratch enumeration
// after every move; and from every 40th position a random continuation of 60 moves, which captures and
// merges far more than professionals do. CI checks the first 6 games (about 6,000 positions over the
// two trackers); AJI_FULL=1 checks all of them.
func TestTrackerRealGames(t *testing.T) {
	needValidation(t)
	maxGames := 6
	if raceEnabled {
		maxGames = 1
	}
	if fullRun() {
		maxGames = 0
	}
	var ck checker
	trackers := []*Tracker{NewTracker(1), NewTracker(2)}
	branches := []*Tracker{NewTracker(1), NewTracker(2)}
	rng := rand.NewPCG(21, 22)
	games, positions, captures := 0, 0, 0
	errEnough := errors.New("enough")
	_, err := dataset.Walk(context.Background(), validationPath, dataset.Filter{Size: 19}, func(rec dataset.Record) error {
		for _, g := range rec.Games {
			if maxGames > 0 && games >= maxGames {
				return errEnough
			}
			games++
			for i, tr := range trackers {
				branch := branches[i]
				first := true
				err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
					if first || tr.Board().Hash() != pos.Board.Hash() {
						tr.Reset(&pos.Board)
						ck.check(t, tr, rec.Name+": start")
						first = false
					}
					if pos.MoveNumber%40 == 20 {
						branch.CopyFrom(tr)
						for i := range 60 {
							before := branch.Board().Captures(board.Black) + branch.Board().Captures(board.White)
							p := randomMove(t, branch, rng, pos.ToPlay)
							captures += branch.Board().Captures(board.Black) + branch.Board().Captures(board.White) - before
							ck.check(t, branch, sprintf("%s: move %d, random continuation %d %s", rec.Name, pos.MoveNumber, i, p.GTP(19)))
							positions++
						}
					}
					if err := tr.Play(next.Point, next.Color); err != nil {
						// The board rejects the move before the game's walk does (a record holding a
						// really illegal move, such as a ko retaken); the game ends there.
						return fmt.Errorf("%w: %w", game.ErrIllegalMove, err)
					}
					ck.check(t, tr, sprintf("%s: after move %d %v %s", rec.Name, pos.MoveNumber+1, next.Color, next.Point.GTP(19)))
					positions++
					return nil
				})
				if errors.Is(err, game.ErrIllegalMove) {
					t.Logf("%s: %v", rec.Name, err)
				} else if err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		t.Fatal(err)
	}
	t.Logf("%d games, %d positions checked (both perspectives, 1 and 2 iterations), %d stones captured in the random continuations", games, positions, captures)
	if captures == 0 {
		t.Error("no captures in the random continuations; the test should cover them")
	}
}

// walkKey identifies a walk across positions: each vertex by its colour, first point and size (a vertex
// that survives a move keeps all three), and the three full labels of the last iteration.
type walkKey struct {
	first  [3]board.Point
	size   [3]int
	color  [3]board.Color
	labels [3]uint32
}

// walkSet returns the walks from every empty point of g.
func walkSet(g *Graph) map[walkKey]bool {
	m := map[walkKey]bool{}
	for v := range Vertex(g.NumVertices()) {
		if g.Color(v) != board.Empty {
			continue
		}
		for _, w := range g.Paths(g.Points(v)[0], nil) {
			var k walkKey
			for i, u := range w {
				k.first[i] = g.Points(u)[0]
				k.size[i] = len(g.Points(u))
				k.color[i] = g.Color(u)
				k.labels[i] = g.Label(u, g.Iterations())
			}
			m[k] = true
		}
	}
	return m
}

// TestUpdateCountsMinimal: the removals and additions the tracker counts for a move are exactly the walks
// that differ between the positions before and after it (brute force over all walks), so Table II counts
// the least work Algorithm 2 can do, not a superset.
func TestUpdateCountsMinimal(t *testing.T) {
	rng := rand.NewPCG(31, 32)
	sizes := []int{5, 9}
	if raceEnabled {
		sizes = []int{5}
	}
	for _, iters := range []int{0, 1, 2} {
		for _, size := range sizes {
			tr := NewTracker(iters)
			empty, _ := board.New(size)
			tr.Reset(empty)
			before := walkSet(Build(tr.Board(), board.Black, iters))
			c := board.Black
			for move := range 2 * size * size {
				p := randomMove(t, tr, rng, c)
				c = c.Opponent()
				after := walkSet(Build(tr.Board(), board.Black, iters))
				var want Update
				for k := range before {
					if !after[k] {
						want.Removed++
					}
				}
				for k := range after {
					if !before[k] {
						want.Added++
					}
				}
				if got := tr.LastUpdate(); got.Removed != want.Removed || got.Added != want.Added {
					t.Fatalf("%dx%d, %d iterations, move %d %s: tracker counts %+v, brute force %+v\n%s", size, size,
						iters, move, p.GTP(size), got, want, tr.Board())
				}
				before = after
			}
		}
	}
}

// TestTrackerAPI: passes, illegal moves, copies, features against the Graph's, and size changes.
func TestTrackerAPI(t *testing.T) {
	pos := midGame(t)
	tr := NewTracker(1)
	tr.Reset(&pos.Board)
	var ck checker
	ck.check(t, tr, "reset to move 150")

	// A pass changes nothing but the ko; an illegal move changes nothing at all.
	hash := tr.Board().Hash()
	if err := tr.Play(board.Pass, pos.ToPlay); err != nil || tr.Board().Hash() != hash || tr.LastUpdate() != (Update{}) {
		t.Fatalf("pass: %v", err)
	}
	var stone board.Point
	for _, p := range tr.Board().Points() {
		if tr.Board().At(p) != board.Empty {
			stone = p
			break
		}
	}
	if err := tr.Play(stone, board.Black); !errors.Is(err, board.ErrOccupied) {
		t.Fatalf("playing on a stone: %v", err)
	}
	ck.check(t, tr, "after a pass and an illegal move")

	// A copy goes its own way.
	var cp Tracker
	cp.CopyFrom(tr)
	rng := rand.NewPCG(41, 42)
	c := pos.ToPlay
	for range 40 {
		randomMove(t, &cp, rng, c)
		c = c.Opponent()
	}
	ck.check(t, tr, "original after its copy played on")
	ck.check(t, &cp, "copy")

	// Features for either player match a graph built for that player.
	for _, toPlay := range perspColor {
		g := Build(tr.Board(), toPlay, 1)
		for _, p := range tr.Board().Points() {
			if !slices.Equal(tr.PathFeatures(p, toPlay, nil), g.PathFeatures(p, nil)) {
				t.Fatalf("%v to play, %s: tracker and graph features differ", toPlay, p.GTP(19))
			}
		}
	}

	// Down to 9x9 and back.
	small, _ := board.New(9)
	tr.Reset(small)
	ck.check(t, tr, "reset to 9x9")
	if f := tr.PathFeatures(board.At(12, 12), board.Black, nil); len(f) != 0 {
		t.Errorf("features off the 9x9 board: %v", f)
	}
	tr.Reset(&pos.Board)
	ck.check(t, tr, "reset to 19x19 again")
}

// TestTrackerNoAllocation: once a tracker has played a playout, playing it again (from a copy of the
// start) allocates nothing: not the moves, the captures, the copy, nor the feature lookups.
func TestTrackerNoAllocation(t *testing.T) {
	pos := midGame(t)
	start := NewTracker(1)
	start.Reset(&pos.Board)
	var moves []game.Move
	{
		rng := rand.NewPCG(51, 52)
		tr := NewTracker(1)
		tr.CopyFrom(start)
		c := pos.ToPlay
		for range 200 {
			moves = append(moves, game.Move{Color: c, Point: randomMove(t, tr, rng, c)})
			c = c.Opponent()
		}
	}
	tr := NewTracker(1)
	feats := make([]uint32, 0, 256)
	playout := func() {
		tr.CopyFrom(start)
		for _, m := range moves {
			if err := tr.Play(m.Point, m.Color); err != nil {
				t.Fatal(err)
			}
			for _, p := range m.Point.Neighbours() {
				feats = tr.PathFeatures(p, m.Color.Opponent(), feats[:0])
			}
		}
	}
	playout()
	if a := testing.AllocsPerRun(5, playout); a != 0 {
		t.Errorf("a 200-move playout allocates %.1f times", a)
	}
}

// totalWalks is the number of walks in the tracker's table.
func totalWalks(tr *Tracker) int {
	n := 0
	for _, p := range tr.Board().Points() {
		for _, w := range tr.walks[p] {
			n += int(w.n)
		}
	}
	return n
}
