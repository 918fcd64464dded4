package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/analysis/reading"
)

// Player chooses the moves of a GTP server's genmove.
type Player interface {
	// GenMove returns a move for req.Position.ToPlay, board.Pass to pass, or resign = true. The server
	// checks the move (an illegal one becomes a pass). When ctx ends, for the clock's budget or an
	// interrupt, the player should answer at once with the best move it has.
	GenMove(ctx context.Context, req *Request) (p board.Point, resign bool, err error)
}

// Observer is a Player that wants to follow the game, e.g. to keep the search subtree of the move played.
type Observer interface {
	// Played is called after a move joins the game: by play, genmove or loadsgf.
	Played(c board.Color, p board.Point)
	// Reset is called when the game changes any other way: boardsize, clear_board, komi, undo, loadsgf,
	// handicap stones. Whatever the player kept about earlier positions no longer applies.
	Reset()
}

// Seeder is a Player whose randomness can be reseeded, by set_random_seed (a GNU Go extension that
// match controllers use to vary the games).
type Seeder interface {
	SetSeed(seed uint64)
}

// Analyzer is a Player that can show what it thinks of a position without playing (the aji-search and
// aji-pv analyze commands).
type Analyzer interface {
	Analyze(ctx context.Context, req *Request) (*Analysis, error)
}

// Analysis is a search's view of a position: its candidate moves, most visited first.
type Analysis struct {
	Candidates []Candidate
	Playouts   int
}

// Candidate is one move a search considered.
type Candidate struct {
	Move    board.Point
	Visits  int
	WinRate float64 // for the player to move, in [0, 1]
	Prior   float64
	PV      []board.Point // principal variation, starting with Move
}

// Request is what a Player is asked to move in.
type Request struct {
	Position game.Position // the position, ToPlay being the colour asked for
	// History holds the Zobrist hashes of the positions of the game so far (the current one included),
	// for the positional superko rule. Shared: do not modify.
	History []uint64
	// Budget is the time the move may take under the clock set by time_settings and time_left; 0 when
	// there is no limit. The server also ends ctx when it runs out.
	Budget time.Duration
}

// Legal reports whether the colour to move may play p: an empty point, no suicide, no simple ko, and
// no repetition of an earlier position (positional superko). Pass is always legal.
func (r *Request) Legal(p board.Point) bool {
	if p == board.Pass {
		return true
	}
	b := &r.Position.Board
	c := r.Position.ToPlay
	return b.OnBoard(p) && b.Legal(p, c) && !b.RepeatsPosition(p, c, r.History)
}

// TerritoryFunc estimates the expected final owner of every point of pos in [−1, 1], +1 for Black, into
// out (indexed by board.Point), and names its method for the display.
type TerritoryFunc func(ctx context.Context, pos *game.Position, out *[board.NumCells]float64) (method string, err error)

// ServerOptions configure a Server.
type ServerOptions struct {
	Name, Version string  // answers to name and version ("Aji", "dev" when empty)
	Size          int     // board size at start (19 when 0)
	Komi          float64 // komi at start
	// Predictors are the names (predict.New) of the predictors whose heat maps the GoGui analyze
	// commands draw.
	Predictors []string
	// Territory is the territory estimate drawn by aji-territory; nil uses the Scorer's ownership.
	Territory TerritoryFunc
	// ScorePlayouts and Seed configure the Scorer behind final_score and final_status_list.
	ScorePlayouts int
	Seed          uint64
	// Reading configures attack and defend.
	Reading reading.Options
	// AnalyzeTime bounds an analyze command's search (aji-search, aji-pv); 0: the player's own limits.
	AnalyzeTime time.Duration
}

// Handler runs one command. args are the words after the command name. An error's message is the
// failure response, so it should be one of the protocol's texts where one applies ("syntax error",
// "illegal move", ...).
type Handler func(ctx context.Context, args []string) (string, error)

