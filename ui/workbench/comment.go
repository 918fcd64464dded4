package workbench

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// tabComment is the saved name of the Comment tab.
const tabComment = "comment"

// Titles of the comment's tab: a dot says there is a comment to read
// while another tab hides it.
const (
	commentTitle     = "Comment"
	commentTitleMark = "Comment •"
)

// commentTab shows the comment of the current node.
type commentTab struct {
	tabBase
	text   *widget.Label
	scroll *container.Scroll
}

func newCommentTab(wb *Workbench) tab {
	ct := &commentTab{tabBase: tabBase{wb: wb, name: tabComment, title: commentTitle}, text: widget.NewLabel("")}
	ct.text.Wrapping = fyne.TextWrapWord
	ct.scroll = container.NewVScroll(ct.text)
	return ct
}

func (ct *commentTab) content() fyne.CanvasObject { return ct.scroll }

// navigated shows the comment of the current node, or says there is none.
func (ct *commentTab) navigated() {
	text := strings.TrimSpace(ct.wb.doc.cursor.Node().Comment)
	importance := widget.MediumImportance
	if text == "" {
		text, importance = "No comment.", widget.LowImportance
	}
	if ct.text.Text != text {
		ct.text.Importance = importance
		ct.text.SetText(text)
		ct.scroll.ScrollToTop()
	}
	title := commentTitle
	if importance != widget.LowImportance {
		title = commentTitleMark
	}
	if ct.item.Text != title {
		ct.item.Text = title
		ct.wb.panel.tabs.Refresh()
	}
}
