// Package findtest makes synthetic game collections with a shape planted at known moves, for the tests
// of the pattern search (analysis/findpattern) and of its window (ui/workbench).
package findtest

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"

	"github.com/ulikunitz/xz"
)

// The planted shape, relative to its centre and to the player to move there: two own stones and two
// opponent stones, with no symmetry of its own, so that its eight images are eight different
// placements of one invariant shape.
var (
	own = [2][2]int{{1, 0}, {1, 1}}
	opp = [2][2]int{{-1, 1}, {0, -2}}
)

// Plant is one occurrence of the shape in a game of its own on 19x19.
type Plant struct {
	X, Y   int         // the centre, the point where the move is looked for (6..12: the templates on the board)
	Sym    int         // the symmetry of the square applied to the shape: bit 2 transposes, bit 0 mirrors x, bit 1 mirrors y
	Color  board.Color // the player to move at the centre
	Played bool        // the record plays the centre; else a far corner point, and the game ends there
}

// Move is the number of moves played before the planted position: the Move of its match.
func (p Plant) Move() int {
	if p.Color == board.Black {
		return 4
	}
	return 5
}

// Point is the centre as a board point.
func (p Plant) Point() board.Point { return board.At(p.X, p.Y) }

// far are corner points, distance > 12 from every centre, where the games' other moves go.
var far = [...][2]int{{1, 1}, {17, 17}}

// SGF is a record of 19x19 whose main line builds the shape around the centre and then plays the
// centre (Played) or a far point: the planted position is the one before its last move.
func (p Plant) SGF() string {
	at := func(d [2]int) [2]int {
		dx, dy := d[0], d[1]
		if p.Sym&4 != 0 {
			dx, dy = dy, dx
		}
		if p.Sym&1 != 0 {
			dx = -dx
		}
		if p.Sym&2 != 0 {
			dy = -dy
		}
		return [2]int{p.X + dx, p.Y + dy}
	}
	var moves [][2]int
	if p.Color == board.Black { // B own, W opp, B own, W opp; Black to move
		moves = [][2]int{at(own[0]), at(opp[0]), at(own[1]), at(opp[1])}
	} else { // B opp, W own, B opp, W own, B far; White to move
		moves = [][2]int{at(opp[0]), at(own[0]), at(opp[1]), at(own[1]), far[0]}
	}
	last := far[1]
	if p.Played {
		last = [2]int{p.X, p.Y}
	}
	moves = append(moves, last)
	var sb strings.Builder
	sb.WriteString("(;GM[1]FF[4]SZ[19]KM[6.5]PB[Planter]PW[Planted]")
	for i, m := range moves {
		c := "B"
		if i%2 == 1 {
			c = "W"
		}
		fmt.Fprintf(&sb, ";%s[%s]", c, game.SGFPoint(board.At(m[0], m[1])))
	}
	sb.WriteString(")")
	return sb.String()
}

// Plants are 32 occurrences: the 8 symmetries, both players to move, played and not, at centres
// spread over the middle of the board.
func Plants() []Plant {
	var out []Plant
	for sym := range 8 {
		for _, c := range []board.Color{board.Black, board.White} {
			for _, played := range []bool{true, false} {
				i := len(out)
				out = append(out, Plant{X: 6 + i%7, Y: 12 - i%5, Sym: sym, Color: c, Played: played})
			}
		}
	}
	return out
}

// Member is one file of a collection.
type Member struct {
	Name string // below the collection's folder, e.g. "plant-00.sgf"
	Data string
}

// Broken is a file that does not parse, and Illegal a game whose third move is on an occupied point:
// a search reports both and goes on.
var (
	Broken  = Member{"broken.sgf", "(;GM[1]SZ[19];B[dd];W[pp"}
	Illegal = Member{"illegal.sgf", "(;GM[1]SZ[19];B[dd];W[pp];B[dd])"}
)

// Collection is a file per plant (plant-NN.sgf), a game with no plant (empty.sgf: moves in the corners
// only), and Broken and Illegal, in sorted order as the collections on disk are read.
func Collection(plants []Plant) []Member {
	ms := []Member{Broken, {"empty.sgf", "(;GM[1]SZ[19];B[bb];W[rr];B[br];W[rb])"}, Illegal}
	for i, p := range plants {
		ms = append(ms, Member{fmt.Sprintf("plant-%02d.sgf", i), p.SGF()})
	}
	return ms
}

// WriteFolder writes the members into dir/name/ and returns that folder.
func WriteFolder(dir, name string, ms []Member) (string, error) {
	root := filepath.Join(dir, name)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	for _, m := range ms {
		if err := os.WriteFile(filepath.Join(root, m.Name), []byte(m.Data), 0o644); err != nil {
			return "", err
		}
	}
	return root, nil
}

// WriteTarXz writes the members as dir/name.tar.xz, under a folder name/ as the project's archives
// hold their games, and returns the archive's path.
func WriteTarXz(dir, name string, ms []Member) (string, error) {
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for _, m := range ms {
		hdr := &tar.Header{Name: name + "/" + m.Name, Mode: 0o644, Size: int64(len(m.Data)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return "", err
		}
		if _, err := tw.Write([]byte(m.Data)); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	xw, err := xz.NewWriter(&buf)
	if err != nil {
		return "", err
	}
	if _, err := xw.Write(raw.Bytes()); err != nil {
		return "", err
	}
	if err := xw.Close(); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+".tar.xz")
	return p, os.WriteFile(p, buf.Bytes(), 0o644)
}
