// Package live runs the analyses the workbench shows for the position on screen — move predictions,
// their explanations, territory, the cfg predictor's path γ — as engine tasks, and returns them as
// plain values in board coordinates (index y*size+x) so that the window only converts and draws them.
// `aji analyze` calls the same functions synchronously. It imports no UI package.
package live
