package assets

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
)

//go:embed games/*.sgf
var games embed.FS

// Icon is the application icon, a PNG.
//
//go:embed icon.png
var Icon []byte

// Games returns the names of the embedded sample games, sorted.
func Games() []string {
	names, _ := fs.Glob(games, "games/*.sgf") // the pattern is valid
	for i, n := range names {
		names[i] = path.Base(n)
	}
	slices.Sort(names)
	return names
}

// Game returns the SGF text of the named sample game.
func Game(name string) ([]byte, error) {
	data, err := games.ReadFile(path.Join("games", name))
	if err != nil {
		return nil, fmt.Errorf("sample game %q: %w", name, err)
	}
	return data, nil
}

// Sample returns the game the app opens when it is given none: the first
// sample game in name order.
func Sample() (name string, data []byte, err error) {
	names := Games()
	if len(names) == 0 {
		return "", nil, fmt.Errorf("no sample games embedded")
	}
	data, err = Game(names[0])
	return names[0], data, err
}

// WriteGames writes every sample game into dir, under its own name: a folder of real records for tests
// and examples of commands that read one.
func WriteGames(dir string) error {
	for _, name := range Games() {
		data, err := Game(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
