// Package label makes final-territory labels: for a game with a counted result, GNU Go (over GTP) names
// the dead stones of the final position, and every point is given to the colour whose live stones alone
// reach it (area scoring; board.AreaOwners), save that GNU Go's own territory and dame lists have the
// last word on the points they name (see FromPosition). The labels are the training and evaluation targets of the
// territory models (Stern 2008, ch. 5), in the JSON-lines format of
// ../shared/data/territory-labels-validation.jsonl.
//
// It is a package of its own, not part of analysis/gtp, because gtp is a protocol client that knows
// nothing of scoring rules, records or datasets; labelling is one use of it, with game, board and dataset.
package label

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
)

// ErrNoCount marks a game whose result is not a counted one (resignation, time, forfeit, void, unknown
// or missing): there is no margin to check the labels against, and the final position may be unfinished.
var ErrNoCount = errors.New("result is not a counted score")

// Label is one game's final-territory labels, a line of a labels file. The fields and their order are
// those of ../shared/data/territory-labels-validation.jsonl.
type Label struct {
	Game string `json:"game"` // member name in the collection, e.g. "games-validation/Agon-01-8.sgf"
	Size int    `json:"size"`
	Move int    `json:"move"` // the labels describe the position after this many main-line moves
	// Labels are Size×Size owners in SGF order (aa first, row by row): +1 Black, -1 White, 0 neutral.
	Labels       []int8  `json:"labels"`
	Result       string  `json:"result"` // RE as recorded
	Komi         float64 `json:"komi"`   // KM as recorded; 0 when absent
	Handicap     int     `json:"handicap"`
	AreaBlack    int     `json:"area_black"`
	AreaWhite    int     `json:"area_white"`
	AreaMargin   float64 `json:"area_margin"`   // AreaBlack − AreaWhite − Komi
	ResultMargin float64 `json:"result_margin"` // from Result, positive when Black won
	MarginDiff   float64 `json:"margin_diff"`   // AreaMargin − ResultMargin (signed)
	// Consistent is |AreaMargin − ResultMargin| ≤ 1, with the inferred komi when there is one.
	Consistent bool `json:"consistent"`
	// UnclassifiedPoints counts the empty points that the engine named neither territory nor dame;
	// they keep the flood fill's owner.
	UnclassifiedPoints int `json:"unclassified_points"`
	// KomiInferred is the komi that makes the count agree with the result, for a record without one
	// (see inferredKomi); absent otherwise. AreaMargin and MarginDiff still use Komi.
	KomiInferred *float64 `json:"komi_inferred,omitempty"`
}

// consistentWithin is how far, in points, the area margin may be from the recorded one for the labels
// to count as consistent: a point for a recording or counting slip (the reference's rule).
const consistentWithin = 1.0

// inferKomis are the komis tried, in order, for a record without KM whose count does not match its
// result at komi 0: the usual professional komis, most common first. The reference file was made the
// same way (its eight komi_inferred values are each the first of 6.5, 5.5, 7.5 that fits).
var inferKomis = [...]float64{6.5, 5.5, 7.5}

// ParseResult reads the margin of a counted result: "B+3.5" gives 3.5, "W+12" gives −12, "0", "Draw" and
// "Jigo" give 0. Anything else — "B+R", "W+Resign", "B+T", "W+F", "Void", "?", "B+" — wraps ErrNoCount.
func ParseResult(re string) (float64, error) {
	s := strings.TrimSpace(re)
	switch strings.ToLower(s) {
	case "0", "draw", "jigo", "d":
		return 0, nil
	}
	sign := 0.0
	if len(s) > 2 && s[1] == '+' {
		switch s[0] {
		case 'B', 'b':
			sign = 1
		case 'W', 'w':
			sign = -1
		}
	}
	if sign == 0 {
		return 0, fmt.Errorf("%w: %q", ErrNoCount, re)
	}
	m, err := strconv.ParseFloat(strings.TrimSpace(s[2:]), 64)
	if err != nil || m < 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return 0, fmt.Errorf("%w: %q", ErrNoCount, re)
	}
	return sign * m, nil
}

// Status is the engine's judgement of a final position: its final_status_list answers.
type Status struct {
	Dead                           board.PointSet // stones to remove before counting
	BlackTerritory, WhiteTerritory board.PointSet // points the engine gives to Black, to White
	Dame                           board.PointSet // points it gives to nobody
}

