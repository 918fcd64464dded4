package workbench

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// panel is the right-hand side: game information, the predictor controls
// with the legend and the next move's rank, and the tabs (tabMakers).
type panel struct {
	wb *Workbench

	info      fyne.CanvasObject
	black     *widget.Label
	white     *widget.Label
	details   *widget.Label
	predictor fyne.CanvasObject
	pred      *widget.Select // the main board's predictor
	other     *widget.Select // the comparison board's
	quiet     bool           // a change made by the program, not to be saved
	legend    *goban.Legend
	next      *widget.Label
	tabs      *container.AppTabs
}

func newPanel(wb *Workbench) *panel {
	p := &panel{wb: wb}
	p.black, p.white = widget.NewLabel(""), widget.NewLabel("")
	p.black.Truncation, p.white.Truncation = fyne.TextTruncateEllipsis, fyne.TextTruncateEllipsis
	p.details = widget.NewLabel("")
	p.details.Wrapping = fyne.TextWrapWord
	p.info = container.NewVBox(
		heading("Game"),
		container.NewBorder(nil, nil, stoneIcon(goban.Black), nil, p.black),
		container.NewBorder(nil, nil, stoneIcon(goban.White), nil, p.white),
		p.details,
	)
	p.predictor = p.controls()
	// One pane of tabs below the controls: the inspector needs most of the
	// column's height, which it could not get beside the others.
	p.tabs = container.NewAppTabs()
	for _, t := range wb.tabs {
		b := t.base()
		b.item = container.NewTabItem(b.title, t.content())
		p.tabs.Append(b.item)
	}
	if wb.tabNamed(wb.settings.tab) == nil {
		wb.settings.tab = tabInspector
	}
	p.tabs.SelectIndex(slices.IndexFunc(wb.tabs, func(t tab) bool { return t.base().name == wb.settings.tab }))
	p.tabs.OnSelected = func(*container.TabItem) {
		s := &wb.settings
		if t := wb.tabs[p.tabs.SelectedIndex()]; t.base().name != s.tab {
			if d, ok := wb.tabNamed(s.tab).(deselecter); ok {
				d.deselected()
			}
			s.tab = t.base().name
			s.save(wb.opts.Preferences)
			t.selected()
			wb.showLayers() // a tab may draw only while it is shown
		}
		// Keep the arrow keys for navigation.
		if c := wb.win.Canvas(); c != nil {
			c.Unfocus()
		}
	}
	return p
}

// heading titles a section of the panel.
func heading(s string) fyne.CanvasObject {
	l := widget.NewLabelWithStyle(strings.ToUpper(s), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.SizeName = theme.SizeNameCaptionText
	l.Importance = widget.LowImportance
	return container.NewVBox(widget.NewSeparator(), l)
}

// stoneIcon is a small stone, for the players and the side to move.
func stoneIcon(s goban.Stone) fyne.CanvasObject {
	c := canvas.NewCircle(color.NRGBA{R: 16, G: 16, B: 16, A: 255})
	c.StrokeColor = color.NRGBA{R: 128, G: 128, B: 128, A: 255}
	c.StrokeWidth = 1
	if s == goban.White {
		c.FillColor = color.NRGBA{R: 242, G: 240, B: 232, A: 255}
	}
	return container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(14), c))
}

// showInfo fills the game information of a newly loaded game.
func (p *panel) showInfo(in game.Info) {
	p.black.SetText(player(in.Black, in.BlackRank))
	p.white.SetText(player(in.White, in.WhiteRank))
	var parts []string
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, label+" "+v)
		}
	}
	add("Komi", strconv.FormatFloat(in.Komi, 'f', -1, 64))
	if in.Handicap >= 2 {
		add("Handicap", strconv.Itoa(in.Handicap))
	}
	add("Result", in.Result)
	add("Rules", in.Rules)
	line := strings.Join(parts, " · ")
	if when := strings.Join(slices.DeleteFunc([]string{in.Date, in.Event}, func(s string) bool { return s == "" }), " · "); when != "" {
		line += "\n" + when
	}
	p.details.SetText(line)
}

// showNext writes the record's next move and each predictor's rank for it.
func (p *panel) showNext(lines []string, next board.Point, hasNext bool, c *game.Cursor) {
	var text string
	switch {
	case c.Next() == nil:
		text = "Next move: none — end of the line"
	case !hasNext:
		text = "Next move: not a move for the side to play"
	case len(lines) == 0:
		text = fmt.Sprintf("Next move: %s", next.GTP(c.Game().Size()))
	default:
		text = fmt.Sprintf("Next move: %s — %s", next.GTP(c.Game().Size()), strings.Join(lines, "; "))
	}
	if p.next.Text != text {
		p.next.SetText(text)
	}
}

