package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/assets"
)

// boardFigure is one board benchmark: random legal playouts to the end from the empty board.
type boardFigure struct {
	Size              int     `json:"size"`
	Threads           int     `json:"threads"`
	MovesPerSecond    float64 `json:"moves_per_second"`
	PlayoutsPerSecond float64 `json:"playouts_per_second"`
	MovesPerPlayout   float64 `json:"moves_per_playout"`
}

// predictFigure is one predictor benchmark: full distributions per second on real 19x19 positions.
type predictFigure struct {
	Predictor            string  `json:"predictor"`
	Positions            int     `json:"positions"`
	PredictionsPerSecond float64 `json:"predictions_per_second"`
	MicrosPerPrediction  float64 `json:"microseconds_per_prediction"`
}

func runBench(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	seconds := fs.Float64("seconds", 2, "seconds per measurement")
	asJSON := fs.Bool("json", false, "print one JSON object")
	problems := fs.String("problems", defaultReadingProblems, "reading: the problem file solved")
	playouts9 := fs.Int("playouts9", 10000, "search: playouts of the measured 9x9 run")
	playouts19 := fs.Int("playouts19", 3000, "search: playouts of the measured 19x19 run")
	threadList := fs.String("threads", "1", "search: thread counts measured, ascending, comma-separated (e.g. 1,2,16)")
	what, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(what) == 0 {
		return fmt.Errorf("%w: bench board|predict [NAME...]|playout|territory|cfg|reading|search|all [--seconds S] [--problems FILE] [--playouts9 N] [--playouts19 N] [--threads N,...] [--json]", errUsage)
	}
	d := time.Duration(*seconds * float64(time.Second))
	out := map[string]any{}
	switch what[0] {
	case "board":
		out["board"] = benchBoard(ctx, d)
	case "predict":
		figs, err := benchPredict(ctx, what[1:], d)
		if err != nil {
			return err
		}
		out["predict"] = figs
	case "all":
		out["board"] = benchBoard(ctx, d)
		figs, err := benchPredict(ctx, nil, d)
		if err != nil {
			return err
		}
		out["predict"] = figs
		pfigs, err := benchPlayout(ctx, d)
		if err != nil {
			return err
		}
		out["playout"] = pfigs
		tfigs, err := benchTerritory(ctx, d)
		if err != nil {
			return err
		}
		out["territory"] = tfigs
	case "territory":
		figs, err := benchTerritory(ctx, d)
		if err != nil {
			return err
		}
		out["territory"] = figs
	case "cfg":
		figs, err := benchCfg(ctx, d)
		if err != nil {
			return err
		}
		out["cfg"] = figs
	case "playout":
		figs, err := benchPlayout(ctx, d)
		if err != nil {
			return err
		}
		out["playout"] = figs
	case "search":
		if *playouts9 <= searchBaseline || *playouts19 <= searchBaseline {
			return fmt.Errorf("%w: bench search: --playouts9 and --playouts19 must exceed the %d-playout baseline", errUsage, searchBaseline)
		}
		threads, ok := ascendingInts(*threadList)
		if !ok || threads[len(threads)-1] > 1024 {
			return fmt.Errorf("%w: bench search: --threads %q: ascending thread counts from 1 to 1024", errUsage, *threadList)
		}
		figs, err := benchSearch(ctx, *playouts9, *playouts19, threads)
		if err != nil {
			return err
		}
		out["search"] = figs
	case "reading":
		figs, err := benchReading(ctx, *problems)
		if err != nil {
			return err
		}
		out["reading"] = figs
	default:
		return fmt.Errorf("%w: unknown benchmark %q (board, predict, playout, territory, cfg, reading, search, all)", errUsage, what[0])
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	machine := fmt.Sprintf("%s/%s, %d cores, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	out["machine"] = machine
	if *asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintln(stdout, "machine:", machine)
	if figs, ok := out["board"].([]boardFigure); ok {
		for _, f := range figs {
			fmt.Fprintf(stdout, "board %dx%d, %d thread(s): %.2fM moves/s, %.0f playouts/s (%.0f moves/playout)\n",
				f.Size, f.Size, f.Threads, f.MovesPerSecond/1e6, f.PlayoutsPerSecond, f.MovesPerPlayout)
		}
	}
	if figs, ok := out["playout"].([]playoutFigure); ok {
		printPlayoutFigures(stdout, figs)
	}
	if figs, ok := out["territory"].([]territoryFigure); ok {
		printTerritoryFigures(stdout, figs)
	}
	if figs, ok := out["cfg"].([]cfgFigure); ok {
		printCfgFigures(stdout, figs)
	}
	if figs, ok := out["reading"].([]readingFigure); ok {
		printReadingFigures(stdout, figs)
	}
	if figs, ok := out["search"].([]searchSpeedFigure); ok {
		for _, f := range figs {
			fmt.Fprintf(stdout, "search %dx%d, %d thread(s), empty board: %.0f playouts per CPU-second (%d playouts in %.2f s of CPU, less %d in %.2f s), %.0f per second",
				f.Size, f.Size, f.Threads, f.PlayoutsPerCPUSecond, f.Playouts, f.CPUSeconds, f.Baseline, f.BaselineCPUSeconds, f.PlayoutsPerSecond)
			if f.Scaling > 0 {
				fmt.Fprintf(stdout, " (%.2fx one thread's)", f.Scaling)
			}
			fmt.Fprintln(stdout)
		}
	}
	if figs, ok := out["predict"].([]predictFigure); ok {
		for _, f := range figs {
			fmt.Fprintf(stdout, "predict %s: %.0f distributions/s (%.1f µs each, %d positions)\n",
				f.Predictor, f.PredictionsPerSecond, f.MicrosPerPrediction, f.Positions)
		}
	}
	return nil
}

// benchBoard measures random playouts from the empty 9x9 and 19x19 boards on 1 thread and on all cores.
func benchBoard(ctx context.Context, d time.Duration) []boardFigure {
	var figs []boardFigure
	threadCounts := []int{1}
	if n := runtime.GOMAXPROCS(0); n > 1 {
		threadCounts = append(threadCounts, n)
	}
	for _, size := range []int{9, 19} {
		for _, threads := range threadCounts {
			var mu sync.Mutex
			moves, playouts := 0, 0
			start := time.Now()
			var wg sync.WaitGroup
			for t := range threads {
				wg.Go(func() {
					empty, _ := board.New(size)
					rng := rand.NewPCG(uint64(t), uint64(size))
					var b board.Board
					m, n := 0, 0
					for time.Since(start) < d && ctx.Err() == nil {
						for range 16 {
							b = *empty
							m += b.Playout(rng, board.Black, 3*size*size)
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
			figs = append(figs, boardFigure{size, threads, float64(moves) / s, float64(playouts) / s,
				float64(moves) / float64(max(playouts, 1))})
		}
	}
	return figs
}

// benchPredict times full distributions of each predictor (all registered ones when names is empty) on
// every position of the embedded sample games, on one thread.
func benchPredict(ctx context.Context, names []string, d time.Duration) ([]predictFigure, error) {
	all := len(names) == 0
	if all {
		names = predict.Names()
	}
	positions, err := samplePositions()
	if err != nil {
		return nil, err
	}
	var figs []predictFigure
	for _, name := range names {
		p, err := predict.New(name, predict.Options{})
		if err != nil && all {
			// A predictor with no trained model (cfg before `aji train cfg`) is left out of "all".
			fmt.Fprintf(os.Stderr, "bench: skipping %v\n", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		variants := []predict.Predictor{p}
		labels := []string{name}
		// The Monte Carlo owner feature (63 playouts) dominates the cost of the predictors that use it:
		// time them with and without it (without it the owner's weights drop out of every team).
		if o, ok := p.(predict.OwnerUser); ok && o.UsesOwner() {
			q, err := predict.New(name, predict.Options{NoOwner: true})
			if err != nil {
				return nil, err
			}
			variants = append(variants, q)
			labels = []string{name + " (with MC owner)", name + " (without MC owner)"}
		}
		for i, v := range variants {
			per := timePredictions(ctx, []predict.Predictor{v}, positions, 1, d)
			figs = append(figs, predictFigure{labels[i], len(positions), per, 1e6 / per})
		}
		// A predictor that predicts in batches (the cnn) is timed at batch 1 and 32, on one core and on
		// all of them (a predictor each).
		if _, ok := p.(predict.Batcher); ok {
			threads := runtime.GOMAXPROCS(0)
			preds := []predict.Predictor{p}
			for range threads - 1 {
				q, err := predict.New(name, predict.Options{})
				if err != nil {
					return nil, err
				}
				preds = append(preds, q)
			}
			for _, batch := range []int{32, 1} {
				for _, t := range []int{1, threads} {
					if batch == 1 && t == 1 {
						continue // the figure above
					}
					per := timePredictions(ctx, preds[:t], positions, batch, d)
					label := fmt.Sprintf("%s (batch %d, %d threads)", name, batch, t)
					figs = append(figs, predictFigure{label, len(positions), per, 1e6 / per})
				}
			}
		}
	}
	return figs, nil
}

// timePredictions runs each predictor on its own goroutine over the positions, batch positions per call
// (a predict.Batcher's PredictBatch when batch > 1), for about d, and returns the distributions per
// second of all of them together.
func timePredictions(ctx context.Context, preds []predict.Predictor, positions []game.Position, batch int, d time.Duration) float64 {
	var wg sync.WaitGroup
	counts := make([]int, len(preds))
	start := time.Now()
	for i, p := range preds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dists := make([]predict.Distribution, batch)
			ptrs := make([]*game.Position, batch)
			n := i * 7 // threads start at different positions
			// At least one round, so that a slow predictor under a short budget has a rate, not 1/0.
			for first := true; first || time.Since(start) < d && ctx.Err() == nil; first = false {
				if batch == 1 {
					p.Predict(&positions[n%len(positions)], &dists[0])
				} else {
					for j := range ptrs {
						ptrs[j] = &positions[(n+j)%len(positions)]
					}
					p.(predict.Batcher).PredictBatch(ptrs, dists)
				}
				n += batch
				counts[i] += batch
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	return float64(total) / time.Since(start).Seconds()
}

// samplePositions returns every position of the embedded 19x19 sample games.
func samplePositions() ([]game.Position, error) {
	games, err := sampleGames()
	if err != nil {
		return nil, err
	}
	var out []game.Position
	for _, g := range games {
		if g.Size() != 19 {
			continue
		}
		err := g.WalkMainLine(func(pos *game.Position, _ game.Move) error {
			out = append(out, *pos)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no 19x19 sample positions embedded")
	}
	return slices.Clip(out), nil
}

// sampleGames parses the games embedded in assets (they are known-good records; a failure is a build
// defect, reported rather than hidden).
func sampleGames() ([]*game.Game, error) {
	var out []*game.Game
	for _, name := range assets.Games() {
		data, err := assets.Game(name)
		if err != nil {
			return nil, err
		}
		gs, err := game.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("sample game %s: %w", name, err)
		}
		out = append(out, gs...)
	}
	return out, nil
}
