package peer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"aji/analysis/board"
)

// ErrGarbage marks engine output that is not what the command's type promises.
var ErrGarbage = errors.New("peer: unreadable engine output")

// AnalyzeCommand is one GoGui analyze command: "type/label/command" in the answer to
// gogui-analyze_commands (GoGui manual, ch. "Analyze Commands").
type AnalyzeCommand struct {
	Type    string // gfx, plist, pspairs, dboard, string, none, ...
	Label   string // what the user sees
	Command string // the GTP command with its arguments

	whitePositive bool // a dboard that counts White positive
}

// Drawable reports whether Run can turn the command's answer into a Gfx.
func (c AnalyzeCommand) Drawable() bool {
	switch c.Type {
	case "gfx", "plist", "pspairs", "dboard", "string":
		return true
	}
	return false
}

// ParseAnalyzeCommands reads the answer to gogui-analyze_commands. Lines of the form
// "param/..." and blank lines are skipped; GoGui's placeholders (%m, %p, %c, ...) are kept as
// written, and commands containing them are not Drawable without arguments the user gives, so
// they are dropped here.
func ParseAnalyzeCommands(text string) ([]AnalyzeCommand, error) {
	var cmds []AnalyzeCommand
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		parts := strings.SplitN(line, "/", 3)
		if len(parts) != 3 || parts[0] == "" || strings.TrimSpace(parts[2]) == "" {
			return nil, fmt.Errorf("%w: analyze command %q is not type/label/command", ErrGarbage, line)
		}
		c := AnalyzeCommand{Type: strings.ToLower(parts[0]), Label: parts[1], Command: strings.TrimSpace(parts[2])}
		if c.Type == "param" || strings.Contains(c.Command, "%") {
			continue
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// Label is text written on a point.
type Label struct {
	Point board.Point
	Text  string
}

// Colored is a colour (GoGui's "#rrggbb" or a colour name) given to points.
type Colored struct {
	Color  string
	Points []board.Point
}

// Move is one stone of a variation (VAR) or a ghost stone (BLACK, WHITE).
type Move struct {
	Color board.Color
	Point board.Point
}

// Gfx is what an analyze command asks to draw, as GoGui draws it.
type Gfx struct {
	// Influence is a value in [-1, 1] per point, positive for Black (INFLUENCE; dboard answers
	// are scaled into it).
	Influence map[board.Point]float64
	Labels    []Label // LABEL, and pspairs answers
	Marks     []board.Point
	Squares   []board.Point // SQUARE, and plist answers
	Triangles []board.Point
	Circles   []board.Point
	Colors    []Colored
	Stones    []Move // BLACK and WHITE: ghost stones
	Var       []Move // VAR: a variation, in order
	Text      string // TEXT: the status line; the whole answer of a string command
}

// Empty reports whether g draws nothing and says nothing.
func (g *Gfx) Empty() bool {
	return len(g.Influence) == 0 && len(g.Labels) == 0 && len(g.Marks) == 0 && len(g.Squares) == 0 &&
		len(g.Triangles) == 0 && len(g.Circles) == 0 && len(g.Colors) == 0 && len(g.Stones) == 0 &&
		len(g.Var) == 0 && g.Text == ""
}

// ParseGfx reads a gfx answer on a board of the given size. An unknown keyword, a bad point or
// a bad value is an error wrapping ErrGarbage.
func ParseGfx(text string, size int) (*Gfx, error) {
	g := &Gfx{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		kw, args := strings.ToUpper(f[0]), f[1:]
		var err error
		switch kw {
		case "INFLUENCE":
			err = g.influence(args, size)
		case "LABEL":
			err = g.labels(args, size)
		case "MARK":
			g.Marks, err = appendPoints(g.Marks, args, size)
		case "SQUARE":
			g.Squares, err = appendPoints(g.Squares, args, size)
		case "TRIANGLE":
			g.Triangles, err = appendPoints(g.Triangles, args, size)
		case "CIRCLE":
			g.Circles, err = appendPoints(g.Circles, args, size)
		case "BLACK", "WHITE":
			c := board.Black
			if kw == "WHITE" {
				c = board.White
			}
			var pts []board.Point
			pts, err = appendPoints(nil, args, size)
			for _, p := range pts {
				g.Stones = append(g.Stones, Move{c, p})
			}
		case "COLOR":
			if len(args) == 0 {
				err = errors.New("COLOR without a colour")
				break
			}
			var pts []board.Point
			if pts, err = appendPoints(nil, args[1:], size); err == nil {
				g.Colors = append(g.Colors, Colored{args[0], pts})
			}
		case "VAR":
			err = g.variation(args, size)
		case "TEXT":
			g.Text = strings.TrimSpace(strings.TrimSpace(line)[len(f[0]):])
		case "CLEAR":
			*g = Gfx{}
		default:
			err = fmt.Errorf("unknown keyword %q", f[0])
		}
		if err != nil {
			return nil, fmt.Errorf("%w: gfx line %.60q: %v", ErrGarbage, line, err)
		}
	}
	return g, nil
}

func parsePoint(s string, size int) (board.Point, error) {
	p, err := board.ParseGTP(s, size)
	if err != nil {
		return board.NoPoint, err
	}
	return p, nil
}

func appendPoints(dst []board.Point, args []string, size int) ([]board.Point, error) {
	for _, a := range args {
		p, err := parsePoint(a, size)
		if err != nil {
			return nil, err
		}
		if p != board.Pass {
			dst = append(dst, p)
		}
	}
	return dst, nil
}

func (g *Gfx) influence(args []string, size int) error {
	if len(args)%2 != 0 {
		return errors.New("INFLUENCE needs point value pairs")
	}
	if g.Influence == nil {
		g.Influence = make(map[board.Point]float64)
	}
	for i := 0; i < len(args); i += 2 {
		p, err := parsePoint(args[i], size)
		if err != nil {
			return err
		}
		v, err := strconv.ParseFloat(args[i+1], 64)
		if err != nil || v != v {
			return fmt.Errorf("bad value %q", args[i+1])
		}
		g.Influence[p] = max(-1, min(1, v))
	}
	return nil
}

func (g *Gfx) labels(args []string, size int) error {
	if len(args)%2 != 0 {
		return errors.New("LABEL needs point text pairs")
	}
	for i := 0; i < len(args); i += 2 {
		p, err := parsePoint(args[i], size)
		if err != nil {
			return err
		}
		g.Labels = append(g.Labels, Label{p, args[i+1]})
	}
	return nil
}

func (g *Gfx) variation(args []string, size int) error {
	if len(args)%2 != 0 {
		return errors.New("VAR needs colour point pairs")
	}
	for i := 0; i < len(args); i += 2 {
		var c board.Color
		switch strings.ToLower(args[i]) {
		case "b", "black":
			c = board.Black
		case "w", "white":
			c = board.White
		default:
			return fmt.Errorf("bad colour %q", args[i])
		}
		p, err := parsePoint(args[i+1], size)
		if err != nil {
			return err
		}
		g.Var = append(g.Var, Move{c, p})
	}
	return nil
}

// parseAnswer turns the answer to a command of type typ into a Gfx.
func parseAnswer(typ, text string, size int) (*Gfx, error) {
	switch typ {
	case "gfx":
		return ParseGfx(text, size)
	case "string", "none":
		return &Gfx{Text: strings.TrimSpace(text)}, nil
	case "plist":
		pts, err := appendPoints(nil, strings.Fields(text), size)
		if err != nil {
			return nil, fmt.Errorf("%w: point list: %v", ErrGarbage, err)
		}
		return &Gfx{Squares: pts}, nil
	case "pspairs":
		g := &Gfx{}
		if err := g.labels(strings.Fields(text), size); err != nil {
			return nil, fmt.Errorf("%w: point string pairs: %v", ErrGarbage, err)
		}
		return g, nil
	case "dboard":
		return parseDBoard(text, size)
	}
	return nil, fmt.Errorf("peer: analyze command type %q cannot be drawn", typ)
}

// parseDBoard reads a board of numbers, top row first, and scales it into [-1, 1] by the
// largest magnitude, as GoGui does.
func parseDBoard(text string, size int) (*Gfx, error) {
	var rows [][]string
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows = append(rows, f)
		}
	}
	if len(rows) != size {
		return nil, fmt.Errorf("%w: board of %d rows on a %d board", ErrGarbage, len(rows), size)
	}
	g := &Gfx{Influence: make(map[board.Point]float64)}
	peak := 0.0
	for y, row := range rows {
		if len(row) != size {
			return nil, fmt.Errorf("%w: row %d has %d values", ErrGarbage, y+1, len(row))
		}
		for x, s := range row {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v != v {
				return nil, fmt.Errorf("%w: bad value %q", ErrGarbage, s)
			}
			g.Influence[board.At(x, y)] = v
			peak = max(peak, v, -v)
		}
	}
	if peak > 0 {
		for p, v := range g.Influence {
			g.Influence[p] = v / peak
		}
	}
	return g, nil
}
