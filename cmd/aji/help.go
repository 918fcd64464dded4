package main

//go:generate go test -run TestReadmeReference -update .

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
)

// helpEntry is what a command's help shows besides its summary and flags. Entries are keyed by the
// name of the command's FlagSet ("replay", "train mm", "plot mixing"), so parseFlags finds the entry
// of whatever command it parses for; TestHelpCoversEveryCommand keeps the table complete.
type helpEntry struct {
	summary string // for kinds of train; a top-level command's summary is in commands, a plot's in plotKinds
	usage   string // the synopsis, after "aji "
	// examples are whole command lines on paths a user owns (game.sgf, ~/go-games/...), never the
	// project's own ../shared/data.
	examples []string
}

// collectionsPointer ends every error about a missing game collection: where a user gets one.
const collectionsPointer = "(see README: Game collections)"

var helpEntries = map[string]helpEntry{
	"replay": {usage: "replay FILE.sgf [--move N]", examples: []string{"aji replay game.sgf --move 50"}},
	"analyze": {usage: "analyze FILE.sgf [--move N] [--predictor NAME[,NAME...]] [--territory NAME] [--mcts-playouts N [--mcts-prior NAME]] [--json]",
		examples: []string{"aji analyze game.sgf --move 120 --predictor mm,cfg --territory boltzmann5+mc --mcts-playouts 2000 --json"}},
	"eval": {usage: "eval --predictor NAME[,NAME...] --games PATH [--model FILE] [--max-games N] [--json]",
		examples: []string{"aji eval --predictor mm,fbt --games ~/go-games/validation.tar.xz --max-games 200 --json"}},
	"bench": {usage: "bench board|predict [NAME...]|playout|territory|cfg|reading|search|all [--seconds S] [--problems FILE] [--playouts9 N] [--playouts19 N] [--threads N,...] [--json]",
		examples: []string{"aji bench predict mm fbt --seconds 5", "aji bench search --playouts9 10000 --playouts19 3000 --threads 1,2"}},
	"harvest": {usage: "harvest --games PATH --out FILE [--stern] [--threshold N] [--max-games N] [--filter-mb MB]",
		examples: []string{"aji harvest --games ~/go-games/train.tar.xz --threshold 40 --out ~/aji/patterns.ajim"}},
	"explain": {usage: "explain FILE.sgf [--predictor NAME] [--model FILE] [--move N] [--point Q16] [--why-not D4|top] [--json]",
		examples: []string{"aji explain game.sgf --predictor fbt --move 120 --point Q16", "aji explain game.sgf --move 120 --why-not top"}},
	"diff-models": {usage: "diff-models A B [--top N] [--by-v] [--json]   (A, B: model files or predictor names)",
		examples: []string{"aji diff-models mm ~/aji/mm.ajim --top 30", "aji diff-models ~/aji/fbt-1.ajim ~/aji/fbt-2.ajim --by-v --json"}},
	"label": {usage: `label --games PATH --out FILE.jsonl [--engine "gnugo --mode gtp"]`,
		examples: []string{"aji label --games ~/go-games/validation.tar.xz --out ~/aji/labels.jsonl"}},
	"gtp": {usage: "gtp [--predictor NAME] [--playouts N | --time S] [--threads N] [--selection uct|puct|rave|bayes] [--policy light|pattern|PREDICTOR] [--widening]",
		examples: []string{"aji gtp --playouts 10000"}},
	"match": {usage: `match --size N --komi K --games G --opponent "ENGINE COMMAND" [--playouts N | --time S] --out DIR [--json]`,
		examples: []string{`aji match --size 9 --komi 7 --games 10 --opponent "gnugo --mode gtp --level 10" --playouts 10000 --out ~/aji/match-9x9`}},
	"territory-eval": {usage: "territory-eval --model NAME --method exact|lbp|gibbs|sw|mc --labels FILE.jsonl --games PATH [--max-games N] [--json]",
		examples: []string{"aji territory-eval --model boltzmann5+mc --method sw --labels ~/aji/labels.jsonl --games ~/go-games/validation.tar.xz"}},
	"render": {usage: "render FILE.sgf [--move N] [--overlay NAME[,NAME]] --out FILE.png|FILE.svg [--size PX]",
		examples: []string{"aji render game.sgf --move 120 --overlay mm,territory --out board.png --size 800"}},
	"reading": {usage: "reading --problems FILE [--method pns|pp] [--max-nodes N] [--max-liberties L] [--ids 1,5,7] [--split train|test [--split-seed N]] [--prior FILE] [--details] [--json]",
		examples: []string{"aji reading --problems ~/aji/reading-problems.jsonl --method pp --details", "aji reading --problems ~/aji/reading-problems.jsonl --split test --json > pp-test.json"}},
	"find-pattern": {usage: `find-pattern --games PATH (--shape SIZE:KEY | --sgf FILE [--move N] --at POINT [--size S] | --feature "NAME") [--predictor NAME [--model FILE]] [--limit N]`,
		examples: []string{"aji find-pattern --games ~/go-games/validation.tar.xz --sgf game.sgf --move 120 --at Q16 --size 8 --limit 50",
			"aji find-pattern --games ~/go-games/ --shape 6:0000a3f5c2e9b71c --predictor mm > matches.jsonl",
			`aji find-pattern --games ~/go-games/validation.tar.xz --feature "atari: ladder atari"`}},
	"report": {usage: "report [--predictors A,B] --games PATH [--max-games N] --out DIR [--force]",
		examples: []string{"aji report --predictors mm,cfg,fbt,bayes,cnn --games ~/go-games/validation.tar.xz --max-games 200 --out ~/aji/report"}},
	"review": {usage: "review FILE.sgf [--predictors A,B] [--territory] [--json | --sgf OUT.sgf | --plot OUT.png]",
		examples: []string{"aji review game.sgf --predictors mm,fbt --territory --sgf game-reviewed.sgf"}},

	"train mm": {summary: "Coulom's generalized Bradley-Terry (Elo) pattern weights by minorization-maximization: the mm predictor",
		usage:    "train mm --games PATH (--patterns FILE | --owner-from MODEL) --out FILE [--validation PATH] [--max-games N] [--positions-per-game K] [--owner] [--resume]",
		examples: []string{"aji train mm --games ~/go-games/train.tar.xz --patterns ~/aji/patterns.ajim --positions-per-game 12 --out ~/aji/mm.ajim --validation ~/go-games/validation.tar.xz"}},
	"train playout": {summary: "the 3x3-pattern playout policy (Coulom 2007 §4.1), with the mm trainer",
		usage:    "train playout --games PATH --out FILE [--validation PATH] [--max-games N] [--positions-per-game K] [--iterations N]",
		examples: []string{"aji train playout --games ~/go-games/train.tar.xz --positions-per-game 8 --out ~/aji/playout.ajim"}},
	"train cfg": {summary: "Bradley-Terry on common-fate-graph path features: the cfg predictor (--small: cfg-small)",
		usage:    "train cfg --games PATH --out FILE [--small | --patterns FILE | --init-from MODEL [--fix-shapes] | --owner-from MODEL] [--validation PATH] [flags]",
		examples: []string{"aji train cfg --small --games ~/go-games/train.tar.xz --max-games 16000 --positions-per-game 6 --out ~/aji/cfg-small.ajim"}},
	"train fbt": {summary: "Xiao's Factorization Bradley-Terry by SGD: the fbt predictor (--small: fbt-small)",
		usage:    "train fbt --games PATH --validation PATH --out FILE [--small | --patterns FILE | --owner-from MODEL | --init-from MODEL] [--k K] [--samples M] [flags]",
		examples: []string{"aji train fbt --games ~/go-games/train.tar.xz --validation ~/go-games/validation.tar.xz --positions-per-game 16 --out ~/aji/fbt.ajim"}},
	"train cnn": {summary: "the convolutional policy network on 27 input planes: the cnn predictor",
		usage:    "train cnn --games PATH --validation PATH --out FILE [--resume] [--width W] [--layers L] [--optimizer momentum|adam] [--lr R] [--batch B] [--max-positions N | --max-time D]",
		examples: []string{"aji train cnn --games ~/go-games/train.tar.xz --validation ~/go-games/validation.tar.xz --out ~/aji/cnn.ajim --log ~/aji/cnn.log --max-time 2h"}},
	"train bayes": {summary: "Stern's Bayesian pattern ranking, full ranking by expectation propagation: the bayes predictor",
		usage:    "train bayes --games PATH --patterns DICT --out FILE [--beta B] [--max-games N] [--workers N] [--every N] | --games PATH --out FILE --resume",
		examples: []string{"aji train bayes --games ~/go-games/train.tar.xz --patterns ~/aji/patterns-stern.ajim --out ~/aji/bayes.ajim"}},
	"train bernoulli": {summary: "Stern's independent Bernoulli pattern model: the bernoulli predictor",
		usage:    "train bernoulli --games PATH --patterns DICT --out FILE [--max-games N] [--workers N] | --games PATH --out FILE --resume",
		examples: []string{"aji train bernoulli --games ~/go-games/train.tar.xz --patterns ~/aji/patterns-stern.ajim --out ~/aji/bernoulli.ajim"}},
	"train bayes-hier": {summary: "Stern's hierarchical Gaussian pattern model: the bayes-hier predictor",
		usage:    "train bayes-hier --games PATH --patterns DICT --out FILE [--beta B] [--betas B1,...,B13] [--max-games N] [--workers N] | --games PATH --out FILE --resume",
		examples: []string{"aji train bayes-hier --games ~/go-games/train.tar.xz --patterns ~/aji/patterns-stern.ajim --out ~/aji/bayes-hier.ajim"}},
	"train bayes-linear": {summary: "Stern's linear feature model: the bayes-linear predictor",
		usage:    "train bayes-linear --games PATH --patterns DICT --out FILE [--beta B] [--max-games N] [--workers N] | --games PATH --out FILE --resume",
		examples: []string{"aji train bayes-linear --games ~/go-games/train.tar.xz --patterns ~/aji/patterns-stern.ajim --out ~/aji/bayes-linear.ajim"}},
	"train boltzmann5": {summary: "Stern's Boltzmann territory model, 5 parameters per move (§5.4), on final-territory labels",
		usage:    "train boltzmann5 --games PATH --labels FILE.jsonl --out FILE [--method map|cd] [--inference sw|exact|lbp] [--moves 20,80,150] [--iterations N] [--validation PATH --validation-labels FILE]",
		examples: []string{"aji train boltzmann5 --games ~/go-games/train.tar.xz --labels ~/aji/labels-train.jsonl --out ~/aji/boltzmann5.ajim"}},
	"train boltzmann12": {summary: "the Boltzmann territory model with 12 parameters per move",
		usage:    "train boltzmann12 --games PATH --labels FILE.jsonl --out FILE [--init MODEL] [flags as boltzmann5]",
		examples: []string{"aji train boltzmann12 --games ~/go-games/train.tar.xz --labels ~/aji/labels-train.jsonl --init ~/aji/boltzmann5.ajim --out ~/aji/boltzmann12.ajim"}},
	"train boltzmann-lib": {summary: "the Boltzmann territory model with liberty features",
		usage:    "train boltzmann-lib --games PATH --labels FILE.jsonl --out FILE [--init MODEL] [flags as boltzmann5]",
		examples: []string{"aji train boltzmann-lib --games ~/go-games/train.tar.xz --labels ~/aji/labels-train.jsonl --init ~/aji/boltzmann12.ajim --out ~/aji/boltzmann-lib.ajim"}},
	"train reading": {summary: "Stern's surrogate priors for probability-propagation reading (Beta with back-off or hierarchical Gaussian), learned from search trees",
		usage: "train reading --problems FILE | --games PATH [--max-games N] [--every N] --out FILE [--model beta|hier] [--alpha0 A|size] [--learn proved|solved|all] [--pseudo V] [--passes N] [--split train|test [--split-seed N]] [--max-nodes N] [--max-liberties L]",
		examples: []string{"aji train reading --problems ~/aji/reading-problems.jsonl --split train --model hier --out ~/aji/reading-hier.ajim",
			"aji train reading --games ~/go-games/train.tar.xz --max-games 50 --model hier --out ~/aji/reading-hier-games.ajim"}},

	"plot bayes-betas": {usage: "plot bayes-betas --model FILE --games PATH --out FILE.png [--max-games N]",
		examples: []string{"aji plot bayes-betas --model ~/aji/bayes.ajim --games ~/go-games/train.tar.xz --max-games 500 --out betas.png"}},
	"plot bayes-patterns": {usage: "plot bayes-patterns --models FILE[,FILE] --games PATH --out FILE.png [--labels A,B] [--max-games N] [--bernoulli]",
		examples: []string{"aji plot bayes-patterns --models ~/aji/bayes.ajim --games ~/go-games/validation.tar.xz --out bayes.png"}},
	"plot cnn-curve": {usage: "plot cnn-curve --log FILE[,FILE...] --out FILE.png [--labels A,B]",
		examples: []string{"aji plot cnn-curve --log ~/aji/cnn.log --out cnn-curve.png"}},
	"plot fbt-time": {usage: "plot fbt-time --log FILE[,FILE...] --out FILE.png [--labels A,B]",
		examples: []string{"aji plot fbt-time --log ~/aji/fbt-k5.log,~/aji/fbt-k10.log --labels k5,k10 --out fbt-time.png"}},
	"plot mixing": {usage: "plot mixing --games PATH --game N --move N --out FILE.png [--model NAME] [--sweeps N] [--burnin N] [--json]",
		examples: []string{"aji plot mixing --games ~/go-games/validation.tar.xz --out mixing.png"}},
	"plot phase": {usage: "plot phase --eval FILE[,FILE...] --out FILE.png [--labels A,B]",
		examples: []string{"aji eval --predictor mm,fbt --games ~/go-games/validation.tar.xz --json > eval.json", "aji plot phase --eval eval.json --out phase.png"}},
	"plot planning": {usage: "plot planning --out FILE.png [--tree pgame|random[,...]] [--branching B[,...]] [--depth D[,...]] [--trees N] [--budgets 10,100,...] [--methods mc,uct,ab,counting,...] [--seed S] [--json]",
		examples: []string{"aji plot planning --tree random,pgame --branching 2 --depth 20 --trees 2000 --methods mc,uct,ab --out fig62.png",
			"aji plot planning --tree pgame --branching 7,2 --depth 7,20 --trees 1000 --methods mc,uct,counting,tree,dyntree --out fig66.png"}},
	"plot reading": {usage: "plot reading --results A.json,B.json --out FILE.png [--labels A,B]",
		examples: []string{"aji reading --problems ~/aji/reading-problems.jsonl --json > pns.json", "aji reading --problems ~/aji/reading-problems.jsonl --method pp --json > pp.json",
			"aji plot reading --results pns.json,pp.json --labels pns,pp --out reading.png"}},
	"plot rank-cdf": {usage: "plot rank-cdf --eval FILE[,FILE...] --out FILE.png [--labels A,B]",
		examples: []string{"aji eval --predictor mm,fbt --games ~/go-games/validation.tar.xz --json > eval.json", "aji plot rank-cdf --eval eval.json --out rank-cdf.png"}},
}

