package workbench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"aji/analysis/game"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// document is the game being studied and where it lives on disk.
type document struct {
	cursor *game.Cursor
	name   string    // file or sample name, for the title and messages
	path   string    // file to save to; empty for a sample or a new game
	stamp  fileStamp // the file as last read or written, to notice changes by others
	games  int       // games in the file; the first is shown
}

// fileStamp identifies a version of a file on disk.
type fileStamp struct {
	size int64
	mod  time.Time
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{fi.Size(), fi.ModTime()}
}

// maxRecent is how many files File ▸ Open Recent lists.
const maxRecent = 10

const prefRecent = "recent"

// Show replaces the game with the first game of data (an SGF collection
// named name, read from path, which is empty for an embedded sample) at move
// move of the main line (negative: its end). A record that does not parse
// changes nothing and is returned as an error; an illegal move inside the
// record is not an error here: the cursor stops before it and the status bar
// says why.
func (wb *Workbench) Show(name, path string, data []byte, move int) error {
	games, err := game.Parse(data)
	if err == nil && len(games) == 0 {
		err = errors.New("no game in the file")
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	c, err := game.NewCursor(games[0])
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	wb.rememberMove() // of the file being left
	doc := &document{cursor: c, name: name, path: path, games: len(games)}
	if path != "" {
		doc.stamp = stampOf(path)
	}
	if move < 0 {
		err = c.End()
	} else {
		_, err = c.Forward(move)
	}
	wb.doc = doc
	wb.panel.showInfo(games[0].Info)
	wb.changed(true)
	switch {
	case err != nil:
		wb.setStatus("%s: the record stops here: %v", name, err)
	case len(games) > 1:
		wb.setStatus("%s holds %d games; showing the first", name, len(games))
	}
	if path != "" {
		wb.addRecent(path)
	}
	return nil
}

// OpenPath loads a file, asking first about unsaved changes; errors are shown
// in a dialog.
func (wb *Workbench) OpenPath(path string) {
	wb.confirmDiscard(func() { wb.load(path) })
}

func (wb *Workbench) load(path string) {
	if err := wb.ShowFile(path, -1); err != nil {
		dialog.ShowError(fmt.Errorf("open: %w", err), wb.win)
	}
}

// ShowFile is Show for a file: it replaces the game with the first game in
// path, at move move of the main line (negative: the move the user last
// viewed in that file, else its end).
func (wb *Workbench) ShowFile(path string, move int) error {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	wb.rememberMove() // first, in case path is the file shown
	if m, ok := lastViewed(wb.opts.Preferences, path); ok && move < 0 {
		move = m
	}
	data, err := readRecord(path)
	if err != nil {
		return err
	}
	return wb.Show(filepath.Base(path), path, data, move)
}

// maxRecordBytes bounds what the app reads as one record; the largest
// professional records with commentary are well under a megabyte.
const maxRecordBytes = 32 << 20

func readRecord(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxRecordBytes {
		return nil, fmt.Errorf("%s: larger than %d MB, not a game record", path, maxRecordBytes>>20)
	}
	return data, nil
}

// openDialog lets the user pick an .sgf file.
func (wb *Workbench) openDialog() {
	wb.confirmDiscard(func() { wb.pickFile([]string{".sgf", ".SGF"}, wb.load) })
}

// pickFile shows a file dialog for files with one of the extensions, in the
// current file's folder, and calls open with the path chosen.
func (wb *Workbench) pickFile(extensions []string, open func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, wb.win)
			return
		}
		if r == nil {
			return // cancelled
		}
		r.Close()
		open(r.URI().Path())
	}, wb.win)
	d.SetFilter(storage.NewExtensionFileFilter(extensions))
	if loc := wb.folder(); loc != nil {
		d.SetLocation(loc)
	}
	d.Resize(fyne.NewSize(800, 600))
	d.Show()
}

// folder is the folder of the current file, where the file dialog starts.
func (wb *Workbench) folder() fyne.ListableURI {
	if wb.doc.path == "" {
		return nil
	}
	l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(wb.doc.path)))
	if err != nil {
		return nil
	}
	return l
}

