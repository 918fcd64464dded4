package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/internal/atomicfile"
)

// DefaultReferee scores the games: a GNU Go of its own, under area rules like Aji's, so that neither
// player counts its own game.
const DefaultReferee = "gnugo --mode gtp --chinese-rules"

// Config is what a match is asked for.
type Config struct {
	Size        int
	Komi        float64
	Games       int
	Opponent    string
	Aji         string
	Referee     string // a GTP command, or "opponent" to use the opponent's own final_score
	Out         string
	MaxMoves    int
	Parallel    int
	MoveTimeout time.Duration
	Seed        uint64
}

// Outcome is one finished game.
type Outcome struct {
	Index    int
	AjiColor board.Color
	Result   string      // SGF RE: "B+3.5", "W+R", "B+F", "0"
	Winner   board.Color // Empty for a draw
	Moves    int
	Duration time.Duration
	File     string
	Note     string
}

// Summary is the JSON of `aji match` (DESIGN.md): games, wins, losses, win_rate, ci95_low, ci95_high,
// seconds_per_game, and a few more fields. A draw counts half a win in the rate.
type Summary struct {
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

// Summarize counts the outcomes from Aji's side.
func Summarize(cfg *Config, outcomes []Outcome, failed int) Summary {
	s := Summary{Games: len(outcomes), Failed: failed, Size: cfg.Size, Komi: cfg.Komi,
		Aji: cfg.Aji, Opponent: cfg.Opponent, Referee: cfg.Referee, Out: cfg.Out}
	var total time.Duration
	timed := 0
	for _, o := range outcomes {
		switch o.Winner {
		case o.AjiColor:
			s.Wins++
		case board.Empty:
			s.Draws++
		default:
			s.Losses++
		}
		if o.Duration > 0 {
			total += o.Duration
			timed++
		}
	}
	if s.Games > 0 {
		s.WinRate = (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
	}
	if timed > 0 {
		s.SecondsPerGame = total.Seconds() / float64(timed)
	}
	s.CI95Low, s.CI95High = eval.Wilson(s.WinRate, s.Games)
	return s
}

// CheckEngines finds the program of each engine of cfg, so that one that cannot start fails once, before
// the match, rather than in every game.
func CheckEngines(cfg *Config) error {
	for role, cmd := range map[string]string{"opponent": cfg.Opponent, "aji": cfg.Aji, "referee": cfg.Referee} {
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
	return nil
}

// matchWorker plays games one after another with its own engines, started on first use and restarted
// after a failure.
type matchWorker struct {
	cfg              *Config
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
		if w.aji, w.ajiName, err = start(w.cfg.Aji, "aji"); err != nil {
			return err
		}
	}
	if w.opp == nil {
		if w.opp, w.oppName, err = start(w.cfg.Opponent, "opponent"); err != nil {
			return err
		}
	}
	if w.ref == nil && !w.refIsOpp {
		if w.ref, w.refName, err = start(w.cfg.Referee, "referee"); err != nil {
			return err
		}
	}
	return nil
}

// Play plays the games not in saved (from LoadOutcomes) on cfg.Parallel workers, saves each as it ends
// and writes a line per game to log. It returns the finished games (saved ones included) in order, the
// number that failed, and ctx's error when it was interrupted.
func Play(ctx context.Context, cfg *Config, saved map[int]Outcome, log io.Writer) ([]Outcome, int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan struct {
		o   Outcome
		err error
	})
	var wg sync.WaitGroup
	for range min(cfg.Parallel, cfg.Games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &matchWorker{cfg: cfg, refIsOpp: cfg.Referee == "opponent"}
			defer w.close()
			for i := range jobs {
				o, err := w.play(ctx, i)
				if err != nil {
					// The engines may be out of step or dead: start afresh for the next game.
					w.close()
				}
				results <- struct {
					o   Outcome
					err error
				}{o, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range cfg.Games {
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
		byIndex = map[int]Outcome{}
	}
	failed, done, wins, losses := 0, 0, 0, 0
	for _, o := range saved {
		switch o.Winner {
		case o.AjiColor:
			wins++
		case board.Empty:
		default:
			losses++
		}
	}
	toPlay := cfg.Games - len(saved)
	gaveUp := false
	for r := range results {
		done++
		if r.err != nil {
			if ctx.Err() != nil {
				continue // interrupted: not a failure of the game
			}
			failed++
			fmt.Fprintf(log, "match: game %d/%d failed: %v\n", r.o.Index+1, cfg.Games, strings.Join(strings.Fields(r.err.Error()), " ")) // engines' errors may span lines
			if failed >= 3 && len(byIndex) == len(saved) && !gaveUp {
				gaveUp = true
				cancel() // nothing works: stop rather than fail every game
				fmt.Fprintln(log, "match: three games failed and none finished; stopping")
			}
			continue
		}
		o := r.o
		byIndex[o.Index] = o
		verdict := "a draw"
		switch o.Winner {
		case o.AjiColor:
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
			o.Index+1, cfg.Games, o.Result, o.AjiColor.Name(), verdict, o.Moves, o.Note, o.Duration.Seconds(),
			wins, losses, left.Round(time.Second))
	}
	outcomes := make([]Outcome, 0, len(byIndex))
	for i := range cfg.Games {
		if o, ok := byIndex[i]; ok {
			outcomes = append(outcomes, o)
		}
	}
	if err := ctx.Err(); err != nil && !gaveUp {
		return outcomes, failed, err
	}
	return outcomes, failed, nil
}

// play plays game i to its end, has it scored and saves it.
func (w *matchWorker) play(ctx context.Context, i int) (Outcome, error) {
	cfg := w.cfg
	o := Outcome{Index: i, AjiColor: board.Black}
	if i%2 == 1 {
		o.AjiColor = board.White
	}
	if err := w.engines(ctx); err != nil {
		return o, err
	}
	begin := time.Now()
	// Deterministic engines would replay the same few games: each game gets its own random seed, for
	// the engines that take one (GNU Go's set_random_seed, which Aji's server answers too).
	seed := cfg.Seed*1_000_003 + uint64(i)
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
	g, err := game.New(cfg.Size)
	if err != nil {
		return o, err
	}
	g.Info.Komi = cfg.Komi
	g.Info.Rules = "Chinese"
	g.Info.Date = time.Now().Format("2006-01-02")
	g.Info.Event = "aji match"
	g.Info.Black, g.Info.White = w.oppName, w.ajiName
	if o.AjiColor == board.Black {
		g.Info.Black, g.Info.White = w.ajiName, w.oppName
	}
	b, _ := board.New(cfg.Size)
	history := []uint64{b.Hash()}
	var moves []game.Move
	node := g.Root
	c := board.Black
	passes := 0
	for passes < 2 && len(moves) < cfg.MaxMoves {
		mover, other := w.opp, w.aji
		if c == o.AjiColor {
			mover, other = w.aji, w.opp
		}
		mctx, cancel := context.WithTimeout(ctx, cfg.MoveTimeout)
		p, err := mover.GenMove(mctx, c)
		cancel()
		if errors.Is(err, gtp.ErrResigned) {
			o.Winner = c.Opponent()
			o.Result = c.Opponent().String() + "+R"
			break
		}
		if err != nil {
			return o, fmt.Errorf("move %d: %w", len(moves)+1, err)
		}
		// The controller is the rules' keeper: an illegal move (superko included) loses the game.
		if p != board.Pass && (!b.Legal(p, c) || b.RepeatsPosition(p, c, history)) {
			o.Winner = c.Opponent()
			o.Result = c.Opponent().String() + "+F"
			o.Note = fmt.Sprintf(", illegal move %s", p.GTP(cfg.Size))
			break
		}
		if err := other.Play(ctx, c, p); err != nil {
			return o, fmt.Errorf("move %d (%s): %w", len(moves)+1, p.GTP(cfg.Size), err)
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
	o.Moves = len(moves)
	comment := matchHeader(cfg, o.AjiColor)
	if len(seeded) > 0 {
		comment += fmt.Sprintf(" Random seed %d for %s.", seed, strings.Join(seeded, " and "))
	}
	if o.Result == "" {
		if passes < 2 {
			o.Note = ", move cap"
			comment += fmt.Sprintf(" Stopped at the move cap (%d moves) and counted as it stands.", cfg.MaxMoves)
		}
		score, by, err := w.score(ctx, moves)
		if err != nil {
			return o, fmt.Errorf("scoring: %w", err)
		}
		margin, err := parseScore(score)
		if err != nil {
			return o, fmt.Errorf("scoring: %s: %w", by, err)
		}
		o.Result = gtp.FormatScore(margin)
		switch {
		case margin > 0:
			o.Winner = board.Black
		case margin < 0:
			o.Winner = board.White
		}
		comment += fmt.Sprintf(" Counted by %s: %s.", by, score)
		if own, err := w.aji.FinalScore(ctx); err == nil {
			comment += fmt.Sprintf(" Aji's own count: %s.", own)
		}
	}
	g.Info.Result = o.Result
	o.Duration = time.Since(begin)
	g.Root.Comment = comment + fmt.Sprintf(" Played in %.1f s.", o.Duration.Seconds())
	o.File = filepath.Join(cfg.Out, fmt.Sprintf("game-%04d.sgf", i+1))
	if err := atomicfile.Write(o.File, g.Save); err != nil {
		return o, fmt.Errorf("save %s: %w", o.File, err)
	}
	return o, nil
}

// SavedFiles returns the games a match saved in dir, in order.
func SavedFiles(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.sgf"))
	return files
}

// matchHeader opens the comment of each game's SGF: it names the engines, so that --resume can check
// that the saved games are of the same match.
func matchHeader(cfg *Config, ajiColor board.Color) string {
	return fmt.Sprintf("Aji (%s) plays %s against %s.", cfg.Aji, ajiColor.Name(), cfg.Opponent)
}

// LoadOutcomes reads the games of an interrupted match back from their SGF files (SavedFiles), refusing any that is not of this match: another board size, komi, engine or colour.
func LoadOutcomes(cfg *Config, files []string) (map[int]Outcome, error) {
	saved := map[int]Outcome{}
	for _, f := range files {
		var n int
		if _, err := fmt.Sscanf(filepath.Base(f), "game-%d.sgf", &n); err != nil || n < 1 {
			return nil, fmt.Errorf("match: --resume: %s is not a game of aji match", f)
		}
		if n > cfg.Games {
			return nil, fmt.Errorf("match: --resume: %s is beyond --games %d", f, cfg.Games)
		}
		gs, err := game.LoadFile(f)
		if err != nil {
			return nil, fmt.Errorf("match: --resume: %w", err)
		}
		g := gs[0]
		o := Outcome{Index: n - 1, AjiColor: board.Black, File: f, Result: g.Info.Result, Moves: g.NumMoves()}
		if o.Index%2 == 1 {
			o.AjiColor = board.White
		}
		if g.Info.Size != cfg.Size || g.Info.Komi != cfg.Komi || !strings.HasPrefix(g.Root.Comment, matchHeader(cfg, o.AjiColor)) {
			return nil, fmt.Errorf("match: --resume: %s is of another match (size %d, komi %g, %q)", f, g.Info.Size, g.Info.Komi, g.Root.Comment)
		}
		switch {
		case o.Result == "0":
			o.Winner = board.Empty
		case strings.HasPrefix(o.Result, "B+"):
			o.Winner = board.Black
		case strings.HasPrefix(o.Result, "W+"):
			o.Winner = board.White
		default:
			return nil, fmt.Errorf("match: --resume: %s has no result (RE %q)", f, o.Result)
		}
		// Games saved before the comment recorded their time count in the rate but not in the mean time.
		if i := strings.LastIndex(g.Root.Comment, " Played in "); i >= 0 {
			var sec float64
			if _, err := fmt.Sscanf(g.Root.Comment[i:], " Played in %g s.", &sec); err == nil {
				o.Duration = time.Duration(sec * float64(time.Second))
			}
		}
		saved[o.Index] = o
	}
	return saved, nil
}

// setup prepares an engine for a new game.
func (w *matchWorker) setup(ctx context.Context, e *gtp.Engine) error {
	if err := e.BoardSize(ctx, w.cfg.Size); err != nil {
		return err
	}
	if err := e.ClearBoard(ctx); err != nil {
		return err
	}
	return e.Komi(ctx, w.cfg.Komi)
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
	return s, w.refName + " (referee, " + w.cfg.Referee + ")", err
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
