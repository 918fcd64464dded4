// Command aji is Aji's headless command line: replay, analyze a position, evaluate, benchmark, harvest, train, label,
// evaluate territory, play matches and speak GTP. Every command exits non-zero with a one-line error on
// bad input; --json output is one JSON object.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"aji/analysis/dataset"
	"aji/internal/modelenv"

	_ "aji/analysis/predict/all" // registers every predictor by name
)

// command is one subcommand: it parses its own flags from args and writes its result to stdout.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout io.Writer) error
}

var commands = map[string]command{
	"replay":         {"print the position after move N of the main line", runReplay},
	"analyze":        {"one position: move probabilities, ownership, search candidates", runAnalyze},
	"eval":           {"measure move predictors on a game collection", runEval},
	"bench":          {"throughput figures (board, predict, playout, territory)", runBench},
	"harvest":        {"harvest shape patterns from a game collection", runHarvest},
	"explain":        {"why a predictor rates a move: its features, weights and interactions", runExplain},
	"diff-models":    {"the weights that changed most between two models of one kind", runDiffModels},
	"train":          {"train a model: a predictor's weights, the playout policy or a territory model (aji help train)", runTrain},
	"label":          {"final-territory labels of games with a counted result (GNU Go over GTP)", runLabel},
	"gtp":            {"a GTP engine on stdin/stdout (GoGui, Sabaki, matches)", runGTP},
	"match":          {"play games against a GTP engine (GNU Go), win rate with a 95% interval", runMatch},
	"territory-eval": {"territory estimators against final-territory labels (cross-entropy, sign agreement)", runTerritoryEval},
	"plot":           {"draw a figure of the papers as PNG (aji help plot lists them)", runPlot},
	"render":         {"the board after move N as PNG or SVG, with heat map, territory, legend and caption", runRender},
	"review":         {"every move of a game scored: predictors, territory swings; JSON, annotated SGF or a plot", runReview},
	"find-pattern":   {"where a shape or a feature fires in a game collection, and how often the record played it: JSON lines", runFindPattern},
	"report":         {"an HTML page of how predictors do on a collection: metrics, plots, worst-ranked positions", runReport},
	"reading":        {"solve capture problems headless (GNU Go's reading.tst format): pass rate, time and nodes per problem", runReading},
}

// errUsage marks errors whose message is the usage text itself.
var errUsage = errors.New("usage")

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	modelenv.Apply()
	if err := dispatch(ctx, os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// Asked for: the help goes to stdout, and the run succeeded.
			fmt.Fprint(os.Stdout, err.Error())
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "aji:", oneLine(err))
		os.Exit(exitCode(err))
	}
}

func dispatch(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, topUsage())
		return fmt.Errorf("%w: no command given", errUsage)
	}
	if isHelpArg(args[0]) {
		return help(ctx, args[1:], stdout)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown command %q (try aji help)", errUsage, args[0])
	}
	// `aji train --help`: the kinds, which train.go and plot.go do not list themselves.
	if _, ok := kindGroups[args[0]]; ok && len(args) == 2 && isHelpArg(args[1]) {
		return help(ctx, args[:1], stdout)
	}
	return withCollectionPointer(cmd.run(ctx, args[1:], stdout), args[1:])
}

// parseFlags parses flags that may stand before, between or after the positional arguments (as in
// `aji replay game.sgf --move 50`) and returns the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpError{fs}
			}
			return nil, fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// oneLine keeps an error to one line, as the command-line contract asks (help text excepted).
func oneLine(err error) string {
	if errors.Is(err, flag.ErrHelp) {
		return err.Error()
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}

func exitCode(err error) int {
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, context.Canceled):
		return 130
	case errors.Is(err, errUsage):
		return 2
	}
	return 1
}

// ascendingInts reads a comma-separated list of ascending whole numbers ≥ 1 (move numbers, budgets,
// thread counts); ok is false for anything else.
func ascendingInts(s string) (out []int, ok bool) {
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || (len(out) > 0 && n <= out[len(out)-1]) {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// gamesToRead returns how many games a run over the collection at path will read, for its progress
// meter: the number of .sgf files, capped by maxGames when it is set.
func gamesToRead(ctx context.Context, path string, maxGames int) (int, error) {
	total, err := dataset.Count(ctx, path)
	if err != nil {
		return 0, err
	}
	if maxGames > 0 {
		total = min(total, maxGames)
	}
	return total, nil
}