// errors with the texts of the GTP specification (draft 2, §6.3).
var (
	errSyntax      = errors.New("syntax error")
	errIllegal     = errors.New("illegal move")
	errSize        = errors.New("unacceptable size")
	errUndo        = errors.New("cannot undo")
	errScore       = errors.New("cannot score")
	errLoad        = errors.New("cannot load file")
	errUnknown     = errors.New("unknown command")
	errNotEmpty    = errors.New("board not empty")
	errHandicapNum = errors.New("invalid number of stones")
)

// maxLine bounds a command line: a longer one is answered with an error and skipped.
const maxLine = 1 << 16

// snapshot is the state before a move, for undo.
type snapshot struct {
	pos  game.Position
	hist int // len(history) before the move
}

// Server is a GTP version 2 engine over a reader and a writer (Aji's `aji gtp`). It keeps the game —
// board, komi, move history with undo, the clock — and asks its Player for moves. Create it with
// NewServer; Serve runs it.
type Server struct {
	opts   ServerOptions
	player Player

	handlers map[string]Handler
	order    []string // list_commands order: registration order

	pos     game.Position
	history []uint64   // hashes of every position since the start position, current included
	undo    []snapshot // one per move since the start position
	clock   clock

	scorer     Scorer
	predictors map[string]predict.Predictor
	dist       predict.Distribution

	mu     sync.Mutex
	cancel context.CancelFunc // of the command running, for GoGui's "# interrupt"

	stream streamState // lz-analyze and kata-analyze (stream.go)

	reader *reading.Solver // attack and defend (reading.go), made on first use
}

// NewServer makes a server whose genmove asks p (nil: genmove fails).
func NewServer(p Player, o ServerOptions) *Server {
	if o.Name == "" {
		o.Name = "Aji"
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Size < 2 || o.Size > board.MaxSize {
		o.Size = 19
	}
	s := &Server{
		opts:       o,
		player:     p,
		handlers:   map[string]Handler{},
		scorer:     Scorer{Playouts: o.ScorePlayouts, Seed: o.Seed},
		predictors: map[string]predict.Predictor{},
	}
	s.pos.Komi = o.Komi
	s.reset(o.Size)
	for _, c := range []struct {
		name string
		h    Handler
	}{
		{"protocol_version", s.fixed("2")},
		{"name", s.fixed(o.Name)},
		{"version", s.fixed(o.Version)},
		{"known_command", s.knownCommand},
		{"list_commands", s.listCommands},
		{"quit", s.fixed("")},
		{"boardsize", s.boardsize},
		{"clear_board", s.clearBoard},
		{"komi", s.komi},
		{"get_komi", s.getKomi},
		{"fixed_handicap", s.fixedHandicap},
		{"set_free_handicap", s.setFreeHandicap},
		{"play", s.play},
		{"genmove", s.genmove},
		{"reg_genmove", s.regGenmove},
		{"undo", s.undoMove},
		{"is_legal", s.isLegal},
		{"showboard", s.showboard},
		{"list_stones", s.listStones},
		{"captures", s.captures},
		{"final_score", s.finalScore},
		{"final_status_list", s.finalStatusList},
		{"time_settings", s.timeSettings},
		{"time_left", s.timeLeft},
		{"set_random_seed", s.setRandomSeed},
		{"loadsgf", s.loadSGF},
		{"gogui-analyze_commands", s.analyzeCommands},
		{"gogui-interrupt", s.fixed("")},
		{"aji-heatmap", s.heatmap},
		{"aji-territory", s.territory},
		{"attack", s.readString(reading.Attack)},
		{"defend", s.readString(reading.Defend)},
		{"aji-attack", s.readingGfx(reading.Attack)},
		{"aji-defend", s.readingGfx(reading.Defend)},
	} {
		s.Handle(c.name, c.h)
	}
	if _, ok := p.(Analyzer); ok {
		s.Handle("aji-search", s.search)
		s.Handle("aji-pv", s.pv)
		s.Handle("lz-analyze", s.analyzeStream(streamLZ))
		s.Handle("kata-analyze", s.analyzeStream(streamKata))
	}
	return s
}

// Handle adds (or replaces) a command.
func (s *Server) Handle(name string, h Handler) {
	if _, ok := s.handlers[name]; !ok {
		s.order = append(s.order, name)
	}
	s.handlers[name] = h
}

// Position returns a copy of the current position.
func (s *Server) Position() game.Position { return s.pos }

// command is one preprocessed command line.
type command struct {
	id    string // "" when the command had none
	words []string
	err   error // a line that could not be read as a command
}

// Serve reads commands from r and writes responses to w until quit, the end of the input, ctx ending
// or a write failing; it returns nil after quit or at the end of the input.
//
// Input is preprocessed as the specification says (§2.3): control characters other than tab and line
// feed are removed, a '#' starts a comment to the end of the line, tabs become spaces, and empty lines
// are skipped. A line "# interrupt" (GoGui's gogui-interrupt) cancels the command in progress, and
// any line ends an analysis stream (lz-analyze, kata-analyze).
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	cmds := make(chan command, 256)
	go s.read(r, cmds)
	out := bufio.NewWriter(w)
	s.stream.out = out
	for {
		var c command
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case c, ok = <-cmds:
		}
		if !ok {
			return nil
		}
		s.dequeued()
		s.stream.id = c.id
		text, err := s.exec(ctx, c)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := s.respond(c.id, text, err); err != nil {
			return fmt.Errorf("gtp server: %w", err)
		}
		if err == nil && c.err == nil && c.words[0] == "quit" {
			return nil
		}
	}
}

