package cfg

import (
	"fmt"
	"io"
	"math/rand/v2"

	"aji/analysis/board"
	"aji/analysis/game"
)

// StageLength is the number of moves of one game stage of Table II.
const StageLength = 100

// Stage is one row of Table II: the walk updates of the stone moves numbered From to To-1 (0 is the first
// move of the game; passes are not counted as updates but do advance the move number).
type Stage struct {
	From, To  int
	Moves     int   // stone moves counted
	Removals  int64 // walks removed from one path table
	Additions int64 // walks added to one path table
	// RemovalsAtMove is the part of Removals that started at the points played (Update.RemovedAtMove).
	RemovalsAtMove int64
}

// RemovalsPerMove is the mean number of walks removed per move ("Path-Removals/Move").
func (s Stage) RemovalsPerMove() float64 { return perMove(s.Removals, s.Moves) }

// AdditionsPerMove is the mean number of walks added per move ("Path-Additions/Move").
func (s Stage) AdditionsPerMove() float64 { return perMove(s.Additions, s.Moves) }

func perMove(n int64, moves int) float64 {
	if moves == 0 {
		return 0
	}
	return float64(n) / float64(moves)
}

// PaperStage is a row of the paper's Table II: mean walk removals and additions per move.
type PaperStage struct {
	From, To            int
	Removals, Additions float64
}

// PaperTableII is Table II of the paper: path updates per move by game stage, measured over 1000
// playouts from the empty 19x19 board with the authors' CFG playout policy and iteration count.
var PaperTableII = []PaperStage{
	{0, 100, 27.5, 24.7},
	{100, 200, 26.6, 24.2},
	{200, 300, 78.4, 77.3},
	{300, 400, 80.2, 79.9},
}

// UpdateStats accumulates walk updates per move by stage of StageLength moves (Table II).
type UpdateStats struct {
	Stages []Stage
	Resets int // positions the tracker had to rebuild from scratch (setup stones in a record)
}

// Add counts the update of the stone move numbered move (from 0).
func (s *UpdateStats) Add(move int, u Update) {
	st := s.stage(move / StageLength)
	st.Moves++
	st.Removals += int64(u.Removed)
	st.Additions += int64(u.Added)
	st.RemovalsAtMove += int64(u.RemovedAtMove)
}

// stage returns stage i, adding the stages up to it.
func (s *UpdateStats) stage(i int) *Stage {
	for len(s.Stages) <= i {
		n := len(s.Stages)
		s.Stages = append(s.Stages, Stage{From: n * StageLength, To: (n + 1) * StageLength})
	}
	return &s.Stages[i]
}

// Merge adds the counts of o to s.
func (s *UpdateStats) Merge(o *UpdateStats) {
	for i, st := range o.Stages {
		d := s.stage(i)
		d.Moves += st.Moves
		d.Removals += st.Removals
		d.Additions += st.Additions
		d.RemovalsAtMove += st.RemovalsAtMove
	}
	s.Resets += o.Resets
}

// Total returns all stages together.
func (s *UpdateStats) Total() Stage {
	t := Stage{To: len(s.Stages) * StageLength}
	for _, st := range s.Stages {
		t.Moves += st.Moves
		t.Removals += st.Removals
		t.Additions += st.Additions
		t.RemovalsAtMove += st.RemovalsAtMove
	}
	return t
}

// Write prints the stages as a table beside the paper's Table II. The column "elsewhere" is removals
// per move less the walks from the point played.
func (s *UpdateStats) Write(w io.Writer, title string) error {
	_, err := fmt.Fprintf(w, "%s\n%-9s %8s %12s %12s %12s %14s %14s\n", title, "moves", "n", "removals/mv",
		"(elsewhere)", "additions/mv", "paper rem/mv", "paper add/mv")
	if err != nil {
		return err
	}
	row := func(name string, st Stage, paper string) error {
		_, err := fmt.Fprintf(w, "%-9s %8d %12.1f %12.1f %12.1f%s\n", name, st.Moves, st.RemovalsPerMove(),
			perMove(st.Removals-st.RemovalsAtMove, st.Moves), st.AdditionsPerMove(), paper)
		return err
	}
	for i, st := range s.Stages {
		paper := ""
		if i < len(PaperTableII) {
			p := PaperTableII[i]
			paper = fmt.Sprintf(" %14.1f %14.1f", p.Removals, p.Additions)
		}
		if err := row(fmt.Sprintf("%d-%d", st.From, st.To), st, paper); err != nil {
			return err
		}
	}
	return row("all", s.Total(), "")
}

// MeasureGame plays the main line of g on tr and adds the walk updates of each stone move to s. The
// tracker starts from the position before the first move (handicap stones included) and is rebuilt, and
// the rebuild counted in s.Resets, wherever the record sets up stones. An illegal move ends the game with
// an error wrapping game.ErrIllegalMove; the moves before it are counted.
func MeasureGame(tr *Tracker, g *game.Game, s *UpdateStats) error {
	first := true
	return g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		if first || tr.Board().Hash() != pos.Board.Hash() || tr.Board().Size() != pos.Board.Size() {
			if !first {
				s.Resets++
			}
			tr.Reset(&pos.Board)
			first = false
		}
		if err := tr.Play(next.Point, next.Color); err != nil {
			return fmt.Errorf("move %d: %w: %w", pos.MoveNumber+1, game.ErrIllegalMove, err)
		}
		if next.Point != board.Pass {
			s.Add(pos.MoveNumber, tr.LastUpdate())
		}
		return nil
	})
}

// MeasurePlayouts plays n random games on the empty board of the given size with tr, each to two passes
// in a row (or 3·size² moves), and adds the walk updates of each stone move to s: the setting of the
// paper's Table II ("1000 playouts on an empty 19x19 board"), with uniformly random moves that do not
// fill an own eye (board.RandomMove) instead of the authors' CFG playout policy.
func MeasurePlayouts(tr *Tracker, n, size int, seed uint64, s *UpdateStats) error {
	empty, err := board.New(size)
	if err != nil {
		return fmt.Errorf("measure playouts: %w", err)
	}
	rng := rand.NewPCG(seed, 0x436667)
	var scratch board.Board
	for range n {
		tr.Reset(empty)
		c, passes := board.Black, 0
		for move := 0; passes < 2 && move < 3*size*size; move++ {
			scratch.CopyFrom(tr.Board()) // RandomMove reorders the board's list of empty points
			p := scratch.RandomMove(rng, c)
			if err := tr.Play(p, c); err != nil {
				return fmt.Errorf("measure playouts: %w", err)
			}
			if p == board.Pass {
				passes++
			} else {
				passes = 0
				s.Add(move, tr.LastUpdate())
			}
			c = c.Opponent()
		}
	}
	return nil
}

// TableII returns the walk updates per move by stage of the given number of random playouts on the
// empty 19x19 board with labels after the given number of iterations: the paper's Table II setting
// (1000 playouts), for `go test` and `aji bench` to print beside PaperTableII.
func TableII(playouts, iterations int, seed uint64) (*UpdateStats, error) {
	st := new(UpdateStats)
	err := MeasurePlayouts(NewTracker(iterations), playouts, 19, seed, st)
	return st, err
}
