package workbench

import (
	"slices"
	"strconv"
	"strings"

	"aji/analysis/predict"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
)

// settings are the predictor panel's choices; they persist in the
// preferences between runs.
type settings struct {
	predictor   string // the main board's predictor
	compare     bool   // show a second board
	compareWith string // the second board's predictor
	topK        int    // candidates labelled
	scale       goban.Scale
	palette     goban.Palette
	hideBelow   float64 // probabilities below this are not coloured
	heat        bool    // heat layer shown
	tab         string  // the saved name of the tab shown below the controls; the panel checks it
}

// Preference keys.
const (
	prefPredictor   = "predictor"
	prefCompare     = "compare"
	prefCompareWith = "compare_with"
	prefTopK        = "top_k"
	prefScale       = "scale"
	prefPalette     = "palette"
	prefHideBelow   = "hide_below"
	prefHeat        = "heat"
	prefTab         = "tab"
	// The window and the split between boards and panel, saved when the
	// workbench stops.
	prefWindowWidth  = "window_width"
	prefWindowHeight = "window_height"
	prefSplit        = "split_offset"
	// prefLastMoves remembers, for the files opened last, the move the user
	// was looking at: "N\tPATH" strings, newest first.
	prefLastMoves = "last_moves"
)

// maxLastMoves is how many files' last moves are kept: the recent list's,
// and some more so a file dropped from it by a few others is still found.
const maxLastMoves = 3 * maxRecent

// defaultSplit is the share of the width the boards get by default, as in
// Sabaki and KaTrain; the panel keeps enough for the predictor controls.
const defaultSplit = 0.68

// lastViewed is the move the user last viewed in the file at path.
func lastViewed(p fyne.Preferences, path string) (int, bool) {
	for _, e := range p.StringList(prefLastMoves) {
		n, f, ok := strings.Cut(e, "\t")
		if !ok || f != path {
			continue
		}
		if m, err := strconv.Atoi(n); err == nil && m >= 0 {
			return m, true
		}
	}
	return 0, false
}

// saveLastViewed records move as the one the user last viewed in path.
func saveLastViewed(p fyne.Preferences, path string, move int) {
	list := slices.DeleteFunc(p.StringList(prefLastMoves), func(e string) bool {
		_, f, _ := strings.Cut(e, "\t")
		return f == path
	})
	list = append([]string{strconv.Itoa(move) + "\t" + path}, list...)
	if len(list) > maxLastMoves {
		list = list[:maxLastMoves]
	}
	p.SetStringList(prefLastMoves, list)
}

// windowSize is the saved size of the window, or def.
func windowSize(p fyne.Preferences, def fyne.Size) fyne.Size {
	w, h := p.Float(prefWindowWidth), p.Float(prefWindowHeight)
	// A size smaller than any usable window is a damaged preference.
	if w < 400 || h < 300 {
		return def
	}
	return fyne.NewSize(float32(w), float32(h))
}

// splitOffset is the saved split between boards and panel, or the default.
func splitOffset(p fyne.Preferences) float64 {
	if o := p.FloatWithFallback(prefSplit, defaultSplit); o >= 0.2 && o <= 0.9 {
		return o
	}
	return defaultSplit
}

// Choices offered by the panel.
var (
	topKChoices = []int{0, 1, 3, 5, 10, 20}
	hideChoices = []float64{0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05}
	scaleNames  = []string{"Linear", "Log"}
	scales      = []goban.Scale{goban.ScaleLinear, goban.ScaleLog}
	// Viridis first: perceptual and colour-blind-safe, the default.
	paletteNames = []string{"Viridis", "Cividis", "Hot"}
	palettes     = []goban.Palette{goban.PaletteViridis, goban.PaletteCividis, goban.PaletteHot}
)

// defaultPredictor is mm when it is registered, else the first name; the
// registry grows as predictors arrive, so the list is never written here.
func defaultPredictor(names []string) string {
	if slices.Contains(names, "mm") {
		return "mm"
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// loadSettings reads the saved settings, replacing any that no longer make
// sense (a predictor that is gone, an index out of range) by the defaults.
func loadSettings(p fyne.Preferences) settings {
	names := predict.Names()
	pick := func(key, def string) string {
		if v := p.String(key); slices.Contains(names, v) {
			return v
		}
		return def
	}
	s := settings{
		predictor: pick(prefPredictor, defaultPredictor(names)),
		compare:   p.Bool(prefCompare),
		topK:      p.IntWithFallback(prefTopK, 5),
		scale:     goban.ScaleLog,
		palette:   goban.PaletteViridis,
		hideBelow: p.FloatWithFallback(prefHideBelow, 0.001),
		heat:      p.BoolWithFallback(prefHeat, true),
		tab:       p.StringWithFallback(prefTab, tabInspector),
	}
	// By default compare with another predictor than the main one.
	other := s.predictor
	for _, n := range names {
		if n != s.predictor {
			other = n
			break
		}
	}
	s.compareWith = pick(prefCompareWith, other)
	if i := p.IntWithFallback(prefScale, 1); i >= 0 && i < len(scales) {
		s.scale = scales[i]
	}
	if i := p.Int(prefPalette); i >= 0 && i < len(palettes) {
		s.palette = palettes[i]
	}
	if !slices.Contains(topKChoices, s.topK) {
		s.topK = 5
	}
	if !slices.Contains(hideChoices, s.hideBelow) {
		s.hideBelow = 0.001
	}
	return s
}

// save writes the settings to the preferences.
func (s *settings) save(p fyne.Preferences) {
	p.SetString(prefPredictor, s.predictor)
	p.SetBool(prefCompare, s.compare)
	p.SetString(prefCompareWith, s.compareWith)
	p.SetInt(prefTopK, s.topK)
	p.SetInt(prefScale, slices.Index(scales, s.scale))
	p.SetInt(prefPalette, slices.Index(palettes, s.palette))
	p.SetFloat(prefHideBelow, s.hideBelow)
	p.SetBool(prefHeat, s.heat)
	p.SetString(prefTab, s.tab)
}
