package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/mcts"
)

// playoutFigure is one playout benchmark from the empty board: bare playouts of a policy (copy the start,
// play to the end, score), or whole simulations of a UCT search (descent, expansion, playout, backup).
type playoutFigure struct {
	Mode              string  `json:"mode"` // "playout" or "search"
	Size              int     `json:"size"`
	Policy            string  `json:"policy"`
	Threads           int     `json:"threads"`
	PlayoutsPerSecond float64 `json:"playouts_per_second"`
	MovesPerPlayout   float64 `json:"moves_per_playout,omitempty"`
}

// benchPlayout measures playouts/s on 9x9 and 19x19 with the light and pattern policies on 1 and 2
// threads, first bare, then inside the search.
func benchPlayout(ctx context.Context, d time.Duration) ([]playoutFigure, error) {
	var figs []playoutFigure
	for _, mode := range []string{"playout", "search"} {
		for _, size := range []int{9, 19} {
			for _, policy := range []string{mcts.PolicyLight, mcts.PolicyPattern} {
				for _, threads := range []int{1, 2} {
					if ctx.Err() != nil {
						return figs, ctx.Err()
					}
					var f playoutFigure
					var err error
					if mode == "playout" {
						f, err = benchBarePlayouts(ctx, size, policy, threads, d)
					} else {
						f, err = benchSearchPlayouts(ctx, size, policy, threads, d)
					}
					if err != nil {
						return nil, err
					}
					figs = append(figs, f)
				}
			}
		}
	}
	return figs, nil
}

func benchEmptyPosition(size int) *game.Position {
	pos := &game.Position{ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint, Komi: 7}
	pos.Board.Reset(size)
	return pos
}

func benchBarePlayouts(ctx context.Context, size int, policy string, threads int, d time.Duration) (playoutFigure, error) {
	root, err := mcts.NewPlayout(policy)
	if err != nil {
		return playoutFigure{}, err
	}
	root.Reset(benchEmptyPosition(size))
	var mu sync.Mutex
	moves, playouts := 0, 0
	var wg sync.WaitGroup
	start := time.Now()
	for t := range threads {
		pl, _ := mcts.NewPlayout(policy)
		wg.Go(func() {
			rng := rand.NewPCG(uint64(t), uint64(size))
			m, n := 0, 0
			for time.Since(start) < d && ctx.Err() == nil {
				for range 8 {
					pl.CopyFrom(root)
					m += pl.Run(rng, 0)
					pl.Score()
					n++
				}
			}
			mu.Lock()
			moves += m
			playouts += n
			mu.Unlock()
		})
	}
	wg.Wait()
	s := time.Since(start).Seconds()
	return playoutFigure{"playout", size, policy, threads, float64(playouts) / s, float64(moves) / float64(max(playouts, 1))}, nil
}

func benchSearchPlayouts(ctx context.Context, size int, policy string, threads int, d time.Duration) (playoutFigure, error) {
	s, err := mcts.New(mcts.Options{Playouts: -1, Time: d, Threads: threads, Policy: policy, Seed: 1})
	if err != nil {
		return playoutFigure{}, err
	}
	r := s.Run(ctx, benchEmptyPosition(size))
	return playoutFigure{Mode: "search", Size: size, Policy: policy, Threads: threads,
		PlayoutsPerSecond: float64(r.Playouts) / r.Elapsed.Seconds()}, nil
}

// printPlayoutFigures writes the figures as text.
func printPlayoutFigures(w io.Writer, figs []playoutFigure) {
	for _, f := range figs {
		if f.Mode == "playout" {
			fmt.Fprintf(w, "playout %dx%d %s, %d thread(s): %.0f playouts/s (%.0f moves/playout)\n",
				f.Size, f.Size, f.Policy, f.Threads, f.PlayoutsPerSecond, f.MovesPerPlayout)
		} else {
			fmt.Fprintf(w, "search (UCT) %dx%d %s, %d thread(s): %.0f playouts/s\n",
				f.Size, f.Size, f.Policy, f.Threads, f.PlayoutsPerSecond)
		}
	}
}
