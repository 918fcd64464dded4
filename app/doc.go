// Aji-app is the Aji desktop workbench: it opens a Go game record and shows
// its board.
//
// Usage:
//
//	aji-app [-move N] [-v] [FILE.sgf]
//
// With no file it opens the embedded sample game. -move shows the position
// after N moves of the main line instead of the final one; -v logs every
// repaint of the board.
//
// This package is wiring only: records come from aji/analysis/game, the board
// is drawn by aji/ui/goban.
package main
