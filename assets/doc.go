// Package assets holds the resources embedded in Aji's binaries: sample
// games, so the app has something to show with no setup, and the app icon.
package assets