// dropped opens the first game record dropped onto the window.
func (wb *Workbench) dropped(_ fyne.Position, uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() == "file" && strings.EqualFold(u.Extension(), ".sgf") {
			wb.OpenPath(u.Path())
			return
		}
	}
	if len(uris) > 0 {
		wb.setStatus("dropped %s: not an .sgf file", uris[0].Name())
	}
}

// Save writes the game to its file, or asks for one. A file changed on disk
// since it was read is not overwritten without asking.
func (wb *Workbench) Save(then func()) {
	doc := wb.doc
	if doc.path == "" {
		wb.SaveAs(then)
		return
	}
	if st := stampOf(doc.path); st != (fileStamp{}) && st != doc.stamp {
		dialog.ShowConfirm("File changed on disk",
			fmt.Sprintf("%s was changed by another program since Aji read it.\nOverwrite it with this game?", doc.name),
			func(ok bool) {
				if ok {
					wb.saveTo(doc.path, then)
				}
			}, wb.win)
		return
	}
	wb.saveTo(doc.path, then)
}

// SaveAs asks for a file name and saves there. Fyne's save dialog opens, and
// so truncates, an existing file before handing it over, which would defeat
// the atomic save; this form asks for the path instead and only the atomic
// rename replaces a file, after the user confirmed it.
func (wb *Workbench) SaveAs(then func()) {
	entry := widget.NewEntry()
	entry.SetText(wb.suggestPath())
	browse := widget.NewButton("Folder…", func() {
		dialog.ShowFolderOpen(func(dir fyne.ListableURI, err error) {
			if err == nil && dir != nil {
				entry.SetText(filepath.Join(dir.Path(), filepath.Base(entry.Text)))
			}
		}, wb.win)
	})
	items := []*widget.FormItem{{Text: "File", Widget: container.NewBorder(nil, nil, nil, browse, entry)}}
	d := dialog.NewForm("Save game as", "Save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		path := filepath.Clean(strings.TrimSpace(entry.Text))
		if filepath.Ext(path) == "" {
			path += ".sgf"
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		if fi, err := os.Stat(path); err == nil {
			if fi.IsDir() {
				dialog.ShowError(fmt.Errorf("%s is a folder", path), wb.win)
				return
			}
			if path != wb.doc.path {
				dialog.ShowConfirm("Replace file?", fmt.Sprintf("%s already exists.\nReplace it with this game?", path),
					func(ok bool) {
						if ok {
							wb.saveTo(path, then)
						}
					}, wb.win)
				return
			}
		}
		wb.saveTo(path, then)
	}, wb.win)
	d.Resize(fyne.NewSize(640, 0))
	d.Show()
}

// suggestPath proposes the current file, or a name in the home folder.
func (wb *Workbench) suggestPath() string {
	if wb.doc.path != "" {
		return wb.doc.path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	name := strings.TrimSuffix(wb.doc.name, filepath.Ext(wb.doc.name))
	if name == "" || name == "new game" {
		name = "game"
	}
	return filepath.Join(home, name+".sgf")
}

// saveTo writes the game atomically and, on success, makes path the
// document's file and runs then.
func (wb *Workbench) saveTo(path string, then func()) {
	if err := wb.doc.cursor.SaveFile(path); err != nil {
		dialog.ShowError(err, wb.win)
		return
	}
	wb.doc.path, wb.doc.name, wb.doc.stamp = path, filepath.Base(path), stampOf(path)
	wb.addRecent(path)
	wb.updateTitle()
	wb.setStatus("saved %s", path)
	if then != nil {
		then()
	}
}

// confirmDiscard runs next at once when nothing is unsaved; otherwise it
// asks whether to save first, discard, or cancel (and then not run next).
func (wb *Workbench) confirmDiscard(next func()) {
	if !wb.doc.cursor.Modified() {
		next()
		return
	}
	msg := widget.NewLabel(fmt.Sprintf("%s has moves that are not saved.", wb.doc.name))
	d := dialog.NewCustomWithoutButtons("Unsaved changes", msg, wb.win)
	save := widget.NewButton("Save", func() { d.Hide(); wb.Save(next) })
	save.Importance = widget.HighImportance
	discard := widget.NewButton("Discard", func() { d.Hide(); next() })
	discard.Importance = widget.DangerImportance
	cancel := widget.NewButton("Cancel", d.Hide)
	d.SetButtons([]fyne.CanvasObject{cancel, discard, save})
	d.Show()
}

// RequestClose is the window's close intercept: it quits unless the user
// cancels on unsaved changes.
func (wb *Workbench) RequestClose() {
	wb.confirmDiscard(func() {
		wb.Stop()
		wb.opts.Quit()
	})
}

// addRecent puts path first in the recent files.
func (wb *Workbench) addRecent(path string) {
	p := wb.opts.Preferences
	list := slices.DeleteFunc(p.StringList(prefRecent), func(s string) bool { return s == path })
	list = append([]string{path}, list...)
	if len(list) > maxRecent {
		list = list[:maxRecent]
	}
	p.SetStringList(prefRecent, list)
	wb.refreshRecent()
}

// refreshRecent rebuilds File ▸ Open Recent from the preferences.
func (wb *Workbench) refreshRecent() {
	if wb.recent == nil {
		return
	}
	list := wb.opts.Preferences.StringList(prefRecent)
	items := make([]*fyne.MenuItem, 0, len(list)+2)
	for _, path := range list {
		items = append(items, fyne.NewMenuItem(path, func() { wb.OpenPath(path) }))
	}
	if len(items) == 0 {
		none := fyne.NewMenuItem("No recent files", nil)
		none.Disabled = true
		items = append(items, none)
	} else {
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Clear list", func() {
			wb.opts.Preferences.SetStringList(prefRecent, nil)
			wb.refreshRecent()
		}))
	}
	wb.recent.ChildMenu.Items = items
	if m := wb.win.MainMenu(); m != nil {
		m.Refresh()
	}
}

