// Package engine is the analysis goroutine pool: it runs the analyses of the position on screen on a
// bounded set of workers, cancels them when the user moves on, caches results per position under a memory
// bound, and hands results to the UI thread.
package engine
