package game

import (
	"archive/tar"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// dataDir holds the shared game archives (see its README); the repository is ../../.. from here.
const dataDir = "../../../shared/data"

// illegalRecords are the validation games whose records really hold an illegal move.
var illegalRecords = map[string]string{
	// RE[W+F]: Black retook a ko at move 169 and lost by forfeit.
	"games-validation/KK-KKTw-2017-2.sgf": "move 169: illegal move: B B4: retakes a ko",
}

// eachArchiveFile calls fn with the name and bytes of each .sgf member of a .tar.xz archive in dataDir, at
// most limit of them (all when limit is 0). It skips the test when the data folder is absent.
func eachArchiveFile(t *testing.T, archive string, limit int, fn func(name string, data []byte)) {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, archive))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s not found: the shared game data (%s) is not on this machine", archive, dataDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	xr, err := xz.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", archive, err)
	}
	tr := tar.NewReader(xr)
	for n := 0; limit == 0 || n < limit; {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		if !strings.HasSuffix(h.Name, ".sgf") {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		fn(h.Name, data)
		n++
	}
}

// TestArchiveGames loads real game records, replays their main lines and round-trips them through Save.
func TestArchiveGames(t *testing.T) {
	for _, tc := range []struct {
		archive string
		size    int
	}{{"games-validation.tar.xz", 19}, {"games9-train.tar.xz", 9}} {
		t.Run(tc.archive, func(t *testing.T) {
			limit := 0
			if testing.Short() {
				limit = 200
			}
			files, moves := 0, 0
			eachArchiveFile(t, tc.archive, limit, func(name string, data []byte) {
				files++
				games, err := Parse(data)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				if len(games) != 1 || games[0].Size() != tc.size {
					t.Errorf("%s: %d games of size %d", name, len(games), games[0].Size())
				}
				g := games[0]
				err = g.WalkMainLine(func(*Position, Move) error { moves++; return nil })
				if want, known := illegalRecords[name]; known {
					if !errors.Is(err, ErrIllegalMove) || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: replay = %v, want %q", name, err, want)
					}
				} else if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if d := diffGames(g, roundTrip(t, g)); d != "" {
					t.Errorf("%s: round trip: %s", name, d)
				}
			})
			t.Logf("%d files, %d main-line moves replayed", files, moves)
			if files == 0 {
				t.Errorf("no .sgf files in %s", tc.archive)
			}
		})
	}
}
