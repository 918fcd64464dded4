package workbench

import "fyne.io/fyne/v2"

// toolWindow is a window of its own beside the main one (Tools ▸ Model
// browser…, "Where does it fire?"). The workbench keeps the open ones: it
// tells them of a predictor loaded from a file and closes them when it
// stops, so a new tool window is its own file and a menu line.
type toolWindow interface {
	window() fyne.Window
	// predictorsChanged follows File ▸ Load Model….
	predictorsChanged()
}

// openTool shows t and keeps it until its window closes; onClosed then
// ends t's own work.
func (wb *Workbench) openTool(t toolWindow, onClosed func()) {
	wb.tools = append(wb.tools, t)
	t.window().SetOnClosed(func() {
		for i, o := range wb.tools {
			if o == t {
				wb.tools = append(wb.tools[:i], wb.tools[i+1:]...)
				break
			}
		}
		onClosed()
	})
	t.window().Show()
}

// toolOf returns the open tool window of type T, if there is one.
func toolOf[T toolWindow](wb *Workbench) (T, bool) {
	for _, t := range wb.tools {
		if t, ok := t.(T); ok {
			return t, true
		}
	}
	var none T
	return none, false
}
