package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"aji/analysis/dataset"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/label"
	"aji/analysis/territory"
	"aji/internal/progress"
)

// territoryMoves are the moves before which positions are evaluated (Stern §5.5 and the GNU Go table of
// ../shared/data/README.md). "Before move N" is the position after N−1 moves, as game.WalkMainLine gives
// it with move N next; a game without move N has no such position.
var territoryMoves = []int{20, 80, 150}

// territoryStats is one row of the territory-eval report: eval.OwnerScore's figures.
type territoryStats struct {
	Move          int     `json:"move,omitempty"`
	Positions     int     `json:"positions"`
	Points        int     `json:"points"`
	CrossEntropy  float64 `json:"cross_entropy"`
	SignAgreement float64 `json:"sign_agreement"`

	score eval.OwnerScore
}

func (s *territoryStats) finish() {
	s.Positions, s.Points = s.score.Positions, s.score.Points
	s.CrossEntropy, s.SignAgreement = s.score.CrossEntropy(), s.score.Agreement()
}

// territoryReport is the JSON object of territory-eval.
type territoryReport struct {
	Model              string           `json:"model"`
	Method             string           `json:"method"`
	Games              int              `json:"games"`
	ByMove             []territoryStats `json:"by_move"`
	Overall            territoryStats   `json:"overall"`
	SecondsPerPosition float64          `json:"seconds_per_position"`
}

// territoryOptions are the settings of one evaluation.
type territoryOptions struct {
	Model, Method string
	ModelFile     string // trained Boltzmann model file instead of the embedded default
	Labels, Games string
	MaxGames      int
	Workers       int
	Sweeps        int     // gibbs and sw sweeps (0: the estimator's default)
	Playouts      int     // mc playouts (0: default)
	Policy        string  // playout policy of mc and boltzmann5+mc ("": default)
	MCWeight      float64 // β of boltzmann5+mc (0: default)
	ModelWeight   float64 // α of boltzmann5+mc (0: default)
	Progress      func(int)
}

// newTerritoryEstimator builds the estimator the options name.
func newTerritoryEstimator(o *territoryOptions) (*territory.Estimator, error) {
	kind, method, err := territory.ParseEstimator(o.Model, o.Method)
	if err != nil {
		return nil, err
	}
	var est *territory.Estimator
	if o.ModelFile != "" && kind != territory.KindMC {
		var t *territory.Trained
		if t, err = territory.LoadTrained(o.ModelFile, kind); err != nil {
			return nil, err
		}
		est, err = territory.NewTrainedEstimator(t, method)
	} else {
		est, err = territory.NewEstimator(kind, method)
	}
	if err != nil {
		return nil, err
	}
	if o.Sweeps > 0 {
		est.Sweeps = o.Sweeps
	}
	if o.Playouts > 0 {
		est.MC.Playouts = o.Playouts
	}
	if o.Policy != "" {
		if !slices.Contains(territory.Policies, o.Policy) {
			return nil, fmt.Errorf("unknown playout policy %q (%s)", o.Policy, strings.Join(territory.Policies, ", "))
		}
		est.MC.Policy = o.Policy
	}
	if o.MCWeight > 0 {
		est.MCWeight = o.MCWeight
	}
	if o.ModelWeight > 0 {
		est.ModelWeight = o.ModelWeight
	}
	return est, nil
}

