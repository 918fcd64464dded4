package workbench

import (
	"fmt"
	"path/filepath"

	"aji/analysis/predict"

	"fyne.io/fyne/v2/dialog"
)

// LoadModel is File ▸ Load Model…: it registers a predictor for the model
// file at path (predict.Load names it after the file), offers it in both
// predictor choices and shows it on the main board, so a model being tuned
// can be compared with the default side by side. Decoding a large model
// takes seconds, so it runs off the UI thread and the result comes back
// through OnUI; an error is shown in a dialog.
func (wb *Workbench) LoadModel(path string) {
	wb.setStatus("loading the model %s…", filepath.Base(path))
	go func() {
		name, err := predict.Load(path)
		wb.opts.OnUI(func() {
			if err != nil {
				wb.setStatus("")
				dialog.ShowError(fmt.Errorf("load model: %w", err), wb.win)
				return
			}
			wb.panel.addPredictor(name)
			for _, t := range wb.tabs {
				t.predictorsChanged()
			}
			for _, t := range wb.tools {
				t.predictorsChanged()
			}
			wb.setStatus("%s loaded as the predictor %s", filepath.Base(path), name)
		})
	}()
}

// addPredictor offers a newly registered predictor in both choices and
// selects it for the main board, which analyses it.
func (p *panel) addPredictor(name string) {
	names := predict.Names()
	p.pred.SetOptions(names)
	p.other.SetOptions(names)
	p.pred.SetSelected(name)
}
