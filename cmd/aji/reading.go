package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"aji/analysis/reading"
	"aji/analysis/reading/surrogate"
	"aji/internal/progress"
)

// readingFlags are the flags that configure the solver of `aji reading`: one line each here and
// in options.
type readingFlags struct {
	method       *string
	maxNodes     *int
	maxLiberties *int
}

func addReadingFlags(fs *flag.FlagSet) *readingFlags {
	return &readingFlags{
		method:       fs.String("method", "pns", "best-first search: pns (proof-number search) or pp (probability propagation)"),
		maxNodes:     fs.Int("max-nodes", reading.DefaultMaxNodes, "positions developed per problem before giving up"),
		maxLiberties: fs.Int("max-liberties", reading.DefaultMaxLiberties, "the largest liberty bound L: a string with more has escaped"),
	}
}

// options are the solver options the flags give.
func (f *readingFlags) options() (reading.Options, error) {
	m, err := reading.ParseMethod(*f.method)
	if err != nil {
		return reading.Options{}, fmt.Errorf("%w: reading: %v", errUsage, err)
	}
	if *f.maxNodes < 1 || *f.maxLiberties < 1 {
		return reading.Options{}, fmt.Errorf("%w: reading needs --max-nodes and --max-liberties ≥ 1", errUsage)
	}
	return reading.Options{Method: m, MaxNodes: *f.maxNodes, MaxLiberties: *f.maxLiberties}, nil
}

// runReading solves a file of capture problems headless (GNU Go's reading.tst format, as
// ../shared/data/reading-problems.jsonl) and reports the pass count, the cost per problem and, with
// --details, every problem's answer.
func runReading(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("reading", flag.ContinueOnError)
	file := fs.String("problems", "", "problem file, JSON lines (required)")
	solver := addReadingFlags(fs)
	ids := fs.String("ids", "", "solve only these problems, comma-separated: whole ids or their numbers after the colon")
	split := fs.String("split", "", "solve only the train or the test part (about 2/3 and 1/3, by a hash of each id)")
	seed := fs.Uint64("split-seed", 1, "seed of --split")
	prior := fs.String("prior", "", "a surrogate prior for --method pp from aji train reading (default the ignorant 0.5)")
	details := fs.Bool("details", false, "one line per problem")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *file == "" {
		return fmt.Errorf("%w: reading --problems FILE [--method pns|pp] [--max-nodes N] [--max-liberties L] [--ids 1,5,7] [--split train|test [--split-seed N]] [--prior FILE] [--details] [--json]", errUsage)
	}
	opt, err := solver.options()
	if err != nil {
		return err
	}
	if *prior != "" {
		if opt.Method != reading.PP {
			return fmt.Errorf("%w: reading: --prior is for --method pp", errUsage)
		}
		if opt.Prior, err = surrogate.Load(*prior); err != nil {
			return err
		}
	}
	problems, err := reading.LoadProblems(*file)
	if err != nil {
		return err
	}
	if *ids != "" {
		if problems, err = reading.SelectIDs(problems, strings.Split(*ids, ",")); err != nil {
			return fmt.Errorf("%w: reading: %v", errUsage, err)
		}
	}
	if problems, err = splitProblems(problems, *split, *seed); err != nil {
		return err
	}
	if len(problems) == 0 {
		return fmt.Errorf("reading: no problems selected in %s", *file)
	}
	meter := progress.New(os.Stderr, "reading", "problems", len(problems))
	rep, err := reading.Run(ctx, problems, opt, func(int) { meter.Add(1) })
	meter.Done()
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	if *details {
		for i := range rep.Problems {
			fmt.Fprintln(stdout, rep.Problems[i].Detail())
		}
	}
	fmt.Fprintln(stdout, rep.Summary())
	return nil
}