// trainKinds are the model kinds of `aji train KIND`, in the order runTrain's usage names them
// (TestHelpCoversEveryCommand checks the two lists agree).
var trainKinds = []string{"mm", "playout", "cfg", "fbt", "cnn", "bayes", "bernoulli", "bayes-hier", "bayes-linear", "boltzmann5", "boltzmann12", "boltzmann-lib", "reading"}

// kindGroups are the commands whose first argument picks a kind with flags of its own.
var kindGroups = map[string]func() []string{
	"train": func() []string { return trainKinds },
	"plot":  plotNames,
}

// kindExamples are the examples of `aji train --help` and `aji plot --help`.
var kindExamples = map[string][]string{
	"train": {"aji train mm --games ~/go-games/train.tar.xz --patterns ~/aji/patterns.ajim --out ~/aji/mm.ajim"},
	"plot":  {"aji plot rank-cdf --eval eval.json --out rank-cdf.png"},
}

// helpError is a request for the help of the command whose FlagSet is fs; it wraps flag.ErrHelp,
// so main prints it to stdout and exits 0. The text is made when asked for (Error, called through
// the error interface) rather than in parseFlags: the summaries come from the command table, whose
// run functions call parseFlags, and a direct reference would be an initialization cycle.
type helpError struct{ fs *flag.FlagSet }

