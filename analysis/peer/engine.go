package peer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// ErrDown is wrapped by the errors of an engine that crashed, hung or answered garbage: it stays
// down, with the reason in Err, until Restart.
var ErrDown = errors.New("peer: engine is down")

// startTimeout bounds starting an engine when the caller's context has no earlier deadline.
const startTimeout = 30 * time.Second

// Engine is an external GTP engine consulted about positions: a child process started on first use,
// whose board is set to each position asked about. Its methods may be called from any goroutine;
// one runs at a time, and one waiting for its turn gives up when its context ends.
//
// A context that ends while the engine is thinking kills it, since GTP cannot abort a command:
// when it was cancelled the engine is started again silently on next use; when its deadline
// passed the engine is taken to hang and stays down until Restart.
type Engine struct {
	Command string // the command line, e.g. "gnugo --mode gtp"

	turn chan struct{} // holds a token while a method runs

	mu       sync.Mutex // guards what follows, for State
	eng      *gtp.Engine
	down     error // why the engine is down; nil when running or not yet started
	name     string
	loaded   []string // the commands that set the engine's board, as sent
	analyze  []AnalyzeCommand
	streams  []StreamKind
	analyzed bool // analyze and streams are read from the engine's list_commands
}

// New returns an engine for command; nothing is started yet.
func New(command string) *Engine {
	return &Engine{Command: command, turn: make(chan struct{}, 1)}
}

// State is what the user is told about an engine.
type State struct {
	Running bool
	Name    string // the engine's name and version, once started
	Err     error  // why it is down, nil when it is not
}

// State returns the engine's state now, without waiting for a command in flight.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return State{Running: e.eng != nil, Name: e.name, Err: e.down}
}

// acquire waits for the engine's turn or for ctx.
func (e *Engine) acquire(ctx context.Context) error {
	select {
	case e.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *Engine) release() { <-e.turn }

// running returns the engine, starting it when it is not running and not down.
func (e *Engine) running(ctx context.Context) (*gtp.Engine, error) {
	e.mu.Lock()
	eng, down := e.eng, e.down
	e.mu.Unlock()
	if down != nil {
		return nil, fmt.Errorf("%w: %w", ErrDown, down)
	}
	if eng != nil {
		return eng, nil
	}
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	eng, err := gtp.Start(sctx, e.Command)
	if err != nil {
		if ctx.Err() == nil {
			e.setDown(err)
		}
		return nil, err
	}
	name, _ := eng.Name(sctx)
	if v, err := eng.Version(sctx); err == nil && v != "" {
		name += " " + v
	}
	e.mu.Lock()
	e.eng, e.name, e.loaded = eng, strings.TrimSpace(name), nil
	e.mu.Unlock()
	return eng, nil
}

func (e *Engine) setDown(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.down = err
}

// send sends one command. A failure that is not the engine's "? message" answer ends the
// process: after a cancelled ctx the engine is simply stopped, else it is down.
func (e *Engine) send(ctx context.Context, eng *gtp.Engine, cmd string) (string, error) {
	text, err := eng.Send(ctx, cmd)
	if err == nil {
		return text, nil
	}
	return "", e.fail(ctx, eng, cmd, err)
}

// fail follows the failure err of command cmd (send's, or a stream's): an engine's "? message" answer
// or a command refused before sending leaves the engine up; anything else ends the process, and
// after a cancelled ctx the engine is simply stopped, else it is down.
func (e *Engine) fail(ctx context.Context, eng *gtp.Engine, cmd string, err error) error {
	if _, ok := errors.AsType[*gtp.Error](err); ok {
		return err
	}
	if strings.ContainsAny(cmd, "\n\r") || strings.TrimSpace(cmd) == "" {
		return err // refused before sending: the engine is fine
	}
	eng.Close()
	e.mu.Lock()
	e.eng, e.loaded = nil, nil
	if !errors.Is(ctx.Err(), context.Canceled) {
		e.down = err
	}
	e.mu.Unlock()
	if errors.Is(ctx.Err(), context.Canceled) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrDown, err)
}

