package label

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// DefaultEngine is the engine command the reference labels were made with (GNU Go 3.8, level 10).
const DefaultEngine = "gnugo --mode gtp --level 10"

// Labeler labels games with one GTP engine process. It is not safe for concurrent use: run one per
// goroutine (Run does).
type Labeler struct {
	command string
	eng     *gtp.Engine
	dir     string // private temp folder for the position file
}

// NewLabeler starts the engine (see gtp.Start for the command syntax) and a temp folder for the
// positions it is shown.
func NewLabeler(ctx context.Context, command string) (*Labeler, error) {
	dir, err := os.MkdirTemp("", "aji-label-")
	if err != nil {
		return nil, fmt.Errorf("labeler: %w", err)
	}
	// GTP's loadsgf takes a path without blanks.
	if strings.ContainsAny(dir, " \t\n\r") {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("labeler: temp folder %q has blanks; set TMPDIR", dir)
	}
	l := &Labeler{command: command, dir: dir}
	if err := l.start(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return l, nil
}

func (l *Labeler) start(ctx context.Context) error {
	eng, err := gtp.Start(ctx, l.command)
	if err != nil {
		return fmt.Errorf("labeler: %w", err)
	}
	l.eng = eng
	return nil
}

// Close stops the engine and removes the temp folder.
func (l *Labeler) Close() error {
	var err error
	if l.eng != nil {
		err = l.eng.Close()
	}
	if rerr := os.RemoveAll(l.dir); err == nil {
		err = rerr
	}
	return err
}

// Label labels the final position of g's main line. A game without a counted result gives an error
// wrapping ErrNoCount before the engine is asked anything. When the engine fails other than by a GTP
// error response (it crashed, or ctx ended), it is restarted for the next game.
func (l *Labeler) Label(ctx context.Context, name string, g *game.Game) (*Label, error) {
	if _, err := ParseResult(g.Info.Result); err != nil {
		return nil, fmt.Errorf("label %s: %w", name, err)
	}
	pos, err := g.PositionAfter(-1)
	if err != nil {
		return nil, fmt.Errorf("label %s: %w", name, err)
	}
	st, err := l.status(ctx, pos, g.Info.Komi)
	if err != nil {
		if _, ok := errors.AsType[*gtp.Error](err); !ok && ctx.Err() == nil {
			// The conversation is lost; a fresh engine serves the next game.
			l.eng.Close()
			if rerr := l.start(context.WithoutCancel(ctx)); rerr != nil {
				err = errors.Join(err, rerr)
			}
		}
		return nil, fmt.Errorf("label %s: %w", name, err)
	}
	lab, err := FromPosition(name, g, pos, st)
	if err != nil {
		return nil, fmt.Errorf("label %s: %w", name, err)
	}
	return lab, nil
}

// status shows the engine pos as a setup position and asks for its final status lists. The position
// is written afresh rather than the record replayed: the engine then needs no SGF dialect, encoding or
// move legality of its own to agree with game's, and sees exactly the board Aji counts.
func (l *Labeler) status(ctx context.Context, pos *game.Position, komi float64) (*Status, error) {
	path := filepath.Join(l.dir, "position.sgf")
	if err := writePosition(path, pos, komi); err != nil {
		return nil, err
	}
	if _, err := l.eng.LoadSGF(ctx, path, 0); err != nil {
		return nil, err
	}
	size := pos.Board.Size()
	if n := l.eng.Size(); n != size {
		return nil, fmt.Errorf("engine loaded a %dx%d board, want %dx%d", n, n, size, size)
	}
	st := new(Status)
	for _, list := range []struct {
		name string
		set  *board.PointSet
	}{{"dead", &st.Dead}, {"black_territory", &st.BlackTerritory}, {"white_territory", &st.WhiteTerritory}, {"dame", &st.Dame}} {
		pts, err := l.eng.FinalStatusList(ctx, list.name)
		if err != nil {
			return nil, err
		}
		for _, p := range pts {
			if c := pos.Board.At(p); list.set == &st.Dead && c != board.Black && c != board.White {
				return nil, fmt.Errorf("engine calls %s dead but it holds no stone", p.GTP(size))
			}
			list.set.Add(p)
		}
	}
	return st, nil
}

// writePosition saves pos as a one-node SGF: its stones as setup, the player to move, the komi.
func writePosition(path string, pos *game.Position, komi float64) error {
	b := &pos.Board
	g, err := game.New(b.Size())
	if err != nil {
		return err
	}
	g.Info.Komi = komi
	for _, p := range b.Points() {
		if c := b.At(p); c == board.Black || c == board.White {
			g.Root.Setup = append(g.Root.Setup, game.Stone{Point: p, Color: c})
		}
	}
	g.Root.ToPlay = pos.ToPlay
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write position: %w", err)
	}
	err = g.Save(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write position %s: %w", path, err)
	}
	return nil
}
