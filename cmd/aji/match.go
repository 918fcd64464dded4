package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/internal/atomicfile"
)

// defaultReferee scores the games: a GNU Go of its own, under area rules like Aji's, so that neither
// player counts its own game.
const defaultReferee = "gnugo --mode gtp --chinese-rules"

// matchConfig is what `aji match` was asked for.
type matchConfig struct {
	size        int
	komi        float64
	games       int
	opponent    string
	aji         string
	referee     string // a GTP command, or "opponent" to use the opponent's own final_score
	out         string
	maxMoves    int
	parallel    int
	moveTimeout time.Duration
	seed        uint64
}

// gameOutcome is one finished game.
type gameOutcome struct {
	index    int
	ajiColor board.Color
	result   string      // SGF RE: "B+3.5", "W+R", "B+F", "0"
	winner   board.Color // Empty for a draw
	moves    int
	duration time.Duration
	file     string
	note     string
}

// matchSummary is the JSON of `aji match` (DESIGN.md): games, wins, losses, win_rate, ci95_low, ci95_high,
// seconds_per_game, and a few more fields. A draw counts half a win in the rate.
type matchSummary struct {
	Games          int     `json:"games"`
	Wins           int     `json:"wins"`
	Losses         int     `json:"losses"`
	Draws          int     `json:"draws"`
	WinRate        float64 `json:"win_rate"`
	CI95Low        float64 `json:"ci95_low"`
	CI95High       float64 `json:"ci95_high"`
	SecondsPerGame float64 `json:"seconds_per_game"`
	Failed         int     `json:"failed_games"`
	Size           int     `json:"size"`
	Komi           float64 `json:"komi"`
	Aji            string  `json:"aji"`
	Opponent       string  `json:"opponent"`
	Referee        string  `json:"referee"`
	Out            string  `json:"out"`
}

func runMatch(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var cfg matchConfig
	var pf gtpFlags
	pf.register(fs)
	fs.IntVar(&cfg.size, "size", 9, "board size")
	fs.Float64Var(&cfg.komi, "komi", 7, "komi")
	fs.IntVar(&cfg.games, "games", 0, "games to play; colours alternate, Aji black in the first")
	fs.StringVar(&cfg.opponent, "opponent", "", `opponent engine command, e.g. "gnugo --mode gtp --level 10"`)
	fs.StringVar(&cfg.aji, "aji", "", "Aji's engine command (default: this program's gtp with the player flags)")
	fs.StringVar(&cfg.referee, "referee", defaultReferee, `engine whose final_score counts each game, or "opponent"`)
	fs.StringVar(&cfg.out, "out", "", "folder for the games' SGF files")
	fs.IntVar(&cfg.maxMoves, "max-moves", 0, "moves after which a game is counted as it stands (default 3·size²)")
	fs.IntVar(&cfg.parallel, "parallel", 1, "games played at once (each with its own engines)")
	moveTimeout := fs.Float64("move-timeout", 300, "seconds an engine may take for one move before the game is abandoned")
	resume := fs.Bool("resume", false, "continue the match saved in --out: its games count, and only the missing ones are played")
	asJSON := fs.Bool("json", false, "print one JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || cfg.games < 1 || cfg.opponent == "" || cfg.out == "" || cfg.size < 2 || cfg.size > board.MaxSize ||
		cfg.parallel < 1 || cfg.maxMoves < 0 || *moveTimeout <= 0 || cfg.referee == "" {
		return fmt.Errorf(`%w: match --size N --komi K --games G --opponent "ENGINE COMMAND" [--playouts N | --time S] --out DIR [--json] [--aji "COMMAND"] [--referee "COMMAND"|opponent] [--parallel N]`, errUsage)
	}
	if err := pf.check(); err != nil {
		return err
	}
	cfg.moveTimeout = time.Duration(*moveTimeout * float64(time.Second))
	cfg.seed = pf.seed
	if cfg.maxMoves == 0 {
		cfg.maxMoves = 3 * cfg.size * cfg.size
	}
	if cfg.aji == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("match: find this program for Aji's engine: %w", err)
		}
		words := append([]string{exe, "gtp"}, pf.args()...)
		for i, w := range words {
			words[i] = strconv.Quote(w)
		}
		cfg.aji = strings.Join(words, " ")
	}
	// Engines that cannot start fail here, once, rather than in every game.
	for role, cmd := range map[string]string{"opponent": cfg.opponent, "aji": cfg.aji, "referee": cfg.referee} {
		if role == "referee" && cmd == "opponent" {
			continue
		}
		words, err := gtp.SplitCommand(cmd)
		if err == nil && len(words) == 0 {
			err = errors.New("empty command")
		}
		if err == nil {
			_, err = gtp.LookPath(words[0])
		}
		if err != nil {
			hint := ""
			if role == "referee" {
				hint = ` (install gnugo, or count with --referee opponent)`
			}
			return fmt.Errorf("match: %s engine %q: %w%s", role, cmd, err, hint)
		}
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	old, _ := filepath.Glob(filepath.Join(cfg.out, "game-*.sgf"))
	if len(old) > 0 && !*resume {
		return fmt.Errorf("match: %s already holds the games of an earlier match (%s); choose a new --out, or continue it with --resume", cfg.out, filepath.Base(old[0]))
	}
	saved, err := loadOutcomes(&cfg, old)
	if err != nil {
		return err
	}
	if len(saved) > 0 {
		fmt.Fprintf(os.Stderr, "match: resuming with %d of %d games already played\n", len(saved), cfg.games)
	}

	start := time.Now()
	outcomes, failed, runErr := playMatch(ctx, &cfg, saved, os.Stderr)
	sum := summarize(&cfg, outcomes, failed)
	if *asJSON {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "Aji %d-%d", sum.Wins, sum.Losses)
		if sum.Draws > 0 {
			fmt.Fprintf(stdout, "-%d", sum.Draws)
		}
		fmt.Fprintf(stdout, " in %d games on %dx%d, komi %g: win rate %.1f%% (95%% CI %.1f%%–%.1f%%), %.1f s per game, %v in all; SGF in %s\n",
			sum.Games, cfg.size, cfg.size, cfg.komi, 100*sum.WinRate, 100*sum.CI95Low, 100*sum.CI95High,
			sum.SecondsPerGame, time.Since(start).Round(time.Second), cfg.out)
	}
	if runErr != nil {
		return fmt.Errorf("match stopped after %d games (kept in %s): %w", len(outcomes), cfg.out, runErr)
	}
	if failed > 0 && len(outcomes) == 0 {
		return fmt.Errorf("match: all %d games failed (see the messages above)", failed)
	}
	return nil
}

