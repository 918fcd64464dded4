package workbench

import (
	"cmp"
	"slices"

	"aji/analysis/engine"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// tabMakers build the tabs below the predictor controls, in their order.
// A new panel is one file with a maker, and one line here.
var tabMakers = []func(*Workbench) tab{
	newMovesTab,
	newCommentTab,
	newInspectorTab,
	newWhyNotTab,
	newTerritoryTab,
	newSearchTab,
	newReadingTab,
	newCFGTab,
	newReviewTab,
	newGuessTab,
	newEditTab,
	newEnginesTab,
}

// tab is a panel of the workbench: its content, what it asks the engine
// for the position shown, what it draws on the boards, and how it follows
// the user. The workbench calls every hook on the Fyne goroutine, and calls
// them on every tab, shown or not: a tab decides what to do while hidden.
// Embed tabBase for the hooks a tab does not need.
type tab interface {
	base() *tabBase
	// content is the tab's view; it is asked for once.
	content() fyne.CanvasObject
	// tasks are the tab's engine tasks for the position shown; shown says
	// whether its tab is selected. Board tasks feed what the boards draw and
	// run before any text task, which fills only the tab; the shown tab's
	// text tasks run before the hidden tabs'.
	tasks(shown bool) (board, text []engine.Task)
	// layer is what the tab draws on both boards now (nil: nothing), and
	// its depth: below the heat map when negative, else above the labels,
	// deeper first. The tab calls Workbench.showLayers when it changes.
	layer() (l goban.Layer, depth int)
	// navigated follows a change of the position shown, or a redraw of it,
	// before the analysis starts.
	navigated()
	// render draws the results delivered with the current settings, after
	// any result or change of setting.
	render()
	// hovered follows the pointer over board view, after the workbench's
	// hoverState has.
	hovered(view int, p goban.Point, inside bool)
	// selected follows the user's choice of this tab.
	selected()
	// predictorsChanged follows the registration of a predictor (File ▸
	// Load Model…), for a tab that offers a choice of predictors.
	predictorsChanged()
	// stop ends the tab's own goroutines, for Workbench.Stop.
	stop()
}

// Optional hooks a tab may implement besides the tab interface.
type (
	// underLayerer draws a second layer at another depth than layer's:
	// the Search tab's ownership estimate goes under the heat map, its
	// candidates above the labels.
	underLayerer interface {
		underLayer() (l goban.Layer, depth int)
	}
	// deselecter follows the user leaving the tab for another.
	deselecter interface{ deselected() }
)

// tabBase is what every tab has, and the hooks it may not need.
type tabBase struct {
	wb    *Workbench
	name  string // saved in the preferences: never change one
	title string
	item  *container.TabItem // set by the panel
}

func (b *tabBase) base() *tabBase { return b }

// shown reports whether the tab is the one selected.
func (b *tabBase) shown() bool { return b.wb.settings.tab == b.name }

func (*tabBase) tasks(bool) (board, text []engine.Task) { return nil, nil }
func (*tabBase) layer() (goban.Layer, int)              { return nil, 0 }
func (*tabBase) navigated()                             {}
func (*tabBase) render()                                {}
func (*tabBase) hovered(int, goban.Point, bool)         {}
func (*tabBase) selected()                              {}
func (*tabBase) predictorsChanged()                     {}
func (*tabBase) stop()                                  {}

// tabNamed is the tab saved as name, or nil.
func (wb *Workbench) tabNamed(name string) tab {
	for _, t := range wb.tabs {
		if t.base().name == name {
			return t
		}
	}
	return nil
}

// tabTasks are the tabs' tasks in the order the engine should run them:
// board tasks, then the shown tab's text tasks, then the others'.
func (wb *Workbench) tabTasks() []engine.Task {
	var boardTasks, shownText, hiddenText []engine.Task
	for _, t := range wb.tabs {
		shown := t.base().shown()
		b, text := t.tasks(shown)
		boardTasks = append(boardTasks, b...)
		if shown {
			shownText = append(shownText, text...)
		} else {
			hiddenText = append(hiddenText, text...)
		}
	}
	return slices.Concat(boardTasks, shownText, hiddenText)
}

// showLayers puts the tabs' layers on both boards, in depth order.
func (wb *Workbench) showLayers() {
	type placed struct {
		l     goban.Layer
		depth int
	}
	var ls []placed
	for _, t := range wb.tabs {
		if l, d := t.layer(); l != nil {
			ls = append(ls, placed{l, d})
		}
		if u, ok := t.(underLayerer); ok {
			if l, d := u.underLayer(); l != nil {
				ls = append(ls, placed{l, d})
			}
		}
	}
	slices.SortStableFunc(ls, func(a, b placed) int { return cmp.Compare(a.depth, b.depth) })
	var under, over []goban.Layer
	for _, p := range ls {
		if p.depth < 0 {
			under = append(under, p.l)
		} else {
			over = append(over, p.l)
		}
	}
	for _, v := range wb.views {
		v.board.SetLayers(under, over)
	}
}
