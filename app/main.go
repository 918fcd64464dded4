package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"aji/assets"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// appID matches FyneApp.toml; Fyne keys preferences and storage on it.
const appID = "dev.aji.workbench"

func main() {
	// Taken first so the start-up figure covers flag parsing, loading the
	// record and creating the window, not just drawing.
	start := time.Now()

	move := flag.Int("move", -1, "show the position after `N` main-line moves (default: the last)")
	verbose := flag.Bool("v", false, "log every repaint")
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
	if flag.NArg() > 1 {
		flag.Usage()
		os.Exit(2)
	}

	rec, err := open(flag.Arg(0), *move)
	if err != nil {
		fmt.Fprintln(os.Stderr, "aji-app:", err)
		os.Exit(1)
	}
	slog.Info("game loaded", "source", rec.source, "move", rec.move, "elapsed", time.Since(start))
	if err := show(rec, start); err != nil {
		fmt.Fprintln(os.Stderr, "aji-app:", err)
		os.Exit(1)
	}
}

// show opens the window and runs the event loop until it is closed.
func show(rec *record, start time.Time) error {
	a := fyneapp.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := a.NewWindow(rec.title())

	board := goban.NewBoard()
	if err := board.SetPosition(rec.position); err != nil {
		return fmt.Errorf("%s: %w", rec.source, err)
	}
	var first sync.Once
	board.OnPainted = func(p goban.PaintStats) {
		first.Do(func() {
			slog.Info("first board painted", "since_start", time.Since(start).Round(time.Millisecond), "paint", p.Took.Round(time.Microsecond))
		})
		slog.Debug("board painted", "width", p.Width, "height", p.Height, "resized", p.Resized, "took", p.Took.Round(time.Microsecond))
	}

	status := widget.NewLabel(rec.status())
	status.Truncation = fyne.TextTruncateEllipsis
	w.SetContent(container.NewBorder(nil, status, nil, nil, board))
	// Fits a 1280x800 laptop screen with room for the desktop's panels.
	w.Resize(fyne.NewSize(760, 800))
	w.ShowAndRun()
	return nil
}