func (e *helpError) Error() string { return commandHelp(e.fs) }
func (e *helpError) Unwrap() error { return flag.ErrHelp }

func isHelpArg(s string) bool { return s == "-h" || s == "-help" || s == "--help" || s == "help" }

// summaryOf is the one-line description of a command ("replay") or kind ("train mm", "plot phase").
func summaryOf(name string) string {
	if c, ok := commands[name]; ok {
		return c.summary
	}
	if e := helpEntries[name]; e.summary != "" {
		return e.summary
	}
	if k, ok := strings.CutPrefix(name, "plot "); ok {
		return plotKinds[k].summary
	}
	return ""
}

// commandHelp is the help of the command or kind whose FlagSet is fs: summary, usage, flags and
// examples.
func commandHelp(fs *flag.FlagSet) string {
	name := fs.Name()
	e := helpEntries[name]
	var sb strings.Builder
	fmt.Fprintf(&sb, "aji %s: %s\n\n", name, summaryOf(name))
	usage := e.usage
	if usage == "" {
		usage = name + " [flags]"
	}
	fmt.Fprintf(&sb, "usage: aji %s\n", usage)
	flags := flagLines(fs)
	if flags != "" {
		sb.WriteString("\nflags:\n")
		sb.WriteString(flags)
	}
	writeExamples(&sb, e.examples)
	return sb.String()
}

