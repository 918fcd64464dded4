package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	_ "aji/analysis/predict/all" // every predictor registers itself
	"aji/assets"
	"aji/internal/modelenv"
	"aji/ui/goban"
	"aji/ui/workbench"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/dialog"
)

// appID matches FyneApp.toml; Fyne keys preferences and storage on it.
const appID = "dev.aji.workbench"

func main() {
	// Taken first so the start-up figure covers flag parsing, loading the
	// record and creating the window, not just drawing.
	start := time.Now()

	move := flag.Int("move", -1, "show the position after `N` main-line moves (default: the sample's first, a file's last viewed, else its last)")
	verbose := flag.Bool("v", false, "log at debug level: repaints, navigation-to-heat-map times")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: aji-app [-move N] [-v] [FILE.sgf]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	modelenv.Apply()
	if flag.NArg() > 1 {
		flag.Usage()
		os.Exit(2)
	}

	a := fyneapp.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	a.Settings().SetTheme(workbench.Theme())
	w := a.NewWindow("Aji")
	wb := workbench.New(w, workbench.Options{})
	var first sync.Once
	wb.Board().OnPainted = func(p goban.PaintStats) {
		first.Do(func() {
			slog.Info("first board painted", "since_start", time.Since(start).Round(time.Millisecond), "paint", p.Took.Round(time.Microsecond))
		})
		slog.Debug("board painted", "width", p.Width, "height", p.Height, "resized", p.Resized, "took", p.Took.Round(time.Microsecond))
	}
	name, data, err := assets.Sample()
	if err == nil {
		err = wb.Start(flag.Arg(0), *move, name, data)
	}
	if err != nil {
		// The window still opens, on an empty board, so the user can pick
		// another file; the message also goes to the terminal for scripts.
		fmt.Fprintln(os.Stderr, "aji-app:", err)
		dialog.ShowError(err, w)
	} else {
		slog.Info("game loaded", "source", flag.Arg(0), "elapsed", time.Since(start).Round(time.Microsecond))
	}
	// The board takes most of a 1280x800 laptop screen, the panel the rest;
	// from the second run on, the size the user left it.
	wb.RestoreSize(fyne.NewSize(1200, 780))
	w.ShowAndRun()
}
