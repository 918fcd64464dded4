package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// searchSpeedFigure is the tree search's speed on one board size and thread count, measured as issue 22
// prescribes so that it can stand beside Pachi's: a fresh `aji gtp --threads T --playouts N` process
// answers boardsize, clear_board, komi 7 and genmove b on the empty board, and the CPU time of a run of
// baseline playouts (start-up, model loading, the first move's setup) is subtracted. Wall time is
// subtracted the same way, for the playouts per second that threads buy.
type searchSpeedFigure struct {
	Size                 int     `json:"size"`
	Threads              int     `json:"threads"`
	Playouts             int     `json:"playouts"`
	Baseline             int     `json:"baseline_playouts"`
	CPUSeconds           float64 `json:"cpu_seconds"`          // of the run of Playouts
	BaselineCPUSeconds   float64 `json:"baseline_cpu_seconds"` // of the run of Baseline
	WallSeconds          float64 `json:"wall_seconds"`
	BaselineWallSeconds  float64 `json:"baseline_wall_seconds"`
	PlayoutsPerCPUSecond float64 `json:"playouts_per_cpu_second"`
	PlayoutsPerSecond    float64 `json:"playouts_per_second"` // of wall time
	// Scaling is PlayoutsPerSecond over the same size's one-thread figure (when it was measured).
	Scaling float64 `json:"scaling,omitempty"`
}

// searchBaseline is the subtracted run's playouts (the 500).
const searchBaseline = 500

// benchSearch measures the playouts per CPU-second and per second of the search on 9x9 and 19x19 with
// the given playouts per measured run, for each thread count.
func benchSearch(ctx context.Context, playouts9, playouts19 int, threads []int) ([]searchSpeedFigure, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var figs []searchSpeedFigure
	for _, c := range []struct{ size, playouts int }{{9, playouts9}, {19, playouts19}} {
		one := 0.0
		for _, th := range threads {
			base, err := gtpGenmove(ctx, self, c.size, th, searchBaseline)
			if err != nil {
				return nil, err
			}
			full, err := gtpGenmove(ctx, self, c.size, th, c.playouts)
			if err != nil {
				return nil, err
			}
			f := searchSpeedFigure{Size: c.size, Threads: th, Playouts: c.playouts, Baseline: searchBaseline,
				CPUSeconds: full.cpu.Seconds(), BaselineCPUSeconds: base.cpu.Seconds(),
				WallSeconds: full.wall.Seconds(), BaselineWallSeconds: base.wall.Seconds()}
			n := float64(c.playouts - searchBaseline)
			if d := full.cpu - base.cpu; d > 0 {
				f.PlayoutsPerCPUSecond = n / d.Seconds()
			}
			if d := full.wall - base.wall; d > 0 {
				f.PlayoutsPerSecond = n / d.Seconds()
			}
			if th == 1 {
				one = f.PlayoutsPerSecond
			} else if one > 0 {
				f.Scaling = f.PlayoutsPerSecond / one
			}
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// processTimes are one process's CPU time (user and system) and wall time.
type processTimes struct{ cpu, wall time.Duration }

// gtpGenmove runs `aji gtp --threads T --playouts N` in a fresh process for one genmove on the empty
// board and returns its times.
func gtpGenmove(ctx context.Context, self string, size, threads, playouts int) (processTimes, error) {
	cmd := exec.CommandContext(ctx, self, "gtp", "--threads", strconv.Itoa(threads), "--playouts", strconv.Itoa(playouts))
	cmd.Stdin = strings.NewReader(fmt.Sprintf("boardsize %d\nclear_board\nkomi 7\ngenmove b\nquit\n", size))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return processTimes{}, fmt.Errorf("bench search: aji gtp --threads %d --playouts %d on %dx%d: %w: %s", threads, playouts, size, size, err, strings.TrimSpace(errOut.String()))
	}
	wall := time.Since(start)
	if strings.Count(out.String(), "=") < 5 {
		return processTimes{}, fmt.Errorf("bench search: aji gtp answered %q", out.String())
	}
	return processTimes{cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), wall}, nil
}
