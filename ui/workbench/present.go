package workbench

import (
	"fmt"
	"slices"
	"strconv"

	"aji/analysis/board"
	"aji/analysis/game"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Presentation mode, for a teacher showing a game to a room (issue #19):
// the main board alone, full screen, with larger labels and a caption
// under it; the heat map off until H, the record's next move hidden until
// R. It changes the whole window, so it is not a tab; the workbench asks it
// first for keys and clicks (Key, tapped), and render draws with its
// choices (settings, labelText, hidesNext). It only navigates: the game is
// never changed.

// Presentation keys.
const (
	keyPresent   = fyne.KeyF5     // enter (or leave)
	keyUnpresent = fyne.KeyEscape // leave
	keyHeat      = fyne.KeyH      // show or hide the heat map
	keyReveal    = fyne.KeyR      // reveal the record's next move
	keyTopK      = fyne.KeyK      // cycle the candidates labelled
	keyPercent   = fyne.KeyP      // percentages or ranks on the labels
)

// presentK are the numbers of candidates K cycles through.
var presentK = []int{0, 3, 5, 10}

const (
	presentDefaultK   = 5
	presentLabelScale = 1.6 // the labels' text size in presentation mode
)

type presenter struct {
	wb *Workbench
	on bool

	heat     bool       // the heat map is shown (H)
	k        int        // candidates labelled (K)
	ranks    bool       // labels show ranks 1..k rather than percentages (P)
	revealed *game.Node // R was pressed at this node: its next move is shown

	caption *widget.Label
	view    fyne.CanvasObject // the window's content while presenting

	// What entering replaced, put back on leaving.
	saved      fyne.CanvasObject
	fullScreen bool
}

func newPresenter(wb *Workbench) *presenter {
	p := &presenter{wb: wb, k: presentDefaultK}
	p.caption = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	p.caption.SizeName = theme.SizeNameSubHeadingText
	p.caption.Wrapping = fyne.TextWrapWord
	return p
}

// enter switches the window to presentation: full screen, the main board
// and the caption only. The heat map starts hidden and the next move
// secret; k and the percentages are kept from the last presentation.
func (p *presenter) enter() {
	if p.on {
		return
	}
	wb := p.wb
	p.on, p.heat, p.revealed = true, false, nil
	p.saved, p.fullScreen = wb.win.Content(), wb.win.FullScreen()
	p.view = container.NewBorder(nil, p.caption, nil, nil, wb.views[0].board)
	wb.win.SetContent(p.view)
	wb.win.SetFullScreen(true)
	wb.views[0].board.SetLabelScale(presentLabelScale)
	wb.render()
}

// leave puts the window back as it was before enter.
func (p *presenter) leave() {
	if !p.on {
		return
	}
	wb := p.wb
	p.on, p.revealed = false, nil
	wb.views[0].board.SetLabelScale(1)
	wb.win.SetContent(p.saved)
	wb.win.SetFullScreen(p.fullScreen)
	p.saved, p.view = nil, nil
	wb.render()
}

// takeKey handles the presentation keys: F5 anywhere, the others while
// presenting. Navigation keys are left to the workbench.
func (p *presenter) takeKey(key fyne.KeyName, mods fyne.KeyModifier) bool {
	if mods&^fyne.KeyModifierShift != 0 {
		return false
	}
	if key == keyPresent {
		if p.on {
			p.leave()
		} else {
			p.enter()
		}
		return true
	}
	if !p.on {
		return false
	}
	switch key {
	case keyUnpresent:
		p.leave()
		return true
	case keyHeat:
		p.heat = !p.heat
	case keyReveal:
		p.revealed = p.wb.doc.cursor.Node()
	case keyTopK:
		i := slices.Index(presentK, p.k)
		p.k = presentK[(i+1)%len(presentK)]
	case keyPercent:
		p.ranks = !p.ranks
	default:
		return false
	}
	p.wb.render()
	return true
}

// takeClick keeps clicks from playing moves: presenting only navigates.
func (p *presenter) takeClick() bool { return p.on }

// hidesNext reports whether the record's next move is kept secret: while
// presenting, until R at the position shown.
func (p *presenter) hidesNext() bool {
	return p.on && p.revealed != p.wb.doc.cursor.Node()
}

// settings are what render draws with: s, or while presenting a copy with
// the presenter's heat map and number of candidates.
func (p *presenter) settings(s *settings) *settings {
	if !p.on {
		return s
	}
	c := *s
	c.heat, c.topK = p.heat, p.k
	return &c
}

// labelText is the text of a candidate's label: its percentage, or while
// presenting with P its rank.
func (p *presenter) labelText() func(rank int, prob float64) string {
	if p.on && p.ranks {
		return func(rank int, _ float64) string { return strconv.Itoa(rank) }
	}
	return percentLabel
}

// render writes the caption: the players, the move, the labels' meaning,
// and once revealed the move played with its rank by the main predictor.
func (p *presenter) render() {
	if !p.on {
		return
	}
	wb := p.wb
	c := wb.doc.cursor
	pos := c.Position()
	in := c.Game().Info
	text := fmt.Sprintf("%s (B) vs %s (W) — move %d, %s to play", player(in.Black, in.BlackRank), player(in.White, in.WhiteRank),
		pos.MoveNumber, colorName(pos.ToPlay))
	if !p.hidesNext() {
		text += "\n" + p.played(c)
	}
	setText(p.caption, text)
}

// played is the caption's line for the record's next move, once revealed.
func (p *presenter) played(c *game.Cursor) string {
	size := c.Game().Size()
	n := c.Next()
	switch {
	case n == nil:
		return "Played: nothing — the end of the line"
	case n.Move == nil:
		return "Played: no move (a setup node)"
	case n.Move.Point == board.Pass:
		return fmt.Sprintf("Played: %s passed", colorName(n.Move.Color))
	}
	text := "Played: " + n.Move.Point.GTP(size)
	next, ok := nextMove(c)
	v := p.wb.views[0]
	if !ok || v.shown == nil || v.node != c.Node() {
		return text // out of turn, or the prediction is still coming
	}
	if r, prob, ok := v.shown.RankOf(next); ok {
		return fmt.Sprintf("%s — %s rank %d, %s", text, v.shown.Predictor, r, percent(prob))
	}
	return fmt.Sprintf("%s — illegal for %s", text, v.shown.Predictor)
}
