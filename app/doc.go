// Aji-app is the Aji desktop workbench: it opens a Go game record, shows its
// board with the move predictors' heat map, and lets the user step through
// it, play variations and save them.
//
// Usage:
//
//	aji-app [-move N] [-v] [FILE.sgf]
//
// With no file it opens the embedded sample game at its first move; a file
// opens at the move the user last viewed in it, or at its end. -move shows
// the position after N moves of the main line instead; -v logs at debug
// level: every repaint of the board and, for every position, the time from
// navigation to its heat map. The window's size, the split and the panel's
// choices are remembered between runs; the first start shows a hint in the
// status bar, and Help ▸ Keyboard shortcuts lists every key.
//
// This package is wiring only: the window's content and behaviour are
// aji/ui/workbench.
package main