// exec runs one command under a context that "# interrupt" cancels.
func (s *Server) exec(ctx context.Context, c command) (string, error) {
	if c.err != nil {
		return "", c.err
	}
	h, ok := s.handlers[c.words[0]]
	if !ok {
		return "", errUnknown
	}
	cctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}()
	return s.call(cctx, h, c.words[1:])
}

// call runs a handler; a panic in it (a predictor's bug, say) fails the command instead of ending the
// engine under its controller.
func (s *Server) call(ctx context.Context, h Handler, args []string) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("gtp: command panicked", "panic", r, "stack", string(debug.Stack()))
			text, err = "", fmt.Errorf("internal error: %v", r)
		}
	}()
	return h(ctx, args)
}

// interrupt cancels the command in progress, if any.
func (s *Server) interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// read preprocesses input lines into commands until the input ends.
func (s *Server) read(r io.Reader, cmds chan<- command) {
	defer func() {
		close(cmds)
		s.inputLine(false, true)
	}()
	br := bufio.NewReaderSize(r, 4096)
	for {
		line, tooLong, err := readCommandLine(br)
		if tooLong {
			s.inputLine(true, false)
			cmds <- command{err: errors.New("command too long")}
		} else if c, ok := parseCommand(line); ok {
			s.inputLine(true, false)
			cmds <- c
		} else {
			if isInterrupt(line) {
				s.interrupt()
			}
			s.inputLine(false, false)
		}
		if err != nil {
			return
		}
	}
}

// readCommandLine reads one line, without its end; a line longer than maxLine is consumed and reported.
func readCommandLine(br *bufio.Reader) (line string, tooLong bool, err error) {
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(buf)+len(frag) <= maxLine {
			buf = append(buf, frag...)
		} else {
			tooLong = true
		}
		if err != bufio.ErrBufferFull {
			return strings.TrimSuffix(string(buf), "\n"), tooLong, err
		}
	}
}

// isInterrupt reports whether a raw line is GoGui's interrupt comment.
func isInterrupt(line string) bool {
	return strings.TrimSpace(clean(line)) == "# interrupt"
}

// clean removes control characters other than tab and converts tabs to spaces (§2.3 steps 1 and 3).
func clean(line string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 32 || r == 127:
			return -1
		}
		return r
	}, line)
}

// parseCommand preprocesses a line and splits it into id, name and arguments; ok is false for a line
// that holds no command.
func parseCommand(line string) (command, bool) {
	line = clean(line)
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	words := strings.Fields(line)
	if len(words) == 0 {
		return command{}, false
	}
	var c command
	if isID(words[0]) {
		c.id, words = words[0], words[1:]
	}
	if len(words) == 0 {
		c.err = errUnknown // an id alone names no command
	}
	c.words = words
	return c, true
}