// territoryEval evaluates an estimator on the consistent labelled games of a collection.
func territoryEval(ctx context.Context, o territoryOptions) (*territoryReport, error) {
	if mc := territory.KindMC.String(); o.Method == mc || o.Model == mc {
		o.Model, o.Method = mc, mc
	}
	if _, err := newTerritoryEstimator(&o); err != nil { // fail on a bad name before reading anything
		return nil, err
	}
	all, err := label.ReadFile(o.Labels)
	if err != nil {
		return nil, err
	}
	// The games to evaluate: the consistent ones, the first MaxGames of them in the labels file's order.
	want := map[string]*label.Label{}
	for i := range all {
		if l := &all[i]; l.Consistent && want[l.Game] == nil {
			if o.MaxGames > 0 && len(want) == o.MaxGames {
				break
			}
			want[l.Game] = l
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("%s: no consistent labels", o.Labels)
	}
	workers := max(1, o.Workers)
	ests := make([]*territory.Estimator, workers)
	per := make([][]territoryStats, workers) // per worker, per move
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		seen     = map[string]bool{}
	)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	_, walkErr := dataset.Games(runCtx, o.Games, dataset.Filter{}, 0, workers, func(w, _ int, name string, g *game.Game) {
		l := want[name]
		if l == nil {
			return
		}
		err := evalGame(runCtx, &ests[w], &per[w], &o, g, l)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && firstErr == nil && !errors.Is(err, context.Canceled) {
			firstErr = fmt.Errorf("%s: %w", name, err)
			cancel()
		}
		if seen[name] {
			return // a second game of that name in the collection: evaluated, but counted once
		}
		seen[name] = true
		done++
		if o.Progress != nil {
			o.Progress(1)
		}
		if done == len(want) {
			cancel() // every labelled game is done: stop reading the collection
		}
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if walkErr != nil && !errors.Is(walkErr, context.Canceled) {
		return nil, walkErr
	}
	if done == 0 {
		return nil, fmt.Errorf("none of the %d labelled games is in %s", len(want), o.Games)
	}
	rep := &territoryReport{Model: o.Model, Method: o.Method, Games: done}
	for k, mv := range territoryMoves {
		st := territoryStats{Move: mv}
		for w := range per {
			if len(per[w]) > k {
				st.score.Merge(per[w][k].score)
			}
		}
		st.finish()
		rep.Overall.score.Merge(st.score)
		rep.ByMove = append(rep.ByMove, st)
	}
	rep.Overall.finish()
	if rep.Overall.Positions > 0 {
		rep.SecondsPerPosition = time.Since(start).Seconds() / float64(rep.Overall.Positions)
	}
	return rep, nil
}

// evalGame scores the positions before territoryMoves of one game against its labels.
func evalGame(ctx context.Context, est **territory.Estimator, st *[]territoryStats, o *territoryOptions, g *game.Game, l *label.Label) error {
	if g.Size() != l.Size {
		return fmt.Errorf("board size %d, labels for %d", g.Size(), l.Size)
	}
	if *est == nil {
		e, err := newTerritoryEstimator(o)
		if err != nil {
			return err
		}
		*est = e
	}
	if len(*st) == 0 {
		*st = make([]territoryStats, len(territoryMoves))
	}
	mean := make([]float64, l.Size*l.Size)
	var m territory.Marginals
	err := g.WalkMainLine(func(pos *game.Position, _ game.Move) error {
		for k, mv := range territoryMoves {
			if pos.MoveNumber != mv-1 {
				continue
			}
			if err := (*est).Estimate(ctx, pos, &m); err != nil {
				return err
			}
			for _, p := range pos.Board.Points() {
				x, y := p.XY()
				mean[y*l.Size+x] = m.Mean[p]
			}
			(*st)[k].score.Add(mean, l.Labels)
		}
		if pos.MoveNumber >= territoryMoves[len(territoryMoves)-1] {
			return errStopWalk
		}
		return nil
	})
	if errors.Is(err, errStopWalk) {
		err = nil
	}
	return err
}

var errStopWalk = errors.New("stop")

func runTerritoryEval(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("territory-eval", flag.ContinueOnError)
	var o territoryOptions
	fs.StringVar(&o.Model, "model", "", "boltzmann5, boltzmann12, boltzmann-lib, mc or boltzmann5+mc")
	fs.StringVar(&o.Method, "method", "", "exact, lbp, gibbs, sw or mc")
	fs.StringVar(&o.ModelFile, "model-file", "", "trained model file (default: the embedded model)")
	fs.StringVar(&o.Labels, "labels", "", "final-territory labels (JSON lines)")
	fs.StringVar(&o.Games, "games", "", "game collection holding the labelled games")
	fs.IntVar(&o.MaxGames, "max-games", 0, "evaluate only the first N consistent labelled games (0: all)")
	fs.IntVar(&o.Workers, "workers", 0, "goroutines (0: all cores)")
	fs.IntVar(&o.Sweeps, "sweeps", 0, "gibbs and sw sweeps (0: default)")
	fs.IntVar(&o.Playouts, "playouts", 0, "mc playouts (0: default)")
	fs.StringVar(&o.Policy, "policy", "", "playout policy of mc and boltzmann5+mc: random, light or pattern (default: the estimator's)")
	fs.Float64Var(&o.MCWeight, "mc-weight", 0, "weight β of the rollout ownership in boltzmann5+mc (0: default)")
	fs.Float64Var(&o.ModelWeight, "model-weight", 0, "weight α of the Boltzmann model in boltzmann5+mc (0: default)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	mc := territory.KindMC.String()
	if len(rest) > 0 || o.Model == "" && o.Method != mc || o.Method == "" && o.Model != mc ||
		o.Labels == "" || o.Games == "" || o.MaxGames < 0 || o.Workers < 0 {
		return fmt.Errorf("%w: territory-eval --model NAME --method exact|lbp|gibbs|sw|mc --labels FILE.jsonl --games PATH [--json] [--max-games N]", errUsage)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if _, err := os.Stat(o.Games); err != nil {
		return fmt.Errorf("games: %w", err)
	}
	total := o.MaxGames
	if ls, err := label.ReadFile(o.Labels); err == nil {
		n := 0
		for _, l := range ls {
			if l.Consistent {
				n++
			}
		}
		if total == 0 || n < total {
			total = n
		}
	}
	meter := progress.New(os.Stderr, "territory-eval", "games", total)
	o.Progress = meter.Add
	rep, err := territoryEval(ctx, o)
	if err != nil {
		return err
	}
	meter.Done()
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "%s / %s on %d games (%.3f s a position)\n", rep.Model, rep.Method, rep.Games, rep.SecondsPerPosition)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "move\tpositions\tpoints\tcross-entropy\tsign agreement\t")
	for _, s := range append(rep.ByMove, rep.Overall) {
		mv := "all"
		if s.Move > 0 {
			mv = fmt.Sprint(s.Move)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t\n", mv, s.Positions, s.Points, s.CrossEntropy, s.SignAgreement)
	}
	return tw.Flush()
}