func writeExamples(sb *strings.Builder, examples []string) {
	if len(examples) == 0 {
		return
	}
	sb.WriteString("\nexample:\n")
	for _, x := range examples {
		fmt.Fprintf(sb, "  %s\n", x)
	}
}

// flagLines lists fs's flags the way users type them (--name VALUE), each with its description
// indented below it and its default where the description does not give one.
func flagLines(fs *flag.FlagSet) string {
	var sb strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		if strings.Contains(name, " ") {
			// A back-quoted phrase that is not a value name (`aji eval --json` output file(s)).
			name, usage = "FILE[,FILE...]", f.Usage
		}
		if name == "" {
			fmt.Fprintf(&sb, "  --%s\n", f.Name)
		} else {
			fmt.Fprintf(&sb, "  --%s %s\n", f.Name, name)
		}
		if !zeroDefault(f.DefValue) && !strings.Contains(usage, "default") {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(&sb, "        %s\n", usage)
	})
	return sb.String()
}

func zeroDefault(v string) bool {
	switch v {
	case "", "0", "false", "0s", "[]":
		return true
	}
	return false
}

// topUsage is `aji help`: every command with its summary.
func topUsage() string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var sb strings.Builder
	sb.WriteString("usage: aji COMMAND [arguments]\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(&sb, "  %-14s %s\n", n, commands[n].summary)
	}
	sb.WriteString("\nRun aji help COMMAND (or aji COMMAND --help) for a command's flags and an example.\n")
	sb.WriteString("Game collections (--games PATH): a folder of .sgf files, one .sgf file, or a .tar, .tar.gz\n")
	sb.WriteString("or .tar.xz archive of them; see README: Game collections.\n")
	writeExamples(&sb, []string{"aji replay game.sgf --move 50", "aji help eval"})
	return sb.String()
}

