package models

import "embed"

// defaults holds the default model of each kind as defaults/KIND.ajim.
//
//go:embed defaults
var defaults embed.FS

// Default returns the bytes of the embedded default model of a kind, if there is one.
func Default(kind string) ([]byte, bool) {
	data, err := defaults.ReadFile("defaults/" + kind + ".ajim")
	return data, err == nil
}
