package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"aji/analysis/cfg"
	"aji/analysis/game"
)

// cfgFigure is one common-fate-graph benchmark on real 19x19 positions: building from scratch (per
// position) or the tracker's incremental update (Algorithm 2, per move), on one goroutine.
type cfgFigure struct {
	Op          string  `json:"op"`
	Per         string  `json:"per"` // "position" or "move"
	Iterations  int     `json:"iterations"`
	Ops         int     `json:"ops"`
	MicrosPerOp float64 `json:"microseconds_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	BytesPerOp  float64 `json:"bytes_per_op"`
	// FeaturesPerOp counts the path features extracted (of every empty point, before deduplication
	// across points); WalkUpdatesPerOp the walks removed and added by a move (Table II's counts).
	FeaturesPerOp    float64 `json:"features_per_op,omitempty"`
	WalkUpdatesPerOp float64 `json:"walk_updates_per_op,omitempty"`
}

// The ops of `aji bench cfg`.
const (
	cfgOpBuild         = "build"                 // Graph.Build: graph and labels
	cfgOpBuildFeatures = "build+features"        // and the path features of every empty point
	cfgOpReset         = "tracker reset"         // Tracker.Reset: labels and walks of both perspectives
	cfgOpPlay          = "tracker play"          // Tracker.Play: one incremental update
	cfgOpPlayFeatures  = "tracker play+features" // and the path features of every empty point for the side to move
)

// benchCfg times the five ops of cfgFigure on every position and move of the embedded 19x19 sample
// games, each for d/3 (five figures take about 3.5 s at the default 2 s) and at least once.
func benchCfg(ctx context.Context, d time.Duration) ([]cfgFigure, error) {
	games, err := sampleGames()
	if err != nil {
		return nil, err
	}
	type line struct {
		start game.Position
		moves []game.Move
	}
	var lines []line
	var positions []game.Position
	for _, g := range games {
		if g.Size() != 19 {
			continue
		}
		var l line
		err := g.WalkMainLine(func(pos *game.Position, m game.Move) error {
			if len(l.moves) == 0 {
				l.start = *pos
			}
			positions = append(positions, *pos)
			l.moves = append(l.moves, m)
			return nil
		})
		if err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	if len(positions) == 0 {
		return nil, fmt.Errorf("no 19x19 sample positions embedded")
	}
	d /= 3
	iters := cfg.DefaultIterations
	var figs []cfgFigure
	feats := make([]uint32, 0, 4096)

	// From scratch, a position at a time.
	var g cfg.Graph
	for _, op := range []string{cfgOpBuild, cfgOpBuildFeatures} {
		withFeatures := op == cfgOpBuildFeatures
		nf := 0
		fig := measureCfg(ctx, op, "position", d, len(positions), func(i int) {
			pos := &positions[i%len(positions)]
			g.Build(&pos.Board, pos.ToPlay, iters)
			if withFeatures {
				for _, p := range pos.Board.EmptyPoints() {
					feats = g.PathFeatures(p, feats[:0])
					nf += len(feats)
				}
			}
		})
		fig.FeaturesPerOp = float64(nf) / float64(len(positions)+fig.Ops) // counted in the warm-up too
		figs = append(figs, fig)
	}
	tr := cfg.NewTracker(iters)
	figs = append(figs, measureCfg(ctx, cfgOpReset, "position", d, len(positions), func(i int) {
		tr.Reset(&positions[i%len(positions)].Board)
	}))

	// Incrementally, along the games' main lines; each game restarts from a copy of its first position
	// (the copy is not timed, a tracker with the right memory allocates nothing to take it).
	starts := make([]*cfg.Tracker, len(lines))
	for i, l := range lines {
		starts[i] = cfg.NewTracker(iters)
		starts[i].Reset(&l.start.Board)
	}
	for _, op := range []string{cfgOpPlay, cfgOpPlayFeatures} {
		withFeatures := op == cfgOpPlayFeatures
		var failed error
		nf, updates := 0, 0
		fig := measureCfgSequences(ctx, op, d, len(lines), func(i int) (int, func(j int)) {
			tr.CopyFrom(starts[i])
			return len(lines[i].moves), func(j int) {
				m := lines[i].moves[j]
				if err := tr.Play(m.Point, m.Color); err != nil && failed == nil {
					failed = fmt.Errorf("bench cfg: game %d move %d: %w", i+1, j+1, err)
				}
				u := tr.LastUpdate()
				updates += u.Removed + u.Added
				if withFeatures {
					next := m.Color.Opponent()
					for _, p := range tr.Board().EmptyPoints() {
						feats = tr.PathFeatures(p, next, feats[:0])
						nf += len(feats)
					}
				}
			}
		})
		if failed != nil {
			return nil, failed
		}
		fig.WalkUpdatesPerOp = float64(updates) / float64(fig.Ops)
		fig.FeaturesPerOp = float64(nf) / float64(fig.Ops)
		figs = append(figs, fig)
	}
	return figs, ctx.Err()
}

// measureCfg calls op(0), op(1), ... for at least d and at least once, after untimed calls of op(0) to
// op(warm-1) (every input once) that let reused buffers reach their size, and reports the time and the
// allocations per call.
func measureCfg(ctx context.Context, name, per string, d time.Duration, warm int, op func(i int)) cfgFigure {
	for i := range warm {
		op(i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	start := time.Now()
	for n == 0 || (time.Since(start) < d && ctx.Err() == nil) {
		op(n)
		n++
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return cfgFigure{Op: name, Per: per, Iterations: cfg.DefaultIterations, Ops: n,
		MicrosPerOp: 1e6 * elapsed.Seconds() / float64(n),
		AllocsPerOp: float64(after.Mallocs-before.Mallocs) / float64(n),
		BytesPerOp:  float64(after.TotalAlloc-before.TotalAlloc) / float64(n)}
}

// measureCfgSequences times the moves of whole sequences: begin(i) prepares sequence i (untimed) and
// returns its length and the move to time. Sequences go round until d has been timed and each was played
// once; the first is played once untimed first.
func measureCfgSequences(ctx context.Context, name string, d time.Duration, seqs int, begin func(i int) (int, func(j int))) cfgFigure {
	n, play := begin(0)
	for j := range n {
		play(j)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var elapsed time.Duration
	moves := 0
	for i := 0; i < seqs || (elapsed < d && ctx.Err() == nil); i++ {
		n, play := begin(i % seqs)
		start := time.Now()
		for j := range n {
			play(j)
		}
		elapsed += time.Since(start)
		moves += n
	}
	runtime.ReadMemStats(&after)
	return cfgFigure{Op: name, Per: "move", Iterations: cfg.DefaultIterations, Ops: max(moves, 1),
		MicrosPerOp: 1e6 * elapsed.Seconds() / float64(max(moves, 1)),
		AllocsPerOp: float64(after.Mallocs-before.Mallocs) / float64(max(moves, 1)),
		BytesPerOp:  float64(after.TotalAlloc-before.TotalAlloc) / float64(max(moves, 1))}
}

func printCfgFigures(w io.Writer, figs []cfgFigure) {
	for _, f := range figs {
		line := fmt.Sprintf("cfg %s (%d iterations): %.1f µs per %s on 19x19, %.1f allocs (%.0f B) per %s",
			f.Op, f.Iterations, f.MicrosPerOp, f.Per, f.AllocsPerOp, f.BytesPerOp, f.Per)
		if f.FeaturesPerOp > 0 {
			line += fmt.Sprintf(", %.0f path features", f.FeaturesPerOp)
		}
		if f.WalkUpdatesPerOp > 0 {
			line += fmt.Sprintf(", %.0f walk updates", f.WalkUpdatesPerOp)
		}
		fmt.Fprintf(w, "%s (%d %ss timed)\n", line, f.Ops, f.Per)
	}
}
