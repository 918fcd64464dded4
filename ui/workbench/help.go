package workbench

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Version is the app's version, as in FyneApp.toml (a test keeps the two equal): a plain go build
// carries no Fyne metadata, so About cannot read it from the app.
const Version = "0.1.0"

// shortcut is one line of Help ▸ Keyboard shortcuts.
type shortcut struct{ keys, does string }

// shortcutGroup is a titled block of shortcuts.
type shortcutGroup struct {
	title string
	keys  []shortcut
}

// shortcuts lists every key the workbench handles, where it handles it: Key and the menus (nav.go,
// file.go), the presenter (present.go), the Reading tab (reading.go) and the Guess tab (guess.go).
// Ctrl is ⌘ on a Mac.
var shortcuts = []shortcutGroup{
	{"Moving through the game", []shortcut{
		{"← / →", "previous / next move"},
		{"Shift+← / Shift+→, Page Up / Page Down", "back / forward 10 moves"},
		{"Home / End", "start / end of the variation"},
		{"↑ / ↓", "previous / next variation"},
		{"Mouse wheel over the board", "one move per notch"},
		{"Click an empty point", "play there (a move off the record makes a variation)"},
		{"Hover a point", "the Inspector tab explains its probability"},
	}},
	{"Files", []shortcut{
		{"Ctrl+N", "new game"},
		{"Ctrl+O", "open a game record"},
		{"Ctrl+S / Ctrl+Shift+S", "save / save as"},
		{"Ctrl+Q", "quit (asks about unsaved moves)"},
	}},
	{"Presentation mode", []shortcut{
		{"F5", "enter or leave presentation mode"},
		{"Esc", "leave presentation mode"},
		{"H", "show or hide the heat map"},
		{"R", "reveal the record's next move"},
		{"K", "cycle the number of candidates labelled"},
		{"P", "percentages or ranks on the labels"},
	}},
	{"Reading a chain", []shortcut{
		{"R", "read the chain under the pointer: can it be captured, can it be saved"},
		{"Click a stone (Reading tab shown)", "read its chain"},
		{"Esc", "clear the read and its line"},
	}},
	{"Why not? (Why not? tab shown)", []shortcut{
		{"Click a legal point", "compare it as A (default: the record's next move)"},
		{"Shift+click a legal point", "compare it as B (default: the predictor's top move)"},
	}},
	{"Guess the next move (Guess tab)", []shortcut{
		{"G", "start guessing (with the Guess tab shown)"},
		{"Click, or arrows then Space", "guess a point"},
		{"Enter", "reveal the move"},
		{"H", "show the predictors' guesses"},
		{"Esc", "stop guessing"},
	}},
}

// papers are the sources Aji implements, for Help ▸ About.
var papers = []string{
	"Coulom (2007), Computing Elo ratings of move patterns in the game of Go: the mm predictor",
	"Stern (2008), Modelling uncertainty in the game of Go: the bayes predictors, territory, tactics",
	"Xiao et al. (2016), Factorization Bradley-Terry models: the fbt predictor",
	"Graf & Platzner, Common fate graph patterns in Monte Carlo tree search: the cfg predictor",
	"Convolutional networks for next-move prediction in Go (27 input planes): the cnn predictor",
}

// firstStartHint is the status bar's message on the app's first start.
const firstStartHint = "Welcome! ← → step through the game · hover a point to inspect it · Help › Keyboard shortcuts"

// prefHintShown records that the first-start hint was shown.
const prefHintShown = "first_start_hint_shown"

// withHelp adds the Help menu to the main menu.
func (wb *Workbench) withHelp(m *fyne.MainMenu) *fyne.MainMenu {
	keys := fyne.NewMenuItem("Keyboard Shortcuts", wb.showShortcuts)
	about := fyne.NewMenuItem("About Aji", wb.showAbout)
	m.Items = append(m.Items, fyne.NewMenu("Help", keys, about))
	return m
}

// shortcutsText is the shortcuts as plain text, one line each.
func shortcutsText() string {
	var sb strings.Builder
	for i, g := range shortcuts {
		if i > 0 {
			sb.WriteString("\n")
		}
		fmt.Fprintf(&sb, "%s\n", g.title)
		for _, s := range g.keys {
			fmt.Fprintf(&sb, "  %s: %s\n", s.keys, s.does)
		}
	}
	return sb.String()
}