// summarize counts the outcomes from Aji's side.
func summarize(cfg *matchConfig, outcomes []gameOutcome, failed int) matchSummary {
	s := matchSummary{Games: len(outcomes), Failed: failed, Size: cfg.size, Komi: cfg.komi,
		Aji: cfg.aji, Opponent: cfg.opponent, Referee: cfg.referee, Out: cfg.out}
	var total time.Duration
	timed := 0
	for _, o := range outcomes {
		switch o.winner {
		case o.ajiColor:
			s.Wins++
		case board.Empty:
			s.Draws++
		default:
			s.Losses++
		}
		if o.duration > 0 {
			total += o.duration
			timed++
		}
	}
	if s.Games > 0 {
		s.WinRate = (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
	}
	if timed > 0 {
		s.SecondsPerGame = total.Seconds() / float64(timed)
	}
	s.CI95Low, s.CI95High = wilson(s.WinRate, s.Games)
	return s
}

// wilson is the Wilson score interval at 95% for a proportion p observed in n trials (Wilson 1927),
// which unlike the normal approximation stays inside [0, 1] and is sound for small n and p near 0 or 1.
func wilson(p float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	nf := float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// matchWorker plays games one after another with its own engines, started on first use and restarted
// after a failure.
type matchWorker struct {
	cfg              *matchConfig
	aji, opp, ref    *gtp.Engine
	ajiName, oppName string
	refIsOpp         bool
	refName          string
}

func (w *matchWorker) close() {
	for _, e := range []*gtp.Engine{w.aji, w.opp, w.ref} {
		if e != nil {
			e.Close()
		}
	}
	w.aji, w.opp, w.ref = nil, nil, nil
}

// engines starts whatever engine is missing.
func (w *matchWorker) engines(ctx context.Context) error {
	start := func(cmd, role string) (*gtp.Engine, string, error) {
		sctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		e, err := gtp.Start(sctx, cmd)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", role, err)
		}
		name, _ := e.Name(sctx)
		if v, err := e.Version(sctx); err == nil && v != "" {
			name += " " + v
		}
		return e, strings.TrimSpace(name), nil
	}
	var err error
	if w.aji == nil {
		if w.aji, w.ajiName, err = start(w.cfg.aji, "aji"); err != nil {
			return err
		}
	}
	if w.opp == nil {
		if w.opp, w.oppName, err = start(w.cfg.opponent, "opponent"); err != nil {
			return err
		}
	}
	if w.ref == nil && !w.refIsOpp {
		if w.ref, w.refName, err = start(w.cfg.referee, "referee"); err != nil {
			return err
		}
	}
	return nil
}

// playMatch plays the games not in saved on cfg.parallel workers and saves each as it ends. It returns
// the finished games (saved ones included) in order, the number that failed, and ctx's error when it was
// interrupted.
func playMatch(ctx context.Context, cfg *matchConfig, saved map[int]gameOutcome, log io.Writer) ([]gameOutcome, int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan struct {
		o   gameOutcome
		err error
	})
	var wg sync.WaitGroup
	for range min(cfg.parallel, cfg.games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &matchWorker{cfg: cfg, refIsOpp: cfg.referee == "opponent"}
			defer w.close()
			for i := range jobs {
				o, err := w.play(ctx, i)
				if err != nil {
					// The engines may be out of step or dead: start afresh for the next game.
					w.close()
				}
				results <- struct {
					o   gameOutcome
					err error
				}{o, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range cfg.games {
			if _, ok := saved[i]; ok {
				continue
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	start := time.Now()
	byIndex := maps.Clone(saved)
	if byIndex == nil {
		byIndex = map[int]gameOutcome{}
	}
	failed, done, wins, losses := 0, 0, 0, 0
	for _, o := range saved {
		switch o.winner {
		case o.ajiColor:
			wins++
		case board.Empty:
		default:
			losses++
		}
	}
	toPlay := cfg.games - len(saved)
	gaveUp := false
	for r := range results {
		done++
		if r.err != nil {
			if ctx.Err() != nil {
				continue // interrupted: not a failure of the game
			}
			failed++
			fmt.Fprintf(log, "match: game %d/%d failed: %v\n", r.o.index+1, cfg.games, oneLine(r.err))
			if failed >= 3 && len(byIndex) == len(saved) && !gaveUp {
				gaveUp = true
				cancel() // nothing works: stop rather than fail every game
				fmt.Fprintln(log, "match: three games failed and none finished; stopping")
			}
			continue
		}
		o := r.o
		byIndex[o.index] = o
		verdict := "a draw"
		switch o.winner {
		case o.ajiColor:
			wins++
			verdict = "Aji wins"
		case board.Empty:
		default:
			losses++
			verdict = "Aji loses"
		}
		elapsed := time.Since(start)
		left := time.Duration(float64(elapsed) / float64(done) * float64(toPlay-done))
		fmt.Fprintf(log, "match: game %d/%d %s (Aji %s, %s, %d moves%s, %.1f s); Aji %d-%d; ETA %v\n",
			o.index+1, cfg.games, o.result, colorName(o.ajiColor), verdict, o.moves, o.note, o.duration.Seconds(),
			wins, losses, left.Round(time.Second))
	}
	outcomes := make([]gameOutcome, 0, len(byIndex))
	for i := range cfg.games {
		if o, ok := byIndex[i]; ok {
			outcomes = append(outcomes, o)
		}
	}
	if err := ctx.Err(); err != nil && !gaveUp {
		return outcomes, failed, err
	}
	return outcomes, failed, nil
}

func colorName(c board.Color) string {
	if c == board.Black {
		return "black"
	}
	return "white"
}

// play plays game i to its end, has it scored and saves it.
func (w *matchWorker) play(ctx context.Context, i int) (gameOutcome, error) {
	cfg := w.cfg
	o := gameOutcome{index: i, ajiColor: board.Black}
	if i%2 == 1 {
		o.ajiColor = board.White
	}
	if err := w.engines(ctx); err != nil {
		return o, err
	}
	begin := time.Now()
	// Deterministic engines would replay the same few games: each game gets its own random seed, for
	// the engines that take one (GNU Go's set_random_seed, which Aji's server answers too).
	seed := cfg.seed*1_000_003 + uint64(i)
	seeded := []string{}
	for _, e := range []*gtp.Engine{w.aji, w.opp} {
		if err := w.setup(ctx, e); err != nil {
			return o, err
		}
		if known, err := e.Send(ctx, "known_command set_random_seed"); err == nil && known == "true" {
			if _, err := e.Send(ctx, fmt.Sprintf("set_random_seed %d", seed)); err != nil {
				return o, err
			}
			seeded = append(seeded, map[*gtp.Engine]string{w.aji: "Aji", w.opp: "the opponent"}[e])
		}
	}
	g, err := game.New(cfg.size)
	if err != nil {
		return o, err
	}
	g.Info.Komi = cfg.komi
	g.Info.Rules = "Chinese"
	g.Info.Date = time.Now().Format("2006-01-02")
	g.Info.Event = "aji match"
	g.Info.Black, g.Info.White = w.oppName, w.ajiName
	if o.ajiColor == board.Black {
		g.Info.Black, g.Info.White = w.ajiName, w.oppName
	}
	b, _ := board.New(cfg.size)
	history := []uint64{b.Hash()}
	var moves []game.Move
	node := g.Root
	c := board.Black
	passes := 0
	for passes < 2 && len(moves) < cfg.maxMoves {
		mover, other := w.opp, w.aji
		if c == o.ajiColor {
			mover, other = w.aji, w.opp
		}
		mctx, cancel := context.WithTimeout(ctx, cfg.moveTimeout)
		p, err := mover.GenMove(mctx, c)
		cancel()
		if errors.Is(err, gtp.ErrResigned) {
			o.winner = c.Opponent()
			o.result = colorLetter(c.Opponent()) + "+R"
			break
		}
		if err != nil {
			return o, fmt.Errorf("move %d: %w", len(moves)+1, err)
		}
		// The controller is the rules' keeper: an illegal move (superko included) loses the game.
		if p != board.Pass && (!b.Legal(p, c) || b.RepeatsPosition(p, c, history)) {
			o.winner = c.Opponent()
			o.result = colorLetter(c.Opponent()) + "+F"
			o.note = fmt.Sprintf(", illegal move %s", p.GTP(cfg.size))
			break
		}
		if err := other.Play(ctx, c, p); err != nil {
			return o, fmt.Errorf("move %d (%s): %w", len(moves)+1, p.GTP(cfg.size), err)
		}
		if p == board.Pass {
			passes++
		} else {
			passes = 0
			b.PlayLegal(p, c)
		}
		history = append(history, b.Hash())
		moves = append(moves, game.Move{Color: c, Point: p})
		node = node.AddChild(&game.Node{Move: &game.Move{Color: c, Point: p}})
		c = c.Opponent()
	}
	o.moves = len(moves)
	comment := matchHeader(cfg, o.ajiColor)
	if len(seeded) > 0 {
		comment += fmt.Sprintf(" Random seed %d for %s.", seed, strings.Join(seeded, " and "))
	}
	if o.result == "" {
		if passes < 2 {
			o.note = ", move cap"
			comment += fmt.Sprintf(" Stopped at the move cap (%d moves) and counted as it stands.", cfg.maxMoves)
		}
		score, by, err := w.score(ctx, moves)
		if err != nil {
			return o, fmt.Errorf("scoring: %w", err)
		}
		margin, err := parseScore(score)
		if err != nil {
			return o, fmt.Errorf("scoring: %s: %w", by, err)
		}
		o.result = gtp.FormatScore(margin)
		switch {
		case margin > 0:
			o.winner = board.Black
		case margin < 0:
			o.winner = board.White
		}
		comment += fmt.Sprintf(" Counted by %s: %s.", by, score)
		if own, err := w.aji.FinalScore(ctx); err == nil {
			comment += fmt.Sprintf(" Aji's own count: %s.", own)
		}
	}
	g.Info.Result = o.result
	o.duration = time.Since(begin)
	g.Root.Comment = comment + fmt.Sprintf(" Played in %.1f s.", o.duration.Seconds())
	o.file = filepath.Join(cfg.out, fmt.Sprintf("game-%04d.sgf", i+1))
	if err := atomicfile.Write(o.file, g.Save); err != nil {
		return o, fmt.Errorf("save %s: %w", o.file, err)
	}
	return o, nil
}

// matchHeader opens the comment of each game's SGF: it names the engines, so that --resume can check
// that the saved games are of the same match.
func matchHeader(cfg *matchConfig, ajiColor board.Color) string {
	return fmt.Sprintf("Aji (%s) plays %s against %s.", cfg.aji, colorName(ajiColor), cfg.opponent)
}

// loadOutcomes reads the games of an interrupted match back from their SGF files (game-NNNN.sgf, from
// playMatch), refusing any that is not of this match: another board size, komi, engine or colour.
func loadOutcomes(cfg *matchConfig, files []string) (map[int]gameOutcome, error) {
	saved := map[int]gameOutcome{}
	for _, f := range files {
		var n int
		if _, err := fmt.Sscanf(filepath.Base(f), "game-%d.sgf", &n); err != nil || n < 1 {
			return nil, fmt.Errorf("match: --resume: %s is not a game of aji match", f)
		}
		if n > cfg.games {
			return nil, fmt.Errorf("match: --resume: %s is beyond --games %d", f, cfg.games)
		}
		gs, err := game.LoadFile(f)
		if err != nil {
			return nil, fmt.Errorf("match: --resume: %w", err)
		}
		g := gs[0]
		o := gameOutcome{index: n - 1, ajiColor: board.Black, file: f, result: g.Info.Result, moves: g.NumMoves()}
		if o.index%2 == 1 {
			o.ajiColor = board.White
		}
		if g.Info.Size != cfg.size || g.Info.Komi != cfg.komi || !strings.HasPrefix(g.Root.Comment, matchHeader(cfg, o.ajiColor)) {
			return nil, fmt.Errorf("match: --resume: %s is of another match (size %d, komi %g, %q)", f, g.Info.Size, g.Info.Komi, g.Root.Comment)
		}
		switch {
		case o.result == "0":
			o.winner = board.Empty
		case strings.HasPrefix(o.result, "B+"):
			o.winner = board.Black
		case strings.HasPrefix(o.result, "W+"):
			o.winner = board.White
		default:
			return nil, fmt.Errorf("match: --resume: %s has no result (RE %q)", f, o.result)
		}
		// Games saved before the comment recorded their time count in the rate but not in the mean time.
		if i := strings.LastIndex(g.Root.Comment, " Played in "); i >= 0 {
			var sec float64
			if _, err := fmt.Sscanf(g.Root.Comment[i:], " Played in %g s.", &sec); err == nil {
				o.duration = time.Duration(sec * float64(time.Second))
			}
		}
		saved[o.index] = o
	}
	return saved, nil
}

// setup prepares an engine for a new game.
func (w *matchWorker) setup(ctx context.Context, e *gtp.Engine) error {
	if err := e.BoardSize(ctx, w.cfg.size); err != nil {
		return err
	}
	if err := e.ClearBoard(ctx); err != nil {
		return err
	}
	return e.Komi(ctx, w.cfg.komi)
}

// score asks the referee for the result of the game: a fresh board with the moves replayed, then
// final_score. With --referee opponent the opponent, which has the game on its board, counts it.
func (w *matchWorker) score(ctx context.Context, moves []game.Move) (score, by string, err error) {
	if w.refIsOpp {
		s, err := w.opp.FinalScore(ctx)
		return s, w.oppName + " (the opponent)", err
	}
	if err := w.setup(ctx, w.ref); err != nil {
		return "", "", err
	}
	for _, m := range moves {
		if err := w.ref.Play(ctx, m.Color, m.Point); err != nil {
			return "", "", err
		}
	}
	s, err := w.ref.FinalScore(ctx)
	return s, w.refName + " (referee, " + w.cfg.referee + ")", err
}

func colorLetter(c board.Color) string {
	if c == board.Black {
		return "B"
	}
	return "W"
}

// parseScore reads a final_score answer ("B+3.5", "W+12.0", "0") as Black's margin.
func parseScore(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "0" || strings.EqualFold(s, "draw") || strings.EqualFold(s, "jigo") {
		return 0, nil
	}
	if len(s) < 3 || s[1] != '+' || (s[0] != 'B' && s[0] != 'W' && s[0] != 'b' && s[0] != 'w') {
		return 0, fmt.Errorf("cannot read score %q", s)
	}
	v, err := strconv.ParseFloat(s[2:], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("cannot read score %q", s)
	}
	if s[0] == 'W' || s[0] == 'w' {
		v = -v
	}
	return v, nil
}