func isID(w string) bool {
	for i := range len(w) {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// writeResponse writes "=id result\n\n" or "?id message\n\n". A response may not hold an empty line,
// which would end it early, so empty lines inside the text are dropped.
func writeResponse(w *bufio.Writer, id, text string, err error) error {
	if err != nil {
		w.WriteByte('?')
		text = err.Error()
	} else {
		w.WriteByte('=')
	}
	w.WriteString(id)
	w.WriteByte(' ')
	text = strings.ReplaceAll(strings.TrimRight(text, " \r\n"), "\r", "")
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			if strings.TrimSpace(l) == "" {
				continue
			}
			w.WriteByte('\n')
		}
		w.WriteString(l)
	}
	w.WriteString("\n\n")
	return w.Flush()
}

// fixed answers a command that always gives the same text.
func (s *Server) fixed(text string) Handler {
	return func(context.Context, []string) (string, error) { return text, nil }
}

func (s *Server) knownCommand(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	_, ok := s.handlers[args[0]]
	return strconv.FormatBool(ok), nil
}

func (s *Server) listCommands(context.Context, []string) (string, error) {
	return strings.Join(s.order, "\n"), nil
}

// reset empties the board at the given size and forgets the game's history.
func (s *Server) reset(size int) {
	if err := s.pos.Board.Reset(size); err != nil {
		panic(err) // sizes are checked before
	}
	s.pos.ToPlay = board.Black
	s.pos.MoveNumber = 0
	s.pos.Last, s.pos.Prev = board.NoPoint, board.NoPoint
	s.history = append(s.history[:0], s.pos.Board.Hash())
	s.undo = s.undo[:0]
	s.changed()
}

// changed tells an observing player that the game changed other than by a move.
func (s *Server) changed() {
	if o, ok := s.player.(Observer); ok {
		o.Reset()
	}
}

func (s *Server) boardsize(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errSyntax
	}
	if n < 2 || n > board.MaxSize {
		return "", errSize
	}
	s.reset(n)
	return "", nil
}

func (s *Server) clearBoard(context.Context, []string) (string, error) {
	s.reset(s.pos.Board.Size())
	return "", nil
}

func (s *Server) komi(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
		return "", errSyntax
	}
	if k != s.pos.Komi {
		s.pos.Komi = k
		s.changed()
	}
	return "", nil
}

// getKomi answers the komi (a GNU Go extension).
func (s *Server) getKomi(context.Context, []string) (string, error) {
	return strconv.FormatFloat(s.pos.Komi, 'f', -1, 64), nil
}

// parseColorArg reads a GTP colour argument.
func parseColorArg(w string) (board.Color, error) {
	c, err := parseColor(w)
	if err != nil {
		return board.Empty, errSyntax
	}
	return c, nil
}

// parseVertex reads a vertex: a malformed one is a syntax error, a well-formed one off this board an
// illegal move.
func (s *Server) parseVertex(w string) (board.Point, error) {
	p, err := board.ParseGTP(w, s.pos.Board.Size())
	if err == nil {
		return p, nil
	}
	if _, err := board.ParseGTP(w, board.MaxSize); err == nil {
		return board.NoPoint, errIllegal
	}
	return board.NoPoint, errSyntax
}

// legal reports whether c may play p now, superko included.
func (s *Server) legal(c board.Color, p board.Point) bool {
	if p == board.Pass {
		return true
	}
	b := &s.pos.Board
	return b.Legal(p, c) && !b.RepeatsPosition(p, c, s.history)
}

// apply plays a move already known to be legal and records it for undo and superko.
func (s *Server) apply(c board.Color, p board.Point) {
	s.undo = append(s.undo, snapshot{pos: s.pos, hist: len(s.history)})
	s.pos.Board.PlayLegal(p, c)
	s.pos.ToPlay = c.Opponent()
	s.pos.MoveNumber++
	s.pos.Prev, s.pos.Last = s.pos.Last, p
	s.history = append(s.history, s.pos.Board.Hash())
	if o, ok := s.player.(Observer); ok {
		o.Played(c, p)
	}
}

