// Aji-app is the Aji desktop workbench: it opens a Go game record, shows its
// board with the move predictors' heat map, and lets the user step through
// it, play variations and save them.
//
// Usage:
//
//	aji-app [-move N] [-v] [FILE.sgf]
//
// With no file it opens the embedded sample game. -move shows the position
// after N moves of the main line instead of the final one; -v logs at debug
// level: every repaint of the board and, for every position, the time from
// navigation to its heat map.
//
// This package is wiring only: the window's content and behaviour are
// aji/ui/workbench.
package main