// controls builds the predictor panel. Every control changes a setting,
// saves it, and redraws — only a change of predictor needs new analysis.
func (p *panel) controls() fyne.CanvasObject {
	wb := p.wb
	s := &wb.settings
	names := predict.Names()
	changed := func(reanalyze bool) {
		if !p.quiet {
			s.save(wb.opts.Preferences)
		}
		p.legend.Set(s.scale, s.palette)
		wb.layoutBoards()
		if reanalyze {
			wb.analyze()
		}
		wb.render()
		// The controls take the keyboard focus when used; give the arrow
		// keys back to navigation.
		if c := wb.win.Canvas(); c != nil {
			c.Unfocus()
		}
	}

	p.pred = widget.NewSelect(names, nil)
	p.pred.SetSelected(s.predictor)
	p.pred.OnChanged = func(v string) { s.predictor = v; changed(true) }

	p.other = widget.NewSelect(names, nil)
	p.other.SetSelected(s.compareWith)
	p.other.OnChanged = func(v string) { s.compareWith = v; changed(s.compare) }
	compare := widget.NewCheck("Compare with", nil)
	compare.SetChecked(s.compare)
	compare.OnChanged = func(on bool) { s.compare = on; changed(true) }

	topNames := make([]string, len(topKChoices))
	for i, k := range topKChoices {
		topNames[i] = strconv.Itoa(k)
	}
	top := widget.NewSelect(topNames, nil)
	top.SetSelected(strconv.Itoa(s.topK))
	top.OnChanged = func(v string) { s.topK, _ = strconv.Atoi(v); changed(false) }

	scale := widget.NewRadioGroup(scaleNames, nil)
	scale.Horizontal = true
	scale.Required = true
	scale.SetSelected(scaleNames[slices.Index(scales, s.scale)])
	scale.OnChanged = func(v string) { s.scale = scales[slices.Index(scaleNames, v)]; changed(false) }

	palette := widget.NewSelect(paletteNames, nil)
	palette.SetSelected(paletteNames[slices.Index(palettes, s.palette)])
	palette.OnChanged = func(v string) { s.palette = palettes[slices.Index(paletteNames, v)]; changed(false) }

	hideNames := make([]string, len(hideChoices))
	for i, h := range hideChoices {
		hideNames[i] = "off"
		if h > 0 {
			hideNames[i] = percent(h)
		}
	}
	hide := widget.NewSelect(hideNames, nil)
	hide.SetSelected(hideNames[slices.Index(hideChoices, s.hideBelow)])
	hide.OnChanged = func(v string) { s.hideBelow = hideChoices[slices.Index(hideNames, v)]; changed(false) }

	heat := widget.NewCheck("Heat map", nil)
	heat.SetChecked(s.heat)
	heat.OnChanged = func(on bool) { s.heat = on; changed(false) }

	p.legend = goban.NewLegend()
	p.legend.Set(s.scale, s.palette)
	p.next = widget.NewLabel("")
	p.next.Wrapping = fyne.TextWrapWord
	p.next.TextStyle.Bold = true

	form := container.New(layout.NewFormLayout(),
		widget.NewLabel("Predictor"), p.pred,
		compare, p.other,
		widget.NewLabel("Top moves"), top,
		widget.NewLabel("Scale"), scale,
		widget.NewLabel("Palette"), palette,
		widget.NewLabel("Hide below"), hide,
	)
	return container.NewVBox(heading("Move prediction"), form, container.NewBorder(nil, nil, heat, nil, p.legend), p.next)
}

// captionLabel names the predictor above a board in side-by-side mode.
type captionLabel struct{ *widget.Label }

func newCaption() *captionLabel {
	return &captionLabel{widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})}
}

func (c *captionLabel) set(name string) {
	if c.Text != name {
		c.SetText(name)
	}
}

// replace switches a board from a predictor that failed to another, without
// saving the switch: the saved choice returns once the predictor works (a
// model file installed, say).
func (p *panel) replace(board int, name string) {
	sel := p.pred
	if board == 1 {
		sel = p.other
	}
	p.quiet = true
	sel.SetSelected(name)
	p.quiet = false
}