// Restart stops the engine if it runs and starts it again, forgetting why it was down.
func (e *Engine) Restart(ctx context.Context) error {
	if err := e.acquire(ctx); err != nil {
		return err
	}
	defer e.release()
	e.stop()
	_, err := e.running(ctx)
	return err
}

// Close stops the engine. It waits for a command in flight to end.
func (e *Engine) Close() {
	e.turn <- struct{}{}
	defer e.release()
	e.stop()
}

func (e *Engine) stop() {
	e.mu.Lock()
	eng := e.eng
	e.eng, e.down, e.loaded, e.analyze, e.streams, e.analyzed = nil, nil, nil, nil, nil, false
	e.mu.Unlock()
	if eng != nil {
		eng.Close()
	}
}

// setup returns the commands that put pos on an engine's board: the moves of the game when
// replaying them on an empty board gives pos's board, else every stone of the board placed with
// play (which captures nothing: every group of a legal board keeps a liberty), losing the ko.
func setup(pos *game.Position) []string {
	size := pos.Board.Size()
	cmds := []string{"boardsize " + strconv.Itoa(size), "clear_board",
		"komi " + strconv.FormatFloat(pos.Komi, 'f', -1, 64)}
	var b board.Board
	replayed := b.Reset(size) == nil
	for _, m := range pos.Moves {
		if !replayed || b.Play(m.Point, m.Color) != nil {
			replayed = false
			break
		}
	}
	if replayed {
		for y := range size {
			for x := range size {
				if p := board.At(x, y); b.At(p) != pos.Board.At(p) {
					replayed = false
				}
			}
		}
	}
	if replayed {
		for _, m := range pos.Moves {
			cmds = append(cmds, "play "+colorName(m.Color)+" "+m.Point.GTP(size))
		}
		return cmds
	}
	for y := range size {
		for x := range size {
			p := board.At(x, y)
			if c := pos.Board.At(p); c == board.Black || c == board.White {
				cmds = append(cmds, "play "+colorName(c)+" "+p.GTP(size))
			}
		}
	}
	return cmds
}

func colorName(c board.Color) string {
	if c == board.White {
		return "white"
	}
	return "black"
}

