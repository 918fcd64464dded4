package game

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"aji/analysis/board"
)

// parseOne parses SGF text that must hold exactly one game.
func parseOne(t testing.TB, sgf string) *Game {
	t.Helper()
	games, err := Parse([]byte(sgf))
	if err != nil {
		t.Fatalf("Parse(%.60q): %v", sgf, err)
	}
	if len(games) != 1 {
		t.Fatalf("Parse(%.60q): %d games, want 1", sgf, len(games))
	}
	return games[0]
}

// roundTrip saves g and parses the output again.
func roundTrip(t testing.TB, g *Game) *Game {
	t.Helper()
	var buf bytes.Buffer
	if err := g.Save(&buf); err != nil {
		t.Fatalf("Save: %v", err)
	}
	games, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatalf("Parse(Save()): %v\n%.500s", err, buf.String())
	}
	if len(games) != 1 {
		t.Fatalf("Parse(Save()): %d games", len(games))
	}
	return games[0]
}

// diffGames returns the first difference between two games, or "" when they are identical: the same
// information and the same tree of nodes with the same contents. It walks the trees without recursion.
func diffGames(a, b *Game) string {
	if a.Info != b.Info {
		return fmt.Sprintf("info %+v != %+v", a.Info, b.Info)
	}
	type pair struct {
		a, b *Node
		path string
	}
	stack := []pair{{a.Root, b.Root, "root"}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p.a, p.b
		switch {
		case (x.Move == nil) != (y.Move == nil) || x.Move != nil && *x.Move != *y.Move:
			return fmt.Sprintf("%s: move %v != %v", p.path, x.Move, y.Move)
		case !equalSlices(x.Setup, y.Setup):
			return fmt.Sprintf("%s: setup %v != %v", p.path, x.Setup, y.Setup)
		case x.ToPlay != y.ToPlay:
			return fmt.Sprintf("%s: PL %v != %v", p.path, x.ToPlay, y.ToPlay)
		case x.Comment != y.Comment:
			return fmt.Sprintf("%s: comment %q != %q", p.path, x.Comment, y.Comment)
		case !equalSlices(x.Markup, y.Markup):
			return fmt.Sprintf("%s: markup %v != %v", p.path, x.Markup, y.Markup)
		case !equalSlices(x.Props, y.Props):
			return fmt.Sprintf("%s: props %q != %q", p.path, x.Props, y.Props)
		case len(x.Children) != len(y.Children):
			return fmt.Sprintf("%s: %d children != %d", p.path, len(x.Children), len(y.Children))
		}
		for i := range x.Children {
			if x.Children[i].Parent != x || y.Children[i].Parent != y {
				return fmt.Sprintf("%s: child %d has the wrong parent", p.path, i)
			}
			path := p.path
			switch {
			case len(path) > 200: // deep trees: keep the path short, or building it costs quadratic time
			case len(x.Children) > 1:
				path += fmt.Sprintf("/%d", i)
			default:
				path += "."
			}
			stack = append(stack, pair{x.Children[i], y.Children[i], path})
		}
	}
	return ""
}

// equalSlices treats nil and empty as equal, as a saved and reloaded node does.
func equalSlices[S ~[]E, E any](a, b S) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

// pt is a point from SGF coordinates, for tables.
func pt(s string) board.Point {
	x, y := int(s[0]-'a'), int(s[1]-'a')
	return board.At(x, y)
}

// mainMoves returns the main-line moves as "B pd W dd B tt ..." ("tt" for a pass).
func mainMoves(g *Game) string {
	var buf bytes.Buffer
	for _, n := range g.MainLine() {
		if n.Move != nil {
			p := SGFPoint(n.Move.Point)
			if p == "" {
				p = "tt"
			}
			fmt.Fprintf(&buf, "%s %s ", colorID(n.Move.Color), p)
		}
	}
	return string(bytes.TrimSpace(buf.Bytes()))
}