// mainMenu is File (open, recent, save, load a model), View (presentation
// mode), Go (navigation with its keys) and Tools (the model browser).
func (wb *Workbench) mainMenu() *fyne.MainMenu {
	newGame := fyne.NewMenuItem("New…", wb.newGameDialog)
	newGame.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault}
	open := fyne.NewMenuItem("Open…", wb.openDialog)
	open.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	wb.recent = fyne.NewMenuItem("Open Recent", nil)
	wb.recent.ChildMenu = fyne.NewMenu("")
	save := fyne.NewMenuItem("Save", func() { wb.Save(nil) })
	save.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}
	saveAs := fyne.NewMenuItem("Save As…", func() { wb.SaveAs(nil) })
	saveAs.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	quit := fyne.NewMenuItem("Quit", wb.RequestClose)
	quit.IsQuit = true // Fyne's own Quit item would skip the unsaved-changes check
	quit.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}
	loadModel := fyne.NewMenuItem("Load Model…", func() { wb.pickFile([]string{".ajim"}, wb.LoadModel) })
	export := fyne.NewMenuItem("Export Image…", wb.exportDialog)
	file := fyne.NewMenu("File", newGame, open, wb.recent, fyne.NewMenuItemSeparator(), save, saveAs, export,
		fyne.NewMenuItemSeparator(), loadModel, fyne.NewMenuItemSeparator(), quit)

	item := func(label string, key fyne.KeyName, mods fyne.KeyModifier) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, func() { wb.Key(key, mods) })
		// Shown in the menu only: Fyne never treats a bare or Shift-only key
		// as a menu shortcut, so the key itself still reaches Key.
		it.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: mods}
		return it
	}
	nav := fyne.NewMenu("Go",
		item("Previous move", fyne.KeyLeft, 0), item("Next move", fyne.KeyRight, 0),
		item("Back 10 moves", fyne.KeyLeft, fyne.KeyModifierShift), item("Forward 10 moves", fyne.KeyRight, fyne.KeyModifierShift),
		item("Start", fyne.KeyHome, 0), item("End", fyne.KeyEnd, 0),
		fyne.NewMenuItemSeparator(),
		item("Previous variation", fyne.KeyUp, 0), item("Next variation", fyne.KeyDown, 0))
	view := fyne.NewMenu("View", item("Presentation mode", keyPresent, 0))
	tools := fyne.NewMenu("Tools", fyne.NewMenuItem("Model browser…", func() { wb.showModelBrowser() }))
	wb.refreshRecent()
	return fyne.NewMainMenu(file, view, nav, tools)
}
