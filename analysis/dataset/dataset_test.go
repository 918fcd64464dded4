package dataset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"aji/analysis/game"
)

// validationArchive is the shared validation split, or a skip when the
// data folder is not beside the repository.
func validationArchive(tb testing.TB) string {
	tb.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("validation archive not available (%v); it lives in ../shared/data beside the repository", err)
	}
	return p
}

// seen is what fn was handed during a walk: "name:games" per record, or
// "name:error" for a failed one.
func seenOf(rec Record) string {
	if rec.Err != nil {
		return rec.Name + ":error"
	}
	return rec.Name + ":" + strings.Repeat("g", len(rec.Games))
}

func TestWalkFilters(t *testing.T) {
	tests := []struct {
		name   string
		filter Filter
		seen   []string
		stats  Stats
	}{
		{"none", Filter{},
			[]string{"games/a.sgf:g", "games/b.SGF:g", "games/sub/c.sgf:gg", "games/sub/d.sgf:error"},
			Stats{Files: 4, Games: 4, Kept: 4, Errors: 1}},
		{"size 19", Filter{Size: 19},
			[]string{"games/b.SGF:g", "games/sub/c.sgf:g", "games/sub/d.sgf:error"},
			Stats{Files: 4, Games: 4, Kept: 2, Filtered: 2, Errors: 1}},
		{"even games", Filter{MaxHandicap: 1},
			[]string{"games/a.sgf:g", "games/sub/c.sgf:gg", "games/sub/d.sgf:error"},
			Stats{Files: 4, Games: 4, Kept: 3, Filtered: 1, Errors: 1}},
		{"3 moves, pass counted", Filter{MinMoves: 3},
			[]string{"games/a.sgf:g", "games/sub/c.sgf:g", "games/sub/d.sgf:error"},
			Stats{Files: 4, Games: 4, Kept: 2, Filtered: 2, Errors: 1}},
		{"all at once", Filter{Size: 19, MaxHandicap: 1, MinMoves: 5},
			[]string{"games/sub/c.sgf:g", "games/sub/d.sgf:error"},
			Stats{Files: 4, Games: 4, Kept: 1, Filtered: 3, Errors: 1}},
	}
	for layout, p := range collections(t) {
		for _, tt := range tests {
			t.Run(layout+"/"+tt.name, func(t *testing.T) {
				var seen []string
				st, err := Walk(t.Context(), p, tt.filter, func(rec Record) error {
					seen = append(seen, seenOf(rec))
					if rec.Err != nil && !strings.Contains(rec.Err.Error(), rec.Name) {
						t.Errorf("error %q does not name %s", rec.Err, rec.Name)
					}
					for _, g := range rec.Games {
						if !tt.filter.Keep(g) {
							t.Errorf("%s: filtered game handed to fn", rec.Name)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(seen, tt.seen) {
					t.Errorf("records\n got %q\nwant %q", seen, tt.seen)
				}
				if st != tt.stats {
					t.Errorf("stats %+v, want %+v", st, tt.stats)
				}
			})
		}
	}
}

func TestWalkIndexAndData(t *testing.T) {
	p := collections(t)["tar.xz"]
	var idx []int
	_, err := Walk(t.Context(), p, Filter{Size: 19}, func(rec Record) error {
		idx = append(idx, rec.Index)
		if want := wantFiles[rec.Index]; rec.Name != want.name || string(rec.Data) != want.data {
			t.Errorf("record %d: %s %q, want %s %q", rec.Index, rec.Name, rec.Data, want.name, want.data)
		}
		return nil
	})
	// a.sgf (index 0) is 9x9 and filtered; the others keep their index.
	if err != nil || !slices.Equal(idx, []int{1, 2, 3}) {
		t.Errorf("indexes %v, %v; want [1 2 3]", idx, err)
	}
}

func TestWalkStops(t *testing.T) {
	stop := errors.New("stop")
	p := collections(t)["tar.gz"]
	n := 0
	_, err := Walk(t.Context(), p, Filter{}, func(Record) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("fn error: %v after %d records, want stop after 1", err, n)
	}

	ctx, cancel := context.WithCancel(t.Context())
	n = 0
	st, err := Walk(ctx, p, Filter{}, func(Record) error { n++; cancel(); return nil })
	if !errors.Is(err, context.Canceled) || n != 1 || st.Files != 1 {
		t.Errorf("cancel: %v after %d records (%+v), want context.Canceled after 1", err, n, st)
	}
}

func TestWalkCorruptArchive(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(writeArchive(t, dir, "g.tar.xz", testMembers))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "cut.tar.xz")
	if err := os.WriteFile(p, good[:len(good)-30], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Walk(t.Context(), p, Filter{}, func(Record) error { return nil }); !errors.Is(err, ErrArchive) {
		t.Errorf("Walk: %v, want ErrArchive", err)
	}
	if _, err := Parallel(t.Context(), p, Filter{}, 2, func(int, Record) error { return nil }); !errors.Is(err, ErrArchive) {
		t.Errorf("Parallel: %v, want ErrArchive", err)
	}
}

func TestParallelMatchesWalk(t *testing.T) {
	const workers = 3
	for layout, p := range collections(t) {
		t.Run(layout, func(t *testing.T) {
			var want []string
			wantStats, err := Walk(t.Context(), p, Filter{}, func(rec Record) error {
				want = append(want, seenOf(rec))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var (
				mu  sync.Mutex
				got []string
			)
			st, err := Parallel(t.Context(), p, Filter{}, workers, func(w int, rec Record) error {
				if w < 0 || w >= workers {
					t.Errorf("worker %d out of range", w)
				}
				mu.Lock()
				got = append(got, seenOf(rec))
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) || st != wantStats {
				t.Errorf("Parallel gave %q %+v; Walk gave %q %+v", got, st, want, wantStats)
			}
		})
	}
}

func TestParallelStops(t *testing.T) {
	stop := errors.New("stop")
	p := collections(t)["tar.xz"]
	_, err := Parallel(t.Context(), p, Filter{}, 2, func(int, Record) error { return stop })
	if err != stop {
		t.Errorf("fn error: %v, want stop", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = Parallel(ctx, p, Filter{}, 2, func(int, Record) error {
		t.Error("fn called after cancel")
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestValidationArchive reads the whole shared validation split: every game
// must parse and pass the filters its README says the split was built with.
func TestValidationArchive(t *testing.T) {
	p := validationArchive(t)
	n, err := Count(context.Background(), p)
	if err != nil || n != 1940 {
		t.Fatalf("Count = %d, %v; want 1940", n, err)
	}
	f := Filter{Size: 19, MaxHandicap: 1, MinMoves: 50}
	var failed []string
	st, err := Walk(t.Context(), p, f, func(rec Record) error {
		if rec.Err != nil {
			failed = append(failed, rec.Err.Error())
		}
		if !strings.HasPrefix(rec.Name, "games-validation/") {
			t.Errorf("unexpected member name %q", rec.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Files: 1940, Games: 1940, Kept: 1940}
	if st != want {
		t.Errorf("stats %+v, want %+v; parse errors:\n%s", st, want, strings.Join(failed, "\n"))
	}
	pst, err := Parallel(t.Context(), p, f, 2, func(int, Record) error { return nil })
	if err != nil || pst != st {
		t.Errorf("Parallel stats %+v, %v; Walk gave %+v", pst, err, st)
	}
}

// BenchmarkWalkValidation streams and parses the validation archive.
func BenchmarkWalkValidation(b *testing.B) {
	p := validationArchive(b)
	b.SetBytes(2731797) // SGF bytes in the archive
	games := 0
	for b.Loop() {
		st, err := Walk(b.Context(), p, Filter{}, func(Record) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		games += st.Games
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkParallelValidation is BenchmarkWalkValidation with parsing on
// GOMAXPROCS workers.
func BenchmarkParallelValidation(b *testing.B) {
	p := validationArchive(b)
	b.SetBytes(2731797)
	games := 0
	for b.Loop() {
		st, err := Parallel(b.Context(), p, Filter{}, 0, func(int, Record) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		games += st.Games
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkReadValidation only decompresses and splits the archive, the
// floor under the two above.
func BenchmarkReadValidation(b *testing.B) {
	p := validationArchive(b)
	b.SetBytes(2731797)
	for b.Loop() {
		if err := eachFile(b.Context(), p, func(file) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGamesSelectsTheSameGames checks that Games numbers games in stored order and that maxGames picks
// the same games whatever the number of workers; files that fail to load are counted, not handed on.
func TestGamesSelectsTheSameGames(t *testing.T) {
	dir := writeFolder(t, t.TempDir(), testMembers)
	// a.sgf: 1 game, b.SGF: 1, c.sgf: 2, d.sgf: not SGF.
	for _, workers := range []int{1, 3} {
		var mu sync.Mutex
		got := map[int]string{}
		st, err := Games(context.Background(), dir, Filter{}, 3, workers, func(w, i int, name string, g *game.Game) {
			if w < 0 || w >= workers {
				t.Errorf("worker %d of %d", w, workers)
			}
			mu.Lock()
			got[i] = fmt.Sprintf("%s/%d", filepath.Base(name), g.Size())
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]string{0: "a.sgf/9", 1: "b.SGF/19", 2: "c.sgf/19"}
		if !maps.Equal(got, want) {
			t.Errorf("%d workers: got %v, want %v", workers, got, want)
		}
		if st.Errors != 0 {
			t.Errorf("%d workers: %d errors before the fourth file was read", workers, st.Errors)
		}
	}
	// All games: the second game of c.sgf is number 3, and the broken d.sgf is counted.
	var n atomic.Int32
	st, err := Games(context.Background(), dir, Filter{}, 0, 2, func(int, int, string, *game.Game) { n.Add(1) })
	if err != nil || st.Errors != 1 || n.Load() != 4 {
		t.Fatalf("all games: %v, %d errors, %d games (want 4)", err, st.Errors, n.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Games(ctx, dir, Filter{}, 0, 2, func(int, int, string, *game.Game) { t.Error("called after cancel") }); err == nil {
		t.Error("cancelled walk reported success")
	}
}
