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

// searchSpeedFigure is the tree search's speed on one board size, measured as issue 22 prescribes so that
// it can stand beside Pachi's: a fresh `aji gtp --threads 1 --playouts N` process answers
// boardsize, clear_board, komi 7 and genmove b on the empty board, and the CPU time of a run of
// baseline playouts (start-up, model loading, the first move's setup) is subtracted.
type searchSpeedFigure struct {
	Size                 int     `json:"size"`
	Playouts             int     `json:"playouts"`
	Baseline             int     `json:"baseline_playouts"`
	CPUSeconds           float64 `json:"cpu_seconds"`          // of the run of Playouts
	BaselineCPUSeconds   float64 `json:"baseline_cpu_seconds"` // of the run of Baseline
	PlayoutsPerCPUSecond float64 `json:"playouts_per_cpu_second"`
}

// searchBaseline is the subtracted run's playouts (the 500).
const searchBaseline = 500

// benchSearch measures the playouts per CPU-second of the search on 9x9 and 19x19 with the given
// playouts per measured run.
func benchSearch(ctx context.Context, playouts9, playouts19 int) ([]searchSpeedFigure, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var figs []searchSpeedFigure
	for _, c := range []struct{ size, playouts int }{{9, playouts9}, {19, playouts19}} {
		base, err := gtpGenmoveCPU(ctx, self, c.size, searchBaseline)
		if err != nil {
			return nil, err
		}
		full, err := gtpGenmoveCPU(ctx, self, c.size, c.playouts)
		if err != nil {
			return nil, err
		}
		f := searchSpeedFigure{Size: c.size, Playouts: c.playouts, Baseline: searchBaseline,
			CPUSeconds: full.Seconds(), BaselineCPUSeconds: base.Seconds()}
		if d := full - base; d > 0 {
			f.PlayoutsPerCPUSecond = float64(c.playouts-searchBaseline) / d.Seconds()
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// gtpGenmoveCPU runs `aji gtp --threads 1 --playouts N` in a fresh process for one genmove on the
// empty board and returns the process's CPU time (user and system).
func gtpGenmoveCPU(ctx context.Context, self string, size, playouts int) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, self, "gtp", "--threads", "1", "--playouts", strconv.Itoa(playouts))
	cmd.Stdin = strings.NewReader(fmt.Sprintf("boardsize %d\nclear_board\nkomi 7\ngenmove b\nquit\n", size))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("bench search: aji gtp --playouts %d on %dx%d: %w: %s", playouts, size, size, err, strings.TrimSpace(errOut.String()))
	}
	if strings.Count(out.String(), "=") < 5 {
		return 0, fmt.Errorf("bench search: aji gtp answered %q", out.String())
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}