func (s *Server) play(_ context.Context, args []string) (string, error) {
	if len(args) != 2 {
		return "", errSyntax
	}
	c, err := parseColorArg(args[0])
	if err != nil {
		return "", err
	}
	p, err := s.parseVertex(args[1])
	if err != nil {
		return "", err
	}
	if !s.legal(c, p) {
		return "", errIllegal
	}
	s.apply(c, p)
	return "", nil
}

func (s *Server) isLegal(_ context.Context, args []string) (string, error) {
	if len(args) != 2 {
		return "", errSyntax
	}
	c, err := parseColorArg(args[0])
	if err != nil {
		return "", err
	}
	p, err := s.parseVertex(args[1])
	if errors.Is(err, errIllegal) {
		return "0", nil
	} else if err != nil {
		return "", err
	}
	if s.legal(c, p) {
		return "1", nil
	}
	return "0", nil
}

// request builds the Request for a move by c now.
func (s *Server) request(c board.Color) *Request {
	req := &Request{Position: s.pos, History: s.history}
	req.Position.ToPlay = c
	req.Budget = s.clock.budget(c, s.pos.MoveNumber, s.pos.Board.Size())
	return req
}

// generate asks the player for a move for c; the move is checked but not played.
func (s *Server) generate(ctx context.Context, args []string) (c board.Color, p board.Point, resign bool, err error) {
	if len(args) != 1 {
		return 0, 0, false, errSyntax
	}
	if c, err = parseColorArg(args[0]); err != nil {
		return 0, 0, false, err
	}
	if s.player == nil {
		return 0, 0, false, errors.New("no player")
	}
	req := s.request(c)
	if req.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Budget)
		defer cancel()
	}
	start := time.Now()
	p, resign, err = s.player.GenMove(ctx, req)
	s.clock.used(c, time.Since(start))
	if err != nil {
		return 0, 0, false, fmt.Errorf("genmove failed: %w", err)
	}
	if !resign && !req.Legal(p) {
		// The spec lets genmove fail only for bad arguments; a pass keeps the game going.
		slog.Warn("gtp: the player chose an illegal move; passing instead", "move", p.GTP(s.pos.Board.Size()), "color", c)
		p = board.Pass
	}
	return c, p, resign, nil
}

func (s *Server) genmove(ctx context.Context, args []string) (string, error) {
	c, p, resign, err := s.generate(ctx, args)
	if err != nil {
		return "", err
	}
	if resign {
		return "resign", nil
	}
	s.apply(c, p)
	return p.GTP(s.pos.Board.Size()), nil
}

func (s *Server) regGenmove(ctx context.Context, args []string) (string, error) {
	_, p, resign, err := s.generate(ctx, args)
	if err != nil {
		return "", err
	}
	if resign {
		return "resign", nil
	}
	return p.GTP(s.pos.Board.Size()), nil
}

func (s *Server) undoMove(context.Context, []string) (string, error) {
	if len(s.undo) == 0 {
		return "", errUndo
	}
	last := s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	komi := s.pos.Komi
	s.pos = last.pos
	s.pos.Komi = komi
	s.history = s.history[:last.hist]
	s.changed()
	return "", nil
}

func (s *Server) fixedHandicap(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errSyntax
	}
	pts := game.HandicapPoints(s.pos.Board.Size(), n)
	if pts == nil {
		return "", errHandicapNum
	}
	if err := s.setup(pts); err != nil {
		return "", err
	}
	names := make([]string, len(pts))
	for i, p := range pts {
		names[i] = p.GTP(s.pos.Board.Size())
	}
	return strings.Join(names, " "), nil
}

func (s *Server) setFreeHandicap(_ context.Context, args []string) (string, error) {
	if len(args) < 2 {
		return "", errHandicapNum
	}
	var pts []board.Point
	for _, a := range args {
		p, err := s.parseVertex(a)
		if err != nil || p == board.Pass || slices.Contains(pts, p) {
			return "", errSyntax
		}
		pts = append(pts, p)
	}
	if len(pts) >= s.pos.Board.Size()*s.pos.Board.Size() {
		return "", errHandicapNum
	}
	return "", s.setup(pts)
}

