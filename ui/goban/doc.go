// Package goban is the board widget of the Aji desktop app: a wood-tone Go
// board with grid, star points, coordinates, shaded stones and a last-move
// mark, drawn by a custom Fyne widget that keeps the board square and crisp at
// any size.
//
// The widget shows a Position, a plain snapshot of what is on the board. It
// never computes anything about the game: rules, records and analysis live in
// aji/analysis and reach the widget as snapshots built by the caller.
package goban
