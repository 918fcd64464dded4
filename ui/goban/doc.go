// Package goban is the board widget of the Aji desktop app: a wood-tone Go
// board with grid, star points, coordinates, shaded stones and a last-move
// mark, drawn by a custom Fyne widget that keeps the board square and crisp at
// any size. Above the stones it shows analysis overlays — a heat map of move
// probabilities (SetHeat, with HeatColor and a Legend explaining its colour
// scale), labels and marks (SetLabels), move numbers, a hover stone, and
// whole-board Layers for territory, the common fate graph and search — and
// it reports taps, hovering and the mouse wheel through callbacks.
//
// The widget shows a Position, a plain snapshot of what is on the board. It
// never computes anything about the game: rules, records and analysis live in
// aji/analysis and reach the widget as snapshots built by the caller.
package goban
