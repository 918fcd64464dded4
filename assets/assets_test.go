package assets

import (
	"bytes"
	"image/png"
	"testing"

	"aji/analysis/game"
)

// TestSamplesReplay checks that every embedded game loads and replays to its
// last move, so the app never opens on a broken sample.
func TestSamplesReplay(t *testing.T) {
	names := Games()
	if len(names) == 0 {
		t.Fatal("no sample games embedded")
	}
	for _, name := range names {
		data, err := Game(name)
		if err != nil {
			t.Fatal(err)
		}
		games, err := game.Parse(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for i, g := range games {
			if _, err := g.PositionAfter(-1); err != nil {
				t.Errorf("%s game %d: %v", name, i+1, err)
			}
		}
	}
	if name, _, err := Sample(); err != nil || name != names[0] {
		t.Errorf("Sample() = %q, %v; want %q", name, err, names[0])
	}
	if _, err := Game("missing.sgf"); err == nil {
		t.Error("Game(missing.sgf) succeeded")
	}
}

func TestIcon(t *testing.T) {
	if _, err := png.Decode(bytes.NewReader(Icon)); err != nil {
		t.Fatalf("icon: %v", err)
	}
}