// showShortcuts opens Help ▸ Keyboard shortcuts.
func (wb *Workbench) showShortcuts() {
	form := container.NewVBox()
	for _, g := range shortcuts {
		form.Add(heading(g.title))
		grid := container.New(newKeysLayout())
		for _, s := range g.keys {
			k := widget.NewLabelWithStyle(s.keys, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			grid.Add(k)
			grid.Add(widget.NewLabel(s.does))
		}
		form.Add(grid)
	}
	scroll := container.NewVScroll(form)
	d := dialog.NewCustom("Keyboard shortcuts", "Close", scroll, wb.win)
	d.Resize(fyne.NewSize(640, 560))
	d.Show()
}

// newKeysLayout is two columns: keys, then what they do.
func newKeysLayout() fyne.Layout { return &formLike{} }

// formLike lays out pairs of objects as rows of two columns, the first as wide as its widest cell.
type formLike struct{}

func (*formLike) widths(objs []fyne.CanvasObject) (float32, float32) {
	var w0, w1 float32
	for i, o := range objs {
		if i%2 == 0 {
			w0 = max(w0, o.MinSize().Width)
		} else {
			w1 = max(w1, o.MinSize().Width)
		}
	}
	return w0, w1
}

func (f *formLike) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w0, w1 := f.widths(objs)
	var h float32
	for i := 0; i+1 < len(objs); i += 2 {
		h += max(objs[i].MinSize().Height, objs[i+1].MinSize().Height)
	}
	return fyne.NewSize(w0+w1, h)
}

func (f *formLike) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w0, _ := f.widths(objs)
	var y float32
	for i := 0; i+1 < len(objs); i += 2 {
		h := max(objs[i].MinSize().Height, objs[i+1].MinSize().Height)
		objs[i].Move(fyne.NewPos(0, y))
		objs[i].Resize(fyne.NewSize(w0, h))
		objs[i+1].Move(fyne.NewPos(w0, y))
		objs[i+1].Resize(fyne.NewSize(size.Width-w0, h))
		y += h
	}
}

// aboutText is Help ▸ About's text.
func aboutText() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Aji %s\n\n", Version)
	sb.WriteString("A workbench for studying Go (baduk, weiqi) games: move predictors' heat maps, territory,\n")
	sb.WriteString("common fate graphs and tree search, computed live as you step through a game.\n")
	sb.WriteString("\"Aji\" is the Go word for the latent possibilities left in a position.\n\n")
	sb.WriteString("It implements:\n")
	for _, p := range papers {
		fmt.Fprintf(&sb, "  • %s\n", p)
	}
	sb.WriteString("\nThe headless command line is aji (aji help). Built with Fyne and gonum.\n")
	sb.WriteString("License: the repository states none yet.")
	return sb.String()
}

// showAbout opens Help ▸ About.
func (wb *Workbench) showAbout() {
	l := widget.NewLabel(aboutText())
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("About Aji", "Close", l, wb.win)
	d.Resize(fyne.NewSize(640, 0))
	d.Show()
}

// showFirstStartHint puts the first-start hint in the status bar, once per user: it reports
// whether it did. The next navigation clears it, like any status message.
func (wb *Workbench) showFirstStartHint() bool {
	p := wb.opts.Preferences
	if p.Bool(prefHintShown) {
		return false
	}
	p.SetBool(prefHintShown, true)
	wb.setStatus("%s", firstStartHint)
	return true
}

// Start shows what the app opens with: the game in path at move (negative: where the user last
// left that file, else its end), or with no path the sample (name, data) at move (negative: the
// first move, where a newcomer starts). On the first start it also shows a hint in the status bar.
// A record that cannot be read is returned as an error and leaves the empty board.
func (wb *Workbench) Start(path string, move int, name string, data []byte) error {
	var err error
	if path != "" {
		err = wb.ShowFile(path, move)
	} else {
		err = wb.Show(name, "", data, max(move, 0))
	}
	wb.showFirstStartHint()
	return err
}