// load puts pos on the engine's board, sending only the moves past what it holds when pos
// follows on from it.
func (e *Engine) load(ctx context.Context, eng *gtp.Engine, pos *game.Position) error {
	cmds := setup(pos)
	e.mu.Lock()
	loaded := e.loaded
	e.mu.Unlock()
	from := 0
	if len(loaded) <= len(cmds) && len(loaded) >= 3 && slicesEqual(loaded, cmds[:len(loaded)]) {
		from = len(loaded)
	}
	for i, c := range cmds[from:] {
		if _, err := e.send(ctx, eng, c); err != nil {
			e.mu.Lock()
			if e.eng == eng {
				e.loaded = nil
				if i+from >= 3 {
					e.loaded = cmds[:from+i]
				}
			}
			e.mu.Unlock()
			return fmt.Errorf("peer: setting up the position: %w", err)
		}
	}
	e.mu.Lock()
	e.loaded = cmds
	e.mu.Unlock()
	return nil
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Genmove asks the engine's move for colour c in pos, and takes it back (undo, or setting the
// position again next time when the engine cannot undo), so that the engine's game is pos.
// It returns board.Pass for a pass and gtp.ErrResigned when the engine resigns.
func (e *Engine) Genmove(ctx context.Context, pos *game.Position, c board.Color) (board.Point, error) {
	if c != board.Black && c != board.White {
		return board.NoPoint, fmt.Errorf("peer: genmove for %v", c)
	}
	if err := e.acquire(ctx); err != nil {
		return board.NoPoint, err
	}
	defer e.release()
	eng, err := e.running(ctx)
	if err != nil {
		return board.NoPoint, err
	}
	if err := e.load(ctx, eng, pos); err != nil {
		return board.NoPoint, err
	}
	text, err := e.send(ctx, eng, "genmove "+colorName(c))
	if err != nil {
		return board.NoPoint, err
	}
	if strings.EqualFold(text, "resign") {
		return board.NoPoint, gtp.ErrResigned
	}
	if _, err := e.send(ctx, eng, "undo"); err != nil {
		e.mu.Lock()
		e.loaded = nil
		e.mu.Unlock()
		if _, ok := errors.AsType[*gtp.Error](err); !ok {
			return board.NoPoint, err
		}
	}
	p, err := board.ParseGTP(text, pos.Board.Size())
	if err != nil {
		e.mu.Lock()
		e.down = fmt.Errorf("%w: genmove answered %.40q: %v", ErrGarbage, text, err)
		e.mu.Unlock()
		return board.NoPoint, fmt.Errorf("%w: %w", ErrDown, e.State().Err)
	}
	return p, nil
}

// gnuGoAnalyze are GoGui-style analyze commands for engines that do not list their own (GNU Go
// among them): each is offered when the engine knows its command.
var gnuGoAnalyze = []AnalyzeCommand{
	{Type: "pspairs", Label: "Top moves: Black", Command: "top_moves_black"},
	{Type: "pspairs", Label: "Top moves: White", Command: "top_moves_white"},
	// GNU Go counts White's territory positive; GoGui draws Black's positive.
	{Type: "dboard", Label: "Territory, Black to move", Command: "initial_influence black territory_value", whitePositive: true},
	{Type: "dboard", Label: "Territory, White to move", Command: "initial_influence white territory_value", whitePositive: true},
	{Type: "plist", Label: "Dead stones", Command: "final_status_list dead"},
	{Type: "string", Label: "Estimate score", Command: "estimate_score"},
	{Type: "string", Label: "Final score", Command: "final_score"},
}

// AnalyzeCommands returns the engine's GoGui analyze commands that need no argument from the
// user: those it lists in gogui-analyze_commands, or, when it has none, the few GNU Go commands
// of gnuGoAnalyze it knows.
func (e *Engine) AnalyzeCommands(ctx context.Context) ([]AnalyzeCommand, error) {
	if err := e.list(ctx); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.analyze, nil
}

// list reads, on the engine's turn and once per start of it, the commands it offers: its analyze
// commands and its analysis streams.
func (e *Engine) list(ctx context.Context) error {
	if err := e.acquire(ctx); err != nil {
		return err
	}
	defer e.release()
	eng, err := e.running(ctx)
	if err != nil {
		return err
	}
	e.mu.Lock()
	ok := e.analyzed
	e.mu.Unlock()
	if ok {
		return nil
	}
	list, err := e.send(ctx, eng, "list_commands")
	if err != nil {
		return err
	}
	known := make(map[string]bool)
	for _, w := range strings.Fields(list) {
		known[w] = true
	}
	var cmds []AnalyzeCommand
	if known["gogui-analyze_commands"] {
		text, err := e.send(ctx, eng, "gogui-analyze_commands")
		if err != nil {
			return err
		}
		if cmds, err = ParseAnalyzeCommands(text); err != nil {
			return err
		}
	} else {
		for _, c := range gnuGoAnalyze {
			if known[strings.Fields(c.Command)[0]] {
				cmds = append(cmds, c)
			}
		}
	}
	var streams []StreamKind
	for _, k := range []StreamKind{StreamKata, StreamLZ} {
		if known[k.String()] {
			streams = append(streams, k)
		}
	}
	e.mu.Lock()
	e.analyze, e.streams, e.analyzed = cmds, streams, true
	e.mu.Unlock()
	return nil
}

// Run runs an analyze command on pos and returns what it draws. An answer that does not read as
// the command's type is an error wrapping ErrGarbage; the engine stays up.
func (e *Engine) Run(ctx context.Context, pos *game.Position, c AnalyzeCommand) (*Gfx, error) {
	if !c.Drawable() {
		return nil, fmt.Errorf("peer: analyze command type %q cannot be drawn", c.Type)
	}
	if err := e.acquire(ctx); err != nil {
		return nil, err
	}
	defer e.release()
	eng, err := e.running(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.load(ctx, eng, pos); err != nil {
		return nil, err
	}
	text, err := e.send(ctx, eng, c.Command)
	if err != nil {
		return nil, err
	}
	g, err := parseAnswer(c.Type, text, pos.Board.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Command, err)
	}
	if c.whitePositive {
		for p, v := range g.Influence {
			g.Influence[p] = -v
		}
	}
	return g, nil
}
