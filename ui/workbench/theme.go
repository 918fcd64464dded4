package workbench

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Theme is Fyne's default theme made denser, as desktop analysis tools are:
// the right-hand panel then holds game information, the predictor controls,
// the comment and a useful stretch of the move list without scrolling.
func Theme() fyne.Theme { return compact{theme.DefaultTheme()} }

type compact struct{ fyne.Theme }

// Size implements fyne.Theme.
func (c compact) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNameText:
		return 13
	case theme.SizeNameInnerPadding:
		return 5
	case theme.SizeNameLineSpacing:
		return 3
	case theme.SizeNameInlineIcon:
		return 16
	}
	return c.Theme.Size(n)
}