// kindsHelp is `aji train --help` and `aji plot --help`: the kinds, each with its summary.
func kindsHelp(group string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "aji %s: %s\n\n", group, commands[group].summary)
	fmt.Fprintf(&sb, "usage: aji %s KIND [flags]\n\nkinds:\n", group)
	for _, k := range kindGroups[group]() {
		fmt.Fprintf(&sb, "  %-15s %s\n", k, summaryOf(group+" "+k))
	}
	fmt.Fprintf(&sb, "\nRun aji help %s KIND (or aji %s KIND --help) for a kind's flags and an example.\n", group, group)
	writeExamples(&sb, kindExamples[group])
	return sb.String()
}

// help answers `aji help [COMMAND [KIND]]` and `aji COMMAND --help` for the commands with kinds.
func help(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, topUsage())
		return nil
	}
	if _, ok := commands[args[0]]; !ok {
		return fmt.Errorf("%w: unknown command %q (try aji help)", errUsage, args[0])
	}
	if len(args) == 1 {
		if _, ok := kindGroups[args[0]]; ok {
			fmt.Fprint(stdout, kindsHelp(args[0]))
			return nil
		}
	}
	text, err := helpText(ctx, args)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, text)
	return nil
}

// helpText runs the command named by args with --help and returns the help it gives: the text a
// user sees, taken from the command's own FlagSet so it never drifts from the code.
func helpText(ctx context.Context, args []string) (string, error) {
	if len(args) == 1 {
		if _, ok := kindGroups[args[0]]; ok {
			return kindsHelp(args[0]), nil
		}
	}
	cmd := commands[args[0]]
	err := cmd.run(ctx, append(slices.Clone(args[1:]), "--help"), io.Discard)
	var h *helpError
	if errors.As(err, &h) {
		return h.Error(), nil
	}
	if err == nil {
		err = errors.New("no help")
	}
	return "", fmt.Errorf("help %s: %w", strings.Join(args, " "), err)
}

