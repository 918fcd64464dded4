// Package match plays Aji against another GTP engine: colours alternating, every move refereed by the
// rules, each game counted by a referee engine and saved as SGF, an interrupted match resumed from its
// files, and the win rate with its Wilson interval. It is `aji match` without the command line.
package match
