// Package workbench is the main view of the Aji desktop app: the board with
// its heat map, the predictor panel, game information, the status bar, and
// the tabs below the panel (tab.go: the move list, the comment, the
// inspector that explains the point under the pointer, why the predictor
// prefers one move to another, territory, search and the common fate graph), together with everything the user does to them —
// navigating, playing variations, opening and saving records.
//
// It shows results and never computes them: positions come from
// aji/analysis/game's Cursor; move probabilities, their explanations,
// territory and path γ from aji/analysis/live's tasks, run by
// aji/analysis/engine on its worker goroutines; the
// Search tab's candidates from aji/analysis/mcts on a goroutine of its own,
// and the board is drawn by aji/ui/goban. It imports no driver, so it is tested
// headless with Fyne's test package; the app's main package only creates the
// window and hands it over.
package workbench