// reference is the README's command reference: `aji help`, then the help of every command and of
// every kind of train and plot, as the commands print it.
func reference(ctx context.Context) (string, error) {
	var sb strings.Builder
	sb.WriteString("Generated from the code (`go generate ./cmd/aji`, or `go test ./cmd/aji -run TestReadmeReference -update`);\n")
	sb.WriteString("a test fails when it differs from what `aji help` prints.\n\n")
	block := func(heading, text string) {
		fmt.Fprintf(&sb, "%s\n\n```text\n%s```\n\n", heading, text)
	}
	block("### aji help", topUsage())
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		text, err := helpText(ctx, []string{n})
		if err != nil {
			return "", err
		}
		block("### aji "+n, text)
		if kinds, ok := kindGroups[n]; ok {
			for _, k := range kinds() {
				text, err := helpText(ctx, []string{n, k})
				if err != nil {
					return "", err
				}
				block("#### aji "+n+" "+k, text)
			}
		}
	}
	return strings.TrimRight(sb.String(), "\n") + "\n", nil
}

// collectionFlags are the flags that name a game collection.
var collectionFlags = []string{"games", "validation"}

// withCollectionPointer adds collectionsPointer to an error caused by a game collection that does
// not exist, so a user who has none yet learns where to get one.
func withCollectionPointer(err error, args []string) error {
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !slices.Contains(collectionFlags, name) {
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				continue
			}
			value = args[i+1]
		}
		if _, statErr := os.Stat(value); value != "" && errors.Is(statErr, os.ErrNotExist) && strings.Contains(err.Error(), value) {
			return fmt.Errorf("%w %s", err, collectionsPointer)
		}
	}
	return err
}
