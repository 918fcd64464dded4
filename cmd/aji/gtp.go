package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"aji/analysis/gtp"
	"aji/analysis/mcts"
	"aji/analysis/predict"
	"aji/analysis/territory"
)

// gtpInput is where `aji gtp` reads its commands (a variable for tests).
var gtpInput io.Reader = os.Stdin

// engineVersion is what `aji gtp` answers to version.
const engineVersion = "0.1"

// gtpFlags are the player settings shared by `aji gtp` and the Aji side of `aji match`.
type gtpFlags struct {
	predictor string
	playouts  int
	seconds   float64
	threads   int
	seed      uint64
	selection string
	policy    string
	widening  bool
	// bayesScale is Bayes's spread of its draws (0: the default).
	bayesScale float64
	expandAt   int     // visits before a leaf gets its children (0: the search's default)
	raveBias   float64 // RAVE's progressive-bias weight PB (0: the default)
	raveB      float64 // RAVE's B, whose 1/(4B²) is the visits at which β is a half (0: the default)
	raveC      float64 // RAVE's exploration constant C (0: the default)
	mercy      float64 // the playouts' mercy rule (0: the default, negative: none)
	resign     float64 // the win rate below which the search resigns (0: the default, negative: never)
}

func (f *gtpFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.predictor, "predictor", mcts.DefaultPriorName, "move predictor: the player itself with --playouts 0, else the search's prior")
	fs.IntVar(&f.playouts, "playouts", 0, "search playouts per move; 0 plays the predictor's top legal move")
	fs.Float64Var(&f.seconds, "time", 0, "search seconds per move (instead of --playouts)")
	fs.IntVar(&f.threads, "threads", 1, "search goroutines")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed")
	fs.StringVar(&f.selection, "selection", "rave", "search selection rule: uct, puct (the predictor as prior), rave or bayes (Thompson sampling, Stern §6.3.1)")
	fs.StringVar(&f.policy, "policy", "pattern", "playout policy: light, pattern, or a predictor's name (cfg-small: Graf's CFG playouts, about 18 times slower)")
	fs.Float64Var(&f.bayesScale, "bayes-scale", 0, "with --selection bayes: the spread of its draws as a multiple of the posterior's (default 0.1)")
	fs.IntVar(&f.expandAt, "expand-at", 0, "visits before a leaf of the search gets its children (default: max(2, points/40))")
	fs.Float64Var(&f.raveBias, "rave-bias", 0, "with --selection rave: the weight PB of the prior's progressive bias PB·π/(n+1) (default 50, Graf & Platzner's)")
	fs.Float64Var(&f.raveB, "rave-b", 0, "with --selection rave: Graf & Platzner's B; β, the AMAF value's share, falls to a half after 1/(4B²) visits (default 0.03: 280 visits; Graf & Platzner's 0.1: 25)")
	fs.Float64Var(&f.raveC, "rave-c", 0, "with --selection rave: the exploration constant C of its UCT term (default 0.6, Graf & Platzner's)")
	fs.Float64Var(&f.mercy, "mercy", 0, "the playouts' mercy rule: a lead in captured stones, as a fraction of the board's points, that ends a playout (default 0.25; negative: none)")
	fs.Float64Var(&f.resign, "resign", 0, "resign when the best move's win rate is below this after 200 visits (default 0.1; negative: never)")
	fs.BoolVar(&f.widening, "widening", false, "progressive widening in the predictor's order (off by default: it lost 15–5 to the same search without it at 10,000 playouts on 9x9)")
}

// check rejects contradictory settings.
func (f *gtpFlags) check() error {
	switch {
	case f.playouts < 0 || f.seconds < 0 || f.threads < 1:
		return fmt.Errorf("%w: --playouts, --time and --threads must not be negative (threads at least 1)", errUsage)
	case f.bayesScale < 0 || f.expandAt < 0 || f.raveBias < 0 || f.raveB < 0 || f.raveC < 0:
		return fmt.Errorf("%w: --bayes-scale, --expand-at and the --rave settings must not be negative", errUsage)
	case f.resign >= 1:
		return fmt.Errorf("%w: --resign is a win rate below 1 (negative: never resign)", errUsage)
	case f.playouts > 0 && f.seconds > 0:
		return fmt.Errorf("%w: give --playouts or --time, not both", errUsage)
	}
	return nil
}

// searching reports whether the player is the tree search rather than the bare predictor.
func (f *gtpFlags) searching() bool { return f.playouts > 0 || f.seconds > 0 }

// args writes the settings back as `aji gtp` flags.
func (f *gtpFlags) args() []string {
	a := []string{"--predictor", f.predictor, "--threads", fmt.Sprint(f.threads), "--seed", fmt.Sprint(f.seed),
		"--selection", f.selection, "--policy", f.policy, "--widening=" + fmt.Sprint(f.widening),
		"--bayes-scale", fmt.Sprint(f.bayesScale), "--expand-at", fmt.Sprint(f.expandAt), "--rave-bias", fmt.Sprint(f.raveBias),
		"--rave-b", fmt.Sprint(f.raveB), "--rave-c", fmt.Sprint(f.raveC), "--mercy", fmt.Sprint(f.mercy),
		"--resign", fmt.Sprint(f.resign)}
	if f.seconds > 0 {
		return append(a, "--time", fmt.Sprint(f.seconds))
	}
	return append(a, "--playouts", fmt.Sprint(f.playouts))
}

// newPlayer makes the player the flags ask for.
func (f *gtpFlags) newPlayer() (gtp.Player, error) {
	if f.searching() {
		p, err := newSearchPlayer(f)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	pr, err := predict.New(f.predictor, predict.Options{})
	if err != nil {
		return nil, fmt.Errorf("predictor %s: %w", f.predictor, err)
	}
	return &gtp.PredictorPlayer{Predictor: pr, Scorer: &gtp.Scorer{Seed: f.seed}, Seed: f.seed}, nil
}

// runGTP speaks GTP on stdin and stdout until quit or the end of the input.
func runGTP(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gtp", flag.ContinueOnError)
	var f gtpFlags
	f.register(fs)
	terrModel := fs.String("territory", territory.KindBoltzmann5.String(), "territory model drawn by aji-territory")
	terrMethod := fs.String("territory-method", territory.MethodSW.String(), "its inference method")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the session to this file (go tool pprof)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: gtp [--predictor NAME] [--playouts N | --time S] [--threads N] [--selection uct|puct|rave|bayes] [--policy light|pattern|PREDICTOR] [--widening]", errUsage)
	}
	if err := f.check(); err != nil {
		return err
	}
	if *cpuProfile != "" {
		out, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	player, err := f.newPlayer()
	if err != nil {
		return err
	}
	name := "Aji " + f.predictor
	if f.searching() {
		name += " + MCTS"
	}
	srv := gtp.NewServer(player, gtp.ServerOptions{
		Name:        name,
		Version:     engineVersion,
		Komi:        7.5,
		Predictors:  predict.Names(),
		Territory:   territoryEstimate(*terrModel, *terrMethod),
		Seed:        f.seed,
		AnalyzeTime: analyzeTime(&f),
	})
	return srv.Serve(ctx, gtpInput, stdout)
}

// analyzeTime bounds GoGui's search analysis: the move time when it is set, else a second.
func analyzeTime(f *gtpFlags) time.Duration {
	if f.seconds > 0 {
		return time.Duration(f.seconds * float64(time.Second))
	}
	return time.Second
}
