// Package peer consults external GTP engines — GNU Go, Aji's own `aji gtp`, any other — about the
// positions the user studies: an engine's move (genmove, taken back so that its game is unchanged),
// and its GoGui analyze commands, whose answers (gfx, plist, pspairs, dboard, string) are read into
// a plain Gfx for the ui to draw as GoGui does; and, for engines that offer lz-analyze or
// kata-analyze (KataGo, Leela Zero, `aji gtp` with a search), a live stream of candidates and
// ownership. An engine runs as a child process through analysis/gtp; one that crashes, hangs or
// answers garbage is reported down, and comes back on Restart.
package peer