// setup puts handicap stones on an empty board; White moves next.
func (s *Server) setup(pts []board.Point) error {
	if len(s.undo) > 0 || s.pos.Board.Hash() != 0 {
		return errNotEmpty
	}
	for _, p := range pts {
		if err := s.pos.Board.Set(p, board.Black); err != nil {
			return errSyntax
		}
	}
	s.pos.ToPlay = board.White
	s.history = append(s.history[:0], s.pos.Board.Hash())
	s.changed()
	return nil
}

// showboard draws the board with GTP coordinates, the captures and the side to move.
func (s *Server) showboard(context.Context, []string) (string, error) {
	b := &s.pos.Board
	n := b.Size()
	var sb strings.Builder
	cols := "   "
	for x := range n {
		cols += " " + string("ABCDEFGHJKLMNOPQRSTUVWXYZ"[x])
	}
	sb.WriteString("\n" + cols + "\n")
	for y := range n {
		fmt.Fprintf(&sb, "%2d ", n-y)
		for x := range n {
			p := board.At(x, y)
			ch := "."
			switch b.At(p) {
			case board.Black:
				ch = "X"
			case board.White:
				ch = "O"
			default:
				if isHoshi(n, x, y) {
					ch = "+"
				}
			}
			sb.WriteString(" " + ch)
		}
		fmt.Fprintf(&sb, " %2d", n-y)
		switch y {
		case 0:
			fmt.Fprintf(&sb, "     Black (X) has captured %d stones", b.Captures(board.Black))
		case 1:
			fmt.Fprintf(&sb, "     White (O) has captured %d stones", b.Captures(board.White))
		case 2:
			col, _ := colorArg(s.pos.ToPlay)
			fmt.Fprintf(&sb, "     %s to play, komi %s", col, strconv.FormatFloat(s.pos.Komi, 'f', -1, 64))
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(cols)
	return sb.String(), nil
}

// listStones lists the stones of a colour in board order (a GNU Go extension).
func (s *Server) listStones(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	c, err := parseColorArg(args[0])
	if err != nil {
		return "", err
	}
	var pts []board.Point
	for _, p := range s.pos.Board.Points() {
		if s.pos.Board.At(p) == c {
			pts = append(pts, p)
		}
	}
	return vertices(pts, s.pos.Board.Size()), nil
}

// captures answers the number of stones a colour has captured (a GNU Go extension).
func (s *Server) captures(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	c, err := parseColorArg(args[0])
	if err != nil {
		return "", err
	}
	return strconv.Itoa(s.pos.Board.Captures(c)), nil
}

// isHoshi reports whether (x, y) is a star point: the corner points (third line, fourth from 13x13 up)
// and the centre of odd boards, and from 15x15 up the side points too.
func isHoshi(n, x, y int) bool {
	if n < 7 {
		return false
	}
	d := 2
	if n >= 13 {
		d = 3
	}
	corner := func(v int) bool { return v == d || v == n-1-d }
	mid := func(v int) bool { return n%2 == 1 && v == n/2 }
	if n >= 15 {
		return (corner(x) || mid(x)) && (corner(y) || mid(y))
	}
	return corner(x) && corner(y) || mid(x) && mid(y)
}

// estimate reads the end of the game at the current position with the Scorer.
func (s *Server) estimate(ctx context.Context) (*Estimate, error) {
	est, err := s.scorer.Estimate(ctx, &s.pos)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errScore, err)
	}
	return est, nil
}

func (s *Server) finalScore(ctx context.Context, _ []string) (string, error) {
	est, err := s.estimate(ctx)
	if err != nil {
		return "", err
	}
	return est.Result(), nil
}