// FromPosition labels the final position pos of game g (named name) with the engine's status st (nil:
// no stone dead, the flood fill alone). Every point first gets its area owner with st.Dead removed
// (board.AreaOwners); then every point the engine names as black territory, white territory or dame
// takes that owner (+1, −1, 0). The engine's lists are what the reference labels follow: they make false
// eyes still to be filled neutral, and give the open areas of an unfinished final position to a colour
// by influence, where the flood fill alone would leave them neutral (with the flood fill alone the
// agreement with the reference is 97.5%). Points in none of the engine's lists keep the flood fill's
// owner; the empty ones are counted in UnclassifiedPoints. The counting needs no engine, so it is tested on its
// own; Labeler.Label supplies st from GNU Go.
func FromPosition(name string, g *game.Game, pos *game.Position, st *Status) (*Label, error) {
	margin, err := ParseResult(g.Info.Result)
	if err != nil {
		return nil, err
	}
	b := &pos.Board
	size := b.Size()
	l := &Label{
		Game:         name,
		Size:         size,
		Move:         pos.MoveNumber,
		Labels:       make([]int8, size*size),
		Result:       g.Info.Result,
		Komi:         g.Info.Komi,
		Handicap:     g.Info.Handicap,
		ResultMargin: margin,
	}
	var dead *board.PointSet
	if st != nil {
		dead = &st.Dead
	}
	b.AreaOwners(dead, l.Labels)
	if st != nil {
		for _, p := range b.Points() {
			x, y := p.XY()
			switch {
			case st.BlackTerritory.Has(p):
				l.Labels[y*size+x] = 1
			case st.WhiteTerritory.Has(p):
				l.Labels[y*size+x] = -1
			case st.Dame.Has(p):
				l.Labels[y*size+x] = 0
			case b.At(p) == board.Empty:
				l.UnclassifiedPoints++ // dead stones are in the engine's dead list, not its territory
			}
		}
	}
	for _, v := range l.Labels {
		switch v {
		case 1:
			l.AreaBlack++
		case -1:
			l.AreaWhite++
		}
	}
	l.AreaMargin = float64(l.AreaBlack-l.AreaWhite) - l.Komi
	l.MarginDiff = l.AreaMargin - l.ResultMargin
	l.Consistent = math.Abs(l.MarginDiff) <= consistentWithin
	if !l.Consistent && l.Komi == 0 {
		if k, ok := inferredKomi(l.AreaMargin, l.ResultMargin); ok {
			l.KomiInferred = &k
			l.Consistent = true
		}
	}
	return l, nil
}

// inferredKomi returns the first of inferKomis with which the area margin (counted at komi 0) is within a
// point of the recorded margin. game.Info cannot tell KM[0] from a missing KM, so both are tried; on the
// reference data every KM[0] game that fails at 0 fails with these komis too, so the output is the same.
func inferredKomi(areaMargin, resultMargin float64) (float64, bool) {
	for _, k := range inferKomis {
		if math.Abs(areaMargin-k-resultMargin) <= consistentWithin {
			return k, true
		}
	}
	return 0, false
}

// ReadFile reads a labels file: one Label per line (blank lines skipped).
func ReadFile(path string) ([]Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read labels: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads labels in the format of a labels file; name (a path) is used in error messages. A line
// that is not a label of a board size Aji plays, with Size² owners of −1, 0 or +1 after a move number
// of at least 0, is an error naming the line.
func Read(r io.Reader, name string) ([]Label, error) {
	var out []Label
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var l Label
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			return nil, fmt.Errorf("read labels %s:%d: %w", name, line, err)
		}
		if l.Size < 2 || l.Size > board.MaxSize || len(l.Labels) != l.Size*l.Size {
			return nil, fmt.Errorf("read labels %s:%d: %d labels for size %d", name, line, len(l.Labels), l.Size)
		}
		if l.Move < 0 {
			return nil, fmt.Errorf("read labels %s:%d: move %d", name, line, l.Move)
		}
		for i, v := range l.Labels {
			if v < -1 || v > 1 {
				return nil, fmt.Errorf("read labels %s:%d: owner %d at point %d, not -1, 0 or 1", name, line, v, i)
			}
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read labels %s: %w", name, err)
	}
	return out, nil
}