func (s *Server) finalStatusList(ctx context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	status := strings.ToLower(args[0])
	if status != "alive" && status != "dead" && status != "seki" {
		return "", errSyntax
	}
	est, err := s.estimate(ctx)
	if err != nil {
		return "", err
	}
	pts := map[string][]board.Point{"alive": est.Alive, "dead": est.Dead, "seki": est.Seki}[status]
	// One chain a line, as GNU Go writes it.
	b := &s.pos.Board
	var heads []board.Point
	chains := map[board.Point][]string{}
	for _, p := range pts {
		h := b.ChainHead(p)
		if _, ok := chains[h]; !ok {
			heads = append(heads, h)
		}
		chains[h] = append(chains[h], p.GTP(b.Size()))
	}
	lines := make([]string, len(heads))
	for i, h := range heads {
		lines[i] = strings.Join(chains[h], " ")
	}
	return strings.Join(lines, "\n"), nil
}

func (s *Server) timeSettings(_ context.Context, args []string) (string, error) {
	v, err := intArgs(args, 3)
	if err != nil {
		return "", err
	}
	s.clock.settings(v[0], v[1], v[2])
	return "", nil
}

func (s *Server) timeLeft(_ context.Context, args []string) (string, error) {
	if len(args) != 3 {
		return "", errSyntax
	}
	c, err := parseColorArg(args[0])
	if err != nil {
		return "", err
	}
	v, err := intArgs(args[1:], 2)
	if err != nil {
		return "", err
	}
	s.clock.left(c, v[0], v[1])
	return "", nil
}

// setRandomSeed reseeds the player and the Scorer.
func (s *Server) setRandomSeed(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	seed, err := strconv.ParseUint(args[0], 10, 64)
	if err != nil {
		return "", errSyntax
	}
	s.scorer.Seed = seed
	if sd, ok := s.player.(Seeder); ok {
		sd.SetSeed(seed)
	}
	return "", nil
}

// intArgs reads exactly n non-negative integer arguments.
func intArgs(args []string, n int) ([]int, error) {
	if len(args) != n {
		return nil, errSyntax
	}
	v := make([]int, n)
	for i, a := range args {
		x, err := strconv.Atoi(a)
		if err != nil || x < 0 {
			return nil, errSyntax
		}
		v[i] = x
	}
	return v, nil
}

// loadSGF replays the main line of an SGF file up to the position before move_number (all of it when
// absent), sets board size and komi from the file, and answers the colour to play, as GNU Go does. The
// moves replayed can be undone.
func (s *Server) loadSGF(_ context.Context, args []string) (string, error) {
	if len(args) < 1 || len(args) > 2 {
		return "", errSyntax
	}
	limit := 0
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			return "", errSyntax
		}
		limit = n
	}
	games, err := game.LoadFile(args[0])
	if err != nil || len(games) == 0 {
		return "", errLoad
	}
	g := games[0]
	start, err := g.PositionAfter(0)
	if err != nil {
		return "", errLoad
	}
	s.pos = *start
	s.pos.Komi = g.Info.Komi
	s.history = append(s.history[:0], s.pos.Board.Hash())
	s.undo = s.undo[:0]
	s.changed()
	var next board.Color
	played := 0
	werr := g.WalkMainLine(func(pos *game.Position, m game.Move) error {
		if limit > 0 && played+1 >= limit {
			next = m.Color
			return errStopWalk
		}
		if pos.Board.Hash() != s.pos.Board.Hash() {
			// Setup stones in a later node: the game goes on from the position they make.
			s.pos = *pos
			s.pos.Komi = g.Info.Komi
			s.history = append(s.history[:0], s.pos.Board.Hash())
			s.undo = s.undo[:0]
			s.changed()
		}
		if m.Point != board.Pass && !s.pos.Board.Legal(m.Point, m.Color) {
			return errStopWalk // keep the position before the illegal move
		}
		// GNU Go's loadsgf replays without judging repetition; so does this.
		s.apply(m.Color, m.Point)
		played++
		return nil
	})
	if werr != nil && !errors.Is(werr, errStopWalk) && !errors.Is(werr, game.ErrIllegalMove) {
		return "", errLoad
	}
	if next == board.Empty {
		next = s.pos.ToPlay
		if final, err := g.PositionAfter(-1); err == nil && played == g.NumMoves() {
			next = final.ToPlay
		}
	}
	s.pos.ToPlay = next
	col, _ := colorArg(next)
	return col, nil
}

var errStopWalk = errors.New("stop")
